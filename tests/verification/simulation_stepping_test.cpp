// The public stepping API: a Simulation stepped in a loop reaches the same states, bit for bit,
// as run_analysis to the same end time — for a smooth model, a compliant contact with element
// memory and an NSGA clearance joint.
#include <gtest/gtest.h>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

class NullObserver final : public StepObserver {
 public:
  void on_output(const State&, const RunStats&) override {}
};

void expect_stepping_equals_run(const std::string& example, double end) {
  LoadedModel lm =
      load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + example + "/model.yaml");
  lm.run.solver.end = end;
  lm.run.output.progress = false;
  System sys_a(lm.model);
  State s;
  std::vector<std::string> notes;
  NullObserver obs;
  const RunStats whole = run_analysis(sys_a, lm.run, obs, s, notes);
  ASSERT_TRUE(whole.ok) << whole.message;

  System sys_b(lm.model);
  Simulation sim(sys_b, lm.run);
  ASSERT_TRUE(sim.initialize(notes)) << sim.stats().message;
  long steps = 0;
  while (sim.state().t < end - 0.5 * sim.step_size()) {
    ASSERT_TRUE(sim.step()) << sim.stats().message;
    ++steps;
  }
  EXPECT_EQ(steps, whole.steps) << example;
  EXPECT_EQ(sim.state().t, s.t) << example;
  EXPECT_EQ((sim.state().v - s.v).norm(), 0.0) << example;
  for (std::size_t b = 0; b < s.x_W.size(); ++b) {
    EXPECT_EQ((sim.state().x_W[b] - s.x_W[b]).norm(), 0.0) << example << " body " << b;
    EXPECT_EQ((sim.state().R_WB[b] - s.R_WB[b]).norm(), 0.0) << example << " body " << b;
  }
  EXPECT_EQ(sim.stats().newton_iterations, whole.newton_iterations) << example;
}

TEST(SimulationStepping, EqualsWholeRunBitForBit) {
  expect_stepping_equals_run("slider_crank_ideal", 0.01);
  expect_stepping_equals_run("spherical_clearance_slider_crank", 0.02);
}

TEST(SimulationStepping, CompliantContactWithMemory) {
  const std::string yaml = R"(
gravity: [0, 0, -9.81]
bodies:
  ball: {mass: 1.0, inertia: [0.004, 0.004, 0.004], position: [0, 0, 0.1001], velocity: [0.3, 0, -1]}
contacts:
  floor:
    type: sphere_plane
    treatment: compliant
    plane: {body: ground, point: [0, 0, 0], normal: [0, 0, 1]}
    sphere: {body: ball, center: [0, 0, 0.1001], radius: 0.1}
    restitution: 0.8
    contact: {law: flores, stiffness: 1.0e8}
    friction: {law: bristle, mu: 0.2, mu_static: 0.25, stiffness: 1.0e5, damping: 50}
solver: {integrator: generalized_alpha, step: 1.0e-5, end: 0.0012}
)";
  LoadedModel lm = load_model_string(yaml, "ball.yaml");
  System sys_a(lm.model);
  State s;
  std::vector<std::string> notes;
  NullObserver obs;
  const RunStats whole = run_analysis(sys_a, lm.run, obs, s, notes);
  ASSERT_TRUE(whole.ok) << whole.message;
  System sys_b(lm.model);
  Simulation sim(sys_b, lm.run);
  ASSERT_TRUE(sim.initialize(notes));
  ASSERT_TRUE(sim.run_to(0.0012));
  EXPECT_EQ((sim.state().v - s.v).norm(), 0.0);
  EXPECT_EQ((sim.state().memory - s.memory).norm(), 0.0);
  EXPECT_GT(s.memory(0), 0.0);  // in contact at the end: the approach speed is remembered
}

TEST(SimulationStepping, RefusesAnUninitializedOrStaticRun) {
  LoadedModel lm =
      load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/slider_crank_ideal/model.yaml");
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  EXPECT_FALSE(sim.step());
  EXPECT_NE(sim.stats().message.find("not initialized"), std::string::npos);
  lm.run.solver.analysis = Analysis::kStatic;
  Simulation stat(sys, lm.run);
  std::vector<std::string> notes;
  EXPECT_FALSE(stat.initialize(notes));
  EXPECT_NE(stat.stats().message.find("dynamic"), std::string::npos);
}

}  // namespace
}  // namespace cs
