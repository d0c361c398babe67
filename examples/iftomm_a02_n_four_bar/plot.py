#!/usr/bin/env python3
"""Plot of the IFToMM A02 N-four-bar (examples/iftomm_a02_n_four_bar).

Usage: /usr/bin/python3 examples/iftomm_a02_n_four_bar/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv and writes b0_path.png: x, y of B₀ against the parallelogram
branch (3 θ̈ = −3.5 g cos θ, θ(0) = 90°, θ̇(0) = −1 rad/s), the distance between them (each
y = 0 is a singular flat position), and the change of the total energy.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import numpy as np  # noqa: E402

import plotting_common as pc  # noqa: E402

folder = pc.results_dir()
d = pc.read_results(folder)
print(pc.iftomm_path_figure(folder, d, "B0.position.x", "B0.position.y", 3.5 * 9.81 / 3.0,
                            np.pi / 2.0, -1.0, "IFToMM A02 N-four-bar, N = 2: point B₀",
                            "b0_path.png"))
