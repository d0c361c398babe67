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
