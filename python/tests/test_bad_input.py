"""Issue 28 from Python: duplicated channels, sweep arguments, and the plausibility watch's
findings in a run's summary."""

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


def test_a_joint_far_past_its_clearance_is_in_the_run_warnings():
    lub = SOURCE_DIR / "examples" / "lubricated_spherical_slider_crank" / "model.yaml"
    r = clearsim.load(lub, {
        "joints.rod_slider.clearance.contact": {"law": "lankarani_nikravesh", "stiffness": 1e5},
        "joints.rod_slider.clearance.lubricant.viscosity": 1e-4,
        "solver.end": 0.001}).run()
    assert r.summary["warnings"] == [
        "at t = 0.00057 s clearance joint 'rod_slider' penetrates by 0.00251 m, 5.04 times its "
        "clearance 0.000498 m (eccentricity 0.00301 m): no real joint does; its contact law is "
        "far too soft for the load, or the step too large for it, and the results from here on "
        "are not meaningful"]
