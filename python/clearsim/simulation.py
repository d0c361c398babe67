"""A model stepped from Python."""

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
    """

    def __init__(self, model, end=None, step=None, every=None):
        self.model = model
        self._core = _core.Simulation(
            model._core.source, _core.RunLimits(end=end, step=step, every=every)
        )

    def step(self, n=1):
        """Takes n steps."""
        self._core.step(n)

    def run_to(self, t):
        """Steps until the time reaches t [s] (within half a fixed step; adaptive steps land on t)."""
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
        return self._core.value(channel)

    def summary(self):
        """The run statistics so far (as Result.summary)."""
        return self._core.summary()
