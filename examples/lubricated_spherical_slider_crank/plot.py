#!/usr/bin/env python3
"""Plots of seed 000's slider-crank with a lubricated spherical clearance joint
(examples/lubricated_spherical_slider_crank), and the same joint dry, against the ideal mechanism:
the quantities of seed 000's figs. 3-6.

Usage: /usr/bin/python3 examples/lubricated_spherical_slider_crank/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml, lubricated), dry.csv and ideal.csv (written by
scripts/run-example; dry.csv may be missing), writes the PNGs below into RESULTS_DIR and prints
their names, then the numbers quoted in the README:
  slider_velocity.png      slider velocity against the crank angle over the last two of the 25
                           revolutions, lubricated and dry, each on the ideal curve (seed 000
                           fig. 3)
  slider_acceleration.png  slider acceleration, the same layout (seed 000 fig. 4)
  ball_orbit.png           ball-centre orbit in the housing (rod_slider.journal.x/y, housing
                           frame on the rod) over 0.1-0.3 s with the clearance circle, and the
                           eccentricity ratio over two revolutions (seed 000 fig. 5)
  phase_plot.png           slider velocity-acceleration map over 0.1-0.3 s against the ideal
                           closed loop (seed 000 fig. 6)
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
SETTLED = 0.1                       # orbit and phase map from here on [s]
C = 0.5e-3                          # radial clearance [m]
E0 = 2.0e-6                         # asperity (film rupture) of model.yaml [m]
CASES = [("results", "model.yaml", "lubricated, squeeze film 0.4 Pa·s, e0 = 2 µm", "tab:blue"),
         ("dry", "dry.yaml", "dry, compliant (Lankarani–Nikravesh), frictionless", "tab:red")]
IDEAL_STYLE = dict(color="black", lw=1.0, ls="--", zorder=3, label="ideal joints (ideal.yaml)")
A_CLIP = 6.0e4                      # acceleration axis limit [m/s²] (ideal: −19.4 to +9.7 km/s²)


def window(d, span=WINDOW):
    return pc.last_window(d, span)


def rms_distance(d, ideal, channel, span=WINDOW):
    return pc.rms_distance(d, ideal, channel, span)


def quantity_figure(folder, runs, ideal, channel, ylabel, scale, clip, name, what):
    return pc.slider_quantity_figure(
        folder, runs, ideal, channel, ylabel, scale, clip, name, what, span=WINDOW, omega=OMEGA,
        ideal_style=IDEAL_STYLE, panel_height=3.2, window_note=" (last two revolutions)",
        xlabel="crank angle θ [deg] over the last two of 25 revolutions (θ = 0: crank and rod "
               "aligned, slider outermost)",
        title="Seed 000 slider–crank, spherical clearance joint rod–slider, c = 0.5 mm, 5000 rpm")


def orbit_figure(folder, runs):
    fig = plt.figure(figsize=(5.4 * len(runs), 9))
    gs = fig.add_gridspec(2, len(runs), height_ratios=[2.2, 1])
    phi = np.linspace(0, 2 * np.pi, 361)
    for col, (stem, file, title, color, d) in enumerate(runs):
        ax = fig.add_subplot(gs[0, col])
        m = d["time"] >= SETTLED
        x, y = d["rod_slider.journal.x"][m] * 1e3, d["rod_slider.journal.y"][m] * 1e3
        ax.plot(C * 1e3 * np.cos(phi), C * 1e3 * np.sin(phi), color="black", lw=1.0,
                label="clearance circle, c = 0.5 mm")
        if stem == "results":
            r = (C - E0) * 1e3
            ax.plot(r * np.cos(phi), r * np.sin(phi), color="gray", lw=0.8, ls="--",
                    label="dry contact from c − e0")
        ax.plot(x, y, color=color, lw=0.3, alpha=0.8, label="ball centre")
        ax.plot([0], [0], "k+", ms=12, mew=1.5, label="ideal joint")
        ax.set_xlim(-0.62, 0.62)
        ax.set_ylim(-0.62, 0.62)
        ax.set_aspect("equal")
        ax.grid(alpha=0.3)
        ax.set_xlabel("journal.x [mm] (housing frame on the rod)")
        ax.set_ylabel("journal.y [mm]")
        ax.set_title(f"{file}: {title}\nball centre {SETTLED:g}–{d['time'][-1]:g} s", fontsize=8)
        ax.legend(loc="lower left", fontsize=6)
        ax = fig.add_subplot(gs[1, col])
        m = window(d)
        ax.axhline(1.0, color="black", lw=0.8)
        ax.plot(d["time"][m] * 1e3, np.hypot(d["rod_slider.journal.x"][m],
                                             d["rod_slider.journal.y"][m]) / C, color=color, lw=0.7)
        ax.set_ylim(0, 1.2)
        ax.set_xlabel("time t [ms] (last two revolutions)")
        ax.set_ylabel("‖e‖ / c (1: on the wall)")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return save(fig, folder, "ball_orbit.png")


def phase_figure(folder, runs, ideal):
    fig, axs = plt.subplots(1, len(runs), figsize=(6.5 * len(runs), 5.8))
    th = np.linspace(0, 2 * np.pi, 721)
    _, v_ref, a_ref = slider_closed_form(th)
    for ax, (stem, file, title, color, d) in zip(np.atleast_1d(axs), runs):
        m = d["time"] >= SETTLED
        ax.plot(d["slider.velocity.x"][m], d["slider.acceleration.x"][m] * 1e-3, ".", ms=0.8,
                color=color, alpha=0.5, label=title)
        ax.plot(v_ref, a_ref * 1e-3, color="black", lw=1.2, label="ideal (closed form, §8.1)")
        ax.set_ylim(-A_CLIP * 1e-3, A_CLIP * 1e-3)
        ax.set_xlabel("slider velocity [m/s]")
        ax.set_ylabel("slider acceleration [km/s²] (clipped)")
        ax.set_title(f"{file}, {SETTLED:g}–{d['time'][-1]:g} s", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower left", fontsize=7, markerscale=8)
    fig.suptitle("Velocity–acceleration map of the slider", fontsize=10)
    fig.tight_layout()
    return save(fig, folder, "phase_plot.png")


def main():
    folder = results_dir("results.csv, ideal.csv and dry.csv")
    ideal = read_results(folder, "ideal")
    runs = pc.read_cases(folder, CASES)
    written = [
        quantity_figure(folder, runs, ideal, "slider.velocity.x", "slider velocity [m/s]", 1.0,
                        None, "slider_velocity.png", "v"),
        quantity_figure(folder, runs, ideal, "slider.acceleration.x",
                        "slider acceleration [km/s²]", 1e-3, A_CLIP, "slider_acceleration.png",
                        "a"),
        orbit_figure(folder, runs),
        phase_figure(folder, runs, ideal)]
    for name in written:
        print(name)

    t = ideal["time"]
    _, v, a = slider_closed_form(OMEGA * t)
    print(f"ideal.yaml against the closed form, whole run: max |Δv| "
          f"{np.abs(ideal['slider.velocity.x'] - v).max():.1e} m/s, max |Δa| "
          f"{np.abs(ideal['slider.acceleration.x'] - a).max():.1f} m/s²")
    late = ideal["time"] >= SETTLED
    print(f"ideal RMS acceleration over {SETTLED:g}–{t[-1]:g} s: "
          f"{np.sqrt(np.mean(ideal['slider.acceleration.x'][late] ** 2)):.0f} m/s²")
    print(f"| case | RMS(a − a_ideal) [m/s²], last 2 rev. / {SETTLED:g}–0.3 s | max abs(a) [m/s²] | "
          "RMS(v − v_ideal) [m/s] | peak contact force [N] | max penetration [µm] | "
          "contact share | contact onsets | flights below ‖e‖ = 0.9 c | peak film force [N] |")
    span = ideal["time"][-1] - SETTLED
    for stem, file, _, _, d in runs:
        m = d["time"] >= SETTLED
        st = d["rod_slider.contact_state"]
        onsets = int(np.count_nonzero((st[1:] == 1) & (st[:-1] == 0)))
        ratio = np.hypot(d["rod_slider.journal.x"], d["rod_slider.journal.y"]) / C
        deep = int(np.count_nonzero((ratio[1:] < 0.9) & (ratio[:-1] >= 0.9)))
        film = d.get("rod_slider.film_force")
        print(f"| {file} | {rms_distance(d, ideal, 'slider.acceleration.x'):.0f} / "
              f"{rms_distance(d, ideal, 'slider.acceleration.x', span):.0f} | "
              f"{np.abs(d['slider.acceleration.x'][m]).max():.0f} | "
              f"{rms_distance(d, ideal, 'slider.velocity.x', span):.3f} | "
              f"{d['rod_slider.normal_force'].max():.0f} | "
              f"{d['rod_slider.penetration'].max() * 1e6:.1f} | {st[m].mean():.1%} | {onsets} | "
              f"{deep} | {'—' if film is None else f'{film.max():.0f}'} |")
    d = runs[0][4]
    hit = np.nonzero(d["rod_slider.contact_state"] > 0)[0]
    if len(hit):
        print(f"model.yaml: the ball first reaches c − e0 at t = {d['time'][hit[0]] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
