"""Model.gradient: the adjoint gradient (docs/sensitivity.md, *Adjoint gradients*) against the
direct sensitivities of Model.run(sensitivities=...), and its bad input."""

import numpy as np
import pytest

import clearsim
from conftest import MODEL, SOURCE_DIR

IDEAL = SOURCE_DIR / "examples" / "slider_crank_ideal" / "model.yaml"
PATHS = ["bodies.slider.mass", "drivers.crank_speed.angular_velocity"]
TIGHT = {"solver.newton": "full", "solver.newton_tol": 1e-14, "solver.coordinates": "absolute"}


def test_end_objective_equals_the_direct_derivative_at_the_end():
    # The same perturbed models on both sides: round-off apart (1e-9 measured; 1e-8 the bound).
    model = clearsim.load(IDEAL, TIGHT)
    g = model.gradient("end(crank_speed.torque)", PATHS, end=0.002)
    r = model.run(end=0.002, sensitivities=PATHS)
    assert g.value == r["crank_speed.torque"][-1]
    assert g.unit == "N*m"
    assert g.units == ["N*m/kg", "N*m/(rad/s)"]  # the model file's units
    assert isinstance(g.gradient, np.ndarray) and g.gradient.shape == (2,)
    for k, p in enumerate(PATHS):
        direct = r.derivative("crank_speed.torque", p)[-1]
        assert g.gradient[k] == pytest.approx(direct, rel=1e-8), p


def test_bad_objective_path_and_model_are_refused_by_name():
    model = clearsim.load(IDEAL)
    with pytest.raises(ValueError, match="unknown objective 'peak'"):
        model.gradient("peak(crank_speed.torque)", PATHS, end=0.001)
    with pytest.raises(ValueError, match="exponent P must be a number > 1"):
        model.gradient("pnorm(crank_speed.torque, 1)", PATHS, end=0.001)
    with pytest.raises(clearsim.ModelFileError, match="--parameter bodies.slider: "):
        model.gradient("end(crank_speed.torque)", ["bodies.slider"], end=0.001)
    with pytest.raises(clearsim.SimulationError, match="NSGA"):
        clearsim.load(MODEL).gradient("end(slider.position.x)",
                                      ["joints.rod_slider.clearance.radial"], end=0.001)
    with pytest.raises(ValueError, match="memory: expected a positive number of MiB"):
        model.gradient("end(crank_speed.torque)", PATHS, end=0.001, memory=0)


def test_a_small_memory_budget_keeps_checkpoints_and_the_same_gradient():
    # Full Newton at 1e-14: the checkpointed run differs only in its restarted Newton starts.
    model = clearsim.load(IDEAL, TIGHT)
    whole = model.gradient("integral(crank_speed.torque)", PATHS, end=0.002)
    cut = model.gradient("integral(crank_speed.torque)", PATHS, end=0.002, memory=0.1)
    assert (whole.checkpoint_every, whole.recomputed_steps) == (1, 0)
    assert (cut.checkpoint_every, cut.recomputed_steps) == (15, 200)
    assert cut.stored_bytes < 0.5 * whole.stored_bytes
    np.testing.assert_allclose(cut.gradient, whole.gradient, rtol=1e-9)
    with pytest.raises(clearsim.SimulationError, match="even with checkpoints every 15 steps"):
        model.gradient("end(crank_speed.torque)", PATHS, end=0.002, memory=0.01)
