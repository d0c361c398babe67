"""A model stepped from Python."""

import collections
import math
import operator

from . import _core

State = collections.namedtuple("State", ["time", "q", "v"])
State.__doc__ = """A simulation's state: time [s], q (12 per body: the centre of mass x, y, z [m],
then R_WB row by row) and v (6 per body: the velocity [m/s], world, then the angular velocity
[rad/s], body frame), numpy arrays in the order of Simulation.bodies."""


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

    def step(self, n=1, callback=None):
        """Takes n steps (n >= 0; ValueError otherwise). With a callback, calls callback(self)
        after each step (see run_to)."""
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError(
                f"Simulation.step(n): n is a number of steps, a whole number >= 0; found "
                f"{type(n).__name__} {n!r}") from None
        if n < 0:
            raise ValueError(f"Simulation.step(n): n = {n}; expected a number of steps >= 0")
        if callback is None:
            self._core.step(min(n, 2**63 - 1))
            return
        _check_callback(callback, "step")
        for _ in range(n):
            self._core.step(1)
            if callback(self) is False:
                return

    def run_to(self, t, callback=None):
        """Steps until the time reaches t [s] (within half a fixed step; adaptive steps land on
        t); t = math.inf steps until Ctrl-C (KeyboardInterrupt) or a failure. ValueError for
        t = nan.

        With a callback, calls callback(self) after each step, between steps: it may read the
        state and channels, apply_load() or set_state(); returning False stops the run there
        (anything else carries on). The steps are those taken without it."""
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
        if callback is None:
            self._core.run_to(t)
            return
        _check_callback(callback, "run_to")
        while not self._core.reached(t):
            self._core.step_once_toward(t)
            if callback(self) is False:
                return

    # --- the state, read and set ---------------------------------------------------------

    @property
    def bodies(self):
        """The moving bodies' names, in the order of the state's arrays."""
        return self._core.bodies

    @property
    def q(self):
        """The positions: 12 numbers per body (in the order of bodies), the centre of mass x, y,
        z [m] (world) then the rotation R_WB (body to world) row by row. A numpy copy."""
        return self._core.state()[1]

    @property
    def v(self):
        """The velocities: 6 numbers per body, the centre of mass's velocity [m/s] (world) then
        the angular velocity [rad/s] in the body frame. A numpy copy."""
        return self._core.state()[2]

    def state(self):
        """The state as a State(time, q, v) named tuple (see q and v): what set_state takes."""
        return State(*self._core.state())

    def set_state(self, state=None, *, time=None, q=None, v=None):
        """Restarts the simulation at a State (from state(), of this simulation or another of the
        same model) or at the time [s], positions q and velocities v given by keyword (None keeps
        the state's or the current one), as a run whose model starts there: positions and
        velocities that satisfy the joints (to solver.newton_tol) are kept exactly, others are
        made consistent (the smallest mass-weighted change); accelerations and reactions are
        solved anew and the integrator starts afresh, fixed steps counting from the time. So
        set_state(state) then stepping equals a run started from that state, bit for bit.

        A wrong size or a value that is not finite (or a rotation that is not one) raises
        ValueError naming the item, and nothing changes; a state the joints cannot be closed at
        raises SimulationError, and the simulation carries on from where it was."""
        if state is not None:
            try:
                t0, q0, v0 = state
            except (TypeError, ValueError):
                raise TypeError("Simulation.set_state(state): expected a State (time, q, v) "
                                f"from Simulation.state(), found {type(state).__name__}") from None
            time = t0 if time is None else time
            q = q0 if q is None else q
            v = v0 if v is None else v
        if time is not None:
            try:
                time = float(time)
            except (TypeError, ValueError):
                raise TypeError(f"Simulation.set_state: time is a time [s], a number; found "
                                f"{type(time).__name__} {time!r:.60}") from None
        self._core.set_state(q, v, time)

    def pose(self, body):
        """(position of the centre of mass [m], rotation matrix R_WB), world frame, as numpy
        arrays (KeyError for an unknown body)."""
        return self._core.pose(_name(body, "pose", "body"))

    def twist(self, body):
        """(velocity of the centre of mass [m/s], angular velocity [rad/s]), world frame."""
        return self._core.twist(_name(body, "twist", "body"))

    # --- loads and element quantities ----------------------------------------------------

    def apply_load(self, body, force=None, torque=None, point=None):
        """Holds a force [N] and a torque [N·m] (world frame; None is zero) on a body, the force
        applied at `point` [m] (body frame, from the centre of mass; None is the centre of
        mass), over the following steps until the body's next apply_load or clear_loads(). It
        acts as a point_load element with these constant values would, bit for bit when no
        element after that one acts on the body. ValueError names an unknown body or a value
        that is not finite; nothing changes then."""
        self._core.apply_load(_name(body, "apply_load", "body"), force, torque, point)

    def clear_loads(self):
        """Removes every load apply_load() holds."""
        self._core.clear_loads()

    def element_values(self, element):
        """Every channel a joint, contact or force element publishes at the current state, as a
        dict {quantity: value} (e.g. "eccentricity", "force.x"); KeyError for an unknown
        element."""
        return self._core.element_values(_name(element, "element_values", "element"))

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


def _name(x, method, what):
    if not isinstance(x, str):
        raise TypeError(f"Simulation.{method}({what}): expected a {what} name (a str), found "
                        f"{type(x).__name__} {x!r:.60}")
    return x


def _check_callback(callback, method):
    if not callable(callback):
        raise TypeError(f"Simulation.{method}(callback=...): expected a function of the "
                        f"simulation, found {type(callback).__name__} {callback!r:.60}")
