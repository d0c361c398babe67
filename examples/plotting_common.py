"""Functions the example plot scripts (examples/*/plot.py) call.

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
    return read_csv(path)


def read_csv(path):
    """Columns of a CSV written by clearsim (run, estimate, measure) as {column name: array}."""
    # The '#' lines before the header (clearsim's version, the units) are comments to skip.
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    header = next(csv.reader(lines[:1]))
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    return {name: data[:, k] for k, name in enumerate(header)}


def read_cases(folder, cases):
    """The runs of `cases` ((stem, file, title, colour), ...) whose STEM.csv exists in FOLDER, as
    (stem, file, title, colour, data); missing variants are skipped."""
    runs = []
    for stem, file, title, color in cases:
        d = read_results(folder, stem, missing_ok=True)
        if d is not None:
            runs.append((stem, file, title, color, d))
    return runs


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


def verdict(failures, success):
    """An example's judge: each failure as 'FAIL: ...' and exit status 1, or `success`."""
    for f in failures:
        print(f"FAIL: {f}")
    if failures:
        sys.exit(1)
    print(success)


def last_window(d, span):
    """Mask of the rows of d in the last `span` seconds of its run."""
    t = d["time"]
    return t >= t[-1] - span - 1e-12


def rms_distance(d, ideal, channel, span):
    """RMS of (case − ideal) of `channel` over the last `span` seconds, the ideal interpolated at
    the case's output times."""
    m = last_window(d, span)
    ref = np.interp(d["time"][m], ideal["time"], ideal[channel])
    return float(np.sqrt(np.mean((d[channel][m] - ref) ** 2)))


def crank_degrees(d, m, omega):
    """Crank angle over the rows m, from 0 at the first one (constant crank speed ω: θ = ω t;
    windows start at a whole revolution)."""
    t = d["time"][m]
    return np.degrees(omega * (t - t[0]))


def slider_quantity_figure(folder, runs, ideal, channel, ylabel, scale, clip, name, what, *,
                           span, omega, ideal_style, panel_height, window_note, xlabel, title):
    """One panel per run (stem, file, title, colour, data) of a slider channel over the last
    `span` seconds against the crank angle, each on the ideal curve, titled with its RMS distance
    to the ideal and its largest |value|; the axis is clipped at ±clip when given."""
    mi = last_window(ideal, span)
    fig, axs = plt.subplots(len(runs), 1, figsize=(11, panel_height * len(runs) + 0.8),
                            sharex=True)
    for ax, (stem, file, label, color, d) in zip(np.atleast_1d(axs), runs):
        m = last_window(d, span)
        y = d[channel][m]
        ax.plot(crank_degrees(d, m, omega), y * scale, color=color, lw=0.7, label=label)
        ax.plot(crank_degrees(ideal, mi, omega), ideal[channel][mi] * scale, **ideal_style)
        clipped = clip is not None and np.abs(y).max() > clip
        if clipped:
            ax.set_ylim(-clip * scale, clip * scale)
        unit = "m/s²" if "acceleration" in channel else "m/s"
        ax.set_title(f"{file}: RMS distance to ideal {rms_distance(d, ideal, channel, span):.3g} "
                     f"{unit}{window_note}, max |{what}| {np.abs(y).max():.3g} {unit}"
                     + (" (axis clipped)" if clipped else ""), fontsize=9)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=7)
    ax = np.atleast_1d(axs)[-1]
    ax.set_xlabel(xlabel)
    ax.set_xticks(np.arange(0, 721, 90))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return save(fig, folder, name)


def one_dof_reference(k, theta0, omega0, t, h=1e-4):
    """θ(t) of θ̈ = −k cos θ (the IFToMM A01 pendulum and A02 parallelogram branch), by classical
    RK4 with step h, at the times t (multiples of h); its error is far below the plots' scale."""
    out = np.empty(len(t))
    th, w, now = theta0, omega0, 0.0
    for i, target in enumerate(t):
        for _ in range(int(round((target - now) / h))):
            k1t, k1w = w, -k * np.cos(th)
            k2t, k2w = w + 0.5 * h * k1w, -k * np.cos(th + 0.5 * h * k1t)
            k3t, k3w = w + 0.5 * h * k2w, -k * np.cos(th + 0.5 * h * k2t)
            k4t, k4w = w + h * k3w, -k * np.cos(th + h * k3t)
            th += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t)
            w += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w)
        now = target
        out[i] = th
    return out


def iftomm_path_figure(folder, d, xk, yk, k, theta0, omega0, title, name):
    """Tracked point x, y against the 1-DOF reference, its error, and the energy change."""
    t = d["time"][::10]
    th = one_dof_reference(k, theta0, omega0, t)
    x, y = d[xk][::10], d[yk][::10]
    fig, ax = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    ax[0].plot(t, x, color="tab:blue", lw=1.2, label="x, clearsim")
    ax[0].plot(t, y, color="tab:orange", lw=1.2, label="y, clearsim")
    ax[0].plot(t, np.cos(th), "k:", lw=1.0, label="exact (1-DOF equation)")
    ax[0].plot(t, np.sin(th), "k:", lw=1.0)
    ax[0].set_ylabel("position [m]")
    ax[0].legend(loc="upper right", fontsize=8)
    ax[0].set_title(title)
    ax[1].semilogy(t, np.maximum(np.hypot(x - np.cos(th), y - np.sin(th)), 1e-16), lw=1.0)
    ax[1].axhline(1e-3, color="tab:red", ls="--", lw=0.8, label="high-precision level 1e-3 m")
    ax[1].set_ylabel("distance from exact [m]")
    ax[1].legend(loc="lower right", fontsize=8)
    e = d["system.total_energy"]
    ax[2].plot(d["time"], e - e[0], lw=1.0)
    ax[2].set_ylabel("E(t) − E(0) [J]")
    ax[2].set_xlabel("time [s]")
    fig.tight_layout()
    return save(fig, folder, name)
