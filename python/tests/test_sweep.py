"""Sweeps on local processes and on a Dask cluster, against each other and the command line."""

import numpy as np
import pytest

import clearsim
from conftest import MODEL, read_csv, run_cli

VARY = {"joints.rod_slider.clearance.radial": "3e-4:9e-4:3",
        "joints.rod_slider.clearance.restitution": [0.5, -1.0]}
BASE = {"solver.end": 0.01}


def comparable(row):
    """A row without what may differ between two identical runs (timing, where files go)."""
    row = dict(row)
    row.pop("wall_seconds")
    row.pop("csv")
    if row["rms_distance"] != row["rms_distance"]:  # NaN (a failed run) equals itself here
        row["rms_distance"] = "nan"
    row["summary"] = {k: v for k, v in row["summary"].items() if k != "wall_seconds"}
    return row


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    out = tmp_path_factory.mktemp("local")
    return clearsim.sweep(clearsim.load(MODEL, BASE), VARY, out_dir=str(out),
                          channel="slider.acceleration.x", jobs=2)


def test_grid_failed_runs_and_summary(local):
    assert len(local) == 6
    radial = local.column("joints.rod_slider.clearance.radial")
    assert list(radial) == [3e-4, 3e-4, 6e-4, 6e-4, 9e-4, 9e-4]
    ok = [r["ok"] for r in local]
    assert ok == [True, False] * 3
    for r in local.failed:
        assert "override joints.rod_slider.clearance.restitution=-1.0" in r["error"]
        assert "expected a non-negative number" in r["error"]
    for r in local:
        if r["ok"]:
            assert r["max_contact_force"] > 0 and r["contact_onsets"] > 0
            assert r["rms_distance"] > 0
    assert local.reference["ok"] and local.reference["rms_distance"] == 0.0


def test_every_table_column_and_numbers_for_parameters(local):
    """Parameters come back as the numbers they are; every column of sweep.csv is a column()."""
    assert local.rows[1]["parameters"] == {"solver.end": 0.01,  # the model's own override
                                           "joints.rod_slider.clearance.radial": 3e-4,
                                           "joints.rod_slider.clearance.restitution": -1.0}
    with open(local.table) as f:
        header = f.readline().strip().split(",")
    for name in header[1:]:
        name = name.split("(")[0]  # rms_distance(slider.acceleration.x)
        assert len(local.column(name)) == 6, name
    assert list(local.column("steps")) == [r["summary"]["steps"] for r in local]
    assert local.column("steps")[0] == 1000
    assert list(local.column("rejected_steps")) == [r["summary"]["rejected_steps"] for r in local]
    with pytest.raises(KeyError, match="no column 'nosuch'"):
        local.column("nosuch")


def test_run_csv_equals_command_line_run(local, tmp_path):
    row = local.rows[2]
    out = tmp_path / "cli.csv"
    proc = run_cli("run", MODEL, "-q", "-o", out, "--set", "solver.end=0.01",
                   "--set", "joints.rod_slider.clearance.radial=6e-4",
                   "--set", "joints.rod_slider.clearance.restitution=0.5")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == open(row["csv"], "rb").read()
    t, a = local.channel(2)
    assert np.array_equal(a, np.array(read_csv(out)["slider.acceleration.x"]))


def test_command_line_sweep_writes_the_same_table(local, tmp_path):
    proc = run_cli("sweep", MODEL, "-q", "-o", tmp_path, "--set", "solver.end=0.01",
                   "--channel", "slider.acceleration.x",
                   "--vary", "joints.rod_slider.clearance.radial=3e-4:9e-4:3",
                   "--vary", "joints.rod_slider.clearance.restitution=0.5,-1.0")
    assert proc.returncode == 3  # some runs failed
    cli = read_table(tmp_path / "sweep.csv")
    py = read_table(local.table)
    assert cli.keys() == py.keys()
    for column in cli:
        if column not in ("wall_seconds", "csv"):
            assert cli[column] == py[column], column


def read_table(path):
    import csv
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return {name: [r[k] for r in rows[1:]] for k, name in enumerate(rows[0])}


def test_dask_cluster_gives_the_local_results_bit_for_bit(local, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        remote = clearsim.sweep(clearsim.load(MODEL, BASE), VARY, out_dir=str(tmp_path),
                                channel="slider.acceleration.x", client=client)
    assert [comparable(r) for r in remote] == [comparable(r) for r in local]
    assert comparable(remote.reference) == comparable(local.reference)
    for k, (a, b) in enumerate(zip(remote.rows, local.rows)):
        ta, va = remote.channel(k)
        tb, vb = local.channel(k)
        assert np.array_equal(ta, tb) and np.array_equal(va, vb)
        if a["ok"]:
            assert open(a["csv"], "rb").read() == open(b["csv"], "rb").read()


def test_ctrl_c_stops_a_local_sweep_and_its_processes(tmp_path):
    import os
    import signal
    import threading

    # Runs of 5 s of model time (500 000 steps each): the signal comes long before they end.
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            clearsim.sweep(MODEL, {"solver.end": [5.0, 5.0]}, out_dir=str(tmp_path), jobs=2)
    finally:
        timer.cancel()
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".result")]
    assert forked_children() == []  # every run's process was killed and reaped


def forked_children():
    """Our child processes that are forks of this interpreter (same command line)."""
    import os
    me = os.getpid()
    with open(f"/proc/{me}/cmdline", "rb") as f:
        mine = f.read()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                same = f.read() == mine
        except OSError:
            continue
        if ppid == me and same:
            found.append(int(pid))
    return found
