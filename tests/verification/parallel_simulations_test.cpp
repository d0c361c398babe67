// Issue 28: two Simulations share nothing, so they may step in parallel threads (the Python
// module runs them without the GIL). Models of every element family are stepped alone, then all
// at once in threads of their own: each must reach the same state, bit for bit. Under the
// sanitizer build this is also the check that no engine code keeps mutable state outside a
// model's System and Simulation.
#include <gtest/gtest.h>

#include <thread>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

struct Case {
  std::string file;
  int steps;
};

// The final state of `steps` steps of one model, in a System and Simulation of its own.
State stepped(const Case& c) {
  LoadedModel lm = load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + c.file);
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  if (!sim.initialize(notes)) throw std::runtime_error(c.file + ": " + sim.stats().message);
  for (int k = 0; k < c.steps; ++k)
    if (!sim.step()) throw std::runtime_error(c.file + ": " + sim.stats().message);
  return sim.state();
}

void expect_same(const State& a, const State& b, const std::string& what) {
  EXPECT_EQ(a.t, b.t) << what;
  EXPECT_EQ((a.v - b.v).norm(), 0.0) << what;
  ASSERT_EQ(a.x_W.size(), b.x_W.size()) << what;
  for (std::size_t k = 0; k < a.x_W.size(); ++k) {
    EXPECT_EQ((a.x_W[k] - b.x_W[k]).norm(), 0.0) << what << " body " << k;
    EXPECT_EQ((a.R_WB[k] - b.R_WB[k]).norm(), 0.0) << what << " body " << k;
  }
}

TEST(ParallelSimulations, StepInThreadsAsAlone) {
  const std::vector<Case> cases = {
      {"spherical_clearance_slider_crank/model.yaml", 300},   // NSGA clearance joint
      {"flores_slider_crank/lubricated.yaml", 300},           // compliant + journal bearing
      {"lubricated_spherical_slider_crank/model.yaml", 300},  // squeeze film
      {"four_bar_clearance/model.yaml", 200},                 // revolute clearance, compliant
      {"ship_reducer/model.yaml", 50},                        // analytic gear mesh
      {"mesh_drop/model.yaml", 400},                          // triangle meshes
      {"slider_crank_ideal/model.yaml", 300},                 // joint coordinates
  };
  std::vector<State> alone;
  for (const Case& c : cases) alone.push_back(stepped(c));
  // Twice each, all at once.
  std::vector<State> together(2 * cases.size());
  std::vector<std::string> errors(together.size());
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < together.size(); ++k)
    threads.emplace_back([&, k] {
      try {
        together[k] = stepped(cases[k % cases.size()]);
      } catch (const std::exception& e) {
        errors[k] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < together.size(); ++k) {
    ASSERT_EQ(errors[k], "");
    expect_same(together[k], alone[k % cases.size()], cases[k % cases.size()].file);
  }
}

}  // namespace
}  // namespace cs
