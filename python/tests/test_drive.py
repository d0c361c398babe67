"""Driving a simulation from Python: the state read and set, loads applied between steps, a
callback after each step, element quantities by name; malformed input refused by name."""

import math

import numpy as np
import pytest

import clearsim
from conftest import SOURCE_DIR

FLORES = SOURCE_DIR / "examples" / "flores_slider_crank" / "model.yaml"
IDEAL = SOURCE_DIR / "examples" / "slider_crank_ideal" / "model.yaml"

# A load on the slider at (0, 0.5, 0) m from its centre of mass (the file gives the point in the
# reference configuration, where the slider's rotation is I), switched on inside the step from
# t = 0.00100 to 0.00101 s: the step evaluates forces only at its ends, where the smooth_step is
# 0 and its full value.
POINT, FORCE, TORQUE = [0, 0.5, 0], [-40.0, 15.0, 0.0], [0, 0, 0.25]


def switched(value):
    return {"type": "smooth_step", "t0": 0.0010025, "v0": 0, "t1": 0.0010075, "v1": value}


def with_point_load(path, at_step_100=True):
    f = switched if at_step_100 else (lambda v: v)
    load = {"type": "point_load", "body": "slider", "at": [0.17, 0.5, 0],
            "force": [f(FORCE[0]), f(FORCE[1]), 0], "torque": [0, 0, f(TORQUE[2])]}
    return clearsim.load(path, {"forces": {"push": load}})


def assert_same(a, b):
    ta, qa, va = a.state()
    tb, qb, vb = b.state()
    assert ta == tb
    assert np.array_equal(qa, qb)
    assert np.array_equal(va, vb)
    assert a.values() == b.values()


@pytest.mark.parametrize("path", [FLORES, IDEAL], ids=["clearance", "joint_coordinates"])
def test_load_from_python_equals_a_point_load_bit_for_bit(path):
    element = with_point_load(path).simulation()
    outside = clearsim.load(path).simulation()
    element.step(100)
    outside.step(100)
    outside.apply_load("slider", force=FORCE, torque=TORQUE, point=POINT)
    element.step(300)
    outside.step(300)
    assert_same(element, outside)
    assert element.summary()["newton_iterations"] == outside.summary()["newton_iterations"]


def test_a_load_before_the_first_step_counts_in_the_initial_accelerations():
    element = with_point_load(FLORES, at_step_100=False).simulation()
    outside = clearsim.load(FLORES).simulation()
    outside.apply_load("slider", force=FORCE, torque=TORQUE, point=POINT)
    assert element.value("slider.acceleration.x") == outside.value("slider.acceleration.x")
    element.step(200)
    outside.step(200)
    assert_same(element, outside)


def test_clear_loads_returns_to_the_unloaded_run():
    loaded, plain = clearsim.load(FLORES).simulation(), clearsim.load(FLORES).simulation()
    loaded.step(50)
    plain.step(50)
    loaded.apply_load("rod", force=[0, 0, 0])  # a zero load changes no bit
    loaded.step(20)
    plain.step(20)
    assert_same(loaded, plain)
    loaded.apply_load("rod", force=[0, 3, 0])
    loaded.clear_loads()
    loaded.step(20)
    plain.step(20)
    assert_same(loaded, plain)
    loaded.apply_load("rod", force=[0, 3, 0])
    loaded.step(1)
    plain.step(1)
    assert not np.array_equal(loaded.v, plain.v)


@pytest.mark.parametrize("path", [FLORES, IDEAL], ids=["clearance", "joint_coordinates"])
def test_set_state_then_step_equals_a_run_started_there(path):
    fresh, moved = clearsim.load(path).simulation(), clearsim.load(path).simulation()
    start = fresh.state()
    moved.step(250)
    moved.set_state(start)
    t, q, v = moved.state()
    assert t == start[0] and np.array_equal(q, start[1]) and np.array_equal(v, start[2])
    fresh.step(200)
    moved.step(200)
    assert_same(fresh, moved)
    # A state from the middle of a run, set into a simulation with another history.
    middle = fresh.state()
    other = clearsim.load(path).simulation()
    other.step(37)
    other.set_state(middle)
    fresh.set_state(middle)
    other.step(150)
    fresh.step(150)
    assert_same(fresh, other)


def test_state_layout_pose_and_twist():
    sim = clearsim.load(FLORES).simulation()
    sim.step(30)
    t, q, v = sim.state()
    assert sim.bodies == ["crank", "rod", "slider"]
    assert q.shape == (36,) and v.shape == (18,) and t == sim.time
    x, R = sim.pose("rod")
    assert np.array_equal(x, q[12:15]) and np.array_equal(R.ravel(), q[15:24])
    assert np.allclose(R.T @ R, np.eye(3), atol=1e-14)
    vel, w = sim.twist("rod")
    assert np.array_equal(vel, v[6:9])
    assert w == pytest.approx([sim.value(f"rod.angular_velocity.{c}") for c in "xyz"],
                              rel=1e-15, abs=1e-12)
    assert sim.value("crank.angular_velocity.z") == pytest.approx(523.5987756)


def test_set_state_changes_the_motion_and_keeps_it_consistent():
    """Half the velocities: the ideal slider–crank's driver keeps the crank speed, so the state
    is projected onto the joints (the smallest mass-weighted change) and runs on from there."""
    sim = clearsim.load(IDEAL).simulation()
    sim.step(10)
    t, q, v = sim.state()
    sim.set_state(v=0.5 * v, time=0.5)
    assert sim.time == 0.5
    assert sim.value("crank.angular_velocity.z") == pytest.approx(523.5987756, rel=1e-9)
    assert abs(sim.value("system.velocity_violation")) < 1e-9
    sim.step(10)
    assert sim.time == pytest.approx(0.5 + 10 * sim.step_size, rel=1e-12)


