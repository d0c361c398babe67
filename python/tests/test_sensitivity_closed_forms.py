"""Sensitivities against closed forms (docs/sensitivity.md): a ball resting on a floor through a
Hertz contact, F = K δ^n = m g, in static equilibrium, so

    δ = (m g / K)^(1/n),   dδ/dK = −δ / (n K),   dδ/dm = δ / (n m),   dδ/dn = −δ ln(δ) / n.

The static analysis solves r(x; p) = 0 to newton_tol and differentiates it with its own Newton
matrix (S dx/dp = ∂r/∂p, ∂r/∂p by Richardson differences of the parameter's models); both are
exact up to round-off here, so 1e-8 relative is a failure, not a tolerance."""

import math

import numpy as np
import pytest

import clearsim
from conftest import SOURCE_DIR

BALL = SOURCE_DIR / "examples" / "bouncing_ball" / "model.yaml"
M, K, G = 1.0, 1.0e7, 9.81  # the file's mass, this test's stiffness [N/m^n], gravity


def resting_ball(exponent):
    start = 0.1 - 1e-5  # the centre just below touching: Hertz's stiffness is 0 at δ = 0
    return clearsim.load(BALL, {
        "bodies.ball.position": [0, 0, start],
        "joints": {"slide": {"type": "prismatic", "bodies": ["ground", "ball"],
                             "axis": [0, 0, 1]}},
        "contacts.floor": {
            "type": "sphere_plane", "treatment": "compliant",
            "plane": {"body": "ground", "point": [0, 0, 0], "normal": [0, 0, 1]},
            "sphere": {"body": "ball", "center": [0, 0, start], "radius": 0.1},
            "contact": {"law": "hertz", "stiffness": K, "exponent": exponent}},
        "solver": {"analysis": "static"},
        "output.channels": ["floor.penetration", "ball.position.z"]})


@pytest.mark.parametrize("n", [1.5, 1.1, 2.0])
def test_hertz_indentation_and_its_derivatives(n):
    paths = {"K": "contacts.floor.contact.stiffness", "m": "bodies.ball.mass",
             "n": "contacts.floor.contact.exponent"}
    r = resting_ball(n).run(sensitivities=list(paths.values()))
    delta = (M * G / K) ** (1.0 / n)
    assert r["floor.penetration"][-1] == pytest.approx(delta, rel=1e-10)
    expected = {"K": -delta / (n * K), "m": delta / (n * M), "n": -delta * math.log(delta) / n}
    for name, path in paths.items():
        d = r.derivative("floor.penetration", path)[-1]
        assert d == pytest.approx(expected[name], rel=1e-8), name
        # The ball's height moves the other way by as much.
        assert r.derivative("ball.position.z", path)[-1] == pytest.approx(-d, rel=1e-8), name
    assert np.all(np.isfinite(r.derivative("floor.penetration", paths["K"])))
