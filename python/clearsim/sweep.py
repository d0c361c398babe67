"""Parameter sweeps: a grid of overrides, run in processes on this machine or on a Dask
cluster, summarised in one table (the same as `clearsim sweep`)."""

import os
import time

import numpy as np

from . import _core
from .model import Model, load
from .overrides import to_yaml


class SweepResult:
    """The runs of a sweep and their summary.

    rows       one dict per grid point, in grid order: parameters {path: value} (a number
               when the value is one, else its YAML text), ok, error, max_contact_force [N],
               max_penetration [m], contact_onsets, impact_steps, rms_distance (of `channel`
               from the reference run), steps, newton_iterations, wall_seconds, csv (the
               run's channels), summary (all run statistics)
               and, for each path of `gradients`, "d(max_contact_force)/d(PATH)" and
               "d(rms_distance)/d(PATH)": the run's summary differentiated by its direct
               sensitivities (docs/sensitivity.md)
    reference  the same for the reference run (the model without the grid's overrides)
    table      the path of the table written as CSV (sweep.csv)
    wall_seconds  of the whole sweep

    column("max_contact_force") is that column as a numpy array: every column of the table
    (a parameter by its path) and every key of the summary. to_pandas() is the table as a
    DataFrame with the columns' units in its attrs["units"].
    """

    def __init__(self, core, table, parameter_units=None):
        self._core = core
        self._parameter_units = dict(parameter_units or {})
        self.gradients = list(core.gradients)
        self.rows = [_row(r.as_dict(self.gradients)) for r in core.runs]
        self.reference = _row(core.reference.as_dict(self.gradients))
        self.table = table
        self.wall_seconds = core.wall_seconds

    def column(self, name):
        """A column as a numpy array: a parameter by its path, a column of the table or a key of
        the run statistics (KeyError naming the columns otherwise)."""
        if not self.rows:
            return np.array([])
        first = self.rows[0]
        if name in first["parameters"]:
            return np.array([r["parameters"][name] for r in self.rows])
        if name in first and name not in ("parameters", "summary"):
            return np.array([r[name] for r in self.rows])
        if name in first["summary"]:
            return np.array([r["summary"][name] for r in self.rows])
        names = list(first["parameters"]) + [k for k in first if k not in ("parameters", "summary")]
        raise KeyError(f"SweepResult.column: no column '{name}' (columns: {', '.join(names)}; "
                       f"or a key of the run statistics: {', '.join(first['summary'])})")

    # The columns of to_pandas after the parameters, with their units ("" when none; the
    # RMS distance is in the unit of the compared channel).
    _COLUMNS = {"ok": "", "error": "", "max_contact_force": "N", "max_penetration": "m",
                "contact_onsets": "1", "impact_steps": "1", "rms_distance": None, "steps": "1",
                "newton_iterations": "1", "wall_seconds": "s", "channel": "", "csv": ""}

    def to_pandas(self):
        """The table as a pandas DataFrame, one row per run in grid order (index "run"): a column
        per parameter (named by its path; numbers as numbers), then ok, error,
        max_contact_force, max_penetration, contact_onsets, impact_steps, rms_distance, steps,
        newton_iterations, wall_seconds, channel, csv, and the gradients' columns
        (d(max_contact_force)/d(PATH), d(rms_distance)/d(PATH)) of a sweep with gradients.
        The reference run is not a row (see .reference). df.attrs["units"] is {column: unit}:
        a parameter's that of the model file's number at its path ("" when it has none),
        rms_distance in the unit of the compared channel, a gradient's per its parameter's unit
        ("N/m" for d(max_contact_force)/d(<a clearance>)). Needs pandas."""
        from .model import _pandas, channel_unit

        pd = _pandas("SweepResult.to_pandas")
        params = list(self.rows[0]["parameters"]) if self.rows else []
        data = {p: [r["parameters"][p] for r in self.rows] for p in params}
        for c in self._COLUMNS:
            data[c] = [r[c] for r in self.rows]
        gradients = [f"d({summary})/d({g})" for g in self.gradients
                     for summary in ("max_contact_force", "rms_distance")]
        for c in gradients:
            data[c] = [r[c] for r in self.rows]
        df = pd.DataFrame(data, index=pd.RangeIndex(len(self.rows), name="run"))
        channel = self.reference["channel"]
        units = {p: self._parameter_units.get(p, "") for p in params}
        for c, unit in self._COLUMNS.items():
            units[c] = channel_unit(channel) if unit is None else unit
        for g in self.gradients:
            per = self._parameter_units.get(g, "")
            for summary in ("max_contact_force", "rms_distance"):
                units[f"d({summary})/d({g})"] = _core.derivative_unit(units[summary], per, g)
        df.attrs["units"] = units
        return df

    def channel(self, k):
        """The chosen channel of run k (k = "reference" for the reference) as (time, values)."""
        run = self._core.reference if k == "reference" else self._core.runs[k]
        return np.asarray(run.time), np.asarray(run.values)

    @property
    def failed(self):
        """The rows of the runs that failed."""
        return [r for r in self.rows if not r["ok"]]

    def __len__(self):
        return len(self.rows)

    def __iter__(self):
        return iter(self.rows)

    def __repr__(self):
        return (f"<clearsim.SweepResult: {len(self.rows)} runs, {len(self.failed)} failed, "
                f"table {self.table}>")


