// Cost of the compliant and lubricated clearance joints against the ideal mechanism, per
// simulated second: seed 003's four-bar (examples/four_bar_clearance) over its first revolution
// (0.1 s), read from the example files, at the examples' step h = 1e-5 s and at the steps of
// equal output accuracy: the rocker acceleration within ≈ 0.2 rad/s² RMS (1e-4 of its RMS) of a
// step-converged run is reached by the ideal four-bar at h = 1e-4 s and by the lubricated one at
// 5e-5 s (measured: 0.19 and 0.21 rad/s²). The dry one changes by 3 % RMS from h = 1e-5 to 5e-6.
// The model (and the finite bearing's force table, built when the model is read) is loaded once,
// outside the timing. Report: docs/PERFORMANCE.md, "Compliant and lubricated contact".
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/discard_observer.hpp"

namespace cs::bench {
namespace {

struct Variant {
  const char* label;
  const char* file;     // in examples/four_bar_clearance
  const char* bearing;  // replaces "model: long," in the file (nullptr: as written)
  double step;          // [s]
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = {
      {"ideal, h = 1e-5", "ideal.yaml", nullptr, 1e-5},
      {"ideal, h = 1e-4", "ideal.yaml", nullptr, 1e-4},
      {"dry compliant, h = 1e-5", "model.yaml", nullptr, 1e-5},
      {"lubricated long, h = 1e-5", "lubricated_wedge.yaml", nullptr, 1e-5},
      {"lubricated long, h = 5e-5", "lubricated_wedge.yaml", nullptr, 5e-5},
      {"lubricated short, h = 5e-5", "lubricated_wedge.yaml", "model: short,", 5e-5},
      {"lubricated finite, h = 5e-5", "lubricated_wedge.yaml", "model: finite,", 5e-5},
  };
  return v;
}

LoadedModel load_variant(const Variant& v) {
  const std::string path =
      std::string(CLEARSIM_SOURCE_DIR) + "/examples/four_bar_clearance/" + v.file;
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  if (v.bearing) {
    const std::string from = "model: long,";
    yaml.replace(yaml.find(from), from.size(), v.bearing);
  }
  LoadedModel lm = load_model_string(yaml, path);
  lm.run.solver.step = v.step;
  lm.run.solver.end = 0.1;
  lm.run.output.every = 100;
  lm.run.output.progress = false;
  return lm;
}

void BM_FourBarClearance(benchmark::State& state) {
  const Variant& v = variants()[static_cast<std::size_t>(state.range(0))];
  LoadedModel lm = load_variant(v);
  lm.run.solver.newton = state.range(1) == 0 ? NewtonMode::kFull : NewtonMode::kModified;
  // step_stop = 0: Newton stops on newton_tol alone (the test before the step-tied one).
  lm.run.solver.newton_step_error_stop = state.range(2) != 0;
  DiscardObserver observer;
  RunStats stats;
  for (auto _ : state) {
    System sys(lm.model);
    State s;
    std::vector<std::string> notes;
    stats = run_analysis(sys, lm.run, observer, s, notes);
    if (!stats.ok) {
      state.SkipWithError((std::string(v.label) + " failed: " + stats.message).c_str());
      return;
    }
  }
  state.counters["newton_it/step"] =
      static_cast<double>(stats.newton_iterations) / static_cast<double>(stats.steps);
  state.counters["factor/step"] =
      static_cast<double>(stats.factorizations) / static_cast<double>(stats.steps);
  state.SetLabel(std::string(v.label) + (state.range(1) == 0 ? ", full Newton" : ", modified"));
}
// One iteration simulates 0.1 s: the time per simulated second is 10× the time shown.
BENCHMARK(BM_FourBarClearance)
    ->ArgsProduct({benchmark::CreateDenseRange(0, 6, 1), {0, 1}, {0, 1}})
    ->ArgNames({"case", "modified", "step_stop"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cs::bench
