"""Models from files and text, overrides, whole runs against the command line."""

import numpy as np
import pytest

import clearsim
from conftest import MODEL, read_csv, run_cli

SHORT = {"solver.end": 0.02}


def test_run_equals_command_line_bit_for_bit(tmp_path):
    out = tmp_path / "cli.csv"
    proc = run_cli("run", MODEL, "-q", "-o", out, "--set", "solver.end=0.02",
                   "--set", "joints.rod_slider.clearance.radial=8e-4")
    assert proc.returncode == 0, proc.stderr
    cli = read_csv(out)
    r = clearsim.load(MODEL, {"solver.end": 0.02,
                              "joints.rod_slider.clearance.radial": 8e-4}).run()
    assert list(r.channels) == list(cli)
    for name, column in cli.items():
        assert np.array_equal(r[name], np.array(column)), name
    assert len(r.time) == 2001
    assert r.summary["ok"] and r.summary["steps"] == 2000


def test_override_changes_exactly_that_parameter():
    text = MODEL.read_text()
    assert "clearance: {radial: 0.5e-3, restitution: 0.9}" in text
    edited = text.replace("clearance: {radial: 0.5e-3, restitution: 0.9}",
                          "clearance: {radial: 0.7e-3, restitution: 0.9}")
    by_hand = clearsim.loads(edited, name="edited.yaml", overrides=SHORT).run()
    base = clearsim.loads(text, name="model.yaml", overrides=SHORT)
    by_override = base.with_overrides({"joints.rod_slider.clearance.radial": 0.7e-3}).run()
    unchanged = base.run()
    for name in by_hand.channels:
        assert np.array_equal(by_hand[name], by_override[name]), name
    # ... and it did change the run.
    assert not np.array_equal(unchanged["rod_slider.journal.x"], by_override["rod_slider.journal.x"])
    assert base.with_overrides(["solver.step=2e-5"]).settings["step"] == 2e-5
    assert base.settings["step"] == 1e-5  # a Model never changes


def test_override_of_list_item_and_new_key():
    m = clearsim.load(MODEL, {"gravity[1]": -9.81, "solver.adaptive": False, **SHORT})
    assert m.settings["adaptive"] is False
    ideal = clearsim.load(MODEL, {"joints.rod_slider": {"type": "spherical",
                                                         "bodies": ["rod", "slider"],
                                                         "at": [0.17, 0, 0]},
                                  "output.channels": ["slider.velocity.x"], **SHORT})
    assert ideal.channels == ["slider.velocity.x"]


def test_bad_override_names_the_key():
    with pytest.raises(clearsim.ModelFileError) as e:
        clearsim.load(MODEL, {"joints.rod_slidr.clearance.radial": 1e-3})
    msg = str(e.value)
    assert "override joints.rod_slidr.clearance.radial=0.001" in msg
    assert "'joints' has no key 'rod_slidr'" in msg
    assert "(keys: crank_pivot, crank_rod, rod_slider, slider_guide)" in msg
    assert "did you mean 'rod_slider'" in msg
    assert isinstance(e.value, ValueError)

    with pytest.raises(clearsim.ModelFileError, match=r"joints\.rod_slider\.clearance\.radial: "
                       r"expected a positive number \[m\], found '-0\.001'"):
        clearsim.load(MODEL, {"joints.rod_slider.clearance.radial": -1e-3})
    with pytest.raises(clearsim.ModelFileError, match="unknown key 'clearence' in spherical joint"):
        clearsim.load(MODEL, {"joints.rod_slider.clearence": 1})
    with pytest.raises(clearsim.ModelFileError, match=r"'gravity' has 3 items, no item \[5\]"):
        clearsim.load(MODEL, {"gravity[5]": 1})


def test_model_file_error_carries_file_line_column():
    with pytest.raises(clearsim.ModelFileError) as e:
        clearsim.loads("bodies:\n  a: {mass: -1, inertia: [1, 1, 1]}\n", name="bad.yaml")
    assert str(e.value).startswith("bad.yaml:2:13: error: bodies.a.mass: expected a positive")
    assert (e.value.file, e.value.line, e.value.column) == ("bad.yaml", 2, 13)
    with pytest.raises(clearsim.ModelFileError, match="cannot open the model file"):
        clearsim.load("/nonexistent/model.yaml")


def test_run_that_cannot_start_raises_simulation_error():
    with pytest.raises(clearsim.SimulationError, match="unilateral contacts"):
        clearsim.load(MODEL, {"solver.integrator": "rk4", **SHORT}).run()


def test_progress_callback_and_channel_choice():
    calls = []
    r = clearsim.load(MODEL, SHORT).run(progress=lambda t, end: calls.append((t, end)),
                                         channels=["slider.position.x"], every=10)
    assert list(r.channels) == ["time", "slider.position.x"]
    assert len(r.time) == 201
    assert calls[-1] == (r.time[-1], 0.02)


def test_exception_in_progress_callback_stops_the_run():
    calls = []

    def progress(t, end):
        calls.append(t)
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        clearsim.load(MODEL, {"solver.end": 0.1}).run(progress=progress)
    assert len(calls) == 1
