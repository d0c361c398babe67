// The adjoint's checkpoints (sensitivity/adjoint_trajectory.hpp): past its memory budget the
// forward run keeps every K-th state and the backward pass recomputes the steps between them.
// The recomputation must repeat the forward run bit for bit (AdjointTrajectory checks each
// segment's end against the next checkpoint and throws otherwise), and the gradient must be the
// one of the run that stored every state. The two forward runs differ only where the
// checkpointed one restarts its integrator (no kept factorization, no extrapolated multipliers):
// the same step equations solved from another Newton start, so their states, and the gradients,
// agree to the Newton tolerance's effect, not to round-off (bounds below).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <utility>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/adjoint_gradient.hpp"
#include "clearsim/sensitivity/adjoint_trajectory.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

std::string example(const std::string& rel) {
  return testing::read_text(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + rel);
}

struct Pair {
  GradientResult all, checkpointed;
};

// The gradient with every state stored and with a budget of `states` states.
Pair both_ways(const std::string& text, const std::vector<Override>& o,
               const std::vector<std::string>& paths, const std::string& objective, double states) {
  std::vector<std::string> notes;
  Pair p;
  p.all = model_gradient(text, "model.yaml", o, objective, paths, notes);
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  const System sys(lm.model);
  const double budget = states * AdjointGradient::bytes_per_step(sys);
  p.checkpointed = model_gradient(text, "model.yaml", o, objective, paths, notes, {budget, {}});
  return p;
}

void expect_same_gradient(const Pair& p, double tol) {
  EXPECT_EQ(p.all.checkpoint_every, 1);
  EXPECT_EQ(p.all.recomputed_steps, 0);
  EXPECT_GT(p.checkpointed.checkpoint_every, 1);
  EXPECT_EQ(p.checkpointed.steps, p.all.steps);
  EXPECT_EQ(p.checkpointed.recomputed_steps, p.all.steps);  // each segment once
  EXPECT_LT(p.checkpointed.stored_bytes, 0.5 * p.all.stored_bytes);
  EXPECT_NEAR(p.checkpointed.value, p.all.value, tol * std::abs(p.all.value));
  for (std::size_t j = 0; j < p.all.gradient.size(); ++j) {
    const double a = p.all.gradient[j], c = p.checkpointed.gradient[j];
    EXPECT_NEAR(c, a, tol * std::abs(a)) << j;
    std::printf("d/dp[%zu]: stored %.15g checkpointed %.15g rel %.2e\n", j, a, c,
                std::abs(c - a) / std::abs(a));
  }
}

// The ideal slider-crank as shipped (modified Newton, whose kept factorization the checkpoints
// drop), 200 steps: checkpoints every 15 steps, the last segment shorter (200 = 13·15 + 5).
TEST(AdjointCheckpoints, SliderCrankShippedSettingsGiveTheStoredGradient) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  const std::vector<Override> o = {{"solver.end", "0.002"}};
  const Pair p = both_ways(text, o, {"bodies.slider.mass", "drivers.crank_speed.angular_velocity"},
                           "integral(crank_speed.torque)", 40.0);
  EXPECT_EQ(p.checkpointed.checkpoint_every, 15);
  // Modified Newton stops within newton_tol of the step's solution; restarted, it stops
  // elsewhere within it. Measured: 1.5e-9 (the crank speed), 4.8e-12 (the mass).
  expect_same_gradient(p, 1e-7);
}

// Seed 003's four-bar with wedge-lubricated pins (the contacts' memory is stored and restored
// with the state), full Newton at 1e-14: the restart changes only the Newton start.
TEST(AdjointCheckpoints, LubricatedFourBarWithMemoryGivesTheStoredGradient) {
  const std::string text = example("four_bar_clearance/lubricated_wedge.yaml");
  const std::vector<Override> o = {
      {"solver.newton", "full"}, {"solver.newton_tol", "1e-14"}, {"solver.end", "0.002"}};
  const Pair p = both_ways(
      text, o, {"joints.crank_coupler.clearance.lubricant.viscosity", "bodies.coupler.mass"},
      "integral(rocker.angular_velocity.z)", 40.0);
  expect_same_gradient(p, 1e-10);  // measured 2.4e-12, 4.6e-13
}

