#!/usr/bin/env python3
"""Plots of the ideal slider-crank (examples/slider_crank_ideal) against its closed form.

Usage: /usr/bin/python3 examples/slider_crank_ideal/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (written by `clearsim run`), writes the PNGs below into
RESULTS_DIR and prints their names:
  slider_kinematics.png   x, v, a of the slider over two revolutions against reference.md §8.1,
                          and the error over the whole run
  driving_torque.png      crank driving torque and rod-slider joint force against crank angle,
                          with the closed-form (rigid-body) curves and the §6a extremes
  phase_plot.png          slider velocity-acceleration map
  energy_constraints.png  kinetic energy against its closed form, and the constraint violation
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import CRANK_OMEGA, CRANK_R, ROD_L, read_results, results_dir, save, slider_closed_form  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Mechanism data (model.yaml; reference.md §6a/§6b).
R, L = CRANK_R, ROD_L               # crank and rod lengths [m]: 0.05, 0.12
M_CRANK, J_CRANK = 0.30, 1.0e-5     # [kg], [kg·m²]
M_ROD, J_ROD = 0.21, 2.5e-4
M_SLIDER = 0.14
OMEGA = CRANK_OMEGA                 # 5000 rpm [rad/s]
PERIOD = 2.0 * np.pi / OMEGA        # 12.0 ms
TORQUE_PEAK_REF = 138.5             # reference.md §6a [N·m]
FORCE_MIN_REF, FORCE_MAX_REF = 434.0, 2719.0  # reference.md §6a, rod-slider joint force [N]

SIM_STYLE = dict(ls="none", marker="o", ms=2.5, color="tab:blue", label="clearsim")
REF_STYLE = dict(lw=1.0, color="black", zorder=3, label="closed form (reference.md §8.1)")


def rigid_body_loads(theta):
    """Closed-form driving torque, rod-slider force (on the slider) and kinetic energy.

    Kinematics from §8.1 on a fine periodic grid, time derivatives by central differences
    (d/dt = ω d/dθ at constant ω): the torque is dKE/dθ (no gravity, no losses), the force on the
    slider follows from the slider's and the rod's equations of motion.
    """
    n = 36000
    g = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    h = g[1] - g[0]

    def d_dt(f):
        return OMEGA * (np.roll(f, -1) - np.roll(f, 1)) / (2.0 * h)

    ax_, ay_ = R * np.cos(g), R * np.sin(g)          # crank pin A
    bx_, _, abx = slider_closed_form(g)               # slider pin B = (x, 0)
    phi = np.arcsin(-R * np.sin(g) / L)               # rod angle
    gx, gy = 0.5 * (ax_ + bx_), 0.5 * ay_             # rod centre of mass
    vgx, vgy = d_dt(gx), d_dt(gy)
    agx, agy = d_dt(vgx), d_dt(vgy)
    phid = d_dt(phi)
    phidd = d_dt(phid)
    vb = d_dt(bx_)
    ke = (0.5 * M_CRANK * (0.5 * R * OMEGA) ** 2 + 0.5 * J_CRANK * OMEGA**2
          + 0.5 * M_ROD * (vgx**2 + vgy**2) + 0.5 * J_ROD * phid**2 + 0.5 * M_SLIDER * vb**2)
    torque = (np.roll(ke, -1) - np.roll(ke, 1)) / (2.0 * h)   # dKE/dθ
    # Force F on the slider from the rod: x from the slider, y from the rod's moment about A,
    #   J φ̈ + [(G−A) × m a_G]_z = [(B−A) × (−F)]_z.
    fx = M_SLIDER * abx
    dx, dy = bx_ - ax_, -ay_
    moment_g = M_ROD * ((gx - ax_) * agy - (gy - ay_) * agx)
    fy = (dy * fx - J_ROD * phidd - moment_g) / dx
    th = np.mod(theta, 2.0 * np.pi)
    period = lambda f: np.interp(th, np.append(g, 2 * np.pi), np.append(f, f[0]))  # noqa: E731
    return period(torque), period(fx), period(fy), period(ke)


def main():
    folder = results_dir()
    d = read_results(folder)
    t = d["time"]
    theta = OMEGA * t
    x_ref, v_ref, a_ref = slider_closed_form(theta)
    torque_ref, fx_ref, fy_ref, ke_ref = rigid_body_loads(theta)
    x, v, a = d["slider.position.x"], d["slider.velocity.x"], d["slider.acceleration.x"]
    written = []

    # 1. Slider kinematics: overlay over two revolutions, error over the whole run.
    fig, axs = plt.subplots(3, 2, figsize=(12, 8.5), sharex="col")
    two = t <= 2.0 * PERIOD + 1e-12
    tt = np.linspace(0.0, 2.0 * PERIOD, 2000)
    xr, vr, ar = slider_closed_form(OMEGA * tt)
    rows = [("position x", "m", x, x_ref, xr, 1e3, "mm"),
            ("velocity ẋ", "m/s", v, v_ref, vr, 1.0, "m/s"),
            ("acceleration ẍ", "m/s²", a, a_ref, ar, 1e-3, "km/s²")]
    for k, (what, unit, sim, ref, ref_fine, scale, shown) in enumerate(rows):
        ax = axs[k, 0]
        ax.plot(tt * 1e3, ref_fine * scale, **REF_STYLE)
        ax.plot(t[two] * 1e3, sim[two] * scale, **SIM_STYLE)
        ax.set_ylabel(f"slider {what} [{shown}]")
        ax.grid(alpha=0.3)
        ax = axs[k, 1]
        err = sim - ref
        ax.plot(t * 1e3, err, lw=0.6, color="tab:red", label="clearsim − closed form")
        ax.set_ylabel(f"error in {what} [{unit}]")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right", fontsize=8, title=f"max |error| = {np.max(np.abs(err)):.2e} {unit}",
                  title_fontsize=8)
    axs[0, 0].set_title("Slider motion, first two revolutions (12 ms each)")
    axs[0, 1].set_title("Error against the closed form, whole run (25 revolutions)")
    axs[2, 0].set_xlabel("time t [ms]")
    axs[2, 1].set_xlabel("time t [ms]")
    fig.suptitle("Ideal slider–crank at 5000 rpm: generalized-α (ρ∞ = 0.8, h = 10⁻⁵ s) vs exact kinematics")
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    handles, labels = axs[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.27, 0.955), ncol=2, fontsize=8)
    written.append(save(fig, folder, "slider_kinematics.png"))

    # 2. Driving torque and rod-slider joint force against crank angle (all revolutions overlaid).
    deg = np.degrees(np.mod(theta, 2.0 * np.pi))
    order = np.argsort(deg)
    grid = np.linspace(0.0, 2.0 * np.pi, 1441)
    tq_fine, fx_fine, fy_fine, _ = rigid_body_loads(grid)
    torque = d["crank_speed.torque"]
    force = np.hypot(d["rod_slider.force.x"], d["rod_slider.force.y"])
    fig, axs = plt.subplots(2, 1, figsize=(10, 8), sharex=True)
    ax = axs[0]
    ax.plot(np.degrees(grid), tq_fine, **{**REF_STYLE, "label": "closed form, dKE/dθ"})
    ax.plot(deg[order], torque[order], **{**SIM_STYLE, "label": "clearsim, crank_speed.torque"})
    for sgn in (1, -1):
        ax.axhline(sgn * TORQUE_PEAK_REF, ls="--", lw=0.8, color="tab:green",
                   label="±138.5 N·m (reference.md §6a)" if sgn > 0 else None)
    ax.set_ylabel("driving torque on the crank [N·m]")
    ax.set_title(f"Driving torque: clearsim peak {torque.max():+.1f} / {torque.min():+.1f} N·m "
                 f"(sampled every 3°), closed form ±{np.max(np.abs(tq_fine)):.1f} N·m")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    ax = axs[1]
    ax.plot(np.degrees(grid), np.hypot(fx_fine, fy_fine), **{**REF_STYLE, "label": "closed form"})
    ax.plot(deg[order], force[order], **{**SIM_STYLE, "label": "clearsim, |rod_slider.force|"})
    for val in (FORCE_MIN_REF, FORCE_MAX_REF):
        ax.axhline(val, ls="--", lw=0.8, color="tab:green",
                   label="434 N and 2719 N (reference.md §6a)" if val == FORCE_MIN_REF else None)
    ax.set_ylabel("rod–slider joint force |F| [N]")
    ax.set_xlabel("crank angle θ [deg] (all 25 revolutions overlaid)")
    ax.set_title(f"Rod–slider joint force: clearsim {force.min():.0f} N to {force.max():.0f} N")
    ax.set_xticks(np.arange(0, 361, 45))
    ax.grid(alpha=0.3)
    ax.legend(loc="upper center", fontsize=8)
    fig.tight_layout()
    written.append(save(fig, folder, "driving_torque.png"))

    # 3. Velocity-acceleration phase plot.
    fig, ax = plt.subplots(figsize=(7.5, 6.5))
    th_fine = np.linspace(0.0, 2.0 * np.pi, 2000)
    _, vf, af = slider_closed_form(th_fine)
    ax.plot(vf, af * 1e-3, **REF_STYLE)
    ax.plot(v, a * 1e-3, **{**SIM_STYLE, "ms": 1.5, "label": "clearsim (25 revolutions)"})
    ax.plot(v[0], a[0] * 1e-3, "s", color="tab:orange", ms=7, label="t = 0 (θ = 0, dead centre)")
    ax.set_xlabel("slider velocity ẋ [m/s]")
    ax.set_ylabel("slider acceleration ẍ [km/s²]")
    ax.set_title("Slider velocity–acceleration map, ideal joints\n"
                 "(a clearance joint turns this single loop into a scattered band)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    written.append(save(fig, folder, "phase_plot.png"))

    # 4. Kinetic energy and constraint violation.
    fig, axs = plt.subplots(2, 1, figsize=(10, 7))
    ax = axs[0]
    ax.plot(t[two] * 1e3, ke_ref[two], **{**REF_STYLE, "label": "closed form"})
    ax.plot(t[two] * 1e3, d["system.kinetic_energy"][two], **SIM_STYLE)
    ax.set_ylabel("kinetic energy [J]")
    ax.set_xlabel("time t [ms]")
    ke_err = np.max(np.abs(d["system.kinetic_energy"] - ke_ref))
    ax.set_title(f"Kinetic energy, first two revolutions (max error over the run {ke_err:.1e} J)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    ax = axs[1]
    viol = np.maximum(d["system.constraint_violation"], 1e-18)
    ax.semilogy(t * 1e3, viol, lw=0.5, color="tab:purple", label="‖Φ‖∞ (system.constraint_violation)")
    ax.set_ylabel("constraint violation ‖Φ‖∞ [m, rad]")
    ax.set_xlabel("time t [ms]")
    ax.set_title(f"Constraint violation, whole run (max {d['system.constraint_violation'].max():.1e}; "
                 "floor at 10⁻¹⁸ for the log scale)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    written.append(save(fig, folder, "energy_constraints.png"))

    for name in written:
        print(name)


if __name__ == "__main__":
    main()
