// Driving a Simulation from C++ between steps (simulation_drive.cpp): a load held from outside
// is a point_load element bit for bit; set_state then stepping is a run started at that state;
// malformed input is refused by name and changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

// Flores' slider–crank: a compliant revolute clearance joint with friction, generalized-α.
std::string flores_text() {
  std::ifstream in(std::string(CLEARSIM_SOURCE_DIR) + "/examples/flores_slider_crank/model.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The point_load the tests apply from outside: at the slider point (0, 0.5, 0) m from its
// centre of mass (the file gives it in the reference configuration, where R = I), switched on
// between the steps ending at t = 0.00100 and 0.00101 s (a smooth_step inside that interval is
// 0 at the one and its full value at the other, the only times the step evaluates forces).
const Vec3 kPoint(0.0, 0.5, 0.0), kForce(-40.0, 15.0, 0.0), kTorque(0.0, 0.0, 0.25);
std::string switched(double v) {
  std::ostringstream os;
  os.precision(17);
  os << "{type: smooth_step, t0: 0.0010025, v0: 0, t1: 0.0010075, v1: " << v << "}";
  return os.str();
}
std::string with_point_load() {
  return flores_text() +
         "\nforces:\n  push: {type: point_load, body: slider, at: [0.17, 0.5, 0], " + "force: [" +
         switched(kForce.x()) + ", " + switched(kForce.y()) + ", 0], torque: [0, 0, " +
         switched(kTorque.z()) + "]}\n";
}

void expect_same_state(const State& a, const State& b) {
  ASSERT_EQ(a.t, b.t);
  EXPECT_EQ((a.v - b.v).norm(), 0.0);
  EXPECT_EQ((a.lambda - b.lambda).norm(), 0.0);
  for (std::size_t k = 0; k < a.x_W.size(); ++k) {
    EXPECT_EQ((a.x_W[k] - b.x_W[k]).norm(), 0.0) << "body " << k;
    EXPECT_EQ((a.R_WB[k] - b.R_WB[k]).norm(), 0.0) << "body " << k;
  }
}

struct Driven {
  explicit Driven(const std::string& text)
      : lm(load_model_string(text, "flores.yaml")), sys(lm.model), sim(sys, lm.run) {
    std::vector<std::string> notes;
    EXPECT_TRUE(sim.initialize(notes)) << sim.stats().message;
  }
  void steps(int n) {
    for (int k = 0; k < n; ++k) ASSERT_TRUE(sim.step()) << sim.stats().message;
  }
  LoadedModel lm;
  System sys;
  Simulation sim;
};

TEST(SimulationDrive, LoadFromOutsideEqualsPointLoadBitForBit) {
  Driven element(with_point_load()), outside(flores_text());
  element.steps(100);
  outside.steps(100);
  expect_same_state(element.sim.state(), outside.sim.state());
  outside.sim.apply_load("slider", kPoint, kForce, kTorque);
  element.steps(300);
  outside.steps(300);
  expect_same_state(element.sim.state(), outside.sim.state());
  EXPECT_EQ(element.sim.stats().newton_iterations, outside.sim.stats().newton_iterations);
}

TEST(SimulationDrive, SetStateThenStepEqualsARunStartedThere) {
  Driven fresh(flores_text()), moved(flores_text());
  const State start = fresh.sim.state();
  moved.steps(250);
  std::vector<std::string> notes;
  moved.sim.set_state(start, notes);
  expect_same_state(moved.sim.state(), start);  // a consistent state is kept as it is
  fresh.steps(200);
  moved.steps(200);
  expect_same_state(fresh.sim.state(), moved.sim.state());

  // A state from the middle of a run, set into two simulations with other histories.
  const State middle = fresh.sim.state();
  Driven other(flores_text());
  other.steps(37);
  other.sim.set_state(middle, notes);
  fresh.sim.set_state(middle, notes);
  EXPECT_EQ(other.sim.state().t, middle.t);
  other.steps(150);
  fresh.steps(150);
  expect_same_state(fresh.sim.state(), other.sim.state());
}

TEST(SimulationDrive, MalformedInputIsRefusedByNameAndChangesNothing) {
  Driven refused(flores_text()), untouched(flores_text());
  refused.steps(20);
  untouched.steps(20);
  const auto message = [&](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(no exception)");
  };
  std::vector<std::string> notes;
  State s = refused.sim.state();
  s.v.conservativeResize(s.v.size() - 1);
  EXPECT_NE(message([&] { refused.sim.set_state(s, notes); }).find("17 velocities"),
            std::string::npos);
  s = refused.sim.state();
  s.x_W[1].y() = NAN;
  EXPECT_NE(message([&] { refused.sim.set_state(s, notes); }).find("body 'rod': position x_W [1]"),
            std::string::npos);
  s = refused.sim.state();
  s.R_WB[2](0, 1) += 1e-3;
  EXPECT_NE(message([&] {
              refused.sim.set_state(s, notes);
            }).find("body 'slider': rotation R_WB is not a rotation"),
            std::string::npos);
  EXPECT_NE(message([&] {
              refused.sim.apply_load("slidr", kPoint, kForce, kTorque);
            }).find("no body 'slidr' in the model; did you mean 'slider'?"),
            std::string::npos);
  EXPECT_NE(message([&] {
              refused.sim.apply_load("ground", kPoint, kForce, kTorque);
            }).find("'ground' cannot be loaded"),
            std::string::npos);
  EXPECT_NE(message([&] {
              refused.sim.apply_load("rod", kPoint, Vec3(0, INFINITY, 0), kTorque);
            }).find("apply_load on body 'rod': force [1] is inf"),
            std::string::npos);
  refused.steps(50);
  untouched.steps(50);
  expect_same_state(refused.sim.state(), untouched.sim.state());
}

}  // namespace
}  // namespace cs
