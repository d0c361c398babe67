// clearsim against Siconos on the Flores revolute-clearance slider–crank (issue 12), in one
// process: each iteration runs clearsim's example file as shipped (NSGA, h = 1e-5, 0.12 s =
// 12 000 steps, output every 10 steps to an observer) and Siconos' Moreau–Jean model of the same
// mechanism (siconos_flores.cpp), each timed with this thread's CPU clock. Counters: steps/s of
// each, the ratio cs/sic (> 1: clearsim faster), the largest penetration of each and how far each
// slider strays from the ideal mechanism's (the two should agree to within the clearance).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "peers/siconos_flores.hpp"
#include "support/thread_cpu.hpp"
#include "testing/slider_crank.hpp"

namespace cs::bench::peers {
namespace {

class SliderDeviationObserver final : public StepObserver {
 public:
  void on_output(const State& s, const RunStats&) override {
    const int slider = static_cast<int>(s.x_W.size()) - 1;  // bodies in file order
    max_deviation =
        std::max(max_deviation, std::abs(s.x_W[slider].x() - testing::slider_closed_form(s.t).x));
  }
  bool reads_joint_reactions() const override { return false; }
  double max_deviation = 0.0;
};

struct ClearsimFloresRun {
  double cpu = 0.0, max_penetration = 0.0, max_slider_deviation = 0.0;
  long steps = 0;
};

ClearsimFloresRun clearsim_flores(const LoadedModel& loaded) {
  RunSettings settings = loaded.run;  // the example's solver section, nothing changed
  settings.output.every = 10;
  settings.output.progress = false;
  SliderDeviationObserver observer;
  const double t0 = thread_cpu_seconds();
  System sys(loaded.model);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, settings, observer, s, notes);
  ClearsimFloresRun run;
  run.cpu = thread_cpu_seconds() - t0;
  if (!stats.ok) throw std::runtime_error("clearsim Flores slider-crank: " + stats.message);
  run.steps = stats.steps;
  run.max_penetration = stats.max_penetration;
  run.max_slider_deviation = observer.max_deviation;
  return run;
}

void BM_PeersFloresClearanceSiconos(benchmark::State& state) {
  const LoadedModel loaded = load_model_file(std::string(CLEARSIM_SOURCE_DIR) +
                                             "/examples/flores_slider_crank_nsga/model.yaml");
  const double h = loaded.run.solver.step, end = loaded.run.solver.end;
  ClearsimFloresRun cs;
  SiconosFloresRun sic;
  double cs_cpu = 0.0, sic_cpu = 0.0;
  long cs_steps = 0, sic_steps = 0;
  for (auto _ : state) {
    cs = clearsim_flores(loaded);
    sic = siconos_flores_run(h, end);
    cs_cpu += cs.cpu;
    sic_cpu += sic.cpu;
    cs_steps += cs.steps;
    sic_steps += sic.steps;
    state.SetIterationTime(cs.cpu + sic.cpu);
  }
  const double cs_rate = static_cast<double>(cs_steps) / cs_cpu;
  const double sic_rate = static_cast<double>(sic_steps) / sic_cpu;
  state.counters["cs_steps/s"] = cs_rate;
  state.counters["sic_steps/s"] = sic_rate;
  state.counters["cs/sic"] = cs_rate / sic_rate;
  state.counters["cs_pen"] = cs.max_penetration;
  state.counters["sic_pen"] = sic.max_penetration;
  state.counters["cs_x_dev"] = cs.max_slider_deviation;
  state.counters["sic_x_dev"] = sic.max_slider_deviation;
}
BENCHMARK(BM_PeersFloresClearanceSiconos)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace
}  // namespace cs::bench::peers
