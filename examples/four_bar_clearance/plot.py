#!/usr/bin/env python3
"""Plots of seed 003's four-bar with compliant and lubricated revolute clearance joints
(examples/four_bar_clearance), each case against the ideal four-bar.

Usage: /usr/bin/python3 examples/four_bar_clearance/plot.py RESULTS_DIR
Reads RESULTS_DIR/ideal.csv, joint1.csv, joint2.csv, lubricated_joint1.csv,
lubricated_joint2.csv (seed 003 figs. 5-6, 8-9: one joint at a time, dry and lubricated),
results.csv (model.yaml: both joints), lubricated.csv and lubricated_wedge.csv (written by scripts/run-example; a missing case is
skipped), writes the PNGs below into RESULTS_DIR and prints their names, then the table of
numbers quoted in the README:
  rocker_acceleration.png  rocker angular acceleration over the last two revolutions (steady
                           state), one panel per case, each on the ideal curve (seed 003 figs.
                           5-10, rocker half)
  crank_torque.png         crank driving torque (the driver's moment), the same layout (seed 003
                           figs. 5-10, torque half)
  journal_orbits.png       journal-centre orbits (journal1.x/y over c, bearing frame) of every
                           clearance joint with the clearance circle, over the same two
                           revolutions; the ideal joint is the centre point
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
from plotting_common import read_results, results_dir, save  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

C = 0.05e-3          # radial clearance [m] (seed 003: bush 10.00 mm, pin 9.95 mm)
E0 = 2.0e-6          # asperity / film breakdown thickness of the lubricated cases [m]
PERIOD = 0.1         # crank at 20π rad/s
WINDOW = 2 * PERIOD  # the plots and the numbers: the last two revolutions
JOINTS = {"crank_coupler": "joint 1 (crank–coupler, A)",
          "coupler_rocker": "joint 2 (coupler–rocker, B)"}
# (stem, title, colour); the first is the ideal reference.
CASES = [("joint1", "dry clearance in joint 1 only (joint1.yaml)", "tab:blue"),
         ("joint2", "dry clearance in joint 2 only (joint2.yaml)", "tab:green"),
         ("lubricated_joint1", "joint 1 only, lubricated, squeeze only (lubricated_joint1.yaml)",
          "tab:cyan"),
         ("lubricated_joint2", "joint 2 only, lubricated, squeeze only (lubricated_joint2.yaml)",
          "tab:olive"),
         ("results", "dry clearance in both joints (model.yaml)", "tab:red"),
         ("lubricated", "both lubricated, squeeze film only as seed 003 (lubricated.yaml)",
          "tab:purple"),
         ("lubricated_wedge", "both lubricated, squeeze + wedge (lubricated_wedge.yaml)",
          "tab:orange")]
IDEAL_STYLE = dict(color="black", lw=1.0, ls="--", zorder=3, label="ideal joints (ideal.yaml)")
CHANNELS = {"rocker": ("rocker.angular_acceleration.z", "α₄ [10³ rad/s²]", 1e-3, "rad/s²"),
            "torque": ("crank_speed.torque", "crank torque [kN·m]", 1e-3, "N·m")}


def window(d):
    return pc.last_window(d, WINDOW)


def rms_distance(d, ideal, channel):
    """RMS of (case − ideal) over the last two revolutions (both write every step of h = 1e-5 s)."""
    return pc.rms_distance(d, ideal, channel, WINDOW)


def quantity_figure(folder, runs, ideal, key, name):
    channel, ylabel, scale, unit = CHANNELS[key]
    mi = window(ideal)
    ti, yi = ideal["time"][mi], ideal[channel][mi] * scale
    lo, hi = yi.min(), yi.max()
    span = hi - lo
    fig, axs = plt.subplots(len(runs), 1, figsize=(11, 2.6 * len(runs) + 0.8), sharex=True)
    for ax, (stem, title, color, d) in zip(np.atleast_1d(axs), runs):
        m = window(d)
        y = d[channel][m] * scale
        ax.plot(ti, yi, **IDEAL_STYLE)
        ax.plot(d["time"][m], y, color=color, lw=0.7, label="clearance joints")
        # The squeeze-only lubricated case spikes far beyond the ideal range: clip the axis to
        # 3× the dry range and say so.
        top, bottom = hi + 1.5 * span, lo - 1.0 * span
        clipped = y.max() > top or y.min() < bottom
        ax.set_ylim(max(bottom, min(y.min(), lo) - 0.05 * span),
                    min(top, max(y.max(), hi) + 0.05 * span))
        dist = rms_distance(d, ideal, channel)
        ax.set_title(f"{title}: RMS distance to ideal {dist:.0f} {unit}, range "
                     f"{d[channel][m].min():.0f} to {d[channel][m].max():.0f} {unit}"
                     + ("  (axis clipped)" if clipped else ""), fontsize=9)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left", fontsize=7)
    np.atleast_1d(axs)[-1].set_xlabel("time t [s] (crank at 20π rad/s: 0.1 s per revolution)")
    what = "Rocker angular acceleration" if key == "rocker" else "Crank driving torque"
    fig.suptitle(f"{what}, seed 003 four-bar, last two of four revolutions (steady state); "
                 f"c = 0.05 mm, LN c_e = 0.9, μ = 0.01", fontsize=10)
    fig.tight_layout()
    return save(fig, folder, name)


def orbit_figure(folder, runs):
    panels = [(stem, title, color, d, j) for stem, title, color, d in runs for j in JOINTS
              if f"{j}.journal1.x" in d]
    ncol = 4
    nrow = int(np.ceil(len(panels) / ncol))
    fig, axs = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 4.4 * nrow))
    axs = np.atleast_2d(axs)
    phi = np.linspace(0, 2 * np.pi, 361)
    for ax in axs.flat[len(panels):]:
        ax.axis("off")
    for ax, (stem, title, color, d, j) in zip(axs.flat, panels):
        m = window(d)
        x, y = d[f"{j}.journal1.x"][m] / C, d[f"{j}.journal1.y"][m] / C
        ax.plot(np.cos(phi), np.sin(phi), color="black", lw=1.0, label="clearance circle ‖e‖ = c")
        if stem.startswith("lubricated"):
            r = 1 - E0 / C
            ax.plot(r * np.cos(phi), r * np.sin(phi), color="gray", lw=0.8, ls="--",
                    label=f"dry contact from ‖e‖ = c − e0 = {r:.2f} c")
        ax.plot(x, y, color=color, lw=0.6, label="journal centre")
        ax.plot([0], [0], "k+", ms=10, label="ideal joint")
        lim = max(1.15, 1.05 * np.max(np.hypot(x, y)))
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_aspect("equal")
        ax.grid(alpha=0.3)
        ax.set_xlabel("journal1.x / c (bearing frame)")
        ax.set_ylabel("journal1.y / c")
        file = "model.yaml" if stem == "results" else f"{stem}.yaml"
        ax.set_title(f"{file}: {JOINTS[j]}\nmax ‖e‖/c = {np.max(np.hypot(x, y)):.3f}",
                     fontsize=8)
        ax.legend(loc="lower left", fontsize=6)
    fig.suptitle("Journal-centre orbits over the last two revolutions (bearing frame: x along "
                 "the bearing's link; the compliant contact lets the pin sink into the bush)",
                 fontsize=10)
    fig.tight_layout()
    return save(fig, folder, "journal_orbits.png")


def main():
    folder = results_dir("ideal.csv, results.csv and the other cases")
    ideal = read_results(folder, "ideal")
    runs = []
    for stem, title, color in CASES:
        d = read_results(folder, stem, missing_ok=True)
        if d is not None:
            runs.append((stem, title, color, d))
    written = [quantity_figure(folder, runs, ideal, "rocker", "rocker_acceleration.png"),
               quantity_figure(folder, runs, ideal, "torque", "crank_torque.png"),
               orbit_figure(folder, runs)]
    for name in written:
        print(name)

    mi = window(ideal)
    a_ch, q_ch = CHANNELS["rocker"][0], CHANNELS["torque"][0]
    print(f"ideal: rocker acceleration {ideal[a_ch][mi].min():.0f} to {ideal[a_ch][mi].max():.0f} "
          f"rad/s² (RMS {np.sqrt(np.mean(ideal[a_ch][mi] ** 2)):.0f}), torque "
          f"{ideal[q_ch][mi].min():.0f} to {ideal[q_ch][mi].max():.0f} N·m (RMS "
          f"{np.sqrt(np.mean(ideal[q_ch][mi] ** 2)):.0f})")
    print("| case | RMS(α₄ − ideal) [rad/s²] | α₄ range [rad/s²] | RMS(torque − ideal) [N·m] | "
          "torque range [N·m] | joint | peak contact force [N] (whole run / last 2 rev.) | "
          "max penetration [µm] | max ‖e‖/c | contact share (last 2 rev.) | peak film force [N] |")
    for stem, _, _, d in runs:
        m = window(d)
        file = "model.yaml" if stem == "results" else f"{stem}.yaml"
        head = (f"| {file} | {rms_distance(d, ideal, a_ch):.0f} | {d[a_ch][m].min():.0f} to "
                f"{d[a_ch][m].max():.0f} | {rms_distance(d, ideal, q_ch):.0f} | "
                f"{d[q_ch][m].min():.0f} to {d[q_ch][m].max():.0f} |")
        for j in JOINTS:
            if f"{j}.normal_force" not in d:
                continue
            film = d.get(f"{j}.film_force")
            print(head + f" {j} | {d[f'{j}.normal_force'].max():.0f} / "
                  f"{d[f'{j}.normal_force'][m].max():.0f} | "
                  f"{d[f'{j}.penetration'].max() * 1e6:.2f} | "
                  f"{d[f'{j}.eccentricity1'].max() / C:.3f} | "
                  f"{d[f'{j}.contact_state'][m].mean():.1%} | "
                  f"{'—' if film is None else f'{film.max():.0f}'} |")
            head = "| | | | | |"
    for stem, _, _, d in runs:
        for j in JOINTS:
            if f"{j}.power_loss" in d:
                m = window(d)
                print(f"{stem}.yaml {j}: film friction torque {d[f'{j}.friction_torque'][m].min():.2f}"
                      f" to {d[f'{j}.friction_torque'][m].max():.2f} N·m, power loss mean "
                      f"{d[f'{j}.power_loss'][m].mean():.1f} W (peak {d[f'{j}.power_loss'][m].max():.0f}"
                      f" W), min film {d[f'{j}.min_film'][m].min() * 1e6:.2f} µm")


if __name__ == "__main__":
    main()
