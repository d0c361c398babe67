"""HDF5 results (clearsim run -o run.h5): every channel round-trips bit for bit against the CSV,
and a run killed with SIGKILL leaves a file h5py opens with every flushed row."""

import os
import signal
import subprocess
import time

import numpy as np
import pytest

# The writer holds HDF5's file lock while it runs; this reader only looks at flushed data.
os.environ["HDF5_USE_FILE_LOCKING"] = "FALSE"
h5py = pytest.importorskip("h5py")

import clearsim  # noqa: E402
from conftest import CLI, MODEL, read_csv, run_cli  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def needs_hdf5(tmp_path_factory):
    out = tmp_path_factory.mktemp("probe") / "probe.h5"
    proc = run_cli("run", MODEL, "-q", "-o", out, "--set", "solver.end=1e-4")
    if "has no HDF5" in proc.stderr:
        pytest.skip("this build has no HDF5")
    assert proc.returncode == 0, proc.stderr


def test_every_channel_round_trips(tmp_path):
    sets = ["--set", "solver.end=0.02", "--set", "joints.rod_slider.clearance.radial=7e-4"]
    assert run_cli("run", MODEL, "-q", "-o", tmp_path / "r.csv", *sets).returncode == 0
    assert run_cli("run", MODEL, "-q", "-o", tmp_path / "r.h5", *sets).returncode == 0
    expected = read_csv(tmp_path / "r.csv")
    with h5py.File(tmp_path / "r.h5", "r") as f:
        names = f.attrs["channels"].split()
        assert ["time"] + names == list(expected)
        assert np.array_equal(f["time"][()], expected["time"])
        assert f["time"].attrs["units"] == "s"
        for name in names:
            assert np.array_equal(f["channels"][name][()], expected[name]), name
        assert f["channels/slider.velocity.x"].attrs["units"] == "m/s"
        assert f["channels/rod_slider.contact_force"].attrs["units"] == "N"
        assert f.attrs["model"] == MODEL.read_text()
        assert f.attrs["overrides"] == "solver.end=0.02\njoints.rod_slider.clearance.radial=7e-4\n"
        assert f.attrs["solver.step"] == 1e-5 and f.attrs["solver.end"] == 0.02


def test_estimate_writes_hdf5_for_an_h5_name(tmp_path):
    # `clearsim estimate -o est.h5` writes HDF5 (not a CSV under that name): every column and
    # its sigma bit for bit as the CSV has them, a parameter's in the model file's unit.
    model = MODEL.parent.parent / "estimation_four_bar_clearance" / "model.yaml"
    meas = tmp_path / "m.csv"
    proc = run_cli("measure", model, "--set", "solver.end=0.002", "-o", meas)
    assert proc.returncode == 0, proc.stderr
    path = "joints.coupler_rocker.clearance.radial"
    args = ["--measurements", meas, "--parameter", f"{path}=2e-5", "-q"]
    assert run_cli("estimate", model, "-o", tmp_path / "e.csv", *args).returncode == 0
    proc = run_cli("estimate", model, "-o", tmp_path / "e.h5", *args)
    assert proc.returncode == 0, proc.stderr
    expected = read_csv(tmp_path / "e.csv")
    with h5py.File(tmp_path / "e.h5", "r") as f:
        names = f.attrs["channels"].split()
        assert ["time"] + names == list(expected)
        for name in names:
            assert np.array_equal(f["channels"][name][()], expected[name]), name
        assert f["channels"][path].attrs["units"] == "m"
        assert f["channels"][f"sigma({path})"].attrs["units"] == "m"
        assert f.attrs["analysis"] == "estimate"
        assert f.attrs["measurements"] == str(meas)


def test_derivative_columns_are_datasets_under_derivatives(tmp_path):
    # An HDF5 name cannot hold the '/' of d(<channel>)/d(<path>): the column goes to
    # /derivatives/<path>/<channel>, with the CSV's values bit for bit and its unit.
    ideal = MODEL.parent.parent / "slider_crank_ideal" / "model.yaml"
    args = ["--end", "0.002", "--sensitivity", "bodies.slider.mass", "-q"]
    assert run_cli("run", ideal, "-o", tmp_path / "s.csv", *args).returncode == 0
    proc = run_cli("run", ideal, "-o", tmp_path / "s.h5", *args)
    assert proc.returncode == 0, proc.stderr
    expected = read_csv(tmp_path / "s.csv")
    with h5py.File(tmp_path / "s.h5", "r") as f:
        names = f.attrs["channels"].split()
        assert ["time"] + names == list(expected)
        key = "d(crank_speed.torque)/d(bodies.slider.mass)"
        assert key in names
        for name in names:
            if name.startswith("d("):
                channel = name[2:name.index(")/d(")]
                data = f["derivatives"]["bodies.slider.mass"][channel]
            else:
                data = f["channels"][name]
            assert np.array_equal(data[()], expected[name]), name
        unit = f["derivatives/bodies.slider.mass/crank_speed.torque"].attrs["units"]
        assert unit == "N*m/kg"
        assert np.any(f["derivatives/bodies.slider.mass/crank_speed.torque"][()] != 0)


def rows_in(path):
    try:
        with h5py.File(path, "r") as f:
            return len(f["time"])
    except (OSError, KeyError):
        return 0  # not created yet, or caught in the middle of a flush


def test_killed_run_keeps_every_flushed_row(tmp_path):
    out = tmp_path / "killed.h5"
    proc = subprocess.Popen([CLI, "run", str(MODEL), "-q", "-o", str(out),
                             "--set", "solver.end=20"])
    try:
        seen = 0
        while seen < 8192 and proc.poll() is None:
            time.sleep(0.05)
            seen = rows_in(out)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert seen >= 8192
    with h5py.File(out, "r") as f:
        t = f["time"][()]
        channels = {name: f["channels"][name][()] for name in f.attrs["channels"].split()}
    n = len(t)
    assert n >= seen and n < 2_000_001
    assert all(len(v) == n for v in channels.values())
    # The rows are those of the run: stepping the same model (end 20 s: the same step) from
    # Python gives them bit for bit.
    sim = clearsim.load(MODEL, {"solver.end": 20}).simulation()
    stepped = [sim.values()]
    for _ in range(n - 1):
        sim.step()
        stepped.append(sim.values())
    assert np.array_equal(t, [row["time"] for row in stepped])
    for name, column in channels.items():
        assert np.array_equal(column, [row[name] for row in stepped]), name
