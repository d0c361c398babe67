#!/usr/bin/env python3
"""Plots of seed 003's ideal four-bar crank-rocker (examples/four_bar_ideal).

Usage: /usr/bin/python3 examples/four_bar_ideal/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (written by `clearsim run`), writes the PNGs below into
RESULTS_DIR and prints their names:
  rocker_acceleration_torque.png  rocker angular acceleration and crank driving torque over the
                                  two cycles (the quantities of seed 003's Figs. 5-10), with an
                                  independent closed-form position analysis overlaid
  rocker_angle.png                rocker angle with its extremes 82.06° and 143.58° (reference.md
                                  §8.7, the two dead centres) marked
  coupler_curves.png              paths of the crank pin A, coupler centre and coupler pin B,
                                  with the linkage drawn at both dead centres
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import read_results, results_dir, save  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Decoded Table 1 of seed 003 (reference.md §6d), as in model.yaml.
A_LEN, C_LEN, B_LEN = 0.2, 0.4 * np.sqrt(2.0), 0.6     # crank, coupler, rocker [m]
O2, O4 = np.array([0.0, 0.0]), np.array([0.4, 0.0])     # ground pivots [m]
M = {"crank": 1.00, "coupler": 2.25, "rocker": 2.00}    # [kg]
I = {"crank": 0.30, "coupler": 2.00, "rocker": 1.35}    # [kg·m²], as printed (implausible)
OMEGA = 20.0 * np.pi                                    # crank speed [rad/s]
PERIOD = 2.0 * np.pi / OMEGA                            # 0.1 s
THETA2_0 = np.arccos((0.4**2 + (A_LEN + C_LEN) ** 2 - B_LEN**2) / (2 * 0.4 * (A_LEN + C_LEN)))
THETA4_EXT, THETA4_FOLD = 82.06, 143.58                 # reference.md §8.7 [deg]

SIM_STYLE = dict(ls="none", marker="o", ms=2.5, color="tab:blue", label="clearsim")
REF_STYLE = dict(lw=1.0, color="black", zorder=3, label="closed-form position analysis")


def positions(theta2):
    """Crank pin A, coupler pin B, coupler and rocker angles for crank angles theta2.

    B is the intersection of the circles |B − A| = coupler and |B − O4| = rocker, on the branch
    of the assembled start (the crank-rocker never changes branch).
    """
    ax, ay = A_LEN * np.cos(theta2), A_LEN * np.sin(theta2)
    dx, dy = O4[0] - ax, O4[1] - ay
    dist = np.hypot(dx, dy)
    along = (C_LEN**2 - B_LEN**2 + dist**2) / (2.0 * dist)
    h = np.sqrt(np.maximum(C_LEN**2 - along**2, 0.0))
    px, py = ax + along * dx / dist, ay + along * dy / dist
    bx, by = px - h * dy / dist, py + h * dx / dist     # left of A→O4: the branch of the start
    theta3 = np.arctan2(by - ay, bx - ax)
    theta4 = np.arctan2(by - O4[1], bx - O4[0])
    return ax, ay, bx, by, theta3, theta4


def closed_form(theta2):
    """Rocker angle, angular velocity and acceleration, and the driving torque dKE/dθ₂."""
    n = 36000
    g = THETA2_0 + np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    step = 2.0 * np.pi / n

    def d_dt(f):
        return OMEGA * (np.roll(f, -1) - np.roll(f, 1)) / (2.0 * step)

    ax, ay, bx, by, th3, th4 = positions(g)
    th3u, th4u = np.unwrap(th3), np.unwrap(th4)
    w3, w4 = d_dt(th3u), d_dt(th4u)
    al4 = d_dt(w4)
    g3x, g3y = 0.5 * (ax + bx), 0.5 * (ay + by)
    g4x, g4y = 0.5 * (O4[0] + bx), 0.5 * (O4[1] + by)
    ke = (0.5 * M["crank"] * (0.5 * A_LEN * OMEGA) ** 2 + 0.5 * I["crank"] * OMEGA**2
          + 0.5 * M["coupler"] * (d_dt(g3x) ** 2 + d_dt(g3y) ** 2) + 0.5 * I["coupler"] * w3**2
          + 0.5 * M["rocker"] * (d_dt(g4x) ** 2 + d_dt(g4y) ** 2) + 0.5 * I["rocker"] * w4**2)
    torque = (np.roll(ke, -1) - np.roll(ke, 1)) / (2.0 * step)
    phase = np.mod(theta2 - THETA2_0, 2.0 * np.pi)
    grid = np.append(g - THETA2_0, 2.0 * np.pi)
    interp = lambda f: np.interp(phase, grid, np.append(f, f[0]))  # noqa: E731
    return interp(th4u), interp(w4), interp(al4), interp(torque), interp(ke)


def main():
    folder = results_dir()
    d = read_results(folder)
    t = d["time"]
    theta2 = THETA2_0 + OMEGA * t
    tt = np.linspace(t[0], t[-1], 4001)
    th4_ref, _, al4_ref, tq_ref, _ = closed_form(THETA2_0 + OMEGA * tt)
    written = []

    # 1. Rocker angular acceleration and crank torque over the two cycles.
    al4 = d["rocker.angular_acceleration.z"]
    torque = d["crank_speed.torque"]
    _, _, al4_at, tq_at, _ = closed_form(theta2)
    fig, axs = plt.subplots(2, 1, figsize=(10, 8), sharex=True)
    ax = axs[0]
    ax.plot(tt, al4_ref * 1e-3, **REF_STYLE)
    ax.plot(t, al4 * 1e-3, **SIM_STYLE)
    ax.set_ylabel("rocker angular acceleration α₄ [10³ rad/s²]")
    ax.set_title(f"Rocker (follower) angular acceleration: {al4.min():.0f} to {al4.max():.0f} rad/s² "
                 f"(max |Δ| to closed form {np.max(np.abs(al4 - al4_at)):.1e} rad/s²)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    ax = axs[1]
    ax.plot(tt, tq_ref * 1e-3, **{**REF_STYLE, "label": "closed form, dKE/dθ₂"})
    ax.plot(t, torque * 1e-3, **{**SIM_STYLE, "label": "clearsim, crank_speed.torque"})
    ax.set_ylabel("crank driving torque [kN·m]")
    ax.set_xlabel("time t [s] (crank at 20π rad/s: 0.1 s per revolution)")
    ax.set_title(f"Crank driving torque: {torque.min():.0f} to {torque.max():.0f} N·m "
                 f"(max |Δ| to closed form {np.max(np.abs(torque - tq_at)):.1e} N·m)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    for a in axs:
        a.axvline(PERIOD, color="gray", lw=0.8, ls=":")
    fig.suptitle("Ideal four-bar of seed 003 (reference.md §6d), two cycles from the extended "
                 "dead centre\n(inertias as printed in the seed's Table 1 — far above slender-rod "
                 "values, hence the large torque)", fontsize=10)
    fig.tight_layout()
    written.append(save(fig, folder, "rocker_acceleration_torque.png"))

    # 2. Rocker angle with its extremes.
    th4 = np.degrees(np.unwrap(d["rocker.rotation.z"]))
    fig, ax = plt.subplots(figsize=(10, 5.5))
    ax.plot(tt, np.degrees(th4_ref), **REF_STYLE)
    ax.plot(t, th4, **SIM_STYLE)
    ax.axhline(THETA4_EXT, color="tab:green", ls="--", lw=0.9,
               label=f"extended dead centre {THETA4_EXT}° (reference.md §8.7)")
    ax.axhline(THETA4_FOLD, color="tab:red", ls="--", lw=0.9,
               label=f"folded dead centre {THETA4_FOLD}° (reference.md §8.7)")
    kmin, kmax = np.argmin(th4), np.argmax(th4)
    ax.plot(t[kmin], th4[kmin], "v", color="tab:green", ms=9,
            label=f"clearsim min {th4[kmin]:.3f}° at t = {t[kmin] * 1e3:.1f} ms")
    ax.plot(t[kmax], th4[kmax], "^", color="tab:red", ms=9,
            label=f"clearsim max {th4[kmax]:.3f}° at t = {t[kmax] * 1e3:.1f} ms")
    ax.set_ylim(70, 165)
    ax.set_xlabel("time t [s]")
    ax.set_ylabel("rocker angle θ₄ from +X [deg]")
    ax.set_title("Rocker angle: swings between the two dead centres (crank–coupler collinear)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right", fontsize=8, ncol=2)
    fig.tight_layout()
    written.append(save(fig, folder, "rocker_angle.png"))

    # 3. Coupler curves with the linkage at both dead centres.
    fig, ax = plt.subplots(figsize=(8, 7))
    for name, color in (("crank_pin", "tab:orange"), ("coupler_mid", "tab:purple"),
                        ("coupler_pin", "tab:green")):
        ax.plot(d[f"{name}.position.x"], d[f"{name}.position.y"], color=color, lw=1.5,
                label=f"path of {name}")
    # Folded dead centre: B on the ray at angle φ from O2, |O2B| = coupler − crank, and the crank
    # pointing the opposite way (θ₂ = φ + 180° = 283.09°).
    folded = C_LEN - A_LEN
    fold = np.pi + np.arccos((0.4**2 + folded**2 - B_LEN**2) / (2 * 0.4 * folded))
    for th, style, label in ((THETA2_0, "-", "extended dead centre (t = 0)"),
                             (fold, "--", "folded dead centre")):
        ax_, ay_, bx, by, _, _ = positions(np.array([th]))
        xs = [O2[0], ax_[0], bx[0], O4[0]]
        ys = [O2[1], ay_[0], by[0], O4[1]]
        ax.plot(xs, ys, style, color="black", lw=2, marker="o", ms=5, label=label)
    ax.plot([O2[0], O4[0]], [O2[1], O4[1]], color="gray", lw=4, alpha=0.5, zorder=0,
            label="ground O₂O₄")
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title("Four-bar paths (two revolutions overlaid) and the two dead-centre positions")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    written.append(save(fig, folder, "coupler_curves.png"))

    for name in written:
        print(name)


if __name__ == "__main__":
    main()
