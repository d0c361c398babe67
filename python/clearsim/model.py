"""Models read from a file or from YAML text, and the results of their runs."""

import collections
import os

from . import _core
from .overrides import normalize
from .progress import progress_callback


def _pandas(caller):
    """pandas, imported when first needed (it is optional: Debian's python3-pandas)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError(f"{caller} needs pandas (Debian: apt-get install python3-pandas; "
                          f"pip: pip install pandas)") from e
    return pandas


def channel_unit(name):
    """The unit of a column of a result: "s" for time, the engine's unit of a channel ("m/s",
    "N", "1" for counts and ratios, "" when it has none, as `clearsim channels` prints them),
    and for a derivative d(<channel>)/d(<path>) the channel's unit per unit of the parameter,
    "<unit>/[<path>]" (the name alone does not say the parameter's unit: Result.units and the
    files a run writes give it from the model file, "m/kg")."""
    if name == "time":
        return "s"
    return _core.channel_unit(name)


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

    def __init__(self, channels, summary, notes, warnings, units=None):
        self.channels = channels
        self.summary = summary
        self.notes = notes
        self.warnings = warnings
        self._units = units

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

    @property
    def units(self):
        """{column: unit} for every array of channels ("time": "s", "slider.velocity.x": "m/s";
        see clearsim.channel_unit), a derivative's with its parameter's unit from the model
        file ("d(slider.position.x)/d(bodies.slider.mass)": "m/kg"), as the CSV's units line
        and the HDF5 datasets' attributes say them."""
        if self._units is not None:
            return dict(self._units)
        return {name: channel_unit(name) for name in self.channels}

    def to_pandas(self):
        """The channels as a pandas DataFrame indexed by time [s], one column per channel;
        df.attrs["units"] is {column: unit} (Result.units, "time" included). Needs pandas."""
        pd = _pandas("Result.to_pandas")
        columns = {k: v for k, v in self.channels.items() if k != "time"}
        df = pd.DataFrame(columns, index=pd.Index(self.time, name="time"))
        df.attrs["units"] = self.units
        return df

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

    def unit_of(self, path):
        """The unit of the number at `path` of the model file, as the reader reads it and the
        results spell units: "kg" for "bodies.slider.mass", "N*m*s/rad" for a rotational
        damping, "1" for a pure number (a restitution), "" where the reader read no number or
        the number has no single unit."""
        return self._core.unit_of(path)

    def available_channels(self):
        """Every channel the model offers (as `clearsim channels MODEL` lists them)."""
        return self._core.available_channels()

    def to_yaml(self):
        """The model as YAML text, its overrides applied: clearsim.loads(m.to_yaml()) runs as m
        does, bit for bit. The file's own text (comments included) when there are no
        overrides; otherwise the document is written anew, without comments."""
        return self._core.to_yaml()

    def save(self, path):
        """Writes to_yaml() to the file `path` (a model file clearsim.load and `clearsim run`
        read). Without a `model:` key, the model is named after the file. Mesh files named by
        a relative path are found relative to the model file: save next to the original, or
        name them by absolute paths."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_yaml())

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
        progress          False, True (a bar on stderr: tqdm's when python3-tqdm is installed,
                          a widget in Jupyter) or a callable progress(t, t_end)
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
        callback = progress_callback(progress, self.name)
        limits = _core.RunLimits(end=end, step=step, every=every)
        if isinstance(sensitivities, str):
            sensitivities = [sensitivities]
        paths = list(sensitivities or [])
        for p in paths:
            if not isinstance(p, str):
                raise TypeError(f"sensitivities: expected paths of the model file (str), found "
                                f"{type(p).__name__} {p!r}")
        try:
            arrays, summary, notes, warnings = self._core.run(limits, callback, channels, paths)
        finally:
            if hasattr(callback, "close"):
                callback.close()
        names = [k for k in arrays if k != "time"]
        units = dict(zip(names, self._core.column_units(names)), time="s")
        result = Result(arrays, summary, notes, warnings, {k: units[k] for k in arrays})
        if not summary["ok"]:
            err = SimulationError(f"{self.path}: error: {summary['message']}")
            err.result = result
            raise err
        return result

    def gradient(self, objective, parameters, end=None, step=None, memory=1024.0):
        """The gradient of one objective of a run with respect to many numbers of the model file
        at once, by the discrete adjoint (docs/sensitivity.md, *Adjoint gradients*; as
        `clearsim gradient`).

        objective   "end(CHANNEL)", "integral(CHANNEL)", "pnorm(CHANNEL, P)" or
                    "rms(CHANNEL, FILE.csv)"
        parameters  paths of numbers of the model file, as with_overrides names them
        end, step   replace solver.end [s] and solver.step [s] for this run
        memory      the most memory the stored trajectory may take [MiB]; past it the adjoint
                    keeps checkpoints and runs the steps between them again
        Returns a Gradient: .value (the objective), .gradient (numpy array, one derivative per
        parameter), .unit, .units (per parameter), .parameters, .notes, .steps, .stored_bytes,
        .checkpoint_every (1 when every state was stored), .recomputed_steps. Raises ValueError
        for a bad objective or a memory that is not a positive number [MiB], ModelFileError for
        a path that is not a number of the model, and SimulationError when the model has no
        adjoint (say NSGA) or the run fails.
        """
        if isinstance(parameters, str):
            parameters = [parameters]
        paths = list(parameters)
        for p in paths:
            if not isinstance(p, str):
                raise TypeError(f"parameters: expected paths of the model file (str), found "
                                f"{type(p).__name__} {p!r}")
        if isinstance(memory, bool) or not isinstance(memory, (int, float)) or not memory > 0:
            raise ValueError(f"memory: expected a positive number of MiB, found {memory!r}")
        if not isinstance(objective, str):
            raise TypeError(f"objective: expected a str such as 'end(slider.position.x)', found "
                            f"{type(objective).__name__} {objective!r}")
        limits = _core.RunLimits(end=end, step=step)
        value, grad, unit, units, notes, steps, stored, every, again = self._core.gradient(
            limits, objective, paths, float(memory) * 1048576.0)
        return Gradient(value, grad, unit, units, paths, notes, steps, stored, every, again)

    def simulation(self, end=None, step=None, every=None):
        """A Simulation of this model, at its consistent initial state (see clearsim.Simulation)."""
        from .simulation import Simulation

        return Simulation(self, end=end, step=step, every=every)

    def __repr__(self):
        extra = f", {len(self.overrides)} overrides" if self.overrides else ""
        return f"<clearsim.Model {self.name!r} from {self.path!r}{extra}>"


SimulationError = _core.SimulationError

Gradient = collections.namedtuple(
    "Gradient", ["value", "gradient", "unit", "units", "parameters", "notes", "steps",
                 "stored_bytes", "checkpoint_every", "recomputed_steps"])
Gradient.__doc__ = """Model.gradient's result: the objective's value [unit], its derivatives
[units] with respect to the parameters (numpy array), the run's notes, its steps, the bytes of
the trajectory the adjoint stored, the steps between its checkpoints (1: every state stored) and
the steps it ran again from them."""


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


def from_dict(data, name=None, overrides=None, **kwargs):
    """A Model built from Python data: a dict with the sections of a model file (bodies,
    joints, drivers, solver, output, ...), nested dicts and lists, str, int, float, bool and
    None, numpy scalars and arrays. It is written as YAML and read by the model-file reader, so
    it is checked, and runs, exactly as the same model written in a file.

    name       stands for the file name in messages (default: data["model"], else "<dict>")
    overrides  as for clearsim.load
    Raises ModelFileError with the reader's message, the item named by its path instead of a
    line ("<dict>: error: bodies.crank.mass: expected a positive number [kg], found '-0.3'");
    TypeError or ValueError naming the path of a value that has no place in a model file (a
    complex number, NaN or inf, a key that is not a str).
    """
    if name is None:
        model_name = data.get("model") if isinstance(data, dict) else None
        name = model_name if isinstance(model_name, str) and model_name else "<dict>"
    if not isinstance(name, str):
        raise TypeError(f"from_dict: name: expected a str, found {type(name).__name__} {name!r}")
    return Model(_core.Model.from_data(data, name, normalize(overrides) + normalize(kwargs)))
