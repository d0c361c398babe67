#!/usr/bin/env python3
"""Where does seed 000's squeeze-film ball stay off the wall? A sweep of the radial clearance c
and the viscosity mu of model.yaml (film over rigid contact, NSGA), everything else as shipped.

Usage: /usr/bin/python3 examples/lubricated_spherical_slider_crank_nsga/sweep.py [OUT_DIR]
       (BUILD=DIR picks the build holding clearsim, default build/release; END=seconds the run
       length, default 0.12 s = 10 revolutions; JOBS=n processes, default 1; RHO=ρ∞, default
       0.5; runs in body poses, solver.coordinates: absolute)
Runs `clearsim sweep` over the grid below, then reads every run's channels and prints one row per
(c, mu): film ruptures (contact onsets, i.e. the ball reached c - e0), the largest eccentricity
ratio over the settled part (from the 3rd revolution on), and the slider acceleration's RMS
distance from the ideal mechanism's closed form over the last two revolutions. Writes
OUT_DIR/sweep_map.png (the region) and OUT_DIR/sweep_region.csv.

Quasi-static estimate (reference.md §6b): the ball stays off the wall if the film can carry the
joint load F (about 1-2.7 kN) for a half cycle t ~ 6 ms within the clearance, F t < C0 c, with
C0 = 6 pi mu r^4 / c^3: mu / c^2 > F t / (6 pi r^4) ~ 1e7-1e8 Pa s/m^2. The sweep finds where.
"""
import csv
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import plotting_common as pc  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
CLEARANCES = [0.05e-3, 0.1e-3, 0.2e-3, 0.5e-3]        # c [m]
VISCOSITIES = [0.1, 0.4, 1.0, 4.0, 10.0, 40.0]         # mu [Pa s]
OMEGA = pc.CRANK_OMEGA
PERIOD = 2.0 * np.pi / OMEGA
E0 = 2.0e-6


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "results",
                                                             "lubricated_nsga_sweep")
    build = os.environ.get("BUILD", os.path.join(ROOT, "build", "release"))
    end = float(os.environ.get("END", "0.12"))
    jobs = os.environ.get("JOBS", "1")
    # ρ∞ = 0.5, not model.yaml's 0.8: a film much stiffer than the step (C h/m ≫ 1) makes
    # generalized-α's slider acceleration chatter from step to step at ρ∞ = 0.8 (README).
    rho = os.environ.get("RHO", "0.5")
    cmd = [os.path.join(build, "clearsim"), "sweep", os.path.join(HERE, "model.yaml"),
           "--vary", "joints.rod_slider.clearance.radial=" + ",".join(f"{c:g}" for c in CLEARANCES),
           "--vary", "joints.rod_slider.clearance.lubricant.viscosity=" +
           ",".join(f"{m:g}" for m in VISCOSITIES),
           "--set", f"solver.end={end}", "--set", "solver.coordinates=absolute",
           "--set", f"solver.rho_inf={rho}",
           "--channel", "slider.acceleration.x",
           "-j", jobs, "-o", out]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=False)
    rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"))))
    table = []
    for r in rows:
        if r["run"] == "reference":
            continue
        c = float(r["joints.rod_slider.clearance.radial"])
        mu = float(r["joints.rod_slider.clearance.lubricant.viscosity"])
        if r["ok"] not in ("1", "true", "True", "yes"):
            table.append((c, mu, None, None, None, None, r.get("error", "")))
            continue
        path = r["csv"] if os.path.isabs(r["csv"]) else os.path.join(out, r["csv"])
        if not os.path.exists(path):
            path = os.path.join(out, os.path.basename(r["csv"]))
        d = pc.read_results(os.path.dirname(path), os.path.basename(path)[:-4])
        t = d["time"]
        settled = t >= 2 * PERIOD
        eps = float(np.max(d["rod_slider.eccentricity_ratio"][settled]))
        last = t >= t[-1] - 2 * PERIOD
        theta = OMEGA * t[last]
        _, _, a_ideal = pc.slider_closed_form(theta)
        rms = float(np.sqrt(np.mean((d["slider.acceleration.x"][last] - a_ideal) ** 2)))
        rms_ideal = float(np.sqrt(np.mean(a_ideal ** 2)))
        table.append((c, mu, int(float(r["contact_onsets"])), eps, rms / rms_ideal,
                      float(r["max_penetration"]), ""))
    print(f"\n{'c [mm]':>7} {'mu [Pa s]':>9} {'mu/c^2':>9} {'ruptures':>8} {'max eps':>8} "
          f"{'RMS(a-a_id)/RMS(a_id)':>21} {'max pen. [m]':>12}")
    with open(os.path.join(out, "sweep_region.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["clearance_m", "viscosity_Pa_s", "film_ruptures", "max_eccentricity_ratio",
                    "rms_accel_over_ideal", "max_penetration_m", "error"])
        for c, mu, n, eps, rel, pen, err in table:
            w.writerow([c, mu, n, eps, rel, pen, err])
            if n is None:
                print(f"{c * 1e3:7.2f} {mu:9.2f} failed: {err}")
                continue
            print(f"{c * 1e3:7.2f} {mu:9.2f} {mu / c ** 2:9.2e} {n:8d} {eps:8.3f} {rel:21.3f} "
                  f"{pen:12.1e}")
    region_figure(out, table, end)


def region_figure(out, table, end):
    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    for c, mu, n, eps, rel, pen, err in table:
        if n is None:
            ax.plot(mu, c * 1e3, "kx", ms=9)
            continue
        off = n == 0
        ax.scatter(mu, c * 1e3, s=260, c=[eps], cmap="viridis", vmin=0.0, vmax=1.0,
                   marker="o" if off else "s", edgecolors="black" if off else "red",
                   linewidths=1.5)
        ax.annotate(f"{eps:.2f}", (mu, c * 1e3), textcoords="offset points", xytext=(0, 12),
                    ha="center", fontsize=7)
    mus = np.logspace(-1.2, 1.8, 50)
    for k, ls in ((1e8, ":"), (1e9, "--")):
        ax.plot(mus, np.sqrt(mus / k) * 1e3, color="gray", ls=ls, lw=1,
                label=f"mu/c² = {k:.0e} Pa·s/m²")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("viscosity mu [Pa·s]")
    ax.set_ylabel("radial clearance c [mm]")
    ax.set_ylim(0.035, 0.7)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("Seed 000 slider–crank, squeeze film over rigid contact (NSGA), "
                 f"0–{end:g} s\ncircle: no film rupture (off the wall); red square: ruptures; "
                 "colour and label: max ε after 2 rev.", fontsize=8)
    fig.tight_layout()
    print(pc.save(fig, out, "sweep_map.png"))


if __name__ == "__main__":
    main()