def test_callback_after_each_step_and_stop():
    sim = clearsim.load(IDEAL).simulation()
    times = []

    def record(s):
        times.append(s.time)
        return len(times) < 25

    sim.run_to(1.0, callback=record)
    assert len(times) == 25 and sim.time == times[-1]
    twin = clearsim.load(IDEAL).simulation()
    twin.step(25)
    assert_same(sim, twin)
    sim.step(3, callback=times.append)
    assert len(times) == 28
    with pytest.raises(TypeError, match="callback"):
        sim.run_to(1.0, callback=3)


def test_element_values_by_name():
    sim = clearsim.load(FLORES).simulation()
    sim.step(200)
    joint = sim.element_values("rod_slider")
    assert joint["eccentricity1"] == sim.value("rod_slider.eccentricity1")
    assert set(joint) >= {"normal_force", "friction_force", "journal1.x"}
    assert "torque" in sim.element_values("crank_speed")
    with pytest.raises(KeyError, match="no element 'rod_slidr' in the model; did you mean "
                                       "'rod_slider'"):
        sim.element_values("rod_slidr")


def test_bad_input_is_refused_by_name_and_the_simulation_stays_usable():
    sim, twin = clearsim.load(FLORES).simulation(), clearsim.load(FLORES).simulation()
    sim.step(20)
    twin.step(20)
    t, q, v = sim.state()
    with pytest.raises(ValueError, match=r"q has shape \(35,\); expected \(36,\): 12 per body"):
        sim.set_state(q=q[:-1])
    with pytest.raises(ValueError, match=r"v has shape \(3, 6\); expected \(18,\)"):
        sim.set_state(v=v.reshape(3, 6))
    bad = q.copy()
    bad[13] = math.nan
    with pytest.raises(ValueError, match=r"body 'rod': position x_W \[1\] is nan"):
        sim.set_state(q=bad)
    bad = v.copy()
    bad[17] = math.inf
    with pytest.raises(ValueError, match=r"body 'slider': velocity \[v_W; w_B\] \[5\] is inf"):
        sim.set_state(v=bad)
    bad = q.copy()
    bad[28] += 1e-3
    with pytest.raises(ValueError, match="body 'slider': rotation R_WB is not a rotation"):
        sim.set_state(q=bad)
    with pytest.raises(ValueError, match="the time is nan"):
        sim.set_state(time=math.nan)
    with pytest.raises(ValueError, match="no body 'slidr' in the model; did you mean 'slider'"):
        sim.apply_load("slidr", force=[1, 0, 0])
    with pytest.raises(ValueError, match="'ground' cannot be loaded"):
        sim.apply_load("ground", force=[1, 0, 0])
    with pytest.raises(ValueError, match=r"apply_load on body 'rod': torque \[2\] is nan"):
        sim.apply_load("rod", torque=[0, 0, math.nan])
    with pytest.raises(ValueError, match=r"force has shape \(2,\); expected \(3,\)"):
        sim.apply_load("rod", force=[1, 2])
    with pytest.raises(KeyError, match="no body 'crnk' in the model; did you mean 'crank'"):
        sim.pose("crnk")
    sim.step(50)
    twin.step(50)
    assert_same(sim, twin)


def test_a_state_the_joints_cannot_close_raises_and_the_simulation_carries_on():
    """The slider–crank at a crank angle of 90° with its slider driven along the guide at
    0.5 m/s towards the pivot: at t = 1 s the slider would be 0.39 m behind it, beyond the reach
    of crank and rod (0.07 to 0.17 m), so no positions close the joints then."""
    pushed = {"bodies.crank.position": [0, 0.025, 0], "bodies.rod.position": [0.0545, 0.025, 0],
              "bodies.slider.position": [0.1091, 0, 0], "joints.crank_rod.at": [0, 0.05, 0],
              "joints.rod_slider.at": [0.1091, 0, 0],
              "drivers": {"push": {"joint": "slider_guide",
                                   "displacement": {"type": "ramp", "slope": -0.5}}},
              "output.channels": ["slider.position.x"]}
    sim = clearsim.load(IDEAL, pushed).simulation()
    sim.step(10)
    t, q, v = sim.state()
    with pytest.raises(clearsim.SimulationError, match="set_state at t = 1.0+: initial "
                                                       "conditions: "):
        sim.set_state(time=1.0)
    # It restarted where it was, as set_state(its state) does (here index-3 steps left the
    # velocities off their constraints, so they are projected; the positions are kept).
    assert sim.time == t and np.array_equal(sim.q, q)
    twin = clearsim.load(IDEAL, pushed).simulation()
    twin.step(10)
    twin.set_state(twin.state())
    sim.step(5)
    twin.step(5)
    assert_same(sim, twin)


def test_reading_the_state_from_another_thread_changes_no_step():
    """state(), pose() and element_values() from a second thread while the first steps with a
    load: every call takes the Simulation's lock, so the run is the one stepped alone."""
    import threading

    sim, twin = clearsim.load(FLORES).simulation(), clearsim.load(FLORES).simulation()
    seen = []

    def read():
        for _ in range(300):
            t, q, v = sim.state()
            seen.append((t, sim.pose("slider")[0][0],
                         sim.element_values("rod_slider")["eccentricity1"]))

    reader = threading.Thread(target=read)
    reader.start()
    sim.apply_load("slider", force=FORCE)
    sim.step(300, callback=lambda s: None)
    reader.join()
    twin.apply_load("slider", force=FORCE)
    twin.step(300)
    assert_same(sim, twin)
    assert len(seen) == 300 and all(math.isfinite(x) for row in seen for x in row)
