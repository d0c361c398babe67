#!/usr/bin/env python3
"""Plot of the IFToMM A04 Bricard mechanism (examples/iftomm_a04_bricard).

Usage: /usr/bin/python3 examples/iftomm_a04_bricard/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv and writes bricard.png: the path of the joint point P3 and the
change of the total energy T + V (conserved: no friction, no damping).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotting_common as pc  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

folder = pc.results_dir()
d = pc.read_results(folder)
t = d["time"]
fig, ax = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
for c, color in (("x", "tab:blue"), ("y", "tab:orange"), ("z", "tab:green")):
    ax[0].plot(t, d["P3.position." + c], color=color, lw=1.2, label="P3 " + c)
ax[0].set_ylabel("position [m]")
ax[0].legend(loc="upper right", fontsize=8)
ax[0].set_title("IFToMM A04 Bricard's mechanism")
e = d["system.total_energy"]
ax[1].plot(t, e - e[0], lw=1.0)
ax[1].axhline(1e-5, color="tab:red", ls="--", lw=0.8)
ax[1].axhline(-1e-5, color="tab:red", ls="--", lw=0.8, label="±1e-5 J (issue 13)")
ax[1].set_ylabel("E(t) − E(0) [J]")
ax[1].set_xlabel("time [s]")
ax[1].legend(loc="lower right", fontsize=8)
fig.tight_layout()
print(pc.save(fig, folder, "bricard.png"))
