#!/usr/bin/env python3
"""The worn crank bearing of examples/estimation_four_bar found by the extended Kalman filter,
by the "three-simulation" method: `clearsim measure` on model.yaml (the truth, c = 0.5 N·m·s)
makes noisy encoder and gyro samples at 1 kHz; `clearsim estimate` runs the filter whose plant
has the wrong friction c = 0.2 (--set) and estimates it (--parameter, σ 0.3).

Usage: /usr/bin/python3 examples/estimation_four_bar/plot.py RESULTS_DIR [CLEARSIM]
Writes RESULTS_DIR/measurements.csv, estimate.csv, truth.csv and estimation_four_bar.png (top:
the damping estimate with its ±3σ band and the truth; bottom: the rocker angle's estimation
error against the truth with its ±3σ band), and prints the final estimate.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "model.yaml")
DAMPING = "forces.crank_bearing.damping"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    cli = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "build",
                                                             "release", "clearsim")
    os.makedirs(out, exist_ok=True)
    meas, est, truth = (os.path.join(out, f) for f in
                        ("measurements.csv", "estimate.csv", "truth.csv"))
    subprocess.run([cli, "measure", MODEL, "--seed", "7", "-o", meas], check=True)
    subprocess.run([cli, "run", MODEL, "-q", "-o", truth], check=True)
    subprocess.run([cli, "estimate", MODEL, "--set", f"{DAMPING}=0.2", "--measurements", meas,
                    "--parameter", f"{DAMPING}=0.3", "-o", est], check=True)
    e, t = pc.read_csv(est), pc.read_csv(truth)
    fig, (a, b) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    c, s = e[DAMPING], e[f"sigma({DAMPING})"]
    a.fill_between(e["time"], c - 3 * s, c + 3 * s, alpha=0.3, label="±3σ")
    a.plot(e["time"], c, label="estimate")
    a.axhline(0.5, color="k", ls="--", label="truth 0.5")
    a.set_ylabel("crank bearing damping [N·m·s]")
    a.set_ylim(0.0, 0.8)
    a.legend()
    err = e["rocker.rotation.z"] - np.interp(e["time"], t["time"], t["rocker.rotation.z"])
    s4 = e["sigma(rocker.rotation.z)"]
    b.fill_between(e["time"], -3 * s4, 3 * s4, alpha=0.3, label="±3σ")
    b.plot(e["time"], err, label="estimate − truth")
    b.set_ylabel("rocker angle error [rad]")
    b.set_xlabel("time [s]")
    b.legend()
    png = os.path.join(out, "estimation_four_bar.png")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(png)
    print(f"damping: {c[-1]:.5f} ± {s[-1]:.5f} N·m·s (truth 0.5, guess 0.2)")


if __name__ == "__main__":
    main()
