#!/usr/bin/env python3
"""Plots of the NSGA bouncing ball (examples/bouncing_ball) against reference.md §8.2.

Usage: /usr/bin/python3 examples/bouncing_ball/plot.py RESULTS_DIR
Reads RESULTS_DIR/results.csv (written by `clearsim run`), writes the PNGs below into
RESULTS_DIR and prints their names, then a few checked numbers:
  bounce_height_velocity.png  height of the ball's lowest point and its vertical velocity against
                              time, with the analytic apexes e^{2k} h0, impact speeds e^k v1,
                              impact times and the Zeno time t_inf = 8.579 s
  apex_ratio.png              measured apex ratio h_k / h_{k-1} against e², and the apex error
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from plotting_common import read_results, results_dir, save  # noqa: E402  (selects the Agg backend)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# Data of model.yaml (reference.md §8.2).
G = 9.81            # [m/s²]
H0 = 1.0            # drop height of the lowest point [m]
E = 0.9             # restitution
T1 = np.sqrt(2.0 * H0 / G)          # first impact, 0.4515 s
V1 = np.sqrt(2.0 * G * H0)          # first impact speed, 4.429 m/s
T_INF = T1 * (1.0 + E) / (1.0 - E)  # Zeno time, 8.579 s


def analytic(n):
    """Impact times t_k (k = 1..n), and apex times and heights after impact k."""
    t_imp = [T1]
    for k in range(1, n):
        t_imp.append(t_imp[-1] + 2.0 * E**k * V1 / G)
    t_imp = np.array(t_imp)
    k = np.arange(1, n + 1)
    return t_imp, t_imp + E**k * V1 / G, E ** (2 * k) * H0


def measured_apexes(t, z, v, state):
    """Apexes: rows where the velocity changes from > 0 to <= 0 in free flight (refined by a
    parabola). The free-flight condition leaves out the ball lying on the floor after t_inf,
    whose velocity is zero to ~1e-178 m/s and changes sign from row to row."""
    out = []
    flying = state == 0
    for k in np.nonzero((v[:-1] > 0) & (v[1:] <= 0) & flying[:-1] & flying[1:])[0]:
        if 0 < k < len(t) - 2:
            # Free flight: z is a parabola in t; fit through three points around the apex.
            tt, zz = t[k - 1:k + 2], z[k - 1:k + 2]
            c = np.polyfit(tt - tt[1], zz, 2)
            ta = -c[1] / (2 * c[0])
            out.append((tt[1] + ta, np.polyval(c, ta)))
    return np.array(out)


def main():
    folder = results_dir()
    d = read_results(folder)
    t, z, v = d["time"], d["floor.gap"], d["ball.velocity.z"]
    apex = measured_apexes(t, z, v, d["floor.contact_state"])
    n_an = max(60, len(apex) + 1)
    t_imp, t_apex, h_apex = analytic(n_an)
    written = []

    # 1. Height and velocity.
    fig, axs = plt.subplots(2, 1, figsize=(11, 8.5), sharex=True)
    ax = axs[0]
    ax.plot(t, z, color="tab:blue", lw=1.0, label="clearsim: gap = height of the lowest point")
    ax.plot(t_apex, h_apex, "k_", ms=14, mew=1.5, label="analytic apex e²ᵏ h₀ (§8.2)")
    if len(apex):
        ax.plot(apex[:, 0], apex[:, 1], "o", mfc="none", color="tab:red", ms=6,
                label="measured apexes")
    ax.axvline(T_INF, color="tab:green", ls="--", lw=1.2, label=f"Zeno time t∞ = {T_INF:.3f} s")
    ax.set_ylabel("height above the floor [m]")
    ax.set_ylim(-0.02, 1.05)
    ax.set_title(f"Bouncing ball, e = {E}, h₀ = {H0} m: NSGA, h = 10⁻⁴ s")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    # Inset: the end of the Zeno sequence.
    ins = ax.inset_axes([0.55, 0.28, 0.25, 0.38])
    m = (t > 7.5) & (t < 9.2)
    ins.plot(t[m], z[m] * 1e3, color="tab:blue", lw=0.8)
    ins.axvline(T_INF, color="tab:green", ls="--", lw=1.0)
    ins.set_title("7.5–9.2 s [mm]", fontsize=8)
    ins.tick_params(labelsize=7)
    ins.grid(alpha=0.3)
    ax = axs[1]
    ax.plot(t, v, color="tab:orange", lw=1.0, label="clearsim: vertical velocity")
    k = np.arange(0, n_an)
    ax.plot(t_imp, -E**k * V1, "kv", ms=4, label="analytic pre-impact velocity −eᵏ⁻¹ v₁")
    ax.plot(t_imp, E ** (k + 1) * V1, "k^", ms=4, label="analytic rebound velocity eᵏ v₁")
    ax.axvline(T_INF, color="tab:green", ls="--", lw=1.2)
    ax.set_xlabel("time t [s]")
    ax.set_ylabel("velocity ż [m/s]")
    ax.legend(loc="upper right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    written.append(save(fig, folder, "bounce_height_velocity.png"))

    # 2. Apex ratio, for the bounces whose apex is above 1 mm (k <= 32; the last ~20 bounces are
    # shorter than a few output rows and their apexes are resolved by a handful of points).
    kk_all = np.arange(1, len(apex) + 1)
    ratio_all = apex[:, 1] / np.concatenate(([H0], apex[:-1, 1]))
    keep = apex[:, 1] > 1e-3
    kk, ratio, apex_k = kk_all[keep], ratio_all[keep], apex[keep]
    fig, axs = plt.subplots(1, 2, figsize=(11, 4.5))
    ax = axs[0]
    ax.plot(kk, ratio, "o-", color="tab:red", ms=4, label="measured h_k / h_k−1")
    ax.axhline(E * E, color="black", lw=1.0, label=f"e² = {E * E:.2f}")
    ax.set_xlabel("bounce k")
    ax.set_ylabel("apex ratio")
    ax.set_ylim(E * E - 0.01, E * E + 0.01)
    ax.set_title("Apex ratio, apexes above 1 mm (reference §8.2: e²)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    ax = axs[1]
    ax.semilogy(kk, np.abs(apex_k[:, 1] - E ** (2 * kk) * H0) / (E ** (2 * kk) * H0), "o-",
                ms=4, label="relative apex height error |h_k − e²ᵏ h₀| / e²ᵏ h₀")
    ax.semilogy(kk, np.abs(apex_k[:, 0] - t_apex[kk - 1]), "s-", ms=4,
                label="apex time error |t_k − t_k,analytic| [s]")
    ax.set_xlabel("bounce k")
    ax.set_title("Apex errors (O(h) per impact, accumulating)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    written.append(save(fig, folder, "apex_ratio.png"))

    for name in written:
        print(name)
    # Checked numbers.
    rest = np.nonzero(d["floor.contact_state"] == 0)[0]
    print(f"apexes found: {len(apex)}, {len(kk)} above 1 mm; their ratio min {ratio.min():.5f}, "
          f"max {ratio.max():.5f}, mean {ratio.mean():.5f} (e² = {E * E}); first apex "
          f"{apex[0, 1]:.6f} m (analytic {E * E * H0:.6f}); apex {kk[-1]}: {apex_k[-1, 1]:.4e} m "
          f"(analytic {E ** (2 * kk[-1]) * H0:.4e}), time error {apex_k[-1, 0] - t_apex[kk[-1] - 1]:.2e} s")
    print(f"min gap {z.min():.3e} m; system.max_penetration {d['system.max_penetration'][-1]:.3e} m")
    print(f"impact steps {d['system.impact_steps'][-1]:.0f}, contact onsets "
          f"{d['system.contact_onsets'][-1]:.0f}; last free-flight row t = {t[rest[-1]]:.3f} s "
          f"(t∞ = {T_INF:.3f} s)")
    late = t > T_INF + 0.1
    print(f"after t∞ + 0.1 s: max |gap| {np.abs(z[late]).max():.2e} m, "
          f"max |v| {np.abs(v[late]).max():.2e} m/s")


if __name__ == "__main__":
    main()
