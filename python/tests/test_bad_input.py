"""Issue 28 from Python: duplicated channels, sweep arguments, and the plausibility watch's
findings in a run's summary."""

import warnings

import numpy as np
import pytest

import clearsim
from conftest import MODEL, SOURCE_DIR


def test_a_channel_asked_for_twice_is_refused():
    m = clearsim.load(MODEL, {"solver.end": 0.001})
    with pytest.raises(ValueError) as e:
        m.run(channels=["slider.velocity.x", "slider.velocity"])
    assert str(e.value) == ("channels: 'slider.velocity.x' is asked for twice (directly or "
                            "through a prefix); each channel is one array of the result")
    # (A model file's channels are resolved when it runs, as by `clearsim check`.)
    twice = clearsim.load(MODEL, {"output.channels": ["slider.position.x", "slider.position.x"],
                                  "solver.end": 0.001})
    with pytest.raises(clearsim.ModelFileError) as e:
        twice.run()
    assert "output.channels: 'slider.position.x' is listed twice (also output.channels[0])" in \
        str(e.value)


@pytest.mark.parametrize("jobs", [0, -3, 1.5])
def test_sweep_jobs_must_be_a_positive_count(tmp_path, jobs):
    with pytest.raises(ValueError) as e:
        clearsim.sweep(MODEL, {"solver.end": [0.001]}, out_dir=str(tmp_path), jobs=jobs)
    assert str(e.value) == (f"sweep: jobs = {jobs!r}; expected a number of processes >= 1 "
                            f"(None: one per core)")


def test_an_inf_endpoint_of_a_sweep_axis_is_refused(tmp_path):
    with pytest.raises(ValueError) as e:
        clearsim.sweep(MODEL, {"joints.rod_slider.clearance.radial": "1e-4:inf:3"},
                       out_dir=str(tmp_path / "s"))
    assert str(e.value) == ("--vary joints.rod_slider.clearance.radial=1e-4:inf:3: 'inf' is not "
                            "a finite number (a:b:n needs finite ends)")
    assert not (tmp_path / "s").exists() or not list((tmp_path / "s").iterdir())


FAR_PAST_CLEARANCE = (
    "at t = 0.00057 s clearance joint 'rod_slider' penetrates by 0.00251 m, 5.04 times its "
    "clearance 0.000498 m (eccentricity 0.00301 m): no real joint does; its contact law is far "
    "too soft for the load, or the step too large for it, and the results from here on are not "
    "meaningful")


def soft_lubricated_joint():
    """The lubricated slider–crank with a contact 6e5 times too soft and a thin oil: the joint
    reaches 5 times its clearance at t = 0.57 ms."""
    lub = SOURCE_DIR / "examples" / "lubricated_spherical_slider_crank" / "model.yaml"
    return clearsim.load(lub, {
        "joints.rod_slider.clearance.contact": {"law": "lankarani_nikravesh", "stiffness": 1e5},
        "joints.rod_slider.clearance.lubricant.viscosity": 1e-4,
        "solver.end": 0.001})


def test_a_joint_far_past_its_clearance_is_in_the_run_warnings():
    with pytest.warns(clearsim.RunWarning) as w:
        r = soft_lubricated_joint().run()
    assert r.summary["warnings"] == [FAR_PAST_CLEARANCE]
    assert [str(x.message) for x in w] == [FAR_PAST_CLEARANCE]


@pytest.mark.parametrize("how", ["step", "run_to", "callback"])
def test_stepping_a_simulation_warns_of_a_joint_far_past_its_clearance(how):
    """The watch is part of the engine's step: a Simulation stepped by hand says it as a
    RunWarning, once, when the step that finds it returns, and keeps it in summary()."""
    sim = soft_lubricated_joint().simulation()
    with pytest.warns(clearsim.RunWarning) as w:
        if how == "step":
            sim.step(56)  # t = 0.56 ms: not yet
            assert len(w) == 0
            sim.step(44)
        elif how == "run_to":
            sim.run_to(0.001)
        else:
            sim.run_to(0.001, callback=lambda s: None)
    assert [str(x.message) for x in w] == [FAR_PAST_CLEARANCE]
    assert w[0].filename == __file__  # attributed to the caller's line
    assert sim.summary()["warnings"] == [FAR_PAST_CLEARANCE]


def test_run_warnings_can_be_made_errors():
    sim = soft_lubricated_joint().simulation()
    with warnings.catch_warnings():
        warnings.simplefilter("error", clearsim.RunWarning)
        with pytest.raises(clearsim.RunWarning) as e:
            sim.run_to(0.001)
    assert str(e.value) == FAR_PAST_CLEARANCE
    assert sim.time == pytest.approx(0.001)  # the steps were taken; the object is usable
    sim.step()


def test_energy_growth_with_no_source_warns_naming_the_stiff_element():
    """A 1e12 N/m spring stepped by RK4 just beyond its stability limit (as the command-line
    test cli.run_warns.energy_growth): stepping the Simulation warns, naming the spring."""
    m = clearsim.load(SOURCE_DIR / "tests" / "data" / "stiff_spring.yaml", {
        "solver.end": 3e-4, "solver.step": 3e-6, "solver.integrator": "rk4",
        "bodies.block.velocity": [0, 1, 0]})
    sim = m.simulation()
    with pytest.warns(clearsim.RunWarning) as w:
        sim.run_to(3e-4)
    assert len(w) == 1
    text = str(w[0].message)
    assert "the mechanical energy has grown by" in text
    assert text.endswith("stiffest force on body 'block': spring_damper 'spring', stiffness "
                         "1e+12 N/m, ω h = 3 (a smaller step or `adaptive: true` resolves it)")


def test_undefined_efficiency_warns_from_python_as_on_the_command_line():
    # Seed 004's reducer at rest at t = 0: no power enters, the mesh efficiency is nan, said once
    # as a RunWarning and kept in the summary (the command line's cli.efficiency_undefined_at_rest).
    model = clearsim.load(SOURCE_DIR / "examples" / "ship_reducer" / "bearings.yaml")
    with pytest.warns(clearsim.RunWarning, match="at t = 0 s the channel mesh.efficiency is "
                      "undefined \\(nan\\): no power enters"):
        r = model.run(end=0.0005, channels=["mesh.efficiency"])
    assert np.isnan(r["mesh.efficiency"][0])
    assert sum("mesh.efficiency is undefined" in w for w in r.summary["warnings"]) == 1
