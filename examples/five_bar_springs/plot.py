#!/usr/bin/env python3
"""Plots of the five-bar linkage with springs (examples/five_bar_springs).

Usage: /usr/bin/python3 examples/five_bar_springs/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (written by `clearsim run`), writes into RESULTS_DIR:
  motion.png   the apex C's path, with the linkage drawn at the start, and the left crank's
               angle and both springs' forces over the run
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import read_results, results_dir, save  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# The start of model.yaml: O1, B, C, D, O5 [m] and the springs' ground points.
START = np.array([[0, 0], [0, 0.5], [0.5, 1.3660254], [1.0, 0.5], [1.0, 0]])
SPRING_GROUND = {"knee_spring": ([-0.5, 1.2], 1), "apex_spring": ([1.3, 2.0], 2)}

out = results_dir()
d = read_results(out)
t = d["time"]
fig, (path_ax, time_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
path_ax.plot(START[:, 0], START[:, 1], "k-o", lw=2, ms=4, label="linkage at the start")
for name, (ground, joint) in SPRING_GROUND.items():
    path_ax.plot([ground[0], START[joint, 0]], [ground[1], START[joint, 1]], ":", lw=1.5,
                 label=name)
path_ax.plot(d["apex.position.x"], d["apex.position.y"], lw=1.2, color="tab:red",
             label="apex C's path")
path_ax.set_aspect("equal")
path_ax.set_xlabel("x [m]")
path_ax.set_ylabel("y [m]")
path_ax.legend(fontsize=8)
path_ax.grid(alpha=0.3)
time_ax.plot(t, np.degrees(d["left_crank.rotation.z"]), color="tab:blue")
time_ax.set_xlabel("t [s]")
time_ax.set_ylabel("left crank angle [deg]", color="tab:blue")
force_ax = time_ax.twinx()
for name in SPRING_GROUND:
    force_ax.plot(t, d[f"{name}.force"], lw=1, ls="--", label=f"{name} force")
force_ax.set_ylabel("spring force [N]")
force_ax.legend(fontsize=8, loc="lower right")
time_ax.grid(alpha=0.3)
fig.suptitle("Five-bar linkage with two spring–dampers, released from rest under gravity")
print(save(fig, out, "motion.png"))
