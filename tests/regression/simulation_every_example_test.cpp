// One run loop: stepping a Simulation gives run_analysis's states bit for bit for every shipped
// model file, with its own settings and with adaptive steps (solver.adaptive: true), so the
// command line, Python and the sweeps cannot drift apart (they all use Simulation).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

class NullObserver final : public StepObserver {
 public:
  void on_output(const State&, const RunStats&) override {}
};

std::vector<std::string> example_files() {
  std::vector<std::string> files;
  for (const auto& dir :
       std::filesystem::directory_iterator(std::string(CLEARSIM_SOURCE_DIR) + "/examples"))
    if (dir.is_directory())
      for (const auto& f : std::filesystem::directory_iterator(dir.path()))
        if (f.path().extension() == ".yaml") files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The states of run_analysis and of a Simulation stepped by step() to the same end, compared bit
// for bit; `steps` fixed steps of the file's own size (or the adaptive steps in that time).
void expect_same_states(const std::string& file, bool adaptive, int steps) {
  std::vector<Override> overrides;
  if (adaptive) overrides.push_back({"solver.adaptive", "true"});
  LoadedModel lm = load_model_file(file, overrides);
  if (lm.run.solver.analysis != Analysis::kDynamic) return;  // not a time integration
  // Mesh models build hierarchies per run: a few steps show the loop all the same.
  const bool meshes = !lm.model.shapes.empty();
  lm.run.solver.end = std::min(lm.run.solver.end, (meshes ? 3 : steps) * lm.run.solver.step);
  lm.run.output.progress = false;
  SCOPED_TRACE(file + (adaptive ? " (adaptive)" : ""));

  System sys_a(lm.model);
  State whole;
  std::vector<std::string> notes_a, notes_b;
  NullObserver obs;
  const RunStats a = run_analysis(sys_a, lm.run, obs, whole, notes_a);
  ASSERT_TRUE(a.ok) << a.message;

  System sys_b(lm.model);
  Simulation sim(sys_b, lm.run);
  ASSERT_TRUE(sim.initialize(notes_b)) << sim.stats().message;
  EXPECT_EQ(notes_a, notes_b);
  const double end = lm.run.solver.end;
  while (sim.state().t < end - 1e-12 * end) ASSERT_TRUE(sim.step()) << sim.stats().message;
  const State& s = sim.state();
  EXPECT_EQ(sim.stats().steps, a.steps);
  EXPECT_EQ(sim.stats().rejected_steps, a.rejected_steps);
  EXPECT_EQ(sim.stats().newton_iterations, a.newton_iterations);
  EXPECT_EQ(s.t, whole.t);
  EXPECT_EQ((s.v - whole.v).norm(), 0.0);
  EXPECT_EQ((s.memory - whole.memory).norm(), 0.0);
  for (std::size_t b = 0; b < s.x_W.size(); ++b) {
    EXPECT_EQ((s.x_W[b] - whole.x_W[b]).norm(), 0.0) << "body " << b;
    EXPECT_EQ((s.R_WB[b] - whole.R_WB[b]).norm(), 0.0) << "body " << b;
  }
}

TEST(SimulationEveryExample, FixedStepsEqualTheRun) {
  const auto files = example_files();
  ASSERT_GE(files.size(), 30u);
  for (const std::string& f : files) expect_same_states(f, false, 60);
}

TEST(SimulationEveryExample, AdaptiveStepsEqualTheRun) {
  for (const std::string& f : example_files()) expect_same_states(f, true, 60);
}

// Adaptive steps are the controller's in both, not the fixed h: a step size other than the
// file's shows the controller at work (the silent fixed-step stepping this loop replaced).
TEST(SimulationEveryExample, AdaptiveSteppingIsAdaptive) {
  LoadedModel lm =
      load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/slider_crank_ideal/model.yaml",
                      {{"solver.adaptive", "true"}, {"solver.end", "0.02"}});
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes));
  const long fixed_steps = std::lround(0.02 / lm.run.solver.step);
  ASSERT_TRUE(sim.run_to(0.02));
  EXPECT_EQ(sim.state().t, 0.02);  // lands on the time asked for
  EXPECT_NE(sim.stats().steps, fixed_steps);
  EXPECT_NE(sim.stats().last_step, lm.run.solver.step);
}

}  // namespace
}  // namespace cs
