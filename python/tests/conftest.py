"""Shared fixtures: the example model, the command line built beside the module, and exact
reading of the CSV files clearsim writes."""

import csv
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("CLEARSIM_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("CLEARSIM_CLI", str(SOURCE_DIR / "build" / "release" / "clearsim"))
MODEL = SOURCE_DIR / "examples" / "spherical_clearance_slider_crank" / "model.yaml"


@pytest.fixture
def model_path():
    return MODEL


def read_csv(path):
    """{column: [float, ...]} parsed with Python's float (exact for shortest-repr numbers).

    The '#' lines before the header (the version and the units) are skipped, as pandas'
    read_csv(comment='#') and numpy's genfromtxt do."""
    with open(path, newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    header, body = rows[0], rows[1:]
    return {name: [float(r[k]) for r in body] for k, name in enumerate(header)}


def run_cli(*args):
    """Runs the clearsim command line; returns the completed process."""
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=False)