def _number(text):
    """A parameter's YAML text as the number it is (int or float), else the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _row(d):
    """A run's dict with its parameters as numbers and the table's columns from its summary."""
    d["parameters"] = {path: _number(text) for path, text in d["parameters"].items()}
    d["steps"] = d["summary"]["steps"]
    d["newton_iterations"] = d["summary"]["newton_iterations"]
    return d


def _axes(vary):
    axes = []
    for path, spec in vary.items():
        if isinstance(spec, str):
            axes.append(_core.SweepAxis(f"{path}={spec}"))
        else:
            axes.append(_core.SweepAxis(str(path), [to_yaml(v) for v in spec]))
    return axes


def _run_point(text, name, overrides, csv, channel, gradients):
    # On a Dask worker: one run (the module is imported there).
    from clearsim import _core as core

    return core.run_sweep_point(text, name, [core.Override(p, v) for p, v in overrides], csv,
                                channel, gradients)


def sweep(model, vary, out_dir="sweep", channel="", jobs=None, client=None, gradients=()):
    """Runs `model` over every combination of the values in `vary` and returns a SweepResult.

    model    a clearsim.Model (its overrides apply to every run) or a model-file path
    vary     {path: values}: values is "a:b:n" (n values evenly spaced from a to b), a list
             of values, or a numpy array; the first path varies slowest
    out_dir  where each run's CSV and the table sweep.csv go
    channel  the channel compared with the reference run (RMS distance); default: the
             model's first output channel
    jobs     processes at a time on this machine (default: every core)
    client   a dask.distributed Client: the runs go to its workers instead (they need
             `import clearsim` to work, and out_dir to be writable). Results are the same,
             bit for bit, as a local run.
    gradients  numeric paths of the model file: each run also reports its summary's
             derivatives with respect to them ("d(max_contact_force)/d(PATH)",
             "d(rms_distance)/d(PATH)"), from its direct sensitivities (docs/sensitivity.md;
             a model without sensitivities, e.g. NSGA contact, fails each run with the reason)
    A run that fails is reported in its row (ok False, error); the others finish.
    """
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise ValueError(
            f"sweep: jobs = {jobs!r}; expected a number of processes >= 1 (None: one per core)")
    if isinstance(gradients, str) or not all(isinstance(g, str) for g in gradients):
        raise TypeError(f"sweep: gradients = {gradients!r}; expected a list of model-file paths")
    gradients = list(gradients)
    if not isinstance(model, Model):
        model = load(model)
    axes = _axes(vary)
    _core.sweep_grid(axes)  # checks the axes (a path varied twice) before anything is written
    os.makedirs(out_dir, exist_ok=True)
    source = model._core.source
    if client is None:
        core = _core.run_sweep(source, axes, out_dir, channel, jobs or 0, gradients)
    else:
        start = time.monotonic()
        base = [(o.path, o.value) for o in source.overrides]
        points = [base] + [base + [(o.path, o.value) for o in point]
                           for point in _core.sweep_grid(axes)]
        csvs = [os.path.join(out_dir, "reference.csv")] + [
            os.path.join(out_dir, f"run_{k:03d}.csv") for k in range(len(points) - 1)]
        n = len(points)
        futures = client.map(_run_point, [source.text] * n, [source.name] * n, points, csvs,
                             [channel] * n, [gradients] * n, pure=False)
        runs = client.gather(futures)
        core = _core.SweepResult(axes, runs[0], runs[1:], time.monotonic() - start, gradients)
    table = os.path.join(out_dir, "sweep.csv")
    core.write_table(table)
    paths = [axis.path for axis in axes] + gradients
    return SweepResult(core, table, {p: model.unit_of(p) for p in paths})
