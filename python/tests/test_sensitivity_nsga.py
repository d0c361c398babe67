"""Sensitivities through NSGA's impacts (issue 26, item 2; docs/sensitivity.md, *Through
impacts*): the corrections differentiated with their active sets frozen, against central
differences of whole runs and the bouncing ball's closed form, and the report of a contact on the
boundary of its active set."""

import numpy as np
import pytest

import clearsim
from conftest import SOURCE_DIR

BALL = SOURCE_DIR / "examples" / "bouncing_ball" / "model.yaml"
SEED_000 = SOURCE_DIR / "examples" / "spherical_clearance_slider_crank" / "model.yaml"


def differences(model, path, value, delta, end):
    """Central differences of whole runs at value ± delta, in the settings the sensitivity run
    used (body poses, no persistent contacts)."""
    m = model.with_overrides({"solver.persistent_contacts": False,
                              "solver.coordinates": "absolute"})
    plus = m.with_overrides({path: value + delta}).run(end=end)
    minus = m.with_overrides({path: value - delta}).run(end=end)
    return lambda ch: (plus[ch] - minus[ch]) / (2 * delta)


def test_ball_apex_follows_e_squared():
    # Dropped from h0 = 1 m, the ball's first apex is e² h0, so d(apex)/de = 2 e h0 = 1.8. The
    # time-stepped impact happens at a step, not at the exact contact time: the computed apex is
    # e² h0 within 1.2e-4 (h = 1e-4 s at 4.4 m/s), and so is its derivative (measured 2.3e-4
    # below 1.8; bound 1e-3).
    e, h0 = 0.9, 1.0
    model = clearsim.load(BALL, {"output.every": 1, "solver.newton_tol": 1e-13})
    r = model.run(end=0.9, sensitivities=["contacts.floor.restitution"])
    assert "solver.persistent_contacts: false" in " ".join(r.notes)
    z = r["ball.position.z"] - 0.1
    dz = r.derivative("ball.position.z", "contacts.floor.restitution")
    first = np.argmax(r["floor.contact_state"] > 0)
    apex = first + np.argmax(z[first:])
    assert z[apex] == pytest.approx(e * e * h0, rel=2e-4)
    assert dz[apex] == pytest.approx(2 * e * h0, rel=1e-3)
    # And the derivative of the computed run to round-off: against differences of whole runs at
    # e ± 1e-5 (measured 6e-11 of the largest value; bound 1e-8).
    fd = differences(model, "contacts.floor.restitution", e, 1e-5, 0.9)
    for ch in ["ball.position.z", "ball.velocity.z", "floor.impulse"]:
        d = r.derivative(ch, "contacts.floor.restitution")
        assert np.max(np.abs(d - fd(ch))) < 1e-8 * np.max(np.abs(fd(ch))), ch


@pytest.mark.parametrize("path,value", [("joints.rod_slider.clearance.radial", 0.5e-3),
                                        ("joints.rod_slider.clearance.restitution", 0.9),
                                        ("bodies.slider.mass", 0.14)])
def test_seed_000_through_four_impacts(path, value):
    # Seed 000's dry spherical clearance joint over its first 1.5 ms: four impacts of the ball in
    # its housing, each a position correction and a velocity jump. Against central differences
    # of whole runs at ±3e-5 relative, converged (newton_tol 1e-13): measured 6e-9 to 1.8e-7 of
    # the largest value, and the differences themselves move by as much between ±1e-4 and ±1e-5
    # (their truncation and their round-off), so 1e-6 is a failure of the tangent.
    channels = ["slider.position.x", "slider.velocity.x", "slider.acceleration.x",
                "rod.angular_velocity.z", "rod_slider.impulse", "rod_slider.contact_state"]
    model = clearsim.load(SEED_000, {"solver.newton_tol": 1e-13, "output.every": 1,
                                     "output.channels": "[" + ",".join(channels) + "]"})
    r = model.run(end=0.0015, sensitivities=[path])
    assert not r.summary["warnings"]
    assert np.count_nonzero(r["rod_slider.contact_state"] == 2) >= 4
    fd = differences(model, path, value, 3e-5 * value, 0.0015)
    for ch in channels[:-1]:
        d = r.derivative(ch, path)
        scale = np.max(np.abs(fd(ch)))
        assert scale > 0, ch
        assert np.max(np.abs(d - fd(ch))) < 1e-6 * scale, ch


def test_contact_on_the_boundary_of_its_active_set_is_reported():
    # A ball resting on the floor exactly, without gravity: its gap is 0 at every step, closed
    # with no force, the boundary between pressing and leaving. No derivative exists there: NaN
    # from that step, with a warning naming the contact and the time.
    model = clearsim.load(BALL, {"gravity": "[0, 0, 0]", "bodies.ball.position": "[0, 0, 0.1]",
                                 "contacts.floor.sphere.center": "[0, 0, 0.1]"})
    with pytest.warns(clearsim.RunWarning):
        r = model.run(end=0.001, sensitivities=["contacts.floor.restitution"])
    assert any("no derivative from t = 0.0001 s: contact sphere_plane 'floor'" in w
               and "closed by the position correction with no force" in w
               for w in r.summary["warnings"]), r.summary["warnings"]
    assert np.isnan(r.derivative("ball.position.z", "contacts.floor.restitution")[-1])