TEST(AdjointCheckpoints, ABudgetTooSmallEvenForCheckpointsIsRefusedWithTheFigures) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  std::vector<std::string> notes;
  try {
    model_gradient(text, "model.yaml", {{"solver.end", "0.002"}}, "end(crank_speed.torque)",
                   {"bodies.slider.mass"}, notes, {10000.0, {}});
    FAIL() << "expected a refusal";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("needs"), std::string::npos) << what;
    EXPECT_NE(what.find("even with checkpoints every 15 steps"), std::string::npos) << what;
    EXPECT_NE(what.find("MiB allowed"), std::string::npos) << what;
  }
  EXPECT_THROW(model_gradient(text, "model.yaml", {{"solver.end", "0.002"}},
                              "end(crank_speed.torque)", {"bodies.slider.mass"}, notes, {0.0, {}}),
               std::invalid_argument);
}

// GradientOptions::progress hears both passes in order, each rising to 1.
TEST(AdjointCheckpoints, ProgressHearsBothPassesToTheirEnds) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  std::vector<std::pair<std::string, double>> heard;
  GradientOptions options;
  options.memory_bytes = 40.0 * 2176.0;  // checkpoints: the backward pass recomputes
  options.progress = [&heard](const char* pass, double done) { heard.emplace_back(pass, done); };
  std::vector<std::string> notes;
  const GradientResult g =
      model_gradient(text, "model.yaml", {{"solver.end", "0.002"}}, "integral(crank_speed.torque)",
                     {"bodies.slider.mass"}, notes, options);
  ASSERT_GT(g.checkpoint_every, 1);
  ASSERT_GE(heard.size(), 2u);
  EXPECT_EQ(heard.front().first, "forward");
  EXPECT_EQ(heard.back(), std::make_pair(std::string("backward"), 1.0));
  bool forward_ended = false;
  for (std::size_t i = 0; i < heard.size(); ++i) {
    if (heard[i].first == "forward") {
      EXPECT_FALSE(forward_ended) << "forward heard after backward began";
      if (heard[i].second == 1.0) forward_ended = true;
    }
    if (i > 0 && heard[i].first == heard[i - 1].first) {
      EXPECT_GE(heard[i].second, heard[i - 1].second) << heard[i].first;
    }
  }
  EXPECT_TRUE(forward_ended);
}

// Simulation::resume on its own: a run that resumed at its state after 40 steps, taken back to
// that state, repeats its next 60 steps bit for bit (joint coordinates, as shipped).
TEST(SimulationResume, RepeatsTheRunFromARestartedState) {
  LoadedModel lm = load_model_string(example("slider_crank_ideal/model.yaml"), "model.yaml",
                                     {{"solver.end", "0.001"}});
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes)) << sim.stats().message;
  for (int k = 0; k < 40; ++k) ASSERT_TRUE(sim.step());
  const State at40 = sim.state();
  sim.resume(at40, 40);
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(sim.step());
  const State at100 = sim.state();
  sim.resume(at40, 40);
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(sim.step());
  EXPECT_EQ(sim.state().t, at100.t);
  EXPECT_EQ(sim.state().v, at100.v);
  EXPECT_EQ(sim.state().a, at100.a);
  for (std::size_t b = 0; b < at100.x_W.size(); ++b) {
    EXPECT_EQ(sim.state().x_W[b], at100.x_W[b]);
    EXPECT_EQ(sim.state().R_WB[b], at100.R_WB[b]);
  }
  EXPECT_THROW(sim.resume(at40, -1), std::logic_error);
}

}  // namespace
}  // namespace cs
