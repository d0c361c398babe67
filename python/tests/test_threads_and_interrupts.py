"""One Simulation used from several threads, Ctrl-C during long calls, and the messages of calls
with impossible arguments (issue 28, items 1, 2 and 6)."""

import os
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

import clearsim
from conftest import MODEL


def serial_rows(model, steps):
    """{time: values()} of a Simulation stepped `steps` times in one thread, and its last values."""
    sim = model.simulation()
    rows = {sim.time: sim.values()}
    for _ in range(steps):
        sim.step()
        rows[sim.time] = sim.values()
    return rows, sim.values()


def test_one_simulation_stepped_from_four_threads_gives_the_serial_results():
    """4 threads × 50 calls of step() and values() on one Simulation: the calls are serialized, so
    every values() a thread sees is the serial run's row at that time, and the final state is the
    serial one after 200 steps (before issue 28: aborts, wrong states, false Newton failures)."""
    m = clearsim.load(MODEL, {"solver.end": 0.01})
    rows, last = serial_rows(m, 200)
    shared = m.simulation()
    seen, errors = [], []
    start = threading.Barrier(4)

    def worker():
        try:
            start.wait()
            for _ in range(50):
                shared.step()
                seen.append(shared.values())
                shared.summary()
        except BaseException as e:  # noqa: B902 - reported by the assertion below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)  # a hang guard only
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert len(seen) == 200
    for v in seen:
        assert v == rows[v["time"]]
    assert shared.values() == last
    assert shared.summary()["steps"] == 200


def test_two_simulations_step_in_parallel_threads_as_alone():
    """Two Simulations share nothing: stepped at the same time in two threads, each gives the
    states it gives alone."""
    m = clearsim.load(MODEL, {"solver.end": 0.01})
    _, alone = serial_rows(m, 300)
    sims = [m.simulation(), m.simulation()]
    threads = [threading.Thread(target=s.step, args=(300,)) for s in sims]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert [s.values() for s in sims] == [alone, alone]


def test_impossible_arguments_are_refused_with_a_clear_message():
    sim = clearsim.load(MODEL, {"solver.end": 0.01}).simulation()
    with pytest.raises(ValueError) as e:
        sim.step(-1)
    assert str(e.value) == "Simulation.step(n): n = -1; expected a number of steps >= 0"
    with pytest.raises(TypeError) as e:
        sim.step(1.5)
    assert str(e.value) == ("Simulation.step(n): n is a number of steps, a whole number >= 0; "
                            "found float 1.5")
    with pytest.raises(ValueError) as e:
        sim.run_to(float("nan"))
    assert str(e.value) == ("Simulation.run_to(t): t is nan; expected a time [s] (inf steps "
                            "until interrupted)")
    with pytest.raises(TypeError) as e:
        sim.run_to("soon")
    assert str(e.value) == "Simulation.run_to(t): t is a time [s], a number; found str 'soon'"
    assert sim.time == 0.0  # nothing was stepped
    sim.step(0)
    assert sim.time == 0.0
    with pytest.raises(TypeError) as e:
        clearsim.load(None)
    assert str(e.value) == ("clearsim.load(path): expected the model file's path (a str or a "
                            "pathlib.Path), found NoneType None")
    with pytest.raises(TypeError) as e:
        clearsim.loads(None)
    assert str(e.value) == "clearsim.loads(text): expected the model's YAML text (a str), found NoneType None"


# The child steps forever; the test sends it SIGINT as a user's Ctrl-C. The child then steps once
# more (the Simulation stays usable) and prints what it saw.
CHILD = textwrap.dedent("""
    import sys, math, clearsim
    sim = clearsim.load(sys.argv[1]).simulation()
    sim.step(2)
    t0 = sim.time
    print("stepping", flush=True)
    try:
        {call}
        print("returned", flush=True)
    except KeyboardInterrupt:
        t1 = sim.time
        print("KeyboardInterrupt after", t1 > t0, flush=True)
        sim.step(1)
        print("usable", sim.time > t1, sim.summary()["ok"], flush=True)
""")


@pytest.mark.parametrize("call", ["sim.step(10**9)", "sim.run_to(math.inf)"])
def test_ctrl_c_stops_a_long_call_and_leaves_the_simulation_usable(call):
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(call=call), str(MODEL)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=os.environ.copy())
    try:
        assert child.stdout.readline() == "stepping\n"
        # Let it step a little, then press Ctrl-C. (The timeouts are hang guards, not limits.)
        try:
            child.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert out == "KeyboardInterrupt after True\nusable True True\n", err
    assert child.returncode == 0, err


def test_ctrl_c_reaches_a_thread_waiting_for_another_threads_call():
    """The main thread waits for the Simulation while a worker thread steps it; Ctrl-C interrupts
    the wait (the worker's call, outside the main thread, runs to its end)."""
    code = textwrap.dedent("""
        import sys, threading, clearsim
        sim = clearsim.load(sys.argv[1]).simulation()
        worker = threading.Thread(target=sim.step, args=(30000,))
        worker.start()
        print("waiting", flush=True)
        try:
            while True:
                sim.step(1)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
        worker.join()
        print("steps", sim.summary()["steps"] >= 30000, flush=True)
    """)
    child = subprocess.Popen([sys.executable, "-c", code, str(MODEL)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "waiting\n"
        try:
            child.wait(timeout=0.3)
        except subprocess.TimeoutExpired:
            pass
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert out == "KeyboardInterrupt\nsteps True\n", err


def test_a_call_from_a_signal_handler_while_stepping_is_refused_not_deadlocked():
    """A signal handler runs inside step() (when the engine checks for signals); a call on the
    same Simulation from it would wait for itself: it raises RuntimeError instead."""
    code = textwrap.dedent("""
        import os, signal, sys, threading, clearsim
        sim = clearsim.load(sys.argv[1]).simulation()
        seen = []
        def handler(signum, frame):
            try:
                sim.step(1)
            except RuntimeError as e:
                seen.append(str(e))
            raise KeyboardInterrupt
        signal.signal(signal.SIGUSR1, handler)
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGUSR1)).start()
        try:
            sim.step(10**9)
        except KeyboardInterrupt:
            pass
        print(seen[0] if seen else "no RuntimeError", flush=True)
        sim.step(1)
        print("usable", flush=True)
    """)
    out = subprocess.run([sys.executable, "-c", code, str(MODEL)], capture_output=True, text=True,
                         timeout=120)  # a hang guard only
    assert out.stdout == (
        "this Simulation is already stepping in this thread (a call from a signal handler or a "
        "callback that runs inside step() or run_to()); call it after that returns\nusable\n"), \
        out.stderr
