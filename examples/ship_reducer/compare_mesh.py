#!/usr/bin/env python3
"""Mesh-based against analytic contact at the operating point: means over the same whole mesh
periods of mesh.csv (mesh.yaml, triangle-mesh contact) and steady.csv (steady.yaml, analytic).

usage: compare_mesh.py RESULTS_DIR  (the folder scripts/run-example ship_reducer writes)
"""
import csv
import math
import sys

PERIODS = 10  # whole mesh periods ending at mesh.csv's last row


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def mean(data, key, t0, t1):
    vals = [v for t, v in zip(data["time"], data[key]) if t0 <= t <= t1 + 1e-12]
    return sum(vals) / len(vals)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "results/ship_reducer"
    mesh, analytic = read(f"{out}/mesh.csv"), read(f"{out}/steady.csv")
    t1 = mesh["time"][-1]
    omega = mean(mesh, "pinion.angular_velocity.z", 0.0, t1)
    t0 = t1 - PERIODS * 2.0 * math.pi / (27.0 * omega)
    rows = [
        ("pinion speed [rpm]", mean(mesh, "pinion.angular_velocity.z", t0, t1) * 30 / math.pi,
         mean(analytic, "pinion.angular_velocity.z", t0, t1) * 30 / math.pi),
        ("mesh torque on the pinion [N·m]", -mean(mesh, "mesh.torque_i.z", t0, t1),
         mean(analytic, "mesh.pinion_torque", t0, t1)),
        # torque_j.x: about the wheel's body x = world +z; the analytic channel is about −z
        ("mesh torque on the wheel [N·m]", -mean(mesh, "mesh.torque_j.x", t0, t1),
         mean(analytic, "mesh.wheel_torque", t0, t1)),
        ("friction power [W]", mean(mesh, "mesh.friction_power", t0, t1),
         mean(analytic, "mesh.friction_power", t0, t1)),
        ("ΣF_N, both helices [N]", mean(mesh, "mesh.normal_force", t0, t1),
         mean(analytic, "mesh.normal_force1", t0, t1) + mean(analytic, "mesh.normal_force2", t0, t1)),
        ("motor torque [N·m]", mean(mesh, "motor.torque", t0, t1), mean(analytic, "motor.torque", t0, t1)),
    ]
    print(f"means over t = {t0 * 1e3:.2f}–{t1 * 1e3:.2f} ms ({PERIODS} mesh periods)")
    print(f"{'quantity':34s} {'mesh':>14s} {'analytic':>14s} {'mesh/analytic - 1':>18s}")
    for name, m, a in rows:
        print(f"{name:34s} {m:14.6g} {a:14.6g} {m / a - 1:18.4%}")
    for name, data, key, sign in (("mesh", mesh, "mesh.torque_i.z", -1.0),
                                  ("analytic", analytic, "mesh.pinion_torque", 1.0)):
        vals = [sign * v for t, v in zip(data["time"], data[key]) if t0 <= t <= t1 + 1e-12]
        m = sum(vals) / len(vals)
        rms = math.sqrt(sum((v - m) ** 2 for v in vals) / len(vals))
        print(f"pinion torque ripple, {name}: {min(vals):.0f} to {max(vals):.0f} N·m, "
              f"rms {rms / m:.1%} of the mean")
    print(f"mesh regions: mean {mean(mesh, 'mesh.regions', t0, t1):.2f}, largest penetration "
          f"{max(mesh['mesh.penetration']) * 1e6:.2f} µm, unresolved pairs (max) "
          f"{max(mesh['mesh.unresolved_pairs']):.0f}")


if __name__ == "__main__":
    main()
