"""Models read from a file or from YAML text, and the results of their runs."""

import os

from . import _core
from .overrides import normalize
from .progress import ProgressBar


class Result:
    """The channels and statistics of one run.

    channels  dict of numpy arrays, one value per output point: "time" first, then every
              channel of the run ("slider.velocity.x", "rod_slider.contact_force", ...)
    summary   dict of run statistics: ok, message, steps, newton_iterations, contact_onsets,
              impact_steps, max_penetration [m], wall_seconds, ...
    notes     the engine's notes (redundant constraints removed, ...)
    warnings  the model file's warnings

    result["slider.velocity.x"] is result.channels["slider.velocity.x"]. A run with
    sensitivities also has the arrays "d(<channel>)/d(<path>)" (result.derivative(channel,
    path) reads one).
    """

    def __init__(self, channels, summary, notes, warnings):
        self.channels = channels
        self.summary = summary
        self.notes = notes
        self.warnings = warnings

    @property
    def time(self):
        """The output times [s]."""
        return self.channels["time"]

    def __getitem__(self, name):
        return self.channels[name]

    def derivative(self, channel, path):
        """d(channel)/d(path) at each output point, from a run with sensitivities=[path, ...]
        (docs/sensitivity.md). NaN where the derivative does not exist (the run warned)."""
        key = f"d({channel})/d({path})"
        if key not in self.channels:
            if channel not in self.channels:
                raise KeyError(f"no channel {channel!r} in this result")
            raise KeyError(f"no derivative with respect to {path!r}: run with "
                           f"sensitivities=[{path!r}, ...]")
        return self.channels[key]

    def __contains__(self, name):
        return name in self.channels

    def __repr__(self):
        n = len(self.channels["time"])
        return f"<clearsim.Result: {n} output points, {len(self.channels) - 1} channels>"


class Model:
    """A model file read and checked, with the overrides applied to it.

    Make one with clearsim.load(path) or clearsim.loads(text). A Model does not change: each
    run reads the file's text again with the overrides, so runs never share state, and
    with_overrides() gives a new Model with more of them.
    """

    def __init__(self, core):
        self._core = core

    @property
    def name(self):
        """The model's name (its `model:` key, or the file's stem)."""
        return self._core.name

    @property
    def path(self):
        """The file name used in messages."""
        return self._core.path

    @property
    def text(self):
        """The YAML text of the model file, without the overrides."""
        return self._core.text

    @property
    def overrides(self):
        """The overrides, as a list of (path, YAML value text) pairs, in order."""
        return self._core.overrides

    @property
    def settings(self):
        """The run settings after the overrides: analysis, end, step, adaptive, every,
        channels, file."""
        return self._core.settings

    @property
    def warnings(self):
        """The reader's warnings ("FILE:LINE:COL: warning: ...")."""
        return self._core.warnings

    @property
    def channels(self):
        """The channels a run returns: output.channels, or every body's position and velocity
        and the energies when the file names none."""
        return self._core.channels()

    def available_channels(self):
        """Every channel the model offers (as `clearsim channels MODEL` lists them)."""
        return self._core.available_channels()

    def with_overrides(self, overrides=None, **kwargs):
        """A new Model with more overrides, applied after this one's.

        overrides  {path: value}, [(path, value), ...] or ["PATH=VALUE", ...]; a path is the
                   dotted name of a value in the model file, with [k] for list items
                   ("joints.rod_slider.clearance.radial", "gravity[2]"). Values are Python
                   numbers, bools, strings (YAML text), lists or dicts.
        Raises ModelFileError if a path does not exist (naming the key and the keys that do)
        or a value is not valid where it goes.
        """
        more = normalize(overrides) + normalize(kwargs)
        return Model(self._core.with_overrides(more))

    def run(self, end=None, step=None, every=None, progress=False, channels=None,
            sensitivities=None):
        """Runs the model's analysis from t = 0 and returns a Result.

        end, step, every  replace solver.end [s], solver.step [s] and output.every for this run
        progress          False, True (a bar on stderr) or a callable progress(t, t_end)
        channels          channel names to return instead of the model's output.channels
        sensitivities     paths of numbers of the model file ("bodies.slider.mass",
                          "joints.rod_slider.clearance.radial", as with_overrides names them):
                          the result also has d(<channel>)/d(<path>) for every channel and
                          path, the derivative of the computed solution (docs/sensitivity.md;
                          as `clearsim run --sensitivity PATH`)
        The numbers are those of `clearsim run` on the same model, bit for bit. Raises
        SimulationError (with .result, what was computed) if the run stops early; Ctrl-C
        stops it with KeyboardInterrupt.
        """
        callback = progress
        if progress is True:
            callback = ProgressBar(self.name)
        elif not progress:
            callback = None
        limits = _core.RunLimits(end=end, step=step, every=every)
        if isinstance(sensitivities, str):
            sensitivities = [sensitivities]
        paths = list(sensitivities or [])
        for p in paths:
            if not isinstance(p, str):
                raise TypeError(f"sensitivities: expected paths of the model file (str), found "
                                f"{type(p).__name__} {p!r}")
        arrays, summary, notes, warnings = self._core.run(limits, callback, channels, paths)
        result = Result(arrays, summary, notes, warnings)
        if not summary["ok"]:
            err = SimulationError(f"{self.path}: error: {summary['message']}")
            err.result = result
            raise err
        return result

    def simulation(self, end=None, step=None, every=None):
        """A Simulation of this model, at its consistent initial state (see clearsim.Simulation)."""
        from .simulation import Simulation

        return Simulation(self, end=end, step=step, every=every)

    def __repr__(self):
        extra = f", {len(self.overrides)} overrides" if self.overrides else ""
        return f"<clearsim.Model {self.name!r} from {self.path!r}{extra}>"


SimulationError = _core.SimulationError


def load(path, overrides=None, **kwargs):
    """Reads and checks the model file at `path`, with `overrides` applied (see
    Model.with_overrides). Raises ModelFileError ("FILE:LINE:COL: error: ...")."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(
            f"clearsim.load(path): expected the model file's path (a str or a pathlib.Path), "
            f"found {type(path).__name__} {path!r}")
    core = _core.Model.from_file(os.fsdecode(path), normalize(overrides) + normalize(kwargs))
    return Model(core)


def loads(text, name="<string>", overrides=None, **kwargs):
    """Reads and checks a model given as YAML text; `name` stands for the file name in
    messages."""
    if not isinstance(text, str):
        raise TypeError(
            f"clearsim.loads(text): expected the model's YAML text (a str), found "
            f"{type(text).__name__} {text!r:.60}")
    return Model(_core.Model.from_string(text, name, normalize(overrides) + normalize(kwargs)))
