"""clearsim.estimate and clearsim.KalmanFilter: the extended Kalman filter of
`clearsim estimate` from Python (docs/estimation.md): the same estimates as the command line,
step-by-step use, and the errors that name the item."""

import re

import numpy as np
import pytest

import clearsim
from conftest import SOURCE_DIR, read_csv, run_cli

FOUR_BAR = SOURCE_DIR / "examples" / "estimation_four_bar" / "model.yaml"
DAMPING = "forces.crank_bearing.damping"


def test_same_estimates_as_the_command_line(tmp_path):
    data, out = tmp_path / "data.csv", tmp_path / "est.csv"
    done = run_cli("measure", str(FOUR_BAR), "--set", "solver.end=0.2", "--seed", "3", "-o", data)
    assert done.returncode == 0, done.stderr
    done = run_cli("estimate", str(FOUR_BAR), "--set", "solver.end=0.2", "--set", f"{DAMPING}=0.2",
            "--measurements", str(data), "--parameter", f"{DAMPING}=0.3", "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    cli = read_csv(out)
    samples = read_csv(data)
    model = clearsim.load(FOUR_BAR, {"solver.end": 0.2, DAMPING: 0.2})
    est = clearsim.estimate(model, samples["time"],
                            np.column_stack([samples["crank_encoder"], samples["rocker_gyro"]]),
                            parameters={DAMPING: 0.3}, sigma_position=1e-3, sigma_rotation=1e-3,
                            sigma_velocity=1e-2, sigma_angular_velocity=1e-2)
    assert np.array_equal(est["time"], cli["time"])
    for name in (DAMPING, f"sigma({DAMPING})", "rocker.rotation.z"):
        assert np.allclose(est[name], cli[name], rtol=1e-12, atol=0), name
    # Each array's unit, as the command line's units line says it.
    with open(out) as f:
        f.readline()
        units_line = f.readline().removeprefix("# units: ").strip().split(",")
        header = f.readline().strip().split(",")
    assert est["units"] == dict(zip(header, units_line))
    assert est["units"][DAMPING] == "N*m*s/rad" and est["units"]["rocker.rotation.z"] == "rad"
    # The wrong friction (0.2) moves towards the truth (0.5) within its reported 3σ.
    assert abs(est[DAMPING][-1] - 0.5) < 3 * est[f"sigma({DAMPING})"][-1]


def test_step_by_step_filter():
    model = clearsim.load(FOUR_BAR, {"solver.end": 0.05})
    kf = clearsim.KalmanFilter(model, outputs=["crank_bearing.angle"])
    assert kf.sensors == ["crank_encoder", "rocker_gyro"]
    values0, sigmas0 = kf.outputs()
    for _ in range(10):
        kf.predict()
    assert kf.time == pytest.approx(0.01)
    assert kf.due() == [0, 1]
    kf.update([0], [values0[0] + 0.06])
    values, sigmas = kf.outputs()
    assert sigmas[0] < 1e-3  # the encoder's σ is 1e-3 rad
    assert kf.covariance.shape[0] == kf.covariance.shape[1]


def test_unscented_filter_matches_the_command_line_and_steps(tmp_path):
    # filter="ukf" as --filter ukf: the same estimates; step by step as the extended one.
    data, out = tmp_path / "data.csv", tmp_path / "est.csv"
    done = run_cli("measure", str(FOUR_BAR), "--set", "solver.end=0.1", "--seed", "3", "-o", data)
    assert done.returncode == 0, done.stderr
    done = run_cli("estimate", str(FOUR_BAR), "--set", "solver.end=0.1", "--set", f"{DAMPING}=0.2",
                   "--measurements", str(data), "--parameter", f"{DAMPING}=0.1", "--filter",
                   "ukf", "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    cli, samples = read_csv(out), read_csv(data)
    model = clearsim.load(FOUR_BAR, {"solver.end": 0.1, DAMPING: 0.2})
    est = clearsim.estimate(model, samples["time"],
                            np.column_stack([samples["crank_encoder"], samples["rocker_gyro"]]),
                            parameters={DAMPING: 0.1}, filter="ukf")
    for name in (DAMPING, f"sigma({DAMPING})", "rocker.rotation.z"):
        assert np.allclose(est[name], cli[name], rtol=1e-12, atol=0), name
    kf = clearsim.KalmanFilter(model, outputs=["crank_bearing.angle"], filter="ukf")
    kf.predict()
    kf.update(kf.due(), [samples["crank_encoder"][1], samples["rocker_gyro"][1]])
    values, sigmas = kf.outputs()
    assert sigmas[0] < 1e-3


def test_ukf_alpha_matches_the_command_line_and_is_checked(tmp_path):
    # ukf_alpha=0.3 as --ukf-alpha 0.3 (a negative centre weight: the closed-form downdate);
    # refused outside (0, 1] and with the extended filter, naming the setting.
    data, out = tmp_path / "data.csv", tmp_path / "est.csv"
    done = run_cli("measure", str(FOUR_BAR), "--set", "solver.end=0.05", "--seed", "3", "-o", data)
    assert done.returncode == 0, done.stderr
    done = run_cli("estimate", str(FOUR_BAR), "--set", "solver.end=0.05", "--set", f"{DAMPING}=0.2",
                   "--measurements", str(data), "--parameter", f"{DAMPING}=0.1", "--filter",
                   "ukf", "--ukf-alpha", "0.3", "-o", str(out), "-q")
    assert done.returncode == 0, done.stderr
    cli, samples = read_csv(out), read_csv(data)
    model = clearsim.load(FOUR_BAR, {"solver.end": 0.05, DAMPING: 0.2})
    est = clearsim.estimate(model, samples["time"],
                            np.column_stack([samples["crank_encoder"], samples["rocker_gyro"]]),
                            parameters={DAMPING: 0.1}, filter="ukf", ukf_alpha=0.3)
    for name in (DAMPING, f"sigma({DAMPING})", "rocker.rotation.z"):
        assert np.allclose(est[name], cli[name], rtol=1e-12, atol=0), name
    for alpha in (0.0, -0.5, 1.5, float("nan")):
        with pytest.raises(ValueError, match=r"ukf_alpha .*: expected a number in \(0, 1\]"):
            clearsim.KalmanFilter(model, filter="ukf", ukf_alpha=alpha)
    with pytest.raises(ValueError, match="ukf_alpha 0.5: the extended filter has no sigma points"):
        clearsim.KalmanFilter(model, ukf_alpha=0.5)


def test_bad_filter_kind_is_refused_with_the_list():
    model = clearsim.load(FOUR_BAR, {"solver.end": 0.05})
    with pytest.raises(ValueError, match="filter 'pkf': expected one of ekf, ukf"):
        clearsim.KalmanFilter(model, filter="pkf")


def test_bad_samples_name_the_item():
    model = clearsim.load(FOUR_BAR, {"solver.end": 0.05})
    with pytest.raises(ValueError, match=r"shape \(len\(time\), 2\)"):
        clearsim.estimate(model, [0.0, 0.001], np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"samples\[1, 0\] \(crank_encoder\): not finite"):
        clearsim.estimate(model, [0.0, 0.001], [[0.0, 0.0], [np.inf, 0.0]])
    with pytest.raises(TypeError, match="unknown filter setting 'sigma_postion'"):
        clearsim.KalmanFilter(model, sigma_postion=1.0)


@pytest.mark.parametrize("text, message", [
    ("time,crank_encoder\n0,0\n", r":1: error: no column for sensor 'rocker_gyro'"),
    ("time,crank_encoder,rocker_gyr\n0,0,0\n",
     r":1: error: column 3 'rocker_gyr' is no sensor.*did you mean 'rocker_gyro'"),
    ("time,crank_encoder,rocker_gyro\n0,0,0\n0.001,nan,0\n",
     r":3: error: column 2 \(crank_encoder\): the sample 'nan' is not finite"),
    ("time,crank_encoder,rocker_gyro\n0,0,0\n0.001,x,0\n",
     r":3: error: column 2 \(crank_encoder\): 'x' is not a number"),
    ("time,crank_encoder,rocker_gyro\n0,0,0\n0,0,0\n", r":3: error: the time 0 s does not increase"),
    ("time,crank_encoder,rocker_gyro\n0,0\n", r":2: error: a row of 2 cells under a header of 3"),
])
def test_bad_measurement_files_name_line_and_column(tmp_path, text, message):
    data = tmp_path / "data.csv"
    data.write_text(text)
    done = run_cli("estimate", str(FOUR_BAR), "--measurements", data, "-o", tmp_path / "e.csv")
    assert done.returncode != 0
    assert re.search(message, done.stderr), done.stderr
