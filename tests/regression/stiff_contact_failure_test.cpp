// A contact too stiff for a large fixed step: the run stops with a diagnostic that names the
// contact and ω h, keeps the rows written so far finite, and the adaptive step gets through.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/example_runs.hpp"

namespace cs {
namespace {

// Flores' dry slider–crank with K = 1e17 N/m^1.5 (1.5e6 × the steel value) and h = 2e-4 s: at the
// first impacts the contact's linearised stiffness reaches ~1e21 N/m, ω h ≈ 2e4 on the 0.14 kg
// slider — no step cut down to the minimum resolves it. (At h = 1e-4 s the cut steps now get
// through, since each step's contact damping reads the approach speed of its own onset.)
LoadedModel too_stiff(bool adaptive, const std::string& integrator = "generalized_alpha") {
  std::string yaml = testing::read_text(testing::example_path("flores_slider_crank"));
  yaml = testing::replace_once(
      yaml, "contact: {law: lankarani_nikravesh, young_modulus: 207.0e9, poisson_ratio: 0.3}",
      "contact: {law: lankarani_nikravesh, stiffness: 1.0e17}");
  yaml = testing::replace_once(yaml, "integrator: generalized_alpha", "integrator: " + integrator);
  LoadedModel lm = load_model_string(yaml, "flores_too_stiff.yaml");
  lm.run.solver.step = 2e-4;
  lm.run.solver.end = 0.003;
  lm.run.solver.adaptive = adaptive;
  return lm;
}

TEST(StiffContact, FixedStepFailureNamesTheContactAndKeepsFiniteRows) {
  const LoadedModel lm = too_stiff(false);
  System sys(lm.model);
  ChannelSet set(sys, {"slider.position.x", "slider.velocity.x", "rod_slider.normal_force"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  ASSERT_FALSE(stats.ok);
  // The contact acts on the rod and the slider; which one the diagnostic names depends on the
  // failed iterate (modified Newton: the rod), so only the element is checked.
  EXPECT_NE(stats.message.find("revolute_clearance (compliant) 'rod_slider'"), std::string::npos)
      << stats.message;
  EXPECT_NE(stats.message.find("adaptive: true"), std::string::npos) << stats.message;
  ASSERT_FALSE(rec.rows.empty());
  for (const auto& row : rec.rows)
    for (double x : row) EXPECT_TRUE(std::isfinite(x));
}

// RK4 at a fixed step checks ω h of every closed contact at its stage and end points: the driver
// cuts the step down to its minimum and stops there, naming the contact, before a single
// unstable step is accepted (before this check the rows reached 1e64 before any went
// non-finite). Measured: the kinetic energy of the kept rows stays at its 52 J of free motion.
TEST(StiffContact, Rk4StopsAtTheStabilityLimitWithoutWritingGarbage) {
  LoadedModel lm = too_stiff(false, "rk4");
  System sys(lm.model);
  ChannelSet set(sys, {"system.kinetic_energy", "slider.velocity.x"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  ASSERT_FALSE(stats.ok);
  EXPECT_NE(stats.message.find("'rod_slider' is too stiff for this step"), std::string::npos)
      << stats.message;
  EXPECT_NE(stats.message.find("rk4's stability limit 2.83"), std::string::npos) << stats.message;
  ASSERT_FALSE(rec.rows.empty());
  for (const auto& row : rec.rows) EXPECT_LT(row[0], 60.0) << "kinetic energy [J]";
}

TEST(StiffContact, AdaptiveStepResolvesTheSameContact) {
  const testing::ExampleRun r =
      testing::run_loaded(too_stiff(true), 0.0, 1, {"rod_slider.penetration"});
  // The run reaches its end (run_loaded checks). The first impact at ≈ 5 m/s peaks at
  // 1.5e-7 m (F = K δ^1.5 ≈ 6 MN: that is what such a stiffness means); bound 1 µm.
  EXPECT_LT(testing::max_of(r.columns[0]), 1e-6);
  EXPECT_GT(testing::max_of(r.columns[0]), 0.0);
}

// A ball set down on a Kelvin–Voigt floor whose damping, not its stiffness, limits RK4:
// c = 2e5 N·s/m on 1 kg gives h c/m = 20 at h = 1e-4 s (limit 2.785) while ω h = 0.1. The fixed
// step is cut wherever the contact is closed, and the ball sinks as the closed form of the creep,
// δ(t) = (m g/k)(1 − e^(−k t/c)) (its inertia acts over m/c = 5 µs, negligible against c/k =
// 0.2 s). Before the damping check RK4 ran unstable here.
TEST(StiffContact, Rk4CutsTheStepForAStronglyDampedContact) {
  std::string yaml = testing::read_text(testing::example_path("bouncing_ball"));
  yaml = testing::replace_once(
      yaml, "    restitution: 0.9 ",
      "    treatment: compliant\n    contact: {law: kelvin_voigt, stiffness: 1.0e6, exponent: 1, "
      "damping: 2.0e5}\n    #");
  yaml = testing::replace_once(yaml, "integrator: nsga", "integrator: rk4");
  yaml = testing::replace_once(yaml, "  rho_inf: 0.8\n", "");
  yaml = testing::replace_once(yaml, "  newton_tol: 1.0e-12\n", "");
  yaml = testing::replace_once(yaml, "position: [0, 0, 1.1]", "position: [0, 0, 0.1]");
  yaml = testing::replace_once(yaml, "center: [0, 0, 1.1]", "center: [0, 0, 0.1]");
  const auto r = testing::run_loaded(load_model_string(yaml, "damped_floor.yaml"), 0.2, 100,
                                     {"ball.position.z"});
  EXPECT_GT(r.stats.rejected_steps, 0);
  const double delta = 9.81e-6 * (1.0 - std::exp(-1.0));
  // Bound 1 %: the inertial transient lasts 2.5e-5 of the time constant, and RK4 at the cut
  // step resolves the creep far better.
  EXPECT_NEAR(0.1 - r.columns[0].back(), delta, 0.01 * delta);
}

// A load ramped in from zero on a body at rest: the first step starts with no kinetic energy
// and no acceleration, and the blow-up check must not mistake the first motion for instability.
TEST(StiffContact, Rk4StartsFromRestUnderARampedLoad) {
  const std::string yaml = R"(
gravity: [0, 0, 0]
bodies:
  block: {mass: 2.0, inertia: [0.1, 0.1, 0.1], position: [0, 0, 0]}
forces:
  push:
    type: point_load
    body: block
    force:
      - {type: smooth_step, t0: 0, v0: 0, t1: 0.5, v1: 10}
      - 0
      - 0
solver: {integrator: rk4, step: 1.0e-3, end: 1.0}
)";
  const auto r = testing::run_loaded(load_model_string(yaml, "ramp_from_rest.yaml"), 0.0, 10,
                                     {"block.velocity.x"});
  // Impulse of the ramp to 0.5 s (mean 5 N) plus 10 N for 0.5 s: 7.5 N·s on 2 kg.
  EXPECT_NEAR(r.columns[0].back(), 3.75, 1e-9);
}

}  // namespace
}  // namespace cs
