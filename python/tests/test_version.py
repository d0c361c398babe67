"""The build names itself once: `clearsim --version`, clearsim.__version__/__commit__ and the
attributes of an HDF5 result say the same version and commit."""

import os
import re

import pytest

import clearsim
from conftest import MODEL, run_cli


def test_module_and_command_line_name_the_same_build():
    proc = run_cli("--version")
    assert proc.returncode == 0, proc.stderr
    line = proc.stdout.strip()
    assert re.fullmatch(r"clearsim \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}|unknown)\)", line), line
    assert line == f"clearsim {clearsim.__version__} (commit {clearsim.__commit__})"


def test_hdf5_result_names_the_build(tmp_path):
    os.environ["HDF5_USE_FILE_LOCKING"] = "FALSE"
    h5py = pytest.importorskip("h5py")
    out = tmp_path / "r.h5"
    proc = run_cli("run", MODEL, "-q", "-o", out, "--set", "solver.end=1e-4")
    if "has no HDF5" in proc.stderr:
        pytest.skip("this build has no HDF5")
    assert proc.returncode == 0, proc.stderr
    with h5py.File(out, "r") as f:
        assert f.attrs["clearsim_version"] == clearsim.__version__
        assert f.attrs["clearsim_commit"] == clearsim.__commit__
