#!/usr/bin/env python3
"""Plots of seed 002's spatial slider-crank with ideal joints (examples/spatial_slider_crank_ideal).

Usage: /usr/bin/python3 examples/spatial_slider_crank_ideal/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (written by `clearsim run`), writes the PNGs below into
RESULTS_DIR and prints their names:
  slider_motion.png         slider displacement and velocity along Y, crank angular velocity
  energy.png                kinetic, potential and total energy, and the change of the total
  constraint_violation.png  position and velocity constraint violations (log scale)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import read_results, results_dir, save  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Slider Y at crank angles 0°, 90°, 180° from the geometry (reference.md §6c, with the rod length
# 0.29003 m that the joint positions of model.yaml give).
L_ROD, H_CRANK, Z_SLIDER = np.hypot(0.14, 0.254), 0.1, -0.154


def slider_y(theta):
    """Slider Y for a crank at angle theta from the vertical (tip (−0.1 sin θ, 0, 0.1 cos θ))."""
    tip_x, tip_z = H_CRANK * np.sin(theta), H_CRANK * np.cos(theta)
    return np.sqrt(L_ROD**2 - tip_x**2 - (tip_z - Z_SLIDER) ** 2)


def main():
    folder = results_dir()
    d = read_results(folder)
    t = d["time"]
    written = []

    # 1. Slider displacement and velocity, crank angular velocity.
    fig, axs = plt.subplots(3, 1, figsize=(10, 9), sharex=True)
    y = d["slider.position.y"]
    ax = axs[0]
    ax.plot(t, y * 1e3, color="tab:blue", lw=1.3, label="slider.position.y (clearsim)")
    for deg, style in ((0, ":"), (90, "--"), (180, "-.")):
        ax.axhline(slider_y(np.radians(deg)) * 1e3, color="gray", lw=0.8, ls=style,
                   label=f"geometry: crank at {deg}° → {slider_y(np.radians(deg)) * 1e3:.2f} mm")
    ax.set_ylabel("slider position y [mm]")
    ax.set_title("Slider displacement along the guide (Y)")
    ax.set_ylim(130, 340)
    ax.legend(loc="upper center", fontsize=8, ncol=2)
    ax.grid(alpha=0.3)
    ax = axs[1]
    ax.plot(t, d["slider.velocity.y"], color="tab:orange", lw=1.3, label="slider.velocity.y")
    ax.axhline(0.0, color="black", lw=0.6)
    ax.set_ylabel("slider velocity ẏ [m/s]")
    ax.set_title("Slider velocity")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    ax = axs[2]
    ax.plot(t, d["crank.angular_velocity.y"], color="tab:green", lw=1.3,
            label="crank.angular_velocity.y")
    ax.axhline(-2.0 * np.pi, color="gray", lw=0.8, ls="--", label="initial −2π rad/s")
    ax.set_ylabel("crank angular velocity ω_y [rad/s]")
    ax.set_xlabel("time t [s]")
    ax.set_title("Crank angular velocity (free motion under gravity: slow crank-up, fast crank-down)")
    ax.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.suptitle("Spatial slider–crank, ideal joints (seed 002, reference.md §6c): ρ∞ = 0.8, h = 10⁻⁴ s")
    fig.tight_layout()
    written.append(save(fig, folder, "slider_motion.png"))

    # 2. Energies.
    ke, pe, te = d["system.kinetic_energy"], d["system.potential_energy"], d["system.total_energy"]
    fig, axs = plt.subplots(2, 1, figsize=(10, 7.5), sharex=True)
    ax = axs[0]
    ax.plot(t, ke, label="kinetic", color="tab:red")
    ax.plot(t, pe - pe[0], label="potential (relative to t = 0)", color="tab:blue")
    ax.plot(t, te - te[0], label="total (relative to t = 0)", color="black", lw=1.5)
    ax.set_ylabel("energy [J]")
    ax.set_title("Energy exchange: potential energy of the crank-up start becomes kinetic energy")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    ax = axs[1]
    de = te - te[0]
    ax.plot(t, de * 1e6, color="black", lw=1.0, label="E(t) − E(0)")
    ax.set_ylabel("total energy change [µJ]")
    ax.set_xlabel("time t [s]")
    ax.set_title(f"Total energy change: max |ΔE| = {np.max(np.abs(de)):.2e} J "
                 f"({np.max(np.abs(de)) / np.max(ke):.1e} of the peak kinetic energy), "
                 f"ΔE(end) = {de[-1]:.1e} J")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    written.append(save(fig, folder, "energy.png"))

    # 3. Constraint violations.
    fig, ax = plt.subplots(figsize=(10, 5))
    floor = 1e-18
    ax.semilogy(t, np.maximum(d["system.constraint_violation"], floor), lw=0.8,
                label="positions ‖Φ‖∞ [m, rad] (system.constraint_violation)")
    if "system.velocity_violation" in d:
        ax.semilogy(t, np.maximum(d["system.velocity_violation"], floor), lw=0.8,
                    label="velocities ‖B v‖∞ [m/s, rad/s] (system.velocity_violation)")
    ax.set_xlabel("time t [s]")
    ax.set_ylabel("constraint violation (∞-norm) [m, rad | m/s, rad/s]")
    ax.set_title("Constraint violation (index-3 generalized-α: positions exact to round-off, "
                 "velocities to O(h²))")
    ax.legend(loc="center right", fontsize=8)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    written.append(save(fig, folder, "constraint_violation.png"))

    for name in written:
        print(name)


if __name__ == "__main__":
    main()
