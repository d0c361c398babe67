#!/usr/bin/env python3
"""Plots of the Flores et al. (2006) slider-crank with a dry planar revolute clearance joint (NSGA).

Usage: /usr/bin/python3 examples/flores_slider_crank_nsga/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (written by `clearsim run`), writes the PNGs below into
RESULTS_DIR and prints their names, then the numbers quoted in the README:
  slider_velocity.png  slider velocity against the ideal mechanism (closed form, reference.md
                       §8.1) over the first and last three revolutions, and the deviation over
                       the whole run
  journal_orbit.png    journal-centre orbit in the bearing (rod_slider.journal1.x/y, bearing frame
                       on the rod) with the clearance circle, and the contact state and force
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import CRANK_OMEGA, orbit_by_state, read_results, results_dir, save, slider_closed_form  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

OMEGA = CRANK_OMEGA                 # 5000 rpm [rad/s]; crank 0.05 m, rod 0.12 m (reference.md §6a)
PERIOD = 2.0 * np.pi / OMEGA        # 12.0 ms
C = 0.5e-3                          # radial clearance [m]
REF_STYLE = dict(lw=1.2, color="black", zorder=3, label="ideal joints (closed form, §8.1)")


def main():
    folder = results_dir()
    d = read_results(folder)
    t, v = d["time"], d["slider.velocity.x"]
    _, v_ref, _ = slider_closed_form(OMEGA * t)
    st = d["rod_slider.contact_state"]
    written = []

    # 1. Slider velocity.
    fig = plt.figure(figsize=(13, 9))
    gs = fig.add_gridspec(2, 2)
    tt = np.linspace(0.0, t[-1], 40001)
    _, vr, _ = slider_closed_form(OMEGA * tt)
    for col, (t0, t1, what) in enumerate([(0.0, 3 * PERIOD, "first three revolutions"),
                                           (t[-1] - 3 * PERIOD, t[-1], "last three revolutions")]):
        ax = fig.add_subplot(gs[0, col])
        m, mr = (t >= t0) & (t <= t1), (tt >= t0) & (tt <= t1)
        ax.plot(tt[mr] * 1e3, vr[mr], **REF_STYLE)
        ax.plot(t[m] * 1e3, v[m], color="tab:blue", lw=0.9, label="clearance joint (NSGA)")
        imp = m & (st == 2)
        ax.plot(t[imp] * 1e3, v[imp], "x", color="tab:red", ms=4, label="impact steps")
        ax.set_xlabel("time t [ms]")
        ax.set_ylabel("slider velocity ẋ [m/s]")
        ax.set_title(f"Slider velocity, {what}", fontsize=10)
        ax.legend(fontsize=8, loc="lower left")
        ax.grid(alpha=0.3)
    ax = fig.add_subplot(gs[1, :])
    ax.plot(t * 1e3, v - v_ref, color="tab:blue", lw=0.6, label="ẋ − ẋ_ideal")
    ax.set_xlabel("time t [ms]")
    ax.set_ylabel("ẋ − ẋ_ideal [m/s]")
    ax.set_title("Velocity deviation from the ideal mechanism")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.suptitle("Flores et al. (2006) slider–crank, dry revolute clearance rod–slider: c = 0.5 mm, "
                 "e_N = 0.9, frictionless, NSGA h = 10⁻⁵ s, 5000 rpm")
    fig.tight_layout()
    written.append(save(fig, folder, "slider_velocity.png"))

    # 2. Journal orbit, contact state and force.
    fig = plt.figure(figsize=(14, 7))
    gs = fig.add_gridspec(2, 2, width_ratios=[1, 1.5])
    ax = fig.add_subplot(gs[:, 0])
    jx, jy = d["rod_slider.journal1.x"] * 1e3, d["rod_slider.journal1.y"] * 1e3
    orbit_by_state(ax, jx, jy, st, C, count_label="steps", ms=2, alpha=0.8)
    ax.set_xlabel("journal1.x: bearing frame on the rod (x along the rod at θ = 0) [mm]")
    ax.set_ylabel("journal1.y [mm]")
    ax.set_title(f"Journal centre in the bearing, 0–{t[-1]:.2f} s", fontsize=10)
    ax.legend(loc="lower left", fontsize=7)
    ax.grid(alpha=0.3)
    ax = fig.add_subplot(gs[0, 1])
    ax.step(t * 1e3, st, where="post", color="tab:blue", lw=0.6)
    ax.set_yticks([0, 1, 2])
    ax.set_yticklabels(["free flight", "contact", "impact"])
    ax.set_xlabel("time t [ms]")
    ax.set_title("rod_slider.contact_state", fontsize=10)
    ax.grid(alpha=0.3)
    ax = fig.add_subplot(gs[1, 1])
    ax.semilogy(t * 1e3, np.maximum(d["rod_slider.contact_force"], 1.0), color="tab:blue", lw=0.5)
    ax.set_ylim(1, 3e5)
    ax.set_xlabel("time t [ms]")
    ax.set_ylabel("λ_N + Λ_N/h [N] (0 drawn at 1)")
    ax.set_title("rod_slider.contact_force (ideal joint: 434–2719 N, §6a)", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    written.append(save(fig, folder, "journal_orbit.png"))

    for name in written:
        print(name)
    free = np.nonzero(st == 0)[0]
    s1, t1 = st[1:], t[1:]
    runs, k = [], 0                      # free flights: (number of steps, last step's time)
    while k < len(s1):
        j = k
        while j < len(s1) and s1[j] == s1[k]:
            j += 1
        if s1[k] == 0:
            runs.append((j - k, t1[j - 1]))
        k = j
    dt = t[1] - t[0]
    long_flights = [end for n, end in runs if n * dt > 1e-4 + 1e-12]
    onset_rows = np.nonzero((st[:-1] == 0) & (st[1:] > 0))[0] + 1
    later = t > 0.06
    print(f"contact onsets {d['system.contact_onsets'][-1]:.0f} (last at t = {t[onset_rows[-1]]:.4f} s), "
          f"impact steps {d['system.impact_steps'][-1]:.0f}, max penetration "
          f"{d['system.max_penetration'][-1]:.2e} m, min gap {d['rod_slider.gap1'].min():.2e} m; "
          f"last free-flight step t = {t[free[-1]]:.4f} s; max |journal1.z| "
          f"{np.abs(d['rod_slider.journal1.z']).max():.1e} m")
    print(f"free flights {len(runs)}, {sum(n == 1 for n, _ in runs)} of one step, "
          f"{len(long_flights)} longer than 0.1 ms (the last ends at t = "
          f"{long_flights[-1] if long_flights else float('nan'):.4f} s); free-flight share "
          f"{np.mean(s1 == 0):.1%}")
    print(f"velocity deviation: max {np.abs(v - v_ref).max():.2f} m/s; after 0.06 s max "
          f"{np.abs(v - v_ref)[later].max():.2f} m/s, RMS "
          f"{np.sqrt(np.mean((v - v_ref)[later] ** 2) / np.mean(v_ref[later] ** 2)):.2%} of the "
          f"ideal RMS; contact force max {d['rod_slider.contact_force'].max():.0f} N, after 0.06 s "
          f"{d['rod_slider.contact_force'][later].min():.0f}–{d['rod_slider.contact_force'][later].max():.0f} N")
    cf, imp = d["rod_slider.contact_force"], d["rod_slider.impulse"]
    c = later & (st == 1)
    print(f"after 0.06 s, contact state: force median {np.median(cf[c]):.0f} N, 99th percentile "
          f"{np.percentile(cf[c], 99):.0f} N; contact steps (whole run) {np.count_nonzero(st == 1)}, "
          f"with an impulse > 1e-6 N·s {np.count_nonzero((st == 1) & (imp > 1e-6))}, < -1e-6 N·s "
          f"{np.count_nonzero((st == 1) & (imp < -1e-6))} (impulses {imp[st == 1].min():.1e} to "
          f"{imp[st == 1].max():.1e} N·s)")


if __name__ == "__main__":
    main()
