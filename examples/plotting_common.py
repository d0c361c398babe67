"""Helpers shared by the example plot scripts (examples/*/plot.py).

Importing this module selects matplotlib's non-interactive Agg backend, so a plot script imports
it before matplotlib.pyplot. The scripts run as `/usr/bin/python3 examples/NAME/plot.py
RESULTS_DIR` and find this module by putting examples/ on sys.path first:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import plotting_common as pc  # noqa: E402
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Slider-crank of reference.md §6a (crank R, rod L, 5000 rpm), the default of slider_closed_form.
CRANK_R, ROD_L = 0.05, 0.12          # [m]
CRANK_OMEGA = 523.5987756            # 5000 rpm [rad/s]

# Marker name and colour of each value of a clearance joint's contact_state channel.
STATE_STYLE = {0: ("free flight", "tab:gray"), 1: ("contact", "tab:blue"),
               2: ("impact", "tab:red")}


def results_dir(holding="results.csv"):
    """The RESULTS_DIR argument of a plot script; exits with a usage message without it."""
    if len(sys.argv) != 2:
        sys.exit(f"usage: plot.py RESULTS_DIR   (the folder holding {holding})")
    return sys.argv[1]


def read_results(folder, stem="results", missing_ok=False):
    """Columns of FOLDER/STEM.csv (written by `clearsim run`) as {channel name: array}.

    With missing_ok, a missing file gives None (for optional variant runs); otherwise it raises.
    """
    path = os.path.join(folder, stem + ".csv")
    if missing_ok and not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        header = next(csv.reader(f))
    data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return {name: data[:, k] for k, name in enumerate(header)}


def save(fig, folder, name):
    """Writes fig to FOLDER/NAME (110 dpi), closes it and returns NAME for the printed list."""
    fig.savefig(os.path.join(folder, name), dpi=110)
    plt.close(fig)
    return name


def slider_closed_form(theta, r=CRANK_R, length=ROD_L, omega=CRANK_OMEGA):
    """x, v, a of the slider at crank angle theta, constant crank speed (reference.md §8.1)."""
    sn, cs = np.sin(theta), np.cos(theta)
    s = np.sqrt(length * length - r * r * sn * sn)
    x = r * cs + s
    v = -r * omega * sn - r * r * omega * sn * cs / s
    a = -r * omega**2 * cs - r * r * omega**2 * (
        (cs * cs - sn * sn) * s * s + r * r * sn * sn * cs * cs) / s**3
    return x, v, a


def clearance_circle(ax, c, lw=1.2, label=None):
    """Draws the clearance circle of radius c [m] centred at the origin, in mm."""
    if label is None:
        label = f"clearance circle, c = {c * 1e3:g} mm"
    phi = np.linspace(0, 2 * np.pi, 361)
    ax.plot(c * 1e3 * np.cos(phi), c * 1e3 * np.sin(phi), color="black", lw=lw, label=label)


def orbit_by_state(ax, x_mm, y_mm, states, c, count_label="rows", ms=2.5, lw=0.4, alpha=1.0):
    """Journal-centre orbit inside the clearance circle (radius c [m]), in mm: the path in grey
    and every output point coloured by its contact state (STATE_STYLE), with equal axes."""
    clearance_circle(ax, c)
    ax.plot(x_mm, y_mm, color="tab:gray", lw=lw, alpha=alpha)
    for s_, (name, color) in STATE_STYLE.items():
        m = states == s_
        ax.plot(x_mm[m], y_mm[m], ".", ms=ms if s_ < 2 else 6, color=color,
                label=f"{name} ({np.count_nonzero(m)} {count_label})")
    lim = 1.2 * c * 1e3
    ax.set_aspect("equal")
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
