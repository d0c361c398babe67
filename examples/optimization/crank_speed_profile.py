"""Optimal control of seed 003's lubricated four-bar: the crank speed profile that lowers the peak
loads of its two clearance bearings over a revolution, at the same mean speed. The profile is a
Fourier series about 600 rpm (the driver's `fourier` function: its mean is its offset, so any
coefficients keep the mean speed); the coefficients are the controls. Gradients are the run's
direct sensitivities with respect to them (Model.run(sensitivities=...), docs/sensitivity.md);
the optimizer is SciPy's SLSQP.

    minimize    J(a, b) = ‖F‖_p over the second revolution: the p-norm (p = 8, a smooth maximum)
                          of both bearings' film forces, relative to the constant-speed run's
    subject to  h(a, b) ≥ H_MIN   the smallest film thickness (a soft minimum)
                |a_k|, |b_k| ≤ 0.05 ω₀   for the harmonics k = 1..3 of the crank frequency

    PYTHONPATH=build/release/python /usr/bin/python3 examples/optimization/crank_speed_profile.py \\
        [OUT_DIR] [--quick]

--quick (the test) runs a shorter second revolution window and two optimizer iterations.
"""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import minimize  # noqa: E402

import clearsim  # noqa: E402

from four_bar_study import C, MODEL, MU, command_line  # noqa: E402

out, QUICK = command_line()
OMEGA0 = 20 * np.pi  # [rad/s] 600 rpm, the mean speed every profile keeps
F_CRANK = 10.0       # [Hz] the crank's revolution frequency: the series' fundamental
HARMONICS = 3
DRIVER = "drivers.crank_speed.angular_velocity"
PATHS = [f"{DRIVER}.cosines[{k}]" for k in range(HARMONICS)] + \
        [f"{DRIVER}.sines[{k}]" for k in range(HARMONICS)]
FORCE = ["crank_coupler.film_force", "coupler_rocker.film_force"]
FILM = ["crank_coupler.min_film", "coupler_rocker.min_film"]
SPEED = "crank_speed.angular_velocity"
P_NORM = 8
H_MIN = 5e-6   # [m] smallest film allowed: above the asperities' e0 = 2 µm
TAU = 0.2e-6   # [m] width of the soft minimum of the film thickness
BOUND = 0.05 * OMEGA0  # [rad/s] on each coefficient
END, JUDGED = (0.13, 0.1) if QUICK else (0.2, 0.1)

# The bearings of the design study's start (45 µm, 1 Pa·s): a full film at constant speed.
base = clearsim.load(MODEL).with_overrides({C: 45e-6, MU: 1.0})


def profile(x):
    """The driver's function for the coefficients x = (a_1..a_n, b_1..b_n) [rad/s]."""
    return {"type": "fourier", "frequency": F_CRANK, "offset": float(OMEGA0),
            "cosines": [float(v) for v in x[:HARMONICS]],
            "sines": [float(v) for v in x[HARMONICS:]]}


def evaluate(x, f_ref=None):
    """J, h and their gradients with respect to x, from one run."""
    r = base.with_overrides({DRIVER: profile(x)}).run(
        end=END, channels=FORCE + FILM + [SPEED], sensitivities=PATHS)
    judged = r.time >= JUDGED
    forces = np.concatenate([r[ch][judged] for ch in FORCE])
    f_ref = f_ref if f_ref is not None else np.max(forces)
    # ‖F‖_p = (mean (F/F_ref)^p)^(1/p): a smooth maximum, within a factor n^(1/p) of the peak.
    u = forces / f_ref
    J = np.mean(u**P_NORM) ** (1.0 / P_NORM)
    films = np.concatenate([r[ch][judged] for ch in FILM])
    w = np.exp(-(films - films.min()) / TAU)
    h = films.min() - TAU * np.log(w.mean())
    w /= w.sum()
    dJ, dh = [], []
    for path in PATHS:
        dF = np.concatenate([r.derivative(ch, path)[judged] for ch in FORCE]) / f_ref
        dJ.append(J ** (1 - P_NORM) * np.mean(u ** (P_NORM - 1) * dF))
        dh.append(np.dot(w, np.concatenate([r.derivative(ch, path)[judged] for ch in FILM])))
    grad = {"J": np.array(dJ), "h": np.array(dh)}
    if not all(np.all(np.isfinite(g)) for g in grad.values()):
        raise RuntimeError(f"a derivative does not exist at x = {x}: {r.summary['warnings']}")
    return {"J": J, "h": h, "grad": grad, "f_ref": f_ref, "peak": np.max(forces),
            "time": r.time, "speed": r[SPEED], "force": r[FORCE[0]], "force2": r[FORCE[1]]}


