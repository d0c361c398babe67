// The run hands its own ‖Φ‖∞ of an output point to a system.constraint_violation channel
// (RunStats::output_violation) for that system and that very state only: any other state or
// system (a perturbed model's channels in the sensitivities) evaluates its own.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

TEST(OutputViolation, TheRunsValueServesOnlyItsOwnSystemAndState) {
  const std::string text = testing::read_text(std::string(CLEARSIM_SOURCE_DIR) +
                                              "/examples/slider_crank_ideal/model.yaml");
  LoadedModel lm = load_model_string(text, "model.yaml", {{"solver.coordinates", "absolute"}});
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes)) << sim.stats().message;
  ASSERT_TRUE(sim.run_to(0.001)) << sim.stats().message;
  const State& s = sim.state();
  const ChannelSet channel(sys, {"system.constraint_violation"});
  std::vector<double> own, handed, other_state, other_system;
  channel.evaluate(s, sim.stats(), own);
  ASSERT_TRUE(std::isfinite(own[0]));
  EXPECT_LT(own[0], 1e-9);  // the run keeps Φ at its Newton tolerance
  RunStats stats = sim.stats();
  stats.output_violation = {&sys, &s, 42.0};  // a marker no evaluation can give
  channel.evaluate(s, stats, handed);
  EXPECT_EQ(handed[0], 42.0);
  const State copy = s;
  channel.evaluate(copy, stats, other_state);
  EXPECT_EQ(other_state[0], own[0]);
  LoadedModel lm2 = load_model_string(text, "model.yaml", {{"solver.coordinates", "absolute"}});
  System sys2(lm2.model);
  const ChannelSet channel2(sys2, {"system.constraint_violation"});
  channel2.evaluate(s, stats, other_system);
  EXPECT_EQ(other_system[0], own[0]);
}

}  // namespace
}  // namespace cs
