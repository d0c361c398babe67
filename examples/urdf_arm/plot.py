#!/usr/bin/env python3
"""End-effector path of the URDF arm (examples/urdf_arm) with 0.1 deg of backlash per joint
against the ideal arm.

Usage: /usr/bin/python3 examples/urdf_arm/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (model.yaml, backlash) and RESULTS_DIR/model_ideal.csv
(model_ideal.yaml), writes RESULTS_DIR/tip_path.png (the tip's path seen from above, the components of
its deviation from the ideal tip, and their norm over time) and prints the deviation quoted in the
README: max and RMS over the move (0.2-1.2 s) and over the hold (1.2-2 s).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

MOVE, HOLD = (0.2, 1.2), (1.2, 2.0)  # [s], the drivers' smooth steps and the hold after them


def read(folder, stem):
    """A run's columns by channel name (a unit in the header, `name [unit]`, is dropped)."""
    return {k.split(" [")[0]: v for k, v in pc.read_results(folder, stem).items()}


def tip(d):
    return np.column_stack([d["tip.position.x"], d["tip.position.y"], d["tip.position.z"]])


def main():
    folder = pc.results_dir()
    play = read(folder, "results")
    ideal = read(folder, "model_ideal")
    t = play["time"]
    if len(t) != len(ideal["time"]) or np.max(np.abs(t - ideal["time"])) > 1e-12:
        sys.exit("plot.py: the two runs have different output times")
    p, q = tip(play), tip(ideal)
    dist = np.linalg.norm(p - q, axis=1)

    fig, ax = plt.subplots(1, 3, figsize=(15, 4.5))
    ax[0].plot(q[:, 0], q[:, 1], "k--", lw=1.0, label="ideal transmissions")
    ax[0].plot(p[:, 0], p[:, 1], "tab:red", lw=0.8, label="0.1° backlash per joint")
    ax[0].set_xlabel("x [m]")
    ax[0].set_ylabel("y [m]")
    ax[0].set_title("tip path seen from above")
    ax[0].set_aspect("equal", adjustable="datalim")
    ax[0].legend(fontsize=8)
    # The paths differ by millimetres on a 1 m arm: the difference itself, component by component.
    for k, color in enumerate(["tab:blue", "tab:green", "tab:purple"]):
        ax[1].plot(t, 1e3 * (p[:, k] - q[:, k]), color=color, lw=0.8, label=f"Δ{'xyz'[k]}")
    ax[1].set_xlabel("t [s]")
    ax[1].set_ylabel("tip with backlash − ideal tip [mm]")
    ax[1].set_title("tip deviation, world components")
    ax[1].legend(fontsize=8)
    ax[2].plot(t, 1e3 * dist, "tab:red", lw=0.8)
    ax[2].axvspan(*MOVE, color="0.9", label="motors moving")
    ax[2].set_xlabel("t [s]")
    ax[2].set_ylabel("distance from the ideal tip [mm]")
    ax[2].set_title("tip deviation")
    ax[2].legend(fontsize=8)
    pc.save(fig, folder, "tip_path.png")

    for name, (a, b) in [("move", MOVE), ("hold", HOLD)]:
        w = (t >= a) & (t <= b)
        print(f"tip deviation during the {name} ({a}-{b} s): max {1e3 * dist[w].max():.3f} mm, "
              f"RMS {1e3 * np.sqrt(np.mean(dist[w] ** 2)):.3f} mm")
    print(f"tip deviation at rest before the move (t = 0.19 s): "
          f"{1e3 * dist[np.searchsorted(t, 0.19)]:.3f} mm")


if __name__ == "__main__":
    main()
