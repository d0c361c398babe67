"""Model.run(sensitivities=[...]): the derivative columns of `clearsim run --sensitivity`, as
numpy arrays, and the refusals with their reasons (docs/sensitivity.md)."""

import numpy as np
import pytest

import clearsim
from conftest import SOURCE_DIR, read_csv, run_cli

SLIDER_CRANK = SOURCE_DIR / "examples" / "slider_crank_ideal" / "model.yaml"
PENDULUM = SOURCE_DIR / "examples" / "iftomm_a01_pendulum" / "model.yaml"


def test_same_columns_as_the_command_line_bit_for_bit(tmp_path):
    out = tmp_path / "s.csv"
    run_cli("run", str(SLIDER_CRANK), "--end", "0.005", "--sensitivity", "bodies.slider.mass",
            "--sensitivity", "bodies.crank.mass", "-o", str(out), "-q")
    cli = read_csv(out)
    r = clearsim.load(SLIDER_CRANK).run(
        end=0.005, sensitivities=["bodies.slider.mass", "bodies.crank.mass"])
    derivatives = [k for k in cli if k.startswith("d(")]
    channels = len(cli) - 1 - len(derivatives)
    assert len(derivatives) == 2 * channels  # every channel, each parameter
    for name in cli:
        assert np.array_equal(r[name], np.array(cli[name])), name
    assert "sensitivities: the run integrates in body poses" in r.notes[0]


def test_derivative_equals_differences_of_runs():
    # The pendulum's position with respect to its length, against central differences of whole
    # runs at ±1e-5 relative, converged (full Newton, 1e-14) over 0.5 s: measured 8e-11 of the
    # largest value (1.3e-9 at ±1e-4, the differences' truncation; 8e-10 at ±1e-6, their
    # round-off), so 1e-8 is a failure of the tangent, not of the reference.
    path = "bodies.bob.position[0]"
    settings = {"solver.newton": "full", "solver.newton_tol": 1e-14}
    model = clearsim.load(PENDULUM, settings)
    r = model.run(end=0.5, sensitivities=path)
    L = 1.0  # the file's bodies.bob.position[0]
    delta = 1e-5 * L
    ch = "bob.position.x"
    assert ch in r
    plus = model.with_overrides({path: L + delta}).run(end=0.5)[ch]
    minus = model.with_overrides({path: L - delta}).run(end=0.5)[ch]
    fd = (plus - minus) / (2 * delta)
    d = r.derivative(ch, path)
    scale = np.max(np.abs(fd))
    assert scale > 0.1
    assert np.max(np.abs(d - fd)) < 1e-8 * scale


def test_unknown_derivative_names_what_to_do():
    r = clearsim.load(SLIDER_CRANK).run(end=0.001, sensitivities=["bodies.slider.mass"])
    with pytest.raises(KeyError, match="run with sensitivities=\\['bodies.crank.mass'"):
        r.derivative("crank_speed.torque", "bodies.crank.mass")
    with pytest.raises(KeyError, match="no channel 'nothing'"):
        r.derivative("nothing", "bodies.slider.mass")


def test_refusals_say_why():
    ball = SOURCE_DIR / "examples" / "bouncing_ball" / "model.yaml"
    with pytest.raises(clearsim.SimulationError, match="NSGA's frictional impacts"):
        clearsim.load(ball, {"contacts.floor.friction": 0.3}).run(
            end=0.001, sensitivities=["bodies.ball.mass"])
    with pytest.raises(clearsim.ModelFileError, match="solver or output setting"):
        clearsim.load(SLIDER_CRANK).run(end=0.001, sensitivities=["solver.step"])
    with pytest.raises(clearsim.ModelFileError, match="bodies.slider.nothing"):
        clearsim.load(SLIDER_CRANK).run(end=0.001, sensitivities=["bodies.slider.nothing"])
    with pytest.raises(TypeError, match="expected paths of the model file"):
        clearsim.load(SLIDER_CRANK).run(end=0.001, sensitivities=[3])

