"""Identification of a worn bearing from its proximity probes: the radial clearance c and the oil
viscosity μ of seed 003's lubricated four-bar (both coupler bearings, the model file's YAML
anchor) recovered from the noisy journal orbit of the crank–coupler bearing, as two eddy-current
probes at 90° measure it, with the uncertainty of the estimate.

The "measurement" is a run with parameters the estimator is not told (c = 46 µm, μ = 0.8 Pa·s)
plus white noise of σ = 0.5 µm (a probe's resolution). The estimator starts from the drawing's
bearing (c = 40 µm, μ = 1.0 Pa·s) and fits the model's orbit by SciPy's least_squares with the
Jacobian of the residuals from the run's direct sensitivities (Model.run(sensitivities=...),
docs/sensitivity.md); the covariance of the estimate is σ² (JᵀJ)⁻¹ at the solution (Gauss–Newton,
residuals scaled by σ).

    PYTHONPATH=build/release/python /usr/bin/python3 examples/optimization/identify_bearing.py \\
        [OUT_DIR] [--quick]

--quick (the test) judges a shorter window of the second revolution.
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import least_squares  # noqa: E402

import clearsim  # noqa: E402

from four_bar_study import C, MODEL, MU, PATHS, command_line  # noqa: E402

out, QUICK = command_line()
PROBES = ["crank_coupler.journal1.x", "crank_coupler.journal1.y"]
TRUE = np.array([46e-6, 0.8])      # hidden from the estimator: worn, and the oil hot
START = np.array([40e-6, 1.0])     # the drawing's bearing and the oil's nominal viscosity
SIGMA = 0.5e-6                     # [m] probe noise
SCALE = np.array([1e-6, 0.01])     # unknowns x = p / SCALE
# 600 rpm: the first revolution (0.1 s) is the start from the centred journals; the probes are
# read over the second, every 0.1 ms.
END, JUDGED, EVERY = (0.13, 0.1, 10) if QUICK else (0.2, 0.1, 10)

model = clearsim.load(MODEL, {"output.every": EVERY})


def orbit(p, sensitivities=()):
    r = model.with_overrides({C: p[0], MU: p[1]}).run(
        end=END, channels=PROBES, sensitivities=list(sensitivities))
    return r, r.time >= JUDGED


truth, judged = orbit(TRUE)
rng = np.random.default_rng(1)
measured = np.concatenate([truth[ch][judged] + rng.normal(0.0, SIGMA, judged.sum())
                           for ch in PROBES])
runs = []


def residuals_and_jacobian(x):
    r, sel = orbit(x * SCALE, PATHS)
    runs.append(x * SCALE)
    res = (np.concatenate([r[ch][sel] for ch in PROBES]) - measured) / SIGMA
    jac = np.column_stack([np.concatenate([r.derivative(ch, path)[sel] for ch in PROBES])
                           for path in PATHS]) * SCALE / SIGMA
    if not np.all(np.isfinite(jac)):
        raise RuntimeError(f"no derivative at {x * SCALE}: {r.summary['warnings']}")
    print(f"  c = {x[0] * SCALE[0] * 1e6:7.3f} µm, μ = {x[1] * SCALE[1]:.5f} Pa·s: "
          f"RMS residual {np.sqrt(np.mean(res**2)):.4g} σ")
    return res, jac


class Problem:
    """least_squares asks for the residuals and the Jacobian separately: one run gives both."""

    def __init__(self):
        self.x, self.value = None, None

    def __call__(self, x):
        if self.x is None or not np.array_equal(x, self.x):
            self.x, self.value = x.copy(), residuals_and_jacobian(x)
        return self.value


problem = Problem()
print("least_squares on (c, μ), Jacobian from the run's sensitivities:")
fit = least_squares(lambda x: problem(x)[0], START / SCALE, jac=lambda x: problem(x)[1],
                    bounds=([5.0, 1.0], [100.0, 200.0]), x_scale="jac")
estimate = fit.x * SCALE
J = problem(fit.x)[1] / SCALE  # d(residual/σ)/dp
covariance = np.linalg.inv(J.T @ J)  # residuals already scaled by σ
std = np.sqrt(np.diag(covariance))
correlation = covariance[0, 1] / (std[0] * std[1])
print(f"{fit.message} ({len(runs)} runs with sensitivities)")
for name, unit, k, factor in (("clearance", "µm", 0, 1e6), ("viscosity", "Pa·s", 1, 1.0)):
    print(f"{name}: estimated {estimate[k] * factor:.4g} ± {std[k] * factor:.2g} {unit} (1σ), "
          f"true {TRUE[k] * factor:.4g}, started from {START[k] * factor:.4g}; "
          f"error {abs(estimate[k] - TRUE[k]) / std[k]:.2f}σ")
print(f"correlation of the two estimates: {correlation:.3f}")
# The truth against the estimate's joint uncertainty: d² = Δᵀ C⁻¹ Δ is χ² with 2 degrees of
# freedom if the covariance is right; 9.21 bounds 99 % of it.
delta = estimate - TRUE
d2 = float(delta @ np.linalg.solve(covariance, delta))
inside = d2 <= 9.21
print(f"the hidden truth is at d² = {d2:.2f} from the estimate: "
      f"{'inside' if inside else 'OUTSIDE'} its 99 % uncertainty region (d² ≤ 9.21)")

with open(out / "identification.csv", "w") as f:
    f.write("parameter,true,start,estimate,std\n")
    for k, name in enumerate(("clearance_m", "viscosity_Pa_s")):
        f.write(f"{name},{TRUE[k]:.9g},{START[k]:.9g},{estimate[k]:.9g},{std[k]:.9g}\n")

start_run, sel = orbit(START)
best_run, _ = orbit(estimate)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
n = judged.sum()
ax1.plot(measured[:n] * 1e6, measured[n:] * 1e6, ".", ms=1.5, color="0.6",
         label="probes (σ = 0.5 µm)")
for run, label in ((start_run, "drawing's bearing (start)"), (best_run, "identified bearing")):
    ax1.plot(run[PROBES[0]][sel] * 1e6, run[PROBES[1]][sel] * 1e6, lw=1.0, label=label)
ax1.set_xlabel("journal x [µm]")
ax1.set_ylabel("journal y [µm]")
ax1.set_aspect("equal")
ax1.set_title("Crank–coupler journal orbit, second revolution")
ax1.legend(fontsize=8)
# The 1σ and 2σ ellipses of the estimate, and the truth.
w, V = np.linalg.eigh(covariance)
angle = np.linspace(0.0, 2.0 * np.pi, 200)
for k in (1, 2):
    ring = estimate[:, None] + k * V @ (np.sqrt(w)[:, None] * [np.cos(angle), np.sin(angle)])
    ax2.plot(ring[0] * 1e6, ring[1], lw=0.8, label=f"{k}σ region")
ax2.plot(estimate[0] * 1e6, estimate[1], "o", label="estimate")
ax2.plot(TRUE[0] * 1e6, TRUE[1], "k+", ms=12, label="hidden truth")
ax2.set_xlabel("radial clearance c [µm]")
ax2.set_ylabel("viscosity μ [Pa·s]")
ax2.set_title("Estimate and its uncertainty")
ax2.legend(fontsize=8)
fig.tight_layout()
fig.savefig(out / "identification.png", dpi=120)
print("wrote", out / "identification.png")
if not inside:
    sys.exit("the identification missed the hidden parameters")
