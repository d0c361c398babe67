"""Issue 28: the fuzz test reaches the Python API. Seeded random calls with odd arguments on a
Model and a Simulation: each call either works or raises one of the documented exceptions with a
message, and a Simulation stays usable after every refused call."""

import math
import random

import pytest

import clearsim
from conftest import MODEL

ODD = [None, -1, 0, 1, 2, 1.5, -0.0, math.nan, math.inf, -math.inf, "x", "3", "", [], {}, True,
       b"\xff", 10**30, -10**30, 1e-300, 1e300, object()]
ALLOWED = (TypeError, ValueError, KeyError, OverflowError, clearsim.ModelFileError,
           clearsim.SimulationError)


def call(f, *args, **kwargs):
    """Runs f; returns None or the exception, which must be one of ALLOWED with a message."""
    try:
        f(*args, **kwargs)
    except ALLOWED as e:
        assert str(e), f"{type(e).__name__} without a message from {f.__name__}{args}"
        return e
    return None


@pytest.mark.parametrize("seed", range(4))
def test_odd_arguments_raise_documented_exceptions(seed):
    rng = random.Random(seed)
    model = clearsim.load(MODEL, {"solver.end": 0.01})
    sim = model.simulation()
    for _ in range(60):
        v = rng.choice(ODD)
        what = rng.randrange(10)
        if what == 0:
            call(clearsim.load, v)
        elif what == 1:
            call(clearsim.loads, v)
        elif what == 2:
            call(model.with_overrides, {"joints.rod_slider.clearance.radial": v})
        elif what == 3:
            # (A huge n would only take long: steps are bounded here.)
            n = v if not isinstance(v, int) or isinstance(v, bool) or v < 5 else 3
            call(sim.step, n)
        elif what == 4:
            # run_to(inf) steps until Ctrl-C (test_threads_and_interrupts); a time a few steps
            # ahead stands in for the large ones.
            t = v
            if isinstance(t, (int, float)) and not isinstance(t, bool) and not math.isnan(t) \
                    and t > sim.time:
                t = sim.time + 3 * sim.step_size
            call(sim.run_to, t)
        elif what == 5:
            call(sim.value, v)
        elif what == 6:
            limits = {rng.choice(["end", "step", "every"]): v}
            call(model.simulation, **limits)
        elif what == 8:
            call(clearsim.from_dict, v)
        elif what == 9:
            body = {"mass": v, "inertia": [1, 1, 1], "position": [0, 0, 0]}
            call(clearsim.from_dict, {"bodies": {"b": body}})
        else:
            call(model.run, end=v if v not in (1, 2, True, 1e300, 10**30) else 1e-3)
        # Whatever was refused, the Simulation goes on.
        t = sim.time
        sim.step()
        assert sim.time > t
        assert sim.summary()["ok"]
