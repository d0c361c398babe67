// The NSGA cases of issue 3, read from their example model files and run whole through
// run_analysis (initial conditions, every step, an output call every 10 steps that the observer
// discards): the dry spherical clearance slider–crank of seed 000 (30 000 steps) and seed 002's
// spatial slider–crank with a 3D revolute clearance joint (100 000 steps), and Flores' planar one
// (12 000 steps). Full Newton (the
// default) and modified Newton for the smooth step; the corrections are the same in both.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/discard_observer.hpp"

namespace cs::bench {
namespace {

void run_example(benchmark::State& state, const std::string& example) {
  const std::string path =
      std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + example + "/model.yaml";
  LoadedModel loaded = load_model_file(path);
  RunSettings settings = loaded.run;
  settings.solver.newton = state.range(0) == 0 ? NewtonMode::kFull : NewtonMode::kModified;
  settings.output.every = 10;
  settings.output.progress = false;
  DiscardObserver observer;
  RunStats stats;
  long total_steps = 0;
  for (auto _ : state) {
    System sys(loaded.model);
    State s;
    std::vector<std::string> notes;
    stats = run_analysis(sys, settings, observer, s, notes);
    if (!stats.ok) {
      state.SkipWithError((example + " failed: " + stats.message).c_str());
      return;
    }
    total_steps += stats.steps;
  }
  const double steps = static_cast<double>(stats.steps);
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(total_steps), benchmark::Counter::kIsRate);
  state.counters["newton_it/step"] = static_cast<double>(stats.newton_iterations) / steps;
  state.counters["pos_it/step"] = static_cast<double>(stats.position_iterations) / steps;
  state.counters["vel_it/step"] = static_cast<double>(stats.velocity_iterations) / steps;
  state.counters["factor/step"] = static_cast<double>(stats.factorizations) / steps;
  state.counters["onsets"] = static_cast<double>(stats.contact_onsets);
  state.counters["max_pen"] = stats.max_penetration;
  state.SetLabel(state.range(0) == 0 ? "full Newton" : "modified Newton");
}

void BM_SphericalClearanceRun(benchmark::State& state) {
  run_example(state, "spherical_clearance_slider_crank");
}
BENCHMARK(BM_SphericalClearanceRun)
    ->ArgName("modified")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

void BM_SpatialRevoluteClearanceRun(benchmark::State& state) {
  run_example(state, "spatial_slider_crank_revolute_clearance");
}
BENCHMARK(BM_SpatialRevoluteClearanceRun)
    ->ArgName("modified")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

// Flores' planar slider–crank with a revolute clearance (the Siconos peer case), alone, so that
// it can be profiled without the peer.
void BM_FloresClearanceRun(benchmark::State& state) {
  run_example(state, "flores_slider_crank_nsga");
}
BENCHMARK(BM_FloresClearanceRun)->ArgName("modified")->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cs::bench
