#!/usr/bin/env python3
"""Plots of seed 004's herringbone ship reducer (examples/ship_reducer), analytic gear mesh.

Usage: /usr/bin/python3 examples/ship_reducer/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml: the 8 s start-up) and RESULTS_DIR/steady.csv
(steady.yaml: 60 ms at the operating point, every step) and RESULTS_DIR/bristle.csv (bristle
friction; both optional), writes the PNGs below into
RESULTS_DIR, prints their names and then the steady-state figures quoted in the README
(means over 4-8 s of the start-up):
  speeds.png        pinion and wheel speeds [rpm] and the speed ratio against 27/151
  torques.png       motor torque, brake torque referred to the pinion (T_b/u), mesh torque on the
                    pinion
  mesh_forces.png   normal and friction force per helix over the start-up
  mesh_detail.png   at the operating point, five mesh periods: normal force per helix, tooth
                    pairs in contact per helix (3-4), friction power
  power.png         motor power, friction power and the mechanical efficiency of the mesh
                    (wheel mesh power over pinion mesh power, averaged over 20 ms)
  efficiency.png    when RESULTS_DIR/bearings.csv exists (bearings.yaml: the start-up with the
                    shaft bearings' losses): losses of the mesh and the bearings, the power
                    balance's residual, and the machine's efficiency against seed 004's 96-99 %
  mesh_startup.png  when RESULTS_DIR/mesh_startup.csv exists (mesh_startup.yaml: the start-up
                    on triangle meshes): pinion speed, mesh torque on the pinion, friction power
                    and mesh efficiency of both contact models
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import read_results, results_dir, save  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

U = 151 / 27            # gear ratio z2/z1
RPM = 30 / np.pi        # rad/s -> rpm
MU = 0.05               # Coulomb coefficient of model.yaml
H_V = 0.0949            # Ohlendorf's tooth loss factor, reference.md §7.6
H_V_UNIFORM = 0.1124    # the same with the load uniform along the zone of action (README)
STEADY = 4.0            # start of the averaging window [s]


def moving_mean(x, n):
    return np.convolve(x, np.ones(n) / n, mode="same")


def plot_speeds(r, folder):
    t = r["time"]
    w1, w2 = r["pinion.angular_velocity.z"], r["wheel.angular_velocity.z"]
    fig, ax = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    ax[0].plot(t, w1 * RPM, label="pinion")
    ax[0].plot(t, -w2 * RPM, label="wheel (turning about −z)")
    ax[0].axhline(720, color="gray", ls=":", label="720 rpm (curves cross)")
    ax[0].set_ylabel("speed [rpm]")
    ax[0].legend()
    moving = np.abs(w1) > 1.0
    ax[1].plot(t[moving], -w2[moving] / w1[moving], label="ω₂/ω₁ (every 1 ms)")
    ax[1].axhline(27 / 151, color="black", ls="--", label="27/151 = 0.178808")
    ax[1].set_ylim(27 / 151 * 0.99, 27 / 151 * 1.01)
    ax[1].set_ylabel("speed ratio")
    ax[1].set_xlabel("time [s]")
    ax[1].legend()
    fig.suptitle("Ship reducer start-up: speeds and ratio")
    fig.tight_layout()
    return save(fig, folder, "speeds.png")


def plot_torques(r, folder):
    t = r["time"]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(t, r["motor.torque"] / 1e3, label="motor T_m (ramped in over 2 s)")
    ax.plot(t, r["brake.torque"] / U / 1e3, label="brake on the wheel / u")
    ax.plot(t, r["mesh.pinion_torque"] / 1e3, label="mesh torque on the pinion", lw=0.6)
    ax.set_xlabel("time [s]")
    ax.set_ylabel("torque [kN·m]")
    ax.legend()
    fig.tight_layout()
    return save(fig, folder, "torques.png")


def plot_forces(r, folder):
    t = r["time"]
    fig, ax = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    for h in (1, 2):
        ax[0].plot(t, r[f"mesh.normal_force{h}"] / 1e3, label=f"helix {h}", lw=0.8)
        ax[1].plot(t, r[f"mesh.friction_force{h}"] / 1e3, label=f"helix {h}", lw=0.8)
    ax[0].axhline(246.8, color="gray", ls=":", label="246.8 kN at 62.6 kN·m (§6e)")
    ax[0].set_ylabel("ΣF_N per helix [kN]")
    ax[1].set_ylabel("Σ|F_T| per helix [kN]")
    ax[1].set_xlabel("time [s]")
    for a in ax:
        a.legend()
    fig.suptitle("Mesh forces per helix (the two helices coincide)")
    fig.tight_layout()
    return save(fig, folder, "mesh_forces.png")


def plot_detail(s, folder):
    t = s["time"]
    keep = (t >= 0.04) & (t <= 0.04 + 5 / 324.0)
    tm = (t[keep] - 0.04) * 1e3
    fig, ax = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    for h in (1, 2):
        ax[0].plot(tm, s[f"mesh.normal_force{h}"][keep] / 1e3, label=f"helix {h}")
        ax[1].step(tm, s[f"mesh.pairs{h}"][keep] + 0.03 * (h - 1.5), where="post",
                   label=f"helix {h}")
    ax[0].set_ylabel("ΣF_N per helix [kN]")
    ax[1].set_ylabel("tooth pairs in contact")
    ax[1].set_yticks([3, 4])
    ax[2].plot(tm, s["mesh.friction_power"][keep] / 1e3)
    ax[2].set_ylabel("friction power [kW]")
    ax[2].set_xlabel("time from t = 40 ms [ms] (five mesh periods of 3.1 ms)")
    for a in ax[:2]:
        a.legend()
    fig.suptitle("At the operating point (steady.yaml, every step)")
    fig.tight_layout()
    return save(fig, folder, "mesh_detail.png")


def plot_power(r, folder):
    t = r["time"]
    w1, w2 = r["pinion.angular_velocity.z"], r["wheel.angular_velocity.z"]
    p_in = r["mesh.pinion_torque"] * w1
    p_out = -r["mesh.wheel_torque"] * w2
    eta = moving_mean(p_out, 20) / np.maximum(moving_mean(p_in, 20), 1.0)
    fig, ax = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    ax[0].plot(t, r["motor.power"] / 1e6)
    ax[0].set_ylabel("motor power [MW]")
    ax[1].plot(t, r["mesh.friction_power"] / 1e3, lw=0.6)
    p1 = r["motor.power"]
    ax[1].plot(t, MU * H_V * p1 / 1e3, "k--", label="μ H_V P₁ (§7.6)")
    ax[1].plot(t, MU * H_V_UNIFORM * p1 / 1e3, "k:", label="μ H_V,uniform P₁")
    ax[1].set_ylabel("friction power [kW]")
    ax[1].legend()
    late = t > 0.5
    ax[2].plot(t[late], 100 * eta[late])
    ax[2].axhline(100 * (1 - MU * H_V), color="black", ls="--", label="1 − μ H_V")
    ax[2].axhline(100 * (1 - MU * H_V_UNIFORM), color="black", ls=":", label="1 − μ H_V,uniform")
    ax[2].set_ylim(99.0, 100.0)
    ax[2].set_ylabel("mesh efficiency [%]")
    ax[2].set_xlabel("time [s]")
    ax[2].legend()
    fig.tight_layout()
    return save(fig, folder, "power.png")


def mesh_power_ratio(p_in, p_out, n):
    return moving_mean(p_out, n) / np.maximum(moving_mean(p_in, n), 1.0)


def inner_mean(x, n):
    """Moving mean over n rows, NaN where the window runs past either end."""
    y = moving_mean(x, n)
    y[: n // 2] = np.nan
    y[len(y) - n // 2:] = np.nan
    return y


def plot_mesh_startup(r, m, folder):
    """The start-up with both contact models (the same channels); the mesh run writes every
    0.5 ms step, the analytic one every 1 ms: means over 20 ms on both."""
    fig, ax = plt.subplots(4, 1, figsize=(8, 10), sharex=True)
    for d, label, n in ((r, "analytic gear mesh", 20), (m, "triangle meshes", 40)):
        t, w1, w2 = d["time"], d["pinion.angular_velocity.z"], d["wheel.angular_velocity.z"]
        ax[0].plot(t, w1 * RPM, label=label)
        ax[1].plot(t, inner_mean(d["mesh.pinion_torque"], n) / 1e3, label=label)
        ax[2].plot(t, inner_mean(d["mesh.friction_power"], n) / 1e3, label=label)
        eta = mesh_power_ratio(d["mesh.pinion_torque"] * w1, -d["mesh.wheel_torque"] * w2, n)
        eta[len(eta) - n // 2:] = np.nan
        late = t > 0.5
        ax[3].plot(t[late], 100 * eta[late], label=label)
    ax[0].set_ylabel("pinion [rpm]")
    ax[1].set_ylabel("mesh torque on\nthe pinion [kN·m]")
    ax[2].set_ylabel("friction power [kW]")
    ax[3].axhline(100 * (1 - MU * H_V), color="black", ls="--", label="1 − μ H_V")
    ax[3].set_ylim(99.0, 100.0)
    ax[3].set_ylabel("mesh efficiency [%]")
    ax[3].set_xlabel("time [s]")
    for a in ax:
        a.legend()
    fig.suptitle("Start-up: analytic gear mesh (model.yaml) and triangle meshes (mesh_startup.yaml)")
    fig.tight_layout()
    return save(fig, folder, "mesh_startup.png")


def mesh_startup_summary(r, m):
    """Means over t >= STEADY of the mesh-based start-up against the analytic one."""
    def mean(d, k):
        return d[k][d["time"] >= STEADY].mean()
    print(f"mesh_startup.yaml against model.yaml, means over t >= {STEADY} s:")
    for k in ("pinion.angular_velocity.z", "mesh.pinion_torque", "mesh.wheel_torque",
              "mesh.friction_power", "mesh.normal_force1", "mesh.normal_force2", "mesh.pairs1",
              "mesh.pairs2", "mesh.transmission_error"):
        a, b = mean(m, k), mean(r, k)
        print(f"  {k:28s} {a:14.6g} {b:14.6g} {a / b - 1:+.3%}")
    for d, label in ((m, "triangle meshes"), (r, "analytic")):
        pf, pm = mean(d, "mesh.friction_power"), mean(d, "motor.power")
        print(f"  {label}: friction power = {pf / (MU * pm):.4f} μ P, efficiency "
              f"{100 * (1 - pf / pm):.3f} %")
    late = m["time"] >= STEADY
    torque = m["mesh.pinion_torque"][late]
    ratio = -mean(m, "wheel.angular_velocity.z") / mean(m, "pinion.angular_velocity.z")
    print(f"  triangle meshes: ratio {ratio:.8f}, pinion torque ripple "
          f"{torque.std() / torque.mean():.1%} rms, deepest vertex "
          f"{m['mesh.penetration'].max() * 1e6:.1f} µm")


def summary(r):
    t = r["time"]
    m = t >= STEADY
    w1, w2 = r["pinion.angular_velocity.z"][m], r["wheel.angular_velocity.z"][m]
    mean = {k: v[m].mean() for k, v in r.items()}
    p_in = (r["mesh.pinion_torque"][m] * w1).mean()
    p_out = (-r["mesh.wheel_torque"][m] * w2).mean()
    print(f"steady state, means over t >= {STEADY} s:")
    print(f"  pinion {w1.mean() * RPM:.3f} rpm, wheel {-w2.mean() * RPM:.3f} rpm, "
          f"ratio {-w2.mean() / w1.mean():.8f} (27/151 = {27 / 151:.8f})")
    print(f"  motor torque {mean['motor.torque']:.1f} N·m, brake {mean['brake.torque']:.1f} N·m "
          f"on the wheel = {mean['brake.torque'] / U:.1f} N·m at the pinion")
    print(f"  mesh torque pinion {mean['mesh.pinion_torque']:.1f}, wheel "
          f"{mean['mesh.wheel_torque']:.1f} N·m")
    for h in (1, 2):
        print(f"  helix {h}: ΣF_N {mean[f'mesh.normal_force{h}'] / 1e3:.2f} kN "
              f"(min {r[f'mesh.normal_force{h}'][m].min() / 1e3:.2f}, max "
              f"{r[f'mesh.normal_force{h}'][m].max() / 1e3:.2f}), Σ|F_T| "
              f"{mean[f'mesh.friction_force{h}'] / 1e3:.3f} kN, pairs {mean[f'mesh.pairs{h}']:.3f}")
    pf, pm = mean["mesh.friction_power"], mean["motor.power"]
    print(f"  motor power {pm / 1e3:.1f} kW, friction power {pf / 1e3:.2f} kW "
          f"= {pf / (MU * pm):.4f} μ P (H_V {H_V}, uniform {H_V_UNIFORM})")
    print(f"  mesh efficiency {100 * p_out / p_in:.3f} %, brake/motor power "
          f"{-100 * mean['brake.power'] / pm:.3f} %")


BAND = (96.0, 99.0)      # seed 004: the whole gearbox's efficiency [%], bearings and churning in


def plot_efficiency(b, folder):
    """bearings.yaml: where the power goes (means over 20 ms) and the machine's efficiency
    output/input against the seed's 96-99 % band, with the mesh's own."""
    t = b["time"]
    late = t > 0.5
    n = 20
    fig, ax = plt.subplots(3, 1, figsize=(8, 9), sharex=True)
    for k, label in (("power.mesh.loss", "mesh"), ("power.pinion_bearing.loss", "pinion bearing"),
                     ("power.wheel_bearing.loss", "wheel bearing")):
        ax[0].plot(t, inner_mean(b[k], n) / 1e3, label=label)
    ax[0].set_ylabel("loss [kW]")
    ax[0].legend()
    ax[1].plot(t, np.abs(b["power.residual"]) / np.maximum(b["power.input"], 1.0), lw=0.6)
    ax[1].set_yscale("log")
    ax[1].set_ylabel("|residual| / input")
    machine = mesh_power_ratio(b["power.input"], b["power.output"], n)
    mesh = mesh_power_ratio(b["mesh.input_power"], b["mesh.output_power"], n)
    ax[2].axhspan(*BAND, color="tab:green", alpha=0.15, label="seed 004: 96–99 %")
    ax[2].plot(t[late], 100 * machine[late], label="machine: output/input (brake/motor)")
    ax[2].plot(t[late], 100 * mesh[late], label="mesh alone")
    ax[2].set_ylim(95.0, 100.0)
    ax[2].set_ylabel("efficiency [%]")
    ax[2].set_xlabel("time [s]")
    ax[2].legend(loc="lower right")
    fig.suptitle("Ship reducer with its shaft bearings (bearings.yaml): power balance")
    fig.tight_layout()
    return save(fig, folder, "efficiency.png")


def efficiency_summary(b):
    """Means over t >= STEADY of bearings.yaml's power balance."""
    m = b["time"] >= STEADY

    def mean(k):
        return b[k][m].mean()
    p_in, p_out = mean("power.input"), mean("power.output")
    print(f"bearings.yaml, means over t >= {STEADY} s:")
    print(f"  pinion {mean('pinion.angular_velocity.z') * RPM:.3f} rpm, input (motor) "
          f"{p_in / 1e3:.1f} kW, output (brake) {p_out / 1e3:.1f} kW")
    for k in ("mesh", "pinion_bearing", "wheel_bearing"):
        print(f"  loss {k:15s} {mean(f'power.{k}.loss') / 1e3:8.2f} kW "
              f"({100 * mean(f'power.{k}.loss') / p_in:.3f} % of the input)")
    for k in ("pinion_bearing", "wheel_bearing"):
        print(f"  {k}: load {mean(f'{k}.bearing_load') / 1e3:.1f} kN, ε "
              f"{mean(f'{k}.eccentricity_ratio'):.3f}, torque {mean(f'{k}.friction_torque'):.1f} N·m")
    print(f"  stored-energy rate {mean('power.stored_rate') / 1e3:.3f} kW, "
          f"|residual| up to {np.abs(b['power.residual'][m]).max():.3g} W "
          f"({np.abs(b['power.residual'][m] / b['power.input'][m]).max():.2e} of the input)")
    print(f"  machine efficiency {100 * p_out / p_in:.3f} % (seed 004: {BAND[0]:.0f}-{BAND[1]:.0f} %), "
          f"mesh {100 * mean('mesh.output_power') / mean('mesh.input_power'):.3f} %")


def main():
    folder = results_dir()
    r = read_results(folder)
    names = [plot_speeds(r, folder), plot_torques(r, folder), plot_forces(r, folder),
             plot_power(r, folder)]
    s = read_results(folder, "steady", missing_ok=True)
    if s is not None:
        names.append(plot_detail(s, folder))
    m = read_results(folder, "mesh_startup", missing_ok=True)
    if m is not None:
        names.append(plot_mesh_startup(r, m, folder))
    e = read_results(folder, "bearings", missing_ok=True)
    if e is not None:
        names.append(plot_efficiency(e, folder))
    print("\n".join(names))
    summary(r)
    if m is not None:
        mesh_startup_summary(r, m)
    if e is not None:
        efficiency_summary(e)
    b = read_results(folder, "bristle", missing_ok=True)
    if b is not None:
        m = b["time"] >= STEADY
        pf, pm = b["mesh.friction_power"][m].mean(), b["motor.power"][m].mean()
        print(f"bristle.yaml: friction power {pf / 1e3:.2f} kW = {pf / (MU * pm):.4f} μ P, "
              f"brake/motor power {-100 * b['brake.power'][m].mean() / pm:.3f} %")


if __name__ == "__main__":
    main()
