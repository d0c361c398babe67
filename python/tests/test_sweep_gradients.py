"""Sweep gradients (issue 26, item 5): each run's summary differentiated by its direct
sensitivities, against central differences of the sweep's own runs."""

import csv

import pytest

import clearsim
from conftest import SOURCE_DIR

FLORES = "examples/flores_slider_crank/model.yaml"
E = "joints.rod_slider.clearance.restitution"


def _flores():
    # 1.5 ms: the journal crosses the clearance and strikes (compliant contact, Lankarani–Nikravesh).
    return clearsim.load(str(SOURCE_DIR / FLORES)).with_overrides(
        {"solver.end": 0.0015, "output.every": 10})


def test_gradients_equal_central_differences_of_the_runs(tmp_path):
    # Central differences at ±1e-5 relative: their truncation error is O(δ²) and shrinks from
    # 1.3e-2 (rms) at 1e-3 to 3e-7 at 1e-5; below, round-off (~1e-16 / δ of the runs) grows
    # again (3e-6 at 1e-6). 1e-5 relative holds both with a margin of 30.
    e0, d = 0.8, 1e-5
    r = clearsim.sweep(_flores(), {E: [e0 * (1 - d), e0, e0 * (1 + d)]},
                       out_dir=str(tmp_path), channel="slider.acceleration.x", gradients=[E])
    assert [row["ok"] for row in r.rows] == [True] * 3, [row["error"] for row in r.rows]
    lo, mid, hi = r.rows
    for summary in ("max_contact_force", "rms_distance"):
        fd = (hi[summary] - lo[summary]) / (2 * d * e0)
        grad = mid[f"d({summary})/d({E})"]
        assert grad == pytest.approx(fd, rel=1e-5), summary
        assert abs(grad) > 0  # the summary does depend on the restitution
    # The table has the same columns.
    with open(r.table) as f:
        header = next(csv.reader(f))
    assert f"d(max_contact_force)/d({E})" in header
    assert f"d(rms_distance(slider.acceleration.x))/d({E})" in header
    # And in the DataFrame.
    df = r.to_pandas()
    assert list(df[f"d(rms_distance)/d({E})"]) == [row[f"d(rms_distance)/d({E})"] for row in r.rows]
    # Units: a restitution is a pure number, so a derivative has its summary's unit.
    assert df.attrs["units"][E] == "1"
    assert df.attrs["units"][f"d(max_contact_force)/d({E})"] == "N"
    assert df.attrs["units"][f"d(rms_distance)/d({E})"] == "m/s^2"


def test_a_gradients_unit_is_its_summarys_per_its_parameters(tmp_path):
    radial = "joints.rod_slider.clearance.radial"
    r = clearsim.sweep(_flores(), {radial: [0.5e-3]}, out_dir=str(tmp_path),
                       channel="slider.velocity.x", gradients=[radial])
    units = r.to_pandas().attrs["units"]
    assert units[radial] == "m"
    assert units[f"d(max_contact_force)/d({radial})"] == "N/m"
    assert units[f"d(rms_distance)/d({radial})"] == "m/s/m"


def test_a_model_without_sensitivities_fails_each_run_with_the_reason(tmp_path):
    # NSGA with friction at a rigid contact has no sensitivities.
    ball = clearsim.load(str(SOURCE_DIR / "examples/bouncing_ball/model.yaml"))
    e = "contacts.floor.restitution"
    r = clearsim.sweep(ball.with_overrides({"solver.end": 1e-3, "contacts.floor.friction": 0.3}),
                       {e: [0.5, 0.9]}, out_dir=str(tmp_path), gradients=[e])
    assert not any(row["ok"] for row in r.rows)
    assert all("no gradients" in row["error"] for row in r.rows), r.rows[0]["error"]


def test_gradients_must_be_paths(tmp_path):
    with pytest.raises(TypeError, match="gradients"):
        clearsim.sweep(_flores(), {E: [0.5]}, out_dir=str(tmp_path), gradients=E)