class Evaluations:
    """One run per control, shared by the objective, the constraint and their gradients."""

    def __init__(self):
        self.cache, self.history, self.f_ref = {}, [], None

    def __call__(self, x):
        key = tuple(np.round(x, 12))
        if key not in self.cache:
            e = evaluate(x, self.f_ref)
            self.f_ref = e["f_ref"]
            self.cache[key] = e
            self.history.append((np.array(x), e))
            print(f"  run {len(self.history):2d}: J = {e['J']:.4f}, peak {e['peak']:.1f} N, "
                  f"film ≥ {e['h'] * 1e6:.2f} µm, coefficients "
                  + " ".join(f"{v:+.3f}" for v in x))
        return self.cache[key]


ev = Evaluations()
# The optimizer's variables are the coefficients over their bound, y = x / BOUND ∈ [−1, 1].
x0 = np.zeros(2 * HARMONICS)  # constant speed
constraints = [{"type": "ineq", "fun": lambda y: (ev(y * BOUND)["h"] - H_MIN) / H_MIN,
                "jac": lambda y: ev(y * BOUND)["grad"]["h"] * BOUND / H_MIN}]
print(f"SLSQP on {2 * HARMONICS} Fourier coefficients of the crank speed, gradients from the "
      "run's sensitivities:")
sol = minimize(lambda y: ev(y * BOUND)["J"], x0, jac=lambda y: ev(y * BOUND)["grad"]["J"] * BOUND,
               bounds=[(-1.0, 1.0)] * (2 * HARMONICS), constraints=constraints,
               method="SLSQP", options={"maxiter": 2 if QUICK else 25, "ftol": 1e-6})
best, start = ev(sol.x * BOUND), ev.history[0][1]
print(f"{sol.message} after {sol.nit} iterations, {len(ev.history)} runs")
print(f"constant speed: peak film force {start['peak']:.1f} N, J = {start['J']:.4f}, "
      f"film ≥ {start['h'] * 1e6:.2f} µm")
print(f"optimized profile: peak film force {best['peak']:.1f} N, J = {best['J']:.4f}, "
      f"film ≥ {best['h'] * 1e6:.2f} µm; speed {best['speed'].min():.2f}–"
      f"{best['speed'].max():.2f} rad/s (mean {OMEGA0:.2f})")

with open(out / "speed_profile_history.csv", "w") as f:
    names = ",".join(p.split(".")[-1] for p in PATHS)
    f.write(f"run,{names},J,peak_film_force_N,min_film_m\n")
    for k, (x, e) in enumerate(ev.history):
        f.write(f"{k}," + ",".join(f"{v:.9g}" for v in x)
                + f",{e['J']:.9g},{e['peak']:.9g},{e['h']:.9g}\n")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
t = best["time"]
sel = t >= JUDGED
for e, label in ((start, "constant speed"), (best, "optimized profile")):
    ax1.plot(t[sel], e["force"][sel], lw=0.8, label=f"{label}: crank–coupler")
    ax1.plot(t[sel], e["force2"][sel], lw=0.8, ls="--", label=f"{label}: coupler–rocker")
ax1.set_xlabel("time [s]")
ax1.set_ylabel("film force [N]")
ax1.set_title("Bearing loads over the second revolution")
ax1.legend(fontsize=7)
ax2.plot(t[sel], start["speed"][sel], lw=0.8, label="constant speed")
ax2.plot(t[sel], best["speed"][sel], lw=0.8, label="optimized profile")
ax2.set_xlabel("time [s]")
ax2.set_ylabel("crank speed [rad/s]")
ax2.set_title(f"Crank speed (mean {OMEGA0:.2f} rad/s in both)")
ax2.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out / "crank_speed_profile.png", dpi=120)
print("wrote", out / "crank_speed_profile.png")
