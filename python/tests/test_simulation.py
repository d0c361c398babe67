"""Stepping a model from Python gives the states of a whole run."""

import numpy as np
import pytest

import clearsim
from conftest import MODEL


def test_stepping_in_a_loop_equals_a_run_to_the_same_time():
    m = clearsim.load(MODEL, {"solver.end": 0.01})
    run = m.run()
    sim = m.simulation()
    rows = [sim.values()]
    while sim.time < 0.01 - 0.5 * sim.step_size:
        sim.step()
        rows.append(sim.values())
    assert len(rows) == len(run.time) == 1001
    for name in ["time"] + sim.channels:
        stepped = np.array([row[name] for row in rows])
        assert np.array_equal(stepped, run[name]), name
    assert sim.summary()["contact_onsets"] == run.summary["contact_onsets"]


def test_run_to_and_any_channel():
    m = clearsim.load(MODEL, {"solver.end": 0.01})
    run = m.run()
    sim = m.simulation()
    sim.run_to(0.004)
    assert sim.time == run.time[400]
    assert sim.value("slider.velocity.x") == run["slider.velocity.x"][400]
    assert sim.value("crank.angular_velocity.z") == pytest.approx(523.5987756)
    with pytest.raises(KeyError, match="nosuch"):
        sim.value("nosuch.channel")
    sim.step(100)
    assert sim.time == run.time[500]


def test_joint_coordinates_step_as_they_run():
    """The ideal slider-crank runs in joint coordinates (a spanning tree plus the rows of the joint
    closing its loop and of its driver); stepping it gives the run's values bit for bit, and the
    summary names the integrator."""
    from conftest import SOURCE_DIR
    ideal = SOURCE_DIR / "examples" / "slider_crank_ideal" / "model.yaml"
    m = clearsim.load(ideal, {"solver.end": 0.002})
    run = m.run()
    assert run.summary["integrator"] == "generalized-alpha (joint coordinates)"
    sim = m.simulation()
    rows = [sim.values()]
    while sim.time < 0.002 - 0.5 * sim.step_size:
        sim.step()
        rows.append(sim.values())
    every = 10  # the model's output.every
    for name in ["time"] + sim.channels:
        stepped = np.array([row[name] for row in rows])[::every]
        assert np.array_equal(stepped, run[name]), name
    absolute = clearsim.load(ideal, {"solver.end": 0.002, "solver.coordinates": "absolute"}).run()
    assert absolute.summary["integrator"] == "generalized-alpha"
    joint = clearsim.load(ideal, {"solver.end": 0.002, "solver.coordinates": "joint"}).run()
    assert joint.summary["integrator"] == "generalized-alpha (joint coordinates)"


def test_adaptive_stepping_equals_the_adaptive_run():
    """With solver.adaptive the stepped simulation takes the controller's steps, the same as the
    whole run's (one run loop serves both), not the fixed h."""
    from conftest import SOURCE_DIR
    ideal = SOURCE_DIR / "examples" / "slider_crank_ideal" / "model.yaml"
    m = clearsim.load(ideal, {"solver.end": 0.01, "solver.adaptive": True, "output.every": 1})
    run = m.run()
    sim = m.simulation()
    rows = [sim.values()]
    while sim.time < 0.01 * (1 - 1e-12):
        sim.step()
        rows.append(sim.values())
    assert sim.time == 0.01
    assert len(rows) == len(run.time)
    assert run.summary["steps"] == sim.summary()["steps"]
    assert run.summary["steps"] != round(0.01 / m.settings["step"])
    for name in ["time"] + sim.channels:
        stepped = np.array([row[name] for row in rows])
        assert np.array_equal(stepped, run[name]), name
