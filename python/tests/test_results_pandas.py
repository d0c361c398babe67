"""Results as people use them: Result.to_pandas / SweepResult.to_pandas with the engine's units,
and progress bars (tqdm when installed, else the text bar; a callable as before)."""

import io
import sys

import numpy as np
import pytest

import clearsim
from clearsim import progress as progress_module
from conftest import MODEL, run_cli

SHORT = {"solver.end": 0.002}


@pytest.fixture(scope="module")
def result():
    return clearsim.load(MODEL, SHORT).run()


def test_to_pandas_is_indexed_by_time_with_every_channel(result):
    df = result.to_pandas()
    assert df.index.name == "time"
    assert np.array_equal(df.index.to_numpy(), result.time)
    assert list(df.columns) == [c for c in result.channels if c != "time"]
    for name in df.columns:
        assert np.array_equal(df[name].to_numpy(), result[name]), name


def test_units_are_those_clearsim_channels_prints(result):
    model = clearsim.load(MODEL)
    proc = run_cli("channels", MODEL)
    assert proc.returncode == 0, proc.stderr
    printed = {}
    for line in proc.stdout.splitlines():
        name, _, unit = line.partition(" [")
        printed[name] = unit.rstrip("]")
    assert set(printed) == set(model.available_channels())
    for name, unit in printed.items():
        assert clearsim.channel_unit(name) == unit, name
    units = result.to_pandas().attrs["units"]
    assert units == result.units
    assert units["time"] == "s"
    assert units["slider.velocity.x"] == "m/s"
    assert units["rod_slider.contact_force"] == "N"
    assert units["rod_slider.impulse"] == "N*s"
    assert units["system.contact_onsets"] == "1"
    assert all(units[c] == printed[c] for c in result.channels if c != "time")


def test_derivative_columns_have_the_channels_unit_per_parameter():
    ideal = MODEL.parents[1] / "slider_crank_ideal" / "model.yaml"
    r = clearsim.load(ideal, SHORT).run(channels=["slider.position.x"],
                                        sensitivities=["bodies.slider.mass"])
    df = r.to_pandas()
    key = "d(slider.position.x)/d(bodies.slider.mass)"
    assert np.array_equal(df[key].to_numpy(), r.derivative("slider.position.x",
                                                           "bodies.slider.mass"))
    assert df.attrs["units"][key] == "m/kg"  # as the CSV's units line
    assert df.attrs["units"]["slider.position.x"] == "m"


def test_sweep_to_pandas(tmp_path):
    s = clearsim.sweep(clearsim.load(MODEL, SHORT),
                       {"joints.rod_slider.clearance.radial": [4e-4, 6e-4]},
                       out_dir=str(tmp_path), channel="slider.velocity.x", jobs=1)
    df = s.to_pandas()
    assert df.index.name == "run" and len(df) == 2
    assert list(df["joints.rod_slider.clearance.radial"]) == [4e-4, 6e-4]
    assert df["joints.rod_slider.clearance.radial"].dtype == np.float64
    assert list(df["steps"]) == list(s.column("steps"))
    assert np.array_equal(df["max_contact_force"].to_numpy(), s.column("max_contact_force"))
    units = df.attrs["units"]
    assert units["rms_distance"] == "m/s"  # the compared channel's
    assert units["max_contact_force"] == "N" and units["wall_seconds"] == "s"
    assert units["joints.rod_slider.clearance.radial"] == "m"  # the model file's
    assert set(units) == set(df.columns)


def test_without_pandas_the_error_says_what_to_install(result, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with pytest.raises(ImportError, match="python3-pandas"):
        result.to_pandas()


def test_progress_true_draws_a_tqdm_bar(monkeypatch):
    pytest.importorskip("tqdm")
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    clearsim.load(MODEL, SHORT).run(progress=True)
    text = stream.getvalue()
    assert "spherical_clearance_slider_crank" in text and "100%" in text, text


def test_progress_without_tqdm_falls_back_to_the_text_bar(monkeypatch):
    monkeypatch.setattr(progress_module, "_tqdm", lambda: None)
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    clearsim.load(MODEL, SHORT).run(progress=True)
    assert "[" + "#" * 30 + "] 100.0%" in stream.getvalue()


def test_progress_callable_still_called():
    calls = []
    clearsim.load(MODEL, SHORT).run(progress=lambda t, t_end: calls.append((t, t_end)))
    assert calls and calls[-1] == (pytest.approx(0.002), 0.002)
    with pytest.raises(TypeError, match="progress: expected True, False or a callable"):
        clearsim.load(MODEL, SHORT).run(progress="yes")
