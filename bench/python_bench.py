"""Python against the command line, and a sweep against runs one after another, on the
spherical clearance slider–crank (figures in docs/PERFORMANCE.md).

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_bench.py build/release/clearsim

1. A whole run (0.3 s, 30 000 steps): `clearsim run -q` (process wall time, CSV written)
   against Model.run() in a running interpreter (load + run + numpy arrays), interleaved,
   7 times each; medians and minima.
2. 16 runs (a 4 × 4 grid of radial clearance and restitution): one after another
   (`clearsim sweep -j 1`) against every core (`clearsim sweep`, and clearsim.sweep).
"""

import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import clearsim

ROOT = pathlib.Path(__file__).resolve().parents[1]
MODEL = ROOT / "examples" / "spherical_clearance_slider_crank" / "model.yaml"
CLI = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "release" / "clearsim")
VARY = ["joints.rod_slider.clearance.radial=2e-4:1e-3:4",
        "joints.rod_slider.clearance.restitution=0.3:0.9:4"]


def wall(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def children_cpu():
    import resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    print(f"load {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, {os.cpu_count()} cores")
    if len(sys.argv) > 2 and sys.argv[2] == "--sweep-only":
        return sweep_only()
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "out.csv")
        cli, py = [], []
        for _ in range(7):
            cli.append(wall(lambda: subprocess.run([CLI, "run", str(MODEL), "-q", "-o", csv],
                                                   check=True)))
            py.append(wall(lambda: clearsim.load(MODEL).run()))
        for name, x in [("clearsim run (process)", cli), ("clearsim.load().run()", py)]:
            print(f"{name:24s} median {statistics.median(x):.3f} s  min {min(x):.3f} s")
        print(f"Python / CLI: median {statistics.median(py) / statistics.median(cli):.3f}, "
              f"min {min(py) / min(cli):.3f}")

        args = [CLI, "sweep", str(MODEL), "-q", "--vary", VARY[0], "--vary", VARY[1]]
        c0 = children_cpu()
        seq = wall(lambda: subprocess.run(args + ["-j", "1", "-o", os.path.join(tmp, "s1")]))
        c1 = children_cpu()
        par = wall(lambda: subprocess.run(args + ["-o", os.path.join(tmp, "s2")]))
        c2 = children_cpu()
        vary = dict(v.split("=", 1) for v in VARY)
        pysw = wall(lambda: clearsim.sweep(MODEL, vary, out_dir=os.path.join(tmp, "s3")))
        print(f"16 runs + reference one after another (sweep -j 1): {seq:.2f} s wall, "
              f"{c1 - c0:.2f} s CPU")
        print(f"16 runs + reference on every core (sweep):          {par:.2f} s wall, "
              f"{c2 - c1:.2f} s CPU ({par / seq:.2f} x)")
        print(f"the same from clearsim.sweep:                        {pysw:.2f} s  "
              f"({pysw / seq:.2f} x)")


def sweep_only():
    with tempfile.TemporaryDirectory() as tmp:
        args = [CLI, "sweep", str(MODEL), "-q", "--vary", VARY[0], "--vary", VARY[1]]
        for _ in range(3):
            c0 = children_cpu()
            seq = wall(lambda: subprocess.run(args + ["-j", "1", "-o", os.path.join(tmp, "a")]))
            c1 = children_cpu()
            par = wall(lambda: subprocess.run(args + ["-o", os.path.join(tmp, "b")]))
            c2 = children_cpu()
            print(f"load {os.getloadavg()[0]:.2f}: -j 1 {seq:.2f} s wall ({c1 - c0:.2f} s CPU), "
                  f"-j 2 {par:.2f} s wall ({c2 - c1:.2f} s CPU): {par / seq:.2f} x")


if __name__ == "__main__":
    main()
