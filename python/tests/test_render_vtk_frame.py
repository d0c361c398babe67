"""examples/render_vtk_frame.py (the README's headless frame) on a short mesh_drop series: it
writes a PNG of the requested size; the frame it picks by itself is the one with the largest
contact force and shows the contact (its crimson point and arrow), a frame in free flight does
not."""

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("vtkmodules.vtkIOXML")
import matplotlib.image as mpimg  # noqa: E402

from conftest import SOURCE_DIR, run_cli  # noqa: E402

SCRIPT = SOURCE_DIR / "examples" / "render_vtk_frame.py"
MESH_DROP = SOURCE_DIR / "examples" / "mesh_drop" / "model.yaml"
CRIMSON = np.array([220, 20, 60]) / 255  # the contacts' colour in the script


@pytest.fixture(scope="module")
def series(tmp_path_factory):
    """mesh_drop to just after the first impact (t ≈ 0.175 s, 3 ms long), every 0.5 ms."""
    d = tmp_path_factory.mktemp("mesh_drop")
    proc = run_cli("run", MESH_DROP, "-q", "-o", d / "run.csv", "--vtk", d / "frames",
                   "--end", "0.2",
                   "--every", "5", "--set", "output.vtk_every=1")
    assert proc.returncode == 0, proc.stderr
    return d / "frames"


def render(series, out, *args):
    proc = subprocess.run([sys.executable, SCRIPT, series, "-o", out, *map(str, args)],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert out.is_file() and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return mpimg.imread(out)[:, :, :3], proc.stdout


def crimson_pixels(img):
    return int(np.sum(np.all(np.abs(img - CRIMSON) < 0.05, axis=2)))


def test_renders_the_frame_of_largest_contact_force(series, tmp_path):
    img, said = render(series, tmp_path / "frame.png", "--size", 4, 3)
    assert img.shape == (300, 400, 3)
    assert img.std() > 0.05  # something drawn, not a blank canvas
    assert crimson_pixels(img) > 20, said
    t = float(said.split("t = ")[1].split()[0])
    assert 0.17 < t < 0.185, said


def test_a_frame_in_free_flight_shows_no_contact(series, tmp_path):
    img, said = render(series, tmp_path / "first.png", "--step", 0, "--size", 4, 3)
    assert crimson_pixels(img) == 0
    assert "t = 0 s" in said, said
