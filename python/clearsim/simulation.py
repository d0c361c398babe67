"""A model stepped from Python."""

import math
import operator

from . import _core


class Simulation:
    """A dynamic analysis of a model, step by step, from its consistent initial state.

        sim = model.simulation()
        while sim.time < 0.01:
            sim.step()
            v = sim.value("slider.velocity.x")

    Each step is the step the whole run would take: solver.end / round(end / step) at fixed
    steps, or the step-size controller's next step with solver.adaptive (landing on solver.end),
    so stepping gives the states of model.run(), bit for bit. Raises SimulationError when the
    model cannot start or a step fails.

    Threads: a Simulation may be used from several threads; its calls are serialized (each
    runs whole, one at a time; the engine runs without the GIL), so the results are those of
    some serial order of the calls. Different Simulations step in parallel. Ctrl-C stops
    step() and run_to() with KeyboardInterrupt after a whole step; the Simulation stays usable
    at the last step taken.
    """

    def __init__(self, model, end=None, step=None, every=None):
        self.model = model
        self._core = _core.Simulation(
            model._core.source, _core.RunLimits(end=end, step=step, every=every)
        )

    def step(self, n=1):
        """Takes n steps (n >= 0; ValueError otherwise)."""
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(
                f"Simulation.step(n): n is a number of steps, a whole number >= 0; found "
                f"{type(n).__name__} {n!r}") from None
        if n < 0:
            raise ValueError(f"Simulation.step(n): n = {n}; expected a number of steps >= 0")
        self._core.step(min(n, 2**63 - 1))

    def run_to(self, t):
        """Steps until the time reaches t [s] (within half a fixed step; adaptive steps land on
        t); t = math.inf steps until Ctrl-C (KeyboardInterrupt) or a failure. ValueError for
        t = nan."""
        try:
            t = float(t)
        except (TypeError, ValueError):
            raise TypeError(
                f"Simulation.run_to(t): t is a time [s], a number; found {type(t).__name__} "
                f"{t!r}") from None
        if math.isnan(t):
            raise ValueError(
                "Simulation.run_to(t): t is nan; expected a time [s] (inf steps until "
                "interrupted)")
        self._core.run_to(t)

    @property
    def time(self):
        """The current time [s]."""
        return self._core.time

    @property
    def step_size(self):
        """The size of the next step h [s] (adaptive: the controller's next attempt)."""
        return self._core.step_size

    @property
    def end(self):
        """solver.end [s]: the time the step size is derived from."""
        return self._core.end

    @property
    def channels(self):
        """The names values() returns (the model's output channels)."""
        return self._core.channels

    @property
    def notes(self):
        """The engine's notes from the initial conditions."""
        return self._core.notes

    def values(self):
        """The model's channels at the current state, as a dict {"time": t, name: value}."""
        return self._core.values()

    def value(self, channel):
        """Any channel the model offers at the current state (KeyError if there is none)."""
        if not isinstance(channel, str):
            raise TypeError(f"Simulation.value(channel): expected a channel name (a str), found "
                            f"{type(channel).__name__} {channel!r:.60}")
        return self._core.value(channel)

    def summary(self):
        """The run statistics so far (as Result.summary)."""
        return self._core.summary()
