#!/usr/bin/env python3
"""Plots of seed 000's lubricated slider-crank run with seed 000's own model (squeeze film over
rigid contact, NSGA: model.yaml), beside the film over a compliant contact (compliant.yaml,
generalized-alpha) and a case from the region where the ball stays off the wall (off_wall.yaml),
each against the ideal mechanism (ideal.yaml): the quantities of seed 000's figs. 3-5.

Usage: /usr/bin/python3 examples/lubricated_spherical_slider_crank_nsga/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml), compliant.csv, off_wall.csv and ideal.csv (written by
scripts/run-example; variants may be missing), writes into RESULTS_DIR and prints their names:
  slider_velocity.png      slider velocity against the crank angle over the last two of the 25
                           revolutions, each case on the ideal curve (seed 000 fig. 3)
  slider_acceleration.png  slider acceleration, the same layout (seed 000 fig. 4)
  ball_orbit.png           ball-centre orbit in the cup (housing frame on the rod) over 0.1-0.3 s
                           with the clearance and film-rupture circles, and ||e||/c over the last
                           two revolutions (seed 000 fig. 5)
then the numbers the README quotes (RMS over revolutions, ranges).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
from plotting_common import CRANK_OMEGA, read_results, results_dir, save, slider_closed_form  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

OMEGA = CRANK_OMEGA                 # 5000 rpm [rad/s]
PERIOD = 2.0 * np.pi / OMEGA        # 12.0 ms
WINDOW = 2 * PERIOD                 # velocity and acceleration plots, RMS numbers
SETTLED = 0.1                       # orbit from here on [s]
E0 = 2.0e-6                         # asperity (film rupture) [m]
# (stem, file, title, colour) and each case's radial clearance c [m]
CASES = [("results", "model.yaml", "film over rigid contact (NSGA), c = 0.5 mm, 0.4 Pa·s",
          "tab:blue"),
         ("compliant", "compliant.yaml", "film over compliant contact (generalized-α)",
          "tab:orange"),
         ("off_wall", "off_wall.yaml", "film over rigid contact (NSGA), c = 0.05 mm, 40 Pa·s",
          "tab:green")]
CLEARANCE = {"results": 0.5e-3, "compliant": 0.5e-3, "off_wall": 0.05e-3}
IDEAL_STYLE = dict(color="black", lw=1.0, ls="--", zorder=3, label="ideal joints (ideal.yaml)")
A_CLIP = 6.0e4                      # acceleration axis limit [m/s²] (ideal: −19.4 to +9.7 km/s²)


def quantity_figure(folder, runs, ideal, channel, ylabel, scale, clip, name, what):
    return pc.slider_quantity_figure(
        folder, runs, ideal, channel, ylabel, scale, clip, name, what, span=WINDOW, omega=OMEGA,
        ideal_style=IDEAL_STYLE, panel_height=3.0, window_note=" (last two revolutions)",
        xlabel="crank angle θ [deg] over the last two of 25 revolutions (θ = 0: crank and rod "
               "aligned, slider outermost)",
        title="Seed 000 slider–crank, lubricated spherical clearance joint rod–slider, 5000 rpm")


def orbit_figure(folder, runs):
    fig = plt.figure(figsize=(5.0 * len(runs), 8.6))
    gs = fig.add_gridspec(2, len(runs), height_ratios=[2.2, 1])
    phi = np.linspace(0, 2 * np.pi, 361)
    for col, (stem, file, title, color, d) in enumerate(runs):
        c = CLEARANCE[stem]
        ax = fig.add_subplot(gs[0, col])
        m = d["time"] >= SETTLED
        x, y = d["rod_slider.journal.x"][m] / c, d["rod_slider.journal.y"][m] / c
        ax.plot(np.cos(phi), np.sin(phi), color="black", lw=1.0,
                label=f"clearance circle, c = {c * 1e3:g} mm")
        r = (c - E0) / c
        ax.plot(r * np.cos(phi), r * np.sin(phi), color="gray", lw=0.8, ls="--",
                label="film rupture, ‖e‖ = c − e0")
        ax.plot(x, y, color=color, lw=0.3, alpha=0.8, label="ball centre")
        ax.plot([0], [0], "k+", ms=12, mew=1.5, label="ideal joint")
        ax.set_xlim(-1.15, 1.15)
        ax.set_ylim(-1.15, 1.15)
        ax.set_aspect("equal")
        ax.grid(alpha=0.3)
        ax.set_xlabel("journal.x / c (housing frame on the rod)")
        ax.set_ylabel("journal.y / c")
        ax.set_title(f"{file}: {title}\nball centre {SETTLED:g}–{d['time'][-1]:g} s", fontsize=8)
        ax.legend(loc="lower left", fontsize=6)
        ax = fig.add_subplot(gs[1, col])
        w = pc.last_window(d, WINDOW)
        ax.axhline(1.0, color="black", lw=0.8)
        ax.axhline(1.0 - E0 / c, color="gray", lw=0.8, ls="--")
        ax.plot(d["time"][w] * 1e3, d["rod_slider.eccentricity_ratio"][w], color=color, lw=0.7)
        ax.set_ylim(0, 1.1)
        ax.set_xlabel("time t [ms] (last two revolutions)")
        ax.set_ylabel("‖e‖ / c")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return save(fig, folder, "ball_orbit.png")


def main():
    folder = results_dir("results.csv, compliant.csv, off_wall.csv and ideal.csv")
    ideal = read_results(folder, "ideal")
    runs = pc.read_cases(folder, CASES)
    written = [
        quantity_figure(folder, runs, ideal, "slider.velocity.x", "slider velocity [m/s]", 1.0,
                        None, "slider_velocity.png", "v"),
        quantity_figure(folder, runs, ideal, "slider.acceleration.x",
                        "slider acceleration [km/s²]", 1e-3, A_CLIP, "slider_acceleration.png",
                        "a"),
        orbit_figure(folder, runs)]
    for name in written:
        print(name)
    late = ideal["time"] >= SETTLED
    rms_ideal = np.sqrt(np.mean(ideal["slider.acceleration.x"][late] ** 2))
    print(f"ideal RMS acceleration over {SETTLED:g}–{ideal['time'][-1]:g} s: {rms_ideal:.0f} m/s²")
    print("| case | RMS(a − a_ideal) [m/s²], last 2 rev. / 0.1–0.3 s | RMS(v − v_ideal), "
          "0.1–0.3 s [m/s] | ‖e‖/c over 0.1–0.3 s (min–max) | share of 0.1–0.3 s at c − e0 | "
          "max penetration beyond c − e0 [m] | peak film force [N] |")
    span = ideal["time"][-1] - SETTLED
    for stem, file, _, _, d in runs:
        m = d["time"] >= SETTLED
        ratio = d["rod_slider.eccentricity_ratio"][m]
        at_wall = d["rod_slider.gap"][m] <= 1e-9
        pen = (d["system.max_penetration"][-1] if "system.max_penetration" in d
               else d["rod_slider.penetration"].max())
        print(f"| {file} | {pc.rms_distance(d, ideal, 'slider.acceleration.x', WINDOW):.0f} / "
              f"{pc.rms_distance(d, ideal, 'slider.acceleration.x', span):.0f} | "
              f"{pc.rms_distance(d, ideal, 'slider.velocity.x', span):.3f} | "
              f"{ratio.min():.3f}–{ratio.max():.3f} | {at_wall.mean():.1%} | {pen:.1e} | "
              f"{d['rod_slider.film_force'].max():.0f} |")


if __name__ == "__main__":
    main()
