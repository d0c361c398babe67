#!/usr/bin/env python3
"""Plots of seed 002's spatial slider-crank with a 3D revolute clearance joint at the crank pivot.

Usage: /usr/bin/python3 examples/spatial_slider_crank_revolute_clearance/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml: clearance joint, NSGA) and RESULTS_DIR/ideal.csv
(ideal.yaml: the same mechanism with an ideal revolute), both written by scripts/run-example;
writes the PNGs below into RESULTS_DIR and prints their names, then the numbers quoted in the
README:
  slider_motion.png  slider displacement and velocity along the guide (Y), clearance against
                     ideal, and the crank angular velocity
  pin_orbits.png     orbits of the two pin-end sphere centres (crank_pivot.journal1/2) in the
                     bearing, world X-Z (bearing frame: x = X, y = -Z), with the clearance circle
  contact_energy.png gaps, contact states and total energy (clearance against ideal)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import orbit_by_state, read_results, results_dir, save  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

C = 0.5e-3                       # radial clearance [m] (reference.md §6c)


def crossings(t, y, level):
    """Times where y crosses `level` upwards (linear interpolation)."""
    k = np.nonzero((y[:-1] < level) & (y[1:] >= level))[0]
    return t[k] + (level - y[k]) * (t[k + 1] - t[k]) / (y[k + 1] - y[k])


def main():
    folder = results_dir("results.csv and ideal.csv")
    d = read_results(folder)
    ideal = read_results(folder, "ideal", missing_ok=True)
    t = d["time"]
    written = []

    # 1. Slider motion.
    fig, axs = plt.subplots(3, 1, figsize=(11, 10), sharex=True)
    rows = [("slider.position.y", 1e3, "slider position y [mm]", "Slider displacement along the guide (Y)"),
            ("slider.velocity.y", 1.0, "slider velocity ẏ [m/s]", "Slider velocity"),
            ("crank.angular_velocity.y", 1.0, "crank ω_y [rad/s]", "Crank angular velocity")]
    for ax, (ch, scale, ylabel, title) in zip(axs, rows):
        if ideal is not None:
            ax.plot(ideal["time"], ideal[ch] * scale, color="black", lw=1.2,
                    label="ideal revolute (ideal.yaml)")
        ax.plot(t, d[ch] * scale, color="tab:blue", lw=1.2,
                label="revolute clearance joint, NSGA (model.yaml)")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    axs[0].axhline(140.0, color="gray", ls=":", lw=0.8)
    axs[0].axhline(284.96, color="gray", ls=":", lw=0.8)
    axs[0].text(0.005, 143, "crank up (140.00 mm)", fontsize=7, color="gray")
    axs[0].text(0.005, 277, "crank down (284.96 mm)", fontsize=7, color="gray")
    axs[2].set_xlabel("time t [s]")
    fig.suptitle("Seed 002 spatial slider–crank under gravity: revolute clearance joint at the\n"
                 "crank pivot (c = 0.5 mm, L = 20 mm, e = 0.9, NSGA h = 10⁻⁵ s) against the ideal joint")
    fig.tight_layout()
    written.append(save(fig, folder, "slider_motion.png"))

    # 2. Pin-end orbits, world X-Z (bearing frame x = X, y = -Z).
    fig, axs = plt.subplots(1, 2, figsize=(12, 6.2))
    for ax, end, where in zip(axs, ("journal1", "journal2"), ("+10 mm", "−10 mm")):
        X = d[f"crank_pivot.{end}.x"] * 1e3
        Z = -d[f"crank_pivot.{end}.y"] * 1e3
        orbit_by_state(ax, X, Z, d[f"crank_pivot.contact_state{end[-1]}"], C,
                       count_label=f"of {len(t)} rows")
        ax.set_xlabel("world X = journal.x [mm]")
        ax.set_ylabel("world Z = −journal.y [mm]")
        ax.set_title(f"Pin end {end[-1]} (crank_pivot.{end}, at y = {where}), 0–{t[-1]:.0f} s",
                     fontsize=10)
        ax.legend(fontsize=7, loc="upper right")
        ax.grid(alpha=0.3)
    fig.suptitle("End-sphere centres of the pin relative to the bearing axis (gravity along −Z); "
                 "rows every 1 ms")
    fig.tight_layout()
    written.append(save(fig, folder, "pin_orbits.png"))

    # 3. Gaps, contact states, energy.
    fig, axs = plt.subplots(3, 1, figsize=(11, 9.5), sharex=True)
    ax = axs[0]
    for k, color in ((1, "tab:blue"), (2, "tab:orange")):
        ax.plot(t, d[f"crank_pivot.gap{k}"] * 1e3, color=color, lw=0.8, label=f"gap{k}")
    ax.set_ylabel("gap [mm]")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Gaps g_α = c − ‖t_α‖ of the two pin ends (0: on the bearing wall)", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3)
    ax = axs[1]
    ax.plot(t, d["system.contact_onsets"], color="tab:blue", label="system.contact_onsets")
    ax.plot(t, d["system.impact_steps"], color="tab:red", label="system.impact_steps")
    ax.set_ylabel("count so far")
    ax.set_title("Contact onsets (open → closed, both gaps) and impact steps", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    ax = axs[2]
    if ideal is not None:
        ax.plot(ideal["time"], ideal["system.total_energy"], color="black", lw=1.2,
                label="ideal joint: total energy")
    ax.plot(t, d["system.total_energy"], color="tab:blue", lw=1.2,
            label="clearance joint: total energy")
    e0 = d["system.total_energy"][0]
    ke0 = d["system.kinetic_energy"][0]
    ax.axhline(e0 - ke0, color="gray", ls=":", lw=1.0,
               label=f"potential energy crank-up = {e0 - ke0:.4f} J: below it the crank "
                     "cannot pass the top")
    ax.set_ylabel("energy [J]")
    ax.set_xlabel("time t [s]")
    ax.set_title("Total energy: impacts (e = 0.9) and the NSGA discretization change it (a "
                 "passive mechanism should only lose energy)", fontsize=10)
    ax.legend(fontsize=8, loc="lower left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    written.append(save(fig, folder, "contact_energy.png"))

    for name in written:
        print(name)

    # Numbers for the README.
    y = d["slider.position.y"]
    print(f"clearance: onsets {d['system.contact_onsets'][-1]:.0f}, impact steps "
          f"{d['system.impact_steps'][-1]:.0f}, max penetration {d['system.max_penetration'][-1]:.2e} m, "
          f"min gaps {d['crank_pivot.gap1'].min():.2e} / {d['crank_pivot.gap2'].min():.2e} m, "
          f"max |axial| {np.abs(d['crank_pivot.axial']).max():.1e} m, "
          f"max constraint violation {d['system.constraint_violation'].max():.1e}")
    dE = np.diff(d["system.total_energy"])
    k = int(np.argmax(dE))
    print(f"clearance: E(0) = {e0:.5f} J, E(end) = {d['system.total_energy'][-1]:.5f} J; "
          f"slider y range after 0.5 s {y[t > 0.5].min() * 1e3:.2f}–{y[t > 0.5].max() * 1e3:.2f} mm, "
          f"max {y.max() * 1e3:.2f} mm; largest energy rise between rows {dE[k]:+.4f} J "
          f"(t = {t[k]:.3f}–{t[k + 1]:.3f} s), rises over 1 mJ in {np.count_nonzero(dE > 1e-3)} "
          f"rows, {dE[dE > 0].sum():.3f} J in all")
    if ideal is not None:
        yi = ideal["slider.position.y"]
        up_c = crossings(t, y, 0.2125)
        up_i = crossings(ideal["time"], yi, 0.2125)
        print(f"ideal: E(0) = {ideal['system.total_energy'][0]:.5f} J, E(end) = "
              f"{ideal['system.total_energy'][-1]:.5f} J; slider y range "
              f"{yi.min() * 1e3:.2f}–{yi.max() * 1e3:.2f} mm")
        print(f"upward crossings of y = 212.5 mm: ideal {np.round(up_i, 3)}, clearance "
              f"{np.round(up_c, 3)}")


if __name__ == "__main__":
    main()
