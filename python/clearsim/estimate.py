"""State and parameter estimation with an extended or unscented Kalman filter
(docs/estimation.md).

    import clearsim
    m = clearsim.load("model.yaml")                    # a model with a sensors section
    est = clearsim.estimate(m, time, samples,          # samples: one column per sensor
                            parameters={"forces.spring.stiffness": 10.0},
                            outputs=["block.position.x"])
    est["block.position.x"], est["sigma(block.position.x)"]   # numpy arrays over est["time"]

    kf = clearsim.KalmanFilter(m, sigma_position=1e-2)  # step by step (online)
    kf.predict(); kf.update(kf.due(), [0.098])
"""

import numpy as np

from . import _core

_SETTINGS = (
    "sigma_position",
    "sigma_rotation",
    "sigma_velocity",
    "sigma_angular_velocity",
    "acceleration_noise",
    "angular_acceleration_noise",
    "filter",
    "ukf_alpha",
)
_FILTERS = ("ekf", "ukf")


def _settings(parameters, options):
    unknown = sorted(set(options) - set(_SETTINGS))
    if unknown:
        raise TypeError(f"unknown filter setting {unknown[0]!r} (known: {', '.join(_SETTINGS)})")
    settings = dict(options)
    kind = settings.get("filter", "ekf")
    if kind not in _FILTERS:
        raise ValueError(f"filter {kind!r}: expected one of {', '.join(_FILTERS)}")
    params = []
    for path, spec in (parameters or {}).items():
        sigma, walk = (spec, 0.0) if np.isscalar(spec) else tuple(spec)
        params.append((path, float(sigma), float(walk)))
    settings["parameters"] = params
    return settings


class KalmanFilter:
    """A Kalman filter whose plant is `model` (its sensors section says what is
    measured). `parameters` maps numeric paths of the model to the σ of their initial guess (the
    file's value), or to (σ, random walk per √s). Keyword settings: sigma_position [m],
    sigma_rotation [rad], sigma_velocity [m/s], sigma_angular_velocity [rad/s] of the initial
    state; acceleration_noise [m/s²/√Hz] and angular_acceleration_noise [rad/s²/√Hz] of the
    process; filter="ekf" (extended, the default) or "ukf" (unscented: sigma points stepped by
    the plant, no Jacobian); ukf_alpha, the unscented filter's spread in (0, 1] (sigma points
    at ±ukf_alpha·√c σ along the covariance's c columns; default 1, only with filter="ukf")."""

    def __init__(self, model, parameters=None, outputs=None, **settings):
        self._core = _core.ExtendedKalmanFilter(model._core.source, _settings(parameters, settings))
        self._core.set_outputs(list(outputs) if outputs is not None else model.channels)

    @property
    def time(self):
        return self._core.time

    @property
    def sensors(self):
        """The sensors' names, in the order of the samples' columns."""
        return self._core.sensors

    @property
    def parameters(self):
        return self._core.parameters

    @property
    def parameter_sigma(self):
        return self._core.parameter_sigma

    @property
    def covariance(self):
        return self._core.covariance

    @property
    def warnings(self):
        return self._core.warnings

    def predict(self):
        """One step of the plant (solver.step) with the covariance propagated."""
        self._core.predict()

    def due(self):
        """The indices of the sensors that sample at the current time."""
        return self._core.due()

    def update(self, sensors, samples):
        """Corrects the state with `samples` of the sensors `sensors` (indices) taken now."""
        self._core.update(list(sensors), np.asarray(samples, dtype=float))

    def outputs(self):
        """(values, sigmas) of the output channels at the current estimate."""
        return self._core.outputs()

    def run(self, time, samples, every=1):
        """The filter over recorded samples (rows at `time`, one column per sensor, NaN where a
        sensor has no sample): a dict of numpy arrays, "time", each output and parameter, and
        "sigma(<name>)" for each; "warnings" (the filter's, a list of str) and "units", {name:
        unit} of every array (an output's channel unit, a parameter's that of the model file's
        number at its path: "m" for a clearance, "1" for a restitution)."""
        return self._core.run(np.asarray(time, dtype=float), np.asarray(samples, dtype=float),
                              every)


def estimate(model, time, samples, parameters=None, outputs=None, every=1, **settings):
    """Runs KalmanFilter(model, parameters, outputs, **settings) over the samples and returns
    its estimates as numpy arrays (see KalmanFilter.run)."""
    return KalmanFilter(model, parameters, outputs, **settings).run(time, samples, every)
