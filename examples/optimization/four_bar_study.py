"""What both studies of seed 003's lubricated four-bar share: the model, the two design
parameters (both coupler bearings, through the model file's &lubricated anchor) and the command
line `SCRIPT [OUT_DIR] [--quick]`."""

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
FOUR_BAR = HERE.parent / "four_bar_clearance"
MODEL = FOUR_BAR / "lubricated_wedge.yaml"
C = "joints.crank_coupler.clearance.radial"  # both joints: the file's &lubricated anchor
MU = "joints.crank_coupler.clearance.lubricant.viscosity"
PATHS = [C, MU]


def command_line():
    """(out_dir, quick): the output folder (made if missing) and whether --quick was given."""
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    out = pathlib.Path(args[0] if args else "results/optimization")
    out.mkdir(parents=True, exist_ok=True)
    return out, "--quick" in sys.argv
