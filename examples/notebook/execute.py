"""Executes a notebook of this directory with nbclient (Debian's python3-nbclient) and fails on
the first cell that raises: the test example.notebook (python/CMakeLists.txt).

    PYTHONPATH=build/release/python python3 examples/notebook/execute.py \\
        examples/notebook/clearance_study.ipynb OUT_DIR

The cells run in OUT_DIR (what they write goes there); the executed notebook, with its outputs
and figures, is written there too.
"""

import os
import pathlib
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main(notebook, out_dir):
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # The kernel runs in out_dir: a relative PYTHONPATH (build/release/python) must still find
    # the module there.
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    os.environ["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in paths if p)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # (the debugger's notice)
    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(nb, kernel_name="python3", timeout=600,
                            resources={"metadata": {"path": str(out)}})
    try:
        client.execute()
    except CellExecutionError as e:
        print(f"{notebook}: a cell failed:\n{e}", file=sys.stderr)
        return 1
    finally:
        executed = out / pathlib.Path(notebook).name
        nbformat.write(nb, executed)
    print(f"executed {len(nb.cells)} cells of {notebook}; wrote {executed}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
