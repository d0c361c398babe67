#!/usr/bin/env python3
"""Plot of the IFToMM A01 simple pendulum (examples/iftomm_a01_pendulum).

Usage: /usr/bin/python3 examples/iftomm_a01_pendulum/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv and writes pendulum.png: x, y of the mass against the exact
motion (θ̈ = −(g/L) cos θ from rest at the horizontal), the distance between them, and the
change of the total energy.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402

folder = pc.results_dir()
d = pc.read_results(folder)
print(pc.iftomm_path_figure(folder, d, "bob.position.x", "bob.position.y", 9.81, 0.0, 0.0,
                            "IFToMM A01 simple pendulum (period 2.367842 s)", "pendulum.png"))
