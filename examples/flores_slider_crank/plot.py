#!/usr/bin/env python3
"""Plots of the Flores et al. (2006) slider-crank with a revolute clearance joint between rod and
slider (examples/flores_slider_crank): dry compliant, lubricated and rigid (NSGA) joints, each
against the ideal mechanism.

Usage: /usr/bin/python3 examples/flores_slider_crank/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml, dry compliant), lubricated.csv, nsga.csv and
ideal.csv (written by scripts/run-example; a missing variant is skipped), writes the PNGs below
into RESULTS_DIR and prints their names, then the numbers quoted in the README:
  slider_acceleration.png  slider acceleration against the crank angle over the last two of the
                           ten revolutions, one panel per joint model, each on the ideal curve
  slider_velocity.png      slider velocity, the same layout
  journal_orbit.png        journal-centre orbit in the bearing (rod_slider.journal1.x/y, bearing
                           frame on the rod) over the same two revolutions, with the clearance
                           circle; the ideal joint is the centre point
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
from plotting_common import CRANK_OMEGA, read_results, results_dir, save, slider_closed_form  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

OMEGA = CRANK_OMEGA                 # 5000 rpm [rad/s]; crank 0.05 m, rod 0.12 m (reference.md §6a)
PERIOD = 2.0 * np.pi / OMEGA        # 12.0 ms
WINDOW = 2 * PERIOD                 # the plots and the numbers: the last two revolutions
C = 0.5e-3                          # radial clearance [m]
E0 = 2.0e-6                         # asperity (film breakdown) of lubricated.yaml [m]
# (stem, file, title, colour)
CASES = [("results", "model.yaml", "dry, compliant (Lankarani–Nikravesh, μ = 0.01)", "tab:red"),
         ("lubricated", "lubricated.yaml", "lubricated, 400 cP long bearing (squeeze + wedge)",
          "tab:blue"),
         ("nsga", "nsga.yaml", "dry, rigid: NSGA, e_N = 0.9, frictionless", "tab:green")]
IDEAL_STYLE = dict(color="black", lw=1.0, ls="--", zorder=3, label="ideal joints (ideal.yaml)")
A_CLIP = 6.0e4                      # acceleration axis limit [m/s²] (ideal: −19.4 to +9.7 km/s²)


def window(d):
    return pc.last_window(d, WINDOW)


def rms_distance(d, ideal, channel):
    return pc.rms_distance(d, ideal, channel, WINDOW)


def quantity_figure(folder, runs, ideal, channel, ylabel, scale, clip, name, what):
    return pc.slider_quantity_figure(
        folder, runs, ideal, channel, ylabel, scale, clip, name, what, span=WINDOW, omega=OMEGA,
        ideal_style=IDEAL_STYLE, panel_height=2.9, window_note="",
        xlabel="crank angle θ [deg] over the last two of ten revolutions (θ = 0: crank and rod "
               "aligned, slider outermost)",
        title="Flores et al. (2006) slider–crank, rod–slider revolute clearance c = 0.5 mm, 5000 rpm")


def orbit_figure(folder, runs):
    fig, axs = plt.subplots(1, len(runs), figsize=(5.2 * len(runs), 5.6))
    phi = np.linspace(0, 2 * np.pi, 361)
    for ax, (stem, file, title, color, d) in zip(np.atleast_1d(axs), runs):
        m = window(d)
        x, y = d["rod_slider.journal1.x"][m] * 1e3, d["rod_slider.journal1.y"][m] * 1e3
        ax.plot(C * 1e3 * np.cos(phi), C * 1e3 * np.sin(phi), color="black", lw=1.0,
                label="clearance circle, c = 0.5 mm")
        if stem == "lubricated":
            r = (C - E0) * 1e3
            ax.plot(r * np.cos(phi), r * np.sin(phi), color="gray", lw=0.8, ls="--",
                    label="dry contact from c − e0")
        ax.plot(x, y, color=color, lw=0.5, label="journal centre")
        ax.plot([0], [0], "k+", ms=12, mew=1.5, label="ideal joint")
        lim = max(0.6, 1.05 * np.max(np.hypot(x, y)))
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_aspect("equal")
        ax.grid(alpha=0.3)
        ax.set_xlabel("journal1.x [mm] (bearing frame on the rod)")
        ax.set_ylabel("journal1.y [mm]")
        ax.set_title(f"{file}: {title}\nmax ‖e‖ = {np.max(np.hypot(x, y)):.3f} mm", fontsize=8)
        ax.legend(loc="lower left", fontsize=6)
    fig.suptitle("Journal-centre orbit in the bearing over the last two revolutions", fontsize=10)
    fig.tight_layout()
    return save(fig, folder, "journal_orbit.png")


def main():
    folder = results_dir("results.csv, ideal.csv and the variants")
    ideal = read_results(folder, "ideal")
    runs = pc.read_cases(folder, CASES)
    written = [
        quantity_figure(folder, runs, ideal, "slider.acceleration.x", "slider acceleration "
                        "[km/s²]", 1e-3, A_CLIP, "slider_acceleration.png", "a"),
        quantity_figure(folder, runs, ideal, "slider.velocity.x", "slider velocity [m/s]", 1.0,
                        None, "slider_velocity.png", "v"),
        orbit_figure(folder, runs)]
    for name in written:
        print(name)

    t = ideal["time"]
    x, v, a = slider_closed_form(OMEGA * t)
    print(f"ideal.yaml against the closed form (reference.md §8.1), whole run: max |Δx| "
          f"{np.abs(ideal['slider.position.x'] - x).max():.1e} m, max |Δv| "
          f"{np.abs(ideal['slider.velocity.x'] - v).max():.1e} m/s, max |Δa| "
          f"{np.abs(ideal['slider.acceleration.x'] - a).max():.1f} m/s²")
    mi = window(ideal)
    ai = ideal["slider.acceleration.x"][mi]
    print(f"ideal, last two revolutions: acceleration {ai.min():.0f} to {ai.max():.0f} m/s² "
          f"(RMS {np.sqrt(np.mean(ai ** 2)):.0f})")
    print("| case | RMS(a − a_ideal) [m/s²] | max abs(a) [m/s²] | RMS(v − v_ideal) [m/s] | "
          "peak contact force [N] (whole run / last 2 rev.) | max penetration [µm] | "
          "max ‖e‖ [mm] | contact share (last 2 rev.) | peak film force [N] |")
    for stem, file, _, _, d in runs:
        m = window(d)
        if stem == "nsga":
            force = d["rod_slider.contact_force"]
            pen = d["system.max_penetration"].max()
        else:
            force = d["rod_slider.normal_force"]
            pen = d["rod_slider.penetration"].max()
        film = d.get("rod_slider.film_force")
        share = np.mean(d["rod_slider.contact_state"][m] > 0)
        print(f"| {file} | {rms_distance(d, ideal, 'slider.acceleration.x'):.0f} | "
              f"{np.abs(d['slider.acceleration.x'][m]).max():.0f} | "
              f"{rms_distance(d, ideal, 'slider.velocity.x'):.3f} | {force.max():.0f} / "
              f"{force[m].max():.0f} | {pen * 1e6:.3g} | "
              f"{d['rod_slider.eccentricity1'].max() * 1e3:.4f} | {share:.1%} | "
              f"{'—' if film is None else f'{film.max():.0f}'} |")


if __name__ == "__main__":
    main()
