#!/usr/bin/env python3
"""Plot of the IFToMM A05 stiff flyball governor (examples/iftomm_a05_flyball_governor).

Usage: /usr/bin/python3 examples/iftomm_a05_flyball_governor/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv and writes flyball_governor.png: the slider coordinate s(t) (the
benchmark's reference output), the shaft's speed (not driven: it falls when the balls swing out)
and the energy balance T + V + W_d - E0, W_d the work the two dampers dissipated (trapezoidal
rule on their power over the written rows, so it adds the quadrature error of the output
spacing).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

folder = pc.results_dir()
d = pc.read_results(folder)
t = d["time"]
fig, ax = plt.subplots(3, 1, figsize=(8, 7.5), sharex=True)
ax[0].plot(t, d["slider.position.z"], lw=1.2)
ax[0].set_ylabel("s [m]")
ax[0].set_title("IFToMM A05 stiff flyball governor")
ax[1].plot(t, d["shaft.angular_velocity.z"], lw=1.2, color="tab:orange")
ax[1].set_ylabel("shaft speed [rad/s]")
p = d["coupler1.power"] + d["coupler2.power"]
w = np.concatenate(([0.0], np.cumsum(0.5 * (p[1:] + p[:-1]) * np.diff(t))))
e = d["system.total_energy"]
ax[2].plot(t, e + w - e[0], lw=1.0, label="T + V + W_d − E₀")
ax[2].plot(t, -w, lw=1.0, ls="--", label="−W_d (dampers)")
ax[2].set_ylabel("energy [J]")
ax[2].set_xlabel("time [s]")
ax[2].legend(loc="lower left", fontsize=8)
fig.tight_layout()
print(pc.save(fig, folder, "flyball_governor.png"))
