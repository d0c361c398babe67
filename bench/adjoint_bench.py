#!/usr/bin/python3
"""Adjoint against direct sensitivities and a plain run on the ideal slider-crank (Release):

    PYTHONPATH=build/release/python bench/adjoint_bench.py [--end 0.05]

Times whole `clearsim` commands (build/release/clearsim) side by side, best of 3: a run, the
adjoint gradient of integral(crank_speed.torque) for 1, 10 and 30 parameters, and the direct
sensitivities (`run --sensitivity`) for 1 and 10. docs/PERFORMANCE.md, *Adjoint gradients*.
"""
import argparse
import subprocess
import time

MODEL = "examples/slider_crank_ideal/model.yaml"
PARAMS = (["drivers.crank_speed.angular_velocity"] +
          [f"bodies.{b}.mass" for b in ("slider", "rod", "crank")] +
          ["joints.crank_rod.at[0]", "joints.rod_slider.at[0]", "joints.crank_rod.at[1]"] +
          [f"bodies.{b}.inertia[2]" for b in ("slider", "rod", "crank")] +
          [f"bodies.{b}.inertia[{i}]" for b in ("slider", "rod", "crank") for i in (0, 1)] +
          [f"bodies.{b}.position[{i}]" for b in ("rod", "slider") for i in (1, 2)] +
          [f"joints.{j}.at[{i}]" for j in ("crank_rod", "rod_slider") for i in (2,)] +
          ["joints.rod_slider.at[1]", "joints.crank_pivot.at[0]", "joints.crank_pivot.at[1]",
           "joints.crank_pivot.at[2]", "joints.crank_pivot.axis[0]", "joints.crank_pivot.axis[1]",
           "gravity[0]", "gravity[1]", "gravity[2]"])


def best(cmd, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--end", default="0.05")
    ap.add_argument("--clearsim", default="build/release/clearsim")
    a = ap.parse_args()
    base = [a.clearsim]
    common = ["--end", a.end]
    run = best(base + ["run", MODEL, "-q", "-o", "/tmp/adjoint_bench_run.csv"] + common)
    print(f"run                      {run:8.3f} s   1.00")
    for n in (1, 10, 30):
        cmd = base + ["gradient", MODEL, "--objective", "integral(crank_speed.torque)"] + common
        for p in PARAMS[:n]:
            cmd += ["--parameter", p]
        t = best(cmd)
        print(f"adjoint, {n:3d} parameters  {t:8.3f} s  {t / run:5.2f}")
    for n in (1, 10):
        cmd = base + ["run", MODEL, "-q", "-o", "/tmp/adjoint_bench_direct.csv"] + common
        for p in PARAMS[:n]:
            cmd += ["--sensitivity", p]
        t = best(cmd)
        print(f"direct,  {n:3d} parameters  {t:8.3f} s  {t / run:5.2f}")


if __name__ == "__main__":
    main()
