#!/usr/bin/env python3
"""The motor torque of examples/estimation_motor_torque found from the crank encoder alone, by
the "three-simulation" method: `clearsim measure` on model.yaml (the truth, whose motor torque
T(t) = 1 + 0.5 sin(2π·1 t) N·m turns the crank) makes noisy encoder samples at 1 kHz;
`clearsim estimate` runs the filter whose plant knows the torque as one number, 0 (--set), and
estimates it as a random walk (--parameter PATH=SIGMA:WALK, docs/estimation.md, "Unknown
inputs").

Usage: /usr/bin/python3 examples/estimation_motor_torque/plot.py RESULTS_DIR [--quick]
           [--filter ekf|ukf] [--walk W] [--clearsim PATH]
Writes RESULTS_DIR/measurements.csv, truth.csv, estimate.csv and estimation_motor_torque.png
(top: the true torque, its estimate and ±3σ band; middle and bottom: the crank angle's and
speed's estimation errors with their ±3σ bands) and prints the figures over the second half of
the run. Exits 1 when the estimate does not track the truth:
  - fewer than 95 % of the second half's samples within the reported ±3σ of the truth, or
  - its RMS error above 20 % of the torque's amplitude (0.1 N·m), or
  - its σ at the end above a fifth of the prior's (the encoder did not observe the torque).
--quick (the test) runs 2 s (two periods of the torque) instead of 4 s. --walk 0 (a constant
torque) must fail: the estimate then settles and cannot follow the sinusoid.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "model.yaml")
TORQUE = "forces.motor.torque[2]"      # the plant's torque: one number, estimated
AMPLITUDE = 0.5                        # the truth's sinusoid about 1 N·m [N·m] (model.yaml)
PRIOR_SIGMA = 1.0                      # σ of the plant's guess 0 [N·m]


def arguments():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--quick", action="store_true", help="2 s instead of 4 s (the test)")
    p.add_argument("--filter", default="ekf", choices=["ekf", "ukf"])
    p.add_argument("--walk", type=float, default=0.5, help="random walk [N·m/√s]")
    p.add_argument("--clearsim", default=os.path.join(HERE, "..", "..", "build", "release",
                                                      "clearsim"))
    return p.parse_args()


def run(a):
    """Truth, measurements and estimate (the three simulations); their tables."""
    end = ["--set", "solver.end=2"] if a.quick else []
    meas, est, truth = (os.path.join(a.out, f) for f in
                        ("measurements.csv", "estimate.csv", "truth.csv"))
    subprocess.run([a.clearsim, "measure", MODEL, *end, "--seed", "7", "-o", meas], check=True)
    subprocess.run([a.clearsim, "run", MODEL, *end, "-q", "-o", truth], check=True)
    subprocess.run([a.clearsim, "estimate", MODEL, *end, "--set", f"{TORQUE}=0",
                    "--measurements", meas, "--parameter", f"{TORQUE}={PRIOR_SIGMA}:{a.walk}",
                    "--filter", a.filter, "-o", est], check=True)
    return pc.read_csv(est), pc.read_csv(truth)


def errors(e, t, name):
    """Estimate − truth of channel `name` at the estimate's times (an angle's modulo 2π: the
    encoder's channel wraps at ±π), and its σ."""
    err = e[name] - np.interp(e["time"], t["time"], t[name])
    if name.endswith(".angle"):
        err = np.remainder(err + np.pi, 2 * np.pi) - np.pi
    return err, e[f"sigma({name})"]


def plot(e, t, out):
    fig, axes = plt.subplots(3, 1, figsize=(7, 8), sharex=True)
    c, s = e[TORQUE], e[f"sigma({TORQUE})"]
    axes[0].fill_between(e["time"], c - 3 * s, c + 3 * s, alpha=0.3, label="±3σ")
    axes[0].plot(e["time"], c, label="estimate")
    axes[0].plot(t["time"], t["motor.torque.z"], "k--", label="truth")
    axes[0].set_ylabel("motor torque [N·m]")
    axes[0].set_ylim(-0.5, 2.5)
    axes[0].legend(loc="upper right")
    for ax, name, label in ((axes[1], "crank_bearing.angle", "crank angle error [rad]"),
                            (axes[2], "crank_bearing.angular_velocity",
                             "crank speed error [rad/s]")):
        err, sig = errors(e, t, name)
        ax.fill_between(e["time"], -3 * sig, 3 * sig, alpha=0.3, label="±3σ")
        ax.plot(e["time"], err, lw=0.6, label="estimate − truth")
        ax.set_ylabel(label)
        ax.legend(loc="upper right")
    axes[2].set_xlabel("time [s]")
    png = os.path.join(out, "estimation_motor_torque.png")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


def judge(e, t):
    """The figures over the second half of the run; the failures."""
    half = e["time"] >= e["time"][-1] / 2
    err = e[TORQUE] - np.interp(e["time"], t["time"], t["motor.torque.z"])
    sig = e[f"sigma({TORQUE})"]
    rms = np.sqrt(np.mean(err[half] ** 2))
    inside = np.mean(np.abs(err[half]) <= 3 * sig[half])
    print(f"torque: RMS error {rms:.4f} N·m ({100 * rms / AMPLITUDE:.1f} % of the amplitude), "
          f"mean σ {np.mean(sig[half]):.4f} N·m, {100 * inside:.1f} % within ±3σ "
          f"(second half); σ at the end {sig[-1]:.4f} N·m (prior {PRIOR_SIGMA})")
    for name in ("crank_bearing.angle", "crank_bearing.angular_velocity"):
        ec, sc = errors(e, t, name)
        print(f"{name}: RMS error {np.sqrt(np.mean(ec[half] ** 2)):.3g}, "
              f"{100 * np.mean(np.abs(ec[half]) <= 3 * sc[half]):.1f} % within ±3σ")
    failures = []
    if inside < 0.95:
        failures.append(f"only {100 * inside:.1f} % of the torque's samples within ±3σ")
    if rms > 0.2 * AMPLITUDE:
        failures.append(f"torque RMS error {rms:.4f} N·m above 20 % of the amplitude")
    if sig[-1] > 0.2 * PRIOR_SIGMA:
        failures.append(f"torque σ {sig[-1]:.4f} N·m: the encoder did not observe it")
    return failures


def main():
    a = arguments()
    os.makedirs(a.out, exist_ok=True)
    e, t = run(a)
    plot(e, t, a.out)
    pc.verdict(judge(e, t), "the estimate tracks the true torque")


if __name__ == "__main__":
    main()
