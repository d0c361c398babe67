"""clearsim: dynamics of mechanisms with clearance joints, from Python.

Read a model file (or YAML text), change any of its values by path, run it or step it, and get
its channels as numpy arrays::

    import clearsim
    m = clearsim.load("examples/spherical_clearance_slider_crank/model.yaml",
                      overrides={"joints.rod_slider.clearance.radial": 1e-3})
    r = m.run(end=0.05, progress=True)
    r["rod_slider.journal.x"]          # numpy array, one value per output point
    r.summary["max_penetration"]        # run statistics

    sim = m.simulation()               # step by step
    while sim.time < 0.01:
        sim.step()
    sim.values()                       # the channels at the current state

    m = clearsim.from_dict({"bodies": {...}, "joints": {...}, ...})   # a model from code
    m.save("model.yaml")               # ... written as a model file
    df = r.to_pandas()                 # a DataFrame indexed by time; df.attrs["units"]

    table = clearsim.sweep(m, vary={"joints.rod_slider.clearance.radial": "2e-4:1e-3:4"})

clearsim.__version__ and clearsim.__commit__ say which build this is (as `clearsim --version`).

Errors in a model file raise ModelFileError (a ValueError) whose text is the reader's
"FILE:LINE:COLUMN: error: ..." message; a run that stops early raises SimulationError; what a
run finds wrong without stopping (energy growth, a joint far past its clearance) is issued as a
RunWarning.
See docs/python.md.
"""

from ._core import ModelFileError, RunWarning, SimulationError, __commit__, __version__
from .estimate import KalmanFilter, estimate
from .model import Model, Result, channel_unit, from_dict, load, loads
from .simulation import Simulation, State
from .sweep import SweepResult, sweep

__all__ = [
    "KalmanFilter",
    "Model",
    "ModelFileError",
    "Result",
    "RunWarning",
    "Simulation",
    "SimulationError",
    "State",
    "SweepResult",
    "channel_unit",
    "estimate",
    "from_dict",
    "load",
    "loads",
    "sweep",
]
