#!/usr/bin/env python3
"""Plots of seed 000's slider-crank with a dry spherical clearance joint (NSGA).

Usage: /usr/bin/python3 examples/spherical_clearance_slider_crank/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml, h = 1e-5 s, 0.3 s) and, if present,
RESULTS_DIR/fine_step.csv (fine_step.yaml, h = 1e-6 s, 0.15 s), both written by
scripts/run-example; writes the PNGs below into RESULTS_DIR and prints their names, then the
numbers quoted in the README:
  slider_velocity_acceleration.png  slider velocity and acceleration against the ideal mechanism
                                    (closed form, reference.md §8.1), first and last three
                                    revolutions, and the velocity deviation over the whole run
  journal_orbit.png                 ball-centre orbit in the housing (rod_slider.journal.x/y,
                                    housing frame on the rod) with the clearance circle
  phase_plot.png                    slider velocity-acceleration map over 0.1-0.3 s
  contact.png                       contact force against the ideal joint force, contact state
                                    and eccentricity ratio

The slider acceleration is (v_{n+1} - v_n)/(t_{n+1} - t_n) from the velocity rows, the mean over
each step, contact impulses included. The channel slider.acceleration.x (v̇ + W/h) equals it in free
flight and at impulses, but not in a persistent contact: there v̇ is the generalized-α acceleration
of the end of the step (the smooth contact force λ_N over the mass), not the step's mean.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import CRANK_OMEGA, CRANK_R, ROD_L, orbit_by_state, read_results, results_dir, save, slider_closed_form  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Mechanism data (model.yaml; reference.md §6a/§6b).
R, L = CRANK_R, ROD_L               # crank and rod lengths [m]: 0.05, 0.12
M_CRANK, J_CRANK = 0.30, 1.0e-5
M_ROD, J_ROD = 0.21, 2.5e-4
M_SLIDER = 0.14
OMEGA = CRANK_OMEGA                 # 5000 rpm [rad/s]
PERIOD = 2.0 * np.pi / OMEGA        # 12.0 ms
C = 0.5e-3                          # radial clearance [m]
REF_STYLE = dict(lw=1.2, color="black", zorder=3, label="ideal joint (closed form, §8.1)")


def ideal_joint_force(theta):
    """Magnitude of the ideal rod-slider joint force [N] (as examples/slider_crank_ideal)."""
    n = 36000
    g = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    h = g[1] - g[0]

    def d_dt(f):
        return OMEGA * (np.roll(f, -1) - np.roll(f, 1)) / (2.0 * h)

    ax_, ay_ = R * np.cos(g), R * np.sin(g)
    bx_, _, abx = slider_closed_form(g)
    phi = np.arcsin(-R * np.sin(g) / L)
    gx, gy = 0.5 * (ax_ + bx_), 0.5 * ay_
    agx, agy = d_dt(d_dt(gx)), d_dt(d_dt(gy))
    phidd = d_dt(d_dt(phi))
    fx = M_SLIDER * abx
    moment_g = M_ROD * ((gx - ax_) * agy - (gy - ay_) * agx)
    fy = (-ay_ * fx - J_ROD * phidd - moment_g) / (bx_ - ax_)
    f = np.hypot(fx, fy)
    th = np.mod(theta, 2.0 * np.pi)
    return np.interp(th, np.append(g, 2 * np.pi), np.append(f, f[0]))


def accel(d):
    """Mid-interval times and (v_{k+1} − v_k)/Δt of the slider velocity rows."""
    t, v = d["time"], d["slider.velocity.x"]
    return 0.5 * (t[1:] + t[:-1]), np.diff(v) / np.diff(t)


def orbit(ax, d, mask, title):
    jx, jy = d["rod_slider.journal.x"] * 1e3, d["rod_slider.journal.y"] * 1e3
    orbit_by_state(ax, jx[mask], jy[mask], d["rod_slider.contact_state"][mask], C, lw=0.5,
                   alpha=0.8)
    ax.set_xlabel("journal.x: along the rod, housing frame [mm]")
    ax.set_ylabel("journal.y [mm]")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower left", fontsize=7)
    ax.grid(alpha=0.3)


def main():
    folder = results_dir()
    d = read_results(folder)
    fine = read_results(folder, "fine_step", missing_ok=True)
    t, v = d["time"], d["slider.velocity.x"]
    _, v_ref, _ = slider_closed_form(OMEGA * t)
    ta, a = accel(d)
    _, _, a_ref_mid = slider_closed_form(OMEGA * ta)
    written = []
    tt = np.linspace(0.0, t[-1], 60001)
    _, vr_fine, ar_fine = slider_closed_form(OMEGA * tt)

    # 1. Slider velocity and acceleration against the ideal mechanism.
    fig = plt.figure(figsize=(13, 11))
    gs = fig.add_gridspec(3, 2)
    windows = [(0.0, 3 * PERIOD, "first three revolutions (0–36 ms): impacts"),
               (t[-1] - 3 * PERIOD, t[-1], "last three revolutions (264–300 ms)")]
    alim = 3.0e4
    for col, (t0, t1, what) in enumerate(windows):
        m = (t >= t0) & (t <= t1)
        mr = (tt >= t0) & (tt <= t1)
        ax = fig.add_subplot(gs[0, col])
        ax.plot(tt[mr] * 1e3, vr_fine[mr], **REF_STYLE)
        if fine is not None and t1 <= fine["time"][-1] + 1e-12:
            mf = (fine["time"] >= t0) & (fine["time"] <= t1)
            ax.plot(fine["time"][mf] * 1e3, fine["slider.velocity.x"][mf], color="tab:orange",
                    lw=0.8, label="clearance, h = 10⁻⁶ s (fine_step.yaml)")
        ax.plot(t[m] * 1e3, v[m], color="tab:blue", lw=0.9, label="clearance, h = 10⁻⁵ s")
        ax.set_ylabel("slider velocity ẋ [m/s]")
        ax.set_title(f"Velocity, {what}", fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
        ax.grid(alpha=0.3)
        ax = fig.add_subplot(gs[1, col])
        ma = (ta >= t0) & (ta <= t1)
        ax.plot(tt[mr] * 1e3, ar_fine[mr] * 1e-3, **REF_STYLE)
        ax.plot(ta[ma] * 1e3, a[ma] * 1e-3, color="tab:blue", lw=0.7,
                label="clearance, h = 10⁻⁵ s: Δv/Δt")
        ax.set_ylim(-alim * 1e-3, alim * 1e-3)
        ax.set_ylabel("slider acceleration ẍ [km/s²]")
        ax.set_xlabel("time t [ms]")
        ax.set_title(f"Acceleration (clipped at ±30 km/s²; extremes here "
                     f"{a[ma].min() * 1e-3:.0f} / {a[ma].max() * 1e-3:.0f} km/s²)", fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
        ax.grid(alpha=0.3)
    ax = fig.add_subplot(gs[2, :])
    ax.plot(t * 1e3, v - v_ref, color="tab:blue", lw=0.6, label="h = 10⁻⁵ s (model.yaml)")
    if fine is not None:
        _, vf_ref, _ = slider_closed_form(OMEGA * fine["time"])
        ax.plot(fine["time"] * 1e3, fine["slider.velocity.x"] - vf_ref, color="tab:orange",
                lw=0.6, alpha=0.8, label="h = 10⁻⁶ s (fine_step.yaml)")
    ax.set_xlabel("time t [ms]")
    ax.set_ylabel("ẋ − ẋ_ideal [m/s]")
    ax.set_title("Slider velocity minus the ideal (closed-form) velocity over the whole run")
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3)
    fig.suptitle("Seed 000 slider–crank, dry spherical clearance joint rod–slider: c = 0.5 mm, "
                 "e_N = 0.9, NSGA ρ∞ = 0.8, 5000 rpm")
    fig.tight_layout()
    written.append(save(fig, folder, "slider_velocity_acceleration.png"))

    # 2. Ball-centre orbit in the housing.
    panels = [(d, (t <= 0.1), "h = 10⁻⁵ s, 0–0.1 s"), (d, (t > 0.1), "h = 10⁻⁵ s, 0.1–0.3 s")]
    if fine is not None:
        panels.append((fine, fine["time"] <= 0.1, "h = 10⁻⁶ s (fine_step.yaml), 0–0.1 s"))
    fig, axs = plt.subplots(1, len(panels), figsize=(5.6 * len(panels), 5.8))
    for ax, (dd, mask, title) in zip(np.atleast_1d(axs), panels):
        orbit(ax, dd, mask, "Ball centre in the housing, " + title)
    fig.suptitle("rod_slider.journal.x/y: ball centre relative to the housing centre, housing "
                 "frame (on the rod: x along the rod at θ = 0)")
    fig.tight_layout()
    written.append(save(fig, folder, "journal_orbit.png"))

    # 3. Velocity-acceleration phase plot, 0.1-0.3 s.
    fig, axs = plt.subplots(1, 2 if fine is not None else 1, figsize=(13, 6), squeeze=False)
    th = np.linspace(0, 2 * np.pi, 2000)
    _, vl, al = slider_closed_form(th)
    m = ta > 0.1
    vm = 0.5 * (v[1:] + v[:-1])
    ax = axs[0, 0]
    ax.plot(vm[m], a[m] * 1e-3, ".", ms=1.0, color="tab:blue", label="clearance, h = 10⁻⁵ s")
    ax.plot(vl, al * 1e-3, **REF_STYLE)
    ax.set_title("0.1–0.3 s (16.7 revolutions), h = 10⁻⁵ s", fontsize=10)
    if fine is not None:
        tf, af = accel(fine)
        vf = 0.5 * (fine["slider.velocity.x"][1:] + fine["slider.velocity.x"][:-1])
        mf = tf > 0.1
        ax2 = axs[0, 1]
        ax2.plot(vf[mf], af[mf] * 1e-3, ".", ms=1.0, color="tab:orange",
                 label="clearance, h = 10⁻⁶ s (Δv/Δt over 10⁻⁵ s)")
        ax2.plot(vl, al * 1e-3, **REF_STYLE)
        ax2.set_title("0.1–0.15 s (4.2 revolutions), h = 10⁻⁶ s (fine_step.yaml)", fontsize=10)
    for ax in axs[0]:
        ax.set_ylim(-alim * 1e-3, alim * 1e-3)
        ax.set_xlabel("slider velocity ẋ [m/s]")
        ax.set_ylabel("slider acceleration ẍ [km/s²] (clipped at ±30)")
        ax.legend(fontsize=8, loc="upper right", markerscale=6)
        ax.grid(alpha=0.3)
    fig.suptitle("Slider velocity–acceleration map (seed 000's output); ideal: one closed loop")
    fig.tight_layout()
    written.append(save(fig, folder, "phase_plot.png"))

    # 4. Contact force, state and eccentricity.
    fig, axs = plt.subplots(3, 1, figsize=(12, 10))
    ax = axs[0]
    f_ideal = ideal_joint_force(OMEGA * tt)
    cf = d["rod_slider.contact_force"]
    ax.semilogy(t * 1e3, np.maximum(cf, 1.0), color="tab:blue", lw=0.6,
                label="rod_slider.contact_force = λ_N + Λ_N/h, h = 10⁻⁵ s")
    ax.semilogy(tt * 1e3, f_ideal, color="black", lw=0.8, label="ideal joint force |F| (closed form)")
    ax.set_ylim(1.0, 3e5)
    ax.set_ylabel("force [N] (0 drawn at 1)")
    ax.set_xlabel("time t [ms]")
    ax.set_title("Contact force: impact spikes (Λ_N/h) and contact carrying the joint load (λ_N, or Λ_N/h "
                 "at closings)", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3, which="both")
    ax = axs[1]
    win = t <= 0.1
    ax.step(t[win] * 1e3, d["rod_slider.contact_state"][win], where="post", color="tab:blue",
            lw=0.7, label="h = 10⁻⁵ s")
    if fine is not None:
        wf = fine["time"] <= 0.1
        ax.step(fine["time"][wf] * 1e3, fine["rod_slider.contact_state"][wf] + 0.08,
                where="post", color="tab:orange", lw=0.5, alpha=0.8,
                label="h = 10⁻⁶ s (shifted up by 0.08)")
    ax.set_yticks([0, 1, 2])
    ax.set_yticklabels(["0 free flight", "1 contact", "2 impact"])
    ax.set_xlabel("time t [ms]")
    ax.set_title("rod_slider.contact_state, 0–0.1 s")
    ax.legend(fontsize=8, loc="center right")
    ax.grid(alpha=0.3)
    ax = axs[2]
    ax.plot(t * 1e3, d["rod_slider.eccentricity_ratio"], color="tab:blue", lw=0.6,
            label="h = 10⁻⁵ s")
    if fine is not None:
        ax.plot(fine["time"] * 1e3, fine["rod_slider.eccentricity_ratio"], color="tab:orange",
                lw=0.5, alpha=0.8, label="h = 10⁻⁶ s")
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("time t [ms]")
    ax.set_ylabel("‖t‖ / c")
    ax.set_title("Eccentricity ratio (1 = ball on the housing wall)")
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    written.append(save(fig, folder, "contact.png"))

    for name in written:
        print(name)

    # Numbers for the README.
    def summary(dd, label):
        tt_, st = dd["time"], dd["rod_slider.contact_state"]
        _, vr, _ = slider_closed_form(OMEGA * tt_)
        dv = dd["slider.velocity.x"] - vr
        later = tt_ > 0.1
        free = np.nonzero(st == 0)[0]
        s1 = st[1:]
        flights = np.count_nonzero((s1[1:] == 0) & (s1[:-1] > 0))
        one_row = np.count_nonzero((s1[1:-1] == 0) & (s1[:-2] > 0) & (s1[2:] > 0))
        print(f"{label}: onsets {dd['system.contact_onsets'][-1]:.0f}, impact steps "
              f"{dd['system.impact_steps'][-1]:.0f}, max penetration "
              f"{dd['system.max_penetration'][-1]:.2e} m, min gap {dd['rod_slider.gap'].min():.2e} m, "
              f"max |journal.z| {np.abs(dd['rod_slider.journal.z']).max():.1e} m; "
              f"last free-flight row t = {tt_[free[-1]] if len(free) else float('nan'):.4f} s; "
              f"free-flight share after 0.1 s {np.mean(st[later] == 0):.1%}; velocity deviation "
              f"after 0.1 s: max {np.abs(dv[later]).max():.2f} m/s, RMS "
              f"{np.sqrt(np.mean(dv[later] ** 2) / np.mean(vr[later] ** 2)):.2%} of the ideal RMS; "
              f"max deviation {np.abs(dv).max():.2f} m/s; {flights} flights after contact, "
              f"{one_row} of them one output row long")

    summary(d, "h = 1e-5 s (model.yaml)")
    if fine is not None:
        summary(fine, "h = 1e-6 s (fine_step.yaml)")
    m = ta > 0.1
    print(f"h = 1e-5 s: acceleration Δv/Δt extremes {a.min():.0f} / {a.max():.0f} m/s² (ideal "
          f"−19 419 / +9 696); after 0.1 s {a[m].min():.0f} / {a[m].max():.0f} m/s²; contact force "
          f"max {cf.max():.0f} N, after 0.1 s {cf[t > 0.1].min():.0f}–{cf[t > 0.1].max():.0f} N "
          f"(ideal joint force 434–2719 N)")
    st = d["rod_slider.contact_state"]
    c = (t > 0.1) & (st == 1)
    c3 = c[1:-1] & c[:-2] & c[2:]
    mean3 = (cf[:-2] + cf[1:-1] + cf[2:]) / 3.0
    imp = st == 2
    print(f"h = 1e-5 s, contact force after 0.1 s in the contact state: median {np.median(cf[c]):.0f} N, "
          f"99th percentile {np.percentile(cf[c], 99):.0f} N, max {cf[c].max():.0f} N; mean over 3 "
          f"steps: median {np.median(mean3[c3]):.0f} N, 99th percentile {np.percentile(mean3[c3], 99):.0f} N; "
          f"contact rows with an impulse > 1e-6 N·s {np.count_nonzero(d['rod_slider.impulse'][c] > 1e-6)}, "
          f"< -1e-6 N·s {np.count_nonzero(d['rod_slider.impulse'][c] < -1e-6)} of {np.count_nonzero(c)} "
          f"(impulses {d['rod_slider.impulse'][c].min():.1e} to {d['rod_slider.impulse'][c].max():.1e} N·s); impact steps: "
          f"median {np.median(cf[imp]):.0f} N, max {cf[imp].max():.0f} N")


if __name__ == "__main__":
    main()
