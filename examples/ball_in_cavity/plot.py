#!/usr/bin/env python3
"""Plots of the ball rattling in a spherical cavity (examples/ball_in_cavity).

Usage: /usr/bin/python3 examples/ball_in_cavity/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml, e = 1) and, if present, RESULTS_DIR/plastic.csv
(plastic.yaml, e = 0), both written by scripts/run-example; writes the PNGs below into
RESULTS_DIR and prints their names, then the numbers checked in the README:
  orbit_projections.png  ball-centre orbit relative to the cavity centre: XY, XZ, YZ projections
                         and the view in the orbit plane, with the clearance sphere (radius c)
  energy.png             kinetic energy and angular momentum about the cavity centre against
                         their exact values; contact force (e = 0) and impact count (e = 1)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import read_results, results_dir, save, clearance_circle  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

C = 0.5e-3                            # radial clearance [m]
MASS = 1.0                            # [kg]
T_PUSH = 0.004                        # the push is over at 4 ms
V0 = np.array([0.3, 0.11, -0.05])     # initial velocity [m/s]
PUSH = np.array([-160.0, -80.0, 80.0])  # push at t = 0 [N], fading to 0 at T_PUSH (smooth step)
# Velocity once the push is over: v0 + (impulse of a smooth step = F0·T/2)/m.
V_AFTER = V0 + PUSH * T_PUSH / 2.0 / MASS
E_AFTER = 0.5 * MASS * V_AFTER @ V_AFTER   # 7.5 mJ


def vectors(d):
    x = np.c_[d["cavity.journal.x"], d["cavity.journal.y"], d["cavity.journal.z"]]
    v = np.c_[d["ball.velocity.x"], d["ball.velocity.y"], d["ball.velocity.z"]]
    return x, v


def plane_basis(L):
    """Orthonormal (e1, e2) spanning the plane normal to L."""
    n = L / np.linalg.norm(L)
    e1 = np.cross(n, [1.0, 0.0, 0.0])
    if np.linalg.norm(e1) < 0.1:
        e1 = np.cross(n, [0.0, 1.0, 0.0])
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(n, e1)


def main():
    folder = results_dir()
    runs = [("e = 1 (model.yaml)", read_results(folder, missing_ok=True), "tab:blue"),
            ("e = 0 (plastic.yaml)", read_results(folder, "plastic", missing_ok=True), "tab:red")]
    runs = [r for r in runs if r[1] is not None]
    written = []

    # 1. Orbit projections.
    fig, axs = plt.subplots(len(runs), 4, figsize=(16, 4.3 * len(runs)), squeeze=False)
    for row, (label, d, color) in enumerate(runs):
        t = d["time"]
        x, v = vectors(d)
        after = t >= T_PUSH
        L = np.cross(x[after], v[after]).mean(axis=0)
        e1, e2 = plane_basis(L)
        views = [("X", "Y", x[:, 0], x[:, 1]), ("X", "Z", x[:, 0], x[:, 2]),
                 ("Y", "Z", x[:, 1], x[:, 2]),
                 ("e₁", "e₂ (orbit plane, normal L)", x @ e1, x @ e2)]
        for col, (a, b, p, q) in enumerate(views):
            ax = axs[row, col]
            clearance_circle(ax, C, lw=1.0, label="clearance sphere, radius c = 0.5 mm")
            push = t <= T_PUSH
            ax.plot(p[push] * 1e3, q[push] * 1e3, color="tab:green", lw=1.6,
                    label="0–4 ms: during the push")
            ax.scatter(p[~push] * 1e3, q[~push] * 1e3, c=t[~push], s=0.6, cmap="viridis")
            ax.plot([0], [0], "k+", ms=8)
            ax.set_aspect("equal")
            ax.set_xlim(-0.56, 0.56)
            ax.set_ylim(-0.56, 0.56)
            ax.set_xlabel(f"{a} [mm]")
            ax.set_ylabel(f"{b} [mm]")
            ax.grid(alpha=0.3)
            ax.set_title(f"{label}: {a}–{b}" if col < 3 else f"{label}: in the orbit plane",
                         fontsize=10)
            if col == 0:
                ax.legend(loc="lower left", fontsize=7)
    fig.suptitle("Ball centre relative to the cavity centre (cavity.journal), colour = time "
                 "0.004 → 0.5 s; NSGA, h = 10⁻⁵ s")
    fig.tight_layout()
    written.append(save(fig, folder, "orbit_projections.png"))

    # 2. Energy, angular momentum, contact force.
    fig, axs = plt.subplots(3, 1, figsize=(11, 10.5), sharex=True)
    report = []
    ax_count = None
    for label, d, color in runs:
        t = d["time"]
        x, v = vectors(d)
        ke = d["system.kinetic_energy"]
        Lnorm = np.linalg.norm(np.cross(x, v), axis=1) * MASS
        k_end = np.searchsorted(t, T_PUSH)
        L0 = Lnorm[k_end]
        axs[0].plot(t * 1e3, ke * 1e3, color=color, lw=1.2, label=f"{label}: kinetic energy")
        axs[1].plot(t[k_end:] * 1e3, (Lnorm[k_end:] / L0 - 1) * 100, color=color, lw=1.0, ls="--",
                    label=f"{label}: angular momentum |L|/|L(4 ms)| − 1")
        if "plastic" in label:
            vt = L0 / (MASS * C)          # sliding speed on the wall, from |L| = m c v_t
            e_exact = 0.5 * MASS * vt**2
            axs[0].axhline(e_exact * 1e3, color=color, ls="--", lw=1.0,
                           label=f"exact after the plastic impact: |L|²/(2 m c²) = "
                                 f"{e_exact * 1e3:.3f} mJ")
            sliding = d["cavity.contact_state"] > 0
            axs[1].plot(t[sliding] * 1e3, (ke[sliding] / e_exact - 1) * 100, color=color,
                        lw=1.4, label=f"{label}: kinetic energy / exact − 1 (sliding)")
            axs[2].plot(t * 1e3, d["cavity.contact_force"], color=color, lw=1.2,
                        label=f"{label}: cavity.contact_force (λ_N + Λ_N/h)")
            axs[2].axhline(MASS * vt**2 / C, color=color, ls="--", lw=1.0,
                           label=f"exact centripetal force m v_t²/c = {MASS * vt**2 / C:.2f} N")
            k10 = np.searchsorted(t, 0.01)   # sliding, well after the impact (5.5 ms)
            report.append(f"{label}: E(end) = {ke[-1] * 1e3:.4f} mJ vs exact "
                          f"{e_exact * 1e3:.4f} mJ ({ke[-1] / e_exact - 1:+.2%}); change while "
                          f"sliding, 10 ms to the end: {ke[-1] / ke[k10] - 1:+.1e}; contact force "
                          f"{d['cavity.contact_force'][sliding].min():.3f}–"
                          f"{d['cavity.contact_force'][sliding].max():.3f} N, after 10 ms "
                          f"{d['cavity.contact_force'][k10:].min():.3f}–"
                          f"{d['cavity.contact_force'][k10:].max():.3f} N vs exact "
                          f"{MASS * vt**2 / C:.3f} N")
        else:
            axs[1].plot(t[k_end:] * 1e3, (ke[k_end:] / E_AFTER - 1) * 100, color=color, lw=1.4,
                        label=f"{label}: kinetic energy / exact − 1")
            # Impacts: expected every 2 c cos(α)/|v| after the first (α: angle of incidence).
            ax_count = axs[2].twinx()
            ax_count.plot(t * 1e3, d["system.impact_steps"], color=color, lw=1.2,
                          label=f"{label}: impacts so far (system.impact_steps)")
            first = t[np.nonzero(d["system.impact_steps"] > 0)[0][0]]
            k_imp = np.searchsorted(t, first)
            n_hat = x[k_imp] / np.linalg.norm(x[k_imp])
            v_pre = v[k_imp - 1]
            cos_a = abs(n_hat @ v_pre) / np.linalg.norm(v_pre)
            flight = 2 * C * cos_a / np.linalg.norm(V_AFTER)
            ax_count.plot(t * 1e3, np.where(t >= first, 1 + np.floor((t - first) / flight), 0),
                          color=color, ls=":", lw=1.0,
                          label=f"exact (no loss): one per {flight * 1e3:.2f} ms after the first")
            ax_count.set_ylabel("impacts (e = 1)", color=color)
            ax_count.legend(loc="center right", fontsize=8)
            report.append(f"{label}: E(4 ms) = {ke[k_end] * 1e3:.4f} mJ (exact {E_AFTER * 1e3:.4f}), "
                          f"E(end) = {ke[-1] * 1e3:.4f} mJ ({ke[-1] / E_AFTER - 1:+.2%}) after "
                          f"{d['system.impact_steps'][-1]:.0f} impacts (exact, without the loss: "
                          f"{1 + np.floor((t[-1] - first) / flight):.0f}); incidence "
                          f"{np.degrees(np.arccos(cos_a)):.1f}° from the normal, first impact at "
                          f"{first * 1e3:.2f} ms")
        report.append(f"{label}: |L| change {Lnorm[-1] / L0 - 1:+.2%}; min gap {d['cavity.gap'].min():.2e} m, "
                      f"max penetration {d['system.max_penetration'][-1]:.2e} m; contact onsets "
                      f"{d['system.contact_onsets'][-1]:.0f}")
    axs[0].axhline(E_AFTER * 1e3, color="black", ls=":", lw=1.0,
                   label=f"exact after the push (e = 1 keeps it): {E_AFTER * 1e3:.3f} mJ")
    axs[0].axvline(T_PUSH * 1e3, color="tab:green", lw=0.8)
    axs[0].set_ylim(0, 9)
    axs[0].set_ylabel("kinetic energy [mJ]")
    axs[0].set_title("Kinetic energy (starts at 52.3 mJ, off the scale: the push brakes the ball "
                     "during 0–4 ms)")
    axs[0].legend(fontsize=8, loc="upper right")
    axs[0].grid(alpha=0.3)
    axs[1].set_ylabel("change [%]")
    axs[1].set_title("Energy and angular momentum about the cavity centre against their exact "
                     "(conserved) values")
    axs[1].legend(fontsize=8, loc="lower left")
    axs[1].grid(alpha=0.3)
    axs[2].set_ylabel("contact force [N] (e = 0)")
    axs[2].set_ylim(0, 16)
    axs[2].set_xlabel("time t [ms]")
    axs[2].set_title("e = 0: persistent sliding contact force; e = 1: impact count")
    axs[2].legend(fontsize=8, loc="lower left")
    axs[2].grid(alpha=0.3)
    fig.tight_layout()
    written.append(save(fig, folder, "energy.png"))

    for name in written:
        print(name)
    for line in report:
        print(line)


if __name__ == "__main__":
    main()
