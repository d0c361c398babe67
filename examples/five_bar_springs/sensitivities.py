"""Direct sensitivities of the five-bar linkage with springs against whole runs.

For each parameter p the run's own derivatives d(channel)/dp (Model.run(sensitivities=...),
docs/sensitivity.md) are compared with central differences of whole runs at p(1 ± δ) and
p(1 ± 2δ) and p(1 ± 4δ), extrapolated twice by Richardson's rule (truncation O(δ⁶)):

    D(δ) = (y(p + δp) − y(p − δp)) / (2δp),     FD = (64 D(δ) − 20 D(2δ) + D(4δ)) / 45

Positions, velocities and spring forces: δ = 1e-3, agreement ≤ 1e-6 of the channel's largest
derivative (measured 1e-10 to 3e-8). Accelerations and joint reactions of an index-3 run carry
round-off of β′ × (position round-off) in every run, which a difference divides by δ, while the
truncation grows with δ (the one-step Richardson's δ⁴: ×16 per doubling, measured from
δ = 2.5e-3 to 4e-2): their comparison uses δ = 5e-3 and ≤ 1e-5 (measured 1e-7 to 4e-6, the error
of the differences themselves: it grows when δ is halved, and for the free length when δ doubles).

    PYTHONPATH=build/release/python /usr/bin/python3 examples/five_bar_springs/sensitivities.py \\
        [OUT_DIR] [--quick]

--quick (the test) runs 1 s instead of 2 s. Writes OUT_DIR/sensitivities.png and exits 1 if a
comparison fails.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import clearsim  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "model.yaml")
# The parameters and their values in model.yaml (relative steps are taken about these).
PARAMETERS = {
    "forces.knee_spring.stiffness": 200.0,
    "forces.apex_spring.damping": 1.5,
    "forces.apex_spring.free_length": 0.8,
    "bodies.left_coupler.mass": 2.0,
    "bodies.right_crank.inertia[2]": 0.0208333333,
}
SMOOTH = ["left_crank.rotation.z", "apex.position.x", "apex.position.y", "apex.velocity.y",
          "knee_spring.force"]
ROUGH = ["left_crank.angular_acceleration.z", "left_pivot.force.y"]
TOL = {"smooth": (1e-3, 1e-6), "rough": (5e-3, 1e-5)}  # (δ, tolerance)


def richardson(model, path, value, channels, delta, end):
    def diff(d):
        up = model.with_overrides({path: value * (1 + d)}).run(end=end, channels=channels)
        down = model.with_overrides({path: value * (1 - d)}).run(end=end, channels=channels)
        return {c: (np.asarray(up[c]) - np.asarray(down[c])) / (2 * d * value) for c in channels}
    one, two, four = diff(delta), diff(2 * delta), diff(4 * delta)
    return {c: (64 * one[c] - 20 * two[c] + four[c]) / 45 for c in channels}


def main():
    args = [a for a in sys.argv[1:] if a != "--quick"]
    quick = "--quick" in sys.argv[1:]
    out = args[0] if args else "results/five_bar_springs"
    os.makedirs(out, exist_ok=True)
    end = 1.0 if quick else 2.0
    model = clearsim.load(MODEL)
    nominal = model.run(end=end, channels=SMOOTH + ROUGH, sensitivities=list(PARAMETERS))
    worst, failed, curves = {}, False, {}
    for path, value in PARAMETERS.items():
        for kind, channels in (("smooth", SMOOTH), ("rough", ROUGH)):
            delta, tol = TOL[kind]
            fd = richardson(model, path, value, channels, delta, end)
            for c in channels:
                exact = np.asarray(nominal.derivative(c, path))
                scale = np.max(np.abs(fd[c]))
                err = np.max(np.abs(exact - fd[c])) / scale
                ok = err <= tol
                failed |= not ok
                worst[kind] = max(worst.get(kind, 0.0), err)
                print(f"{path:34s} {c:36s} max |d/dp| {scale:9.3e}  error {err:8.1e}"
                      f"  {'ok' if ok else f'FAILED (> {tol:g})'}")
                if c == "apex.position.y":
                    curves[path] = (exact, fd[c])
    t = np.asarray(nominal["time"])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for path, (exact, fd) in curves.items():
        p = PARAMETERS[path]
        line, = ax.plot(t, p * exact, lw=1.2, label=path)
        ax.plot(t[::5], p * fd[::5], "o", ms=3, color=line.get_color())
    ax.set_xlabel("t [s]")
    ax.set_ylabel("p · d(apex y)/dp [m]")
    ax.set_title("Five-bar with springs: sensitivities (lines) and whole-run differences (dots)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    png = os.path.join(out, "sensitivities.png")
    fig.savefig(png, dpi=120)
    print(f"worst error: positions/velocities/forces {worst['smooth']:.1e} (≤ 1e-6), "
          f"accelerations/reactions {worst['rough']:.1e} (≤ 1e-5)")
    print(f"wrote {png}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
