// Ideal slider–crank (seed 000, crank driven at 5000 rpm): 0.3 s at h = 1e-5 (30 000 steps),
// generalized-α ρ∞ = 0.8, index 3, full vs modified Newton. The observer discards everything,
// so the numbers measure the engine, not output.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/discard_observer.hpp"
#include "testing/slider_crank.hpp"

namespace cs::bench {
namespace {

RunSettings slider_crank_settings(NewtonMode newton) {
  RunSettings rs;
  rs.solver.analysis = Analysis::kDynamic;
  rs.solver.integrator = IntegratorKind::kGeneralizedAlpha;
  rs.solver.rho_inf = 0.8;
  rs.solver.formulation = ConstraintFormulation::kIndex3;
  rs.solver.step = 1e-5;
  rs.solver.end = 0.3;
  rs.solver.newton = newton;
  rs.solver.linear_solver = LinearSolverKind::kAuto;
  rs.output.every = 10;
  rs.output.progress = false;
  return rs;
}

// The first argument: 0 full Newton, 1 modified Newton (shipped: joint coordinates), 2 modified
// Newton in body poses (solver.coordinates: absolute).
NewtonMode newton_mode(const benchmark::State& state) {
  return state.range(0) == 0 ? NewtonMode::kFull : NewtonMode::kModified;
}

RunSettings settings_of(const benchmark::State& state) {
  RunSettings rs = slider_crank_settings(newton_mode(state));
  if (state.range(0) == 2) rs.solver.coordinates = CoordinateChoice::kAbsolute;
  return rs;
}

const char* newton_label(NewtonMode mode) {
  return mode == NewtonMode::kFull ? "full Newton" : "modified Newton";
}

void report_run(benchmark::State& state, const RunStats& stats, long total_steps) {
  const double steps = static_cast<double>(stats.steps);
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(total_steps), benchmark::Counter::kIsRate);
  state.counters["newton_it/step"] = static_cast<double>(stats.newton_iterations) / steps;
  state.counters["factor/step"] = static_cast<double>(stats.factorizations) / steps;
  state.counters["rejected"] = static_cast<double>(stats.rejected_steps);
  state.counters["max|phi|"] = stats.max_constraint_violation;
}

// The whole analysis as the command line runs it: consistent initial conditions, 30 000 steps,
// an output call (with its constraint-violation check) every 10 steps.
// step_stop = 0: Newton stops on newton_tol alone, the test before the step-tied one (issue 12).
void BM_SliderCrankRun(benchmark::State& state) {
  const Model model = testing::slider_crank();
  RunSettings settings = settings_of(state);
  settings.solver.newton_step_error_stop = state.range(1) != 0;
  DiscardObserver observer;
  RunStats stats;
  long total_steps = 0;
  for (auto _ : state) {
    System sys(model);
    State s;
    std::vector<std::string> notes;
    stats = run_analysis(sys, settings, observer, s, notes);
    if (!stats.ok) {
      state.SkipWithError(("slider-crank run failed: " + stats.message).c_str());
      return;
    }
    total_steps += stats.steps;
    benchmark::DoNotOptimize(s.x_W.data());
  }
  report_run(state, stats, total_steps);
  state.SetLabel(newton_label(settings.solver.newton));
}
BENCHMARK(BM_SliderCrankRun)
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->ArgNames({"modified", "step_stop"})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

// The same 30 000 steps driven directly through the integrator's step (make_integrator's choice:
// joint coordinates with modified Newton, body poses with full Newton) with h exactly 1e-5 and no
// output calls. run_analysis passes h = target − t, which differs from 1e-5 in the last bits from
// step to step; the difference between this and BM_SliderCrankRun is the cost of the run loop
// (output every 10 steps, step-size round-off seen by modified Newton).
void BM_SliderCrankStepLoop(benchmark::State& state) {
  const Model model = testing::slider_crank();
  const RunSettings settings = settings_of(state);
  const double h = settings.solver.step;
  const long n = std::lround(settings.solver.end / h);
  long iterations = 0, factorizations = 0, steps = 0;
  for (auto _ : state) {
    System sys(model);
    std::vector<std::string> notes;
    State s = initial_state(sys, 0.0);
    if (!make_consistent(sys, s, settings.solver.newton_tol, notes).ok) {
      state.SkipWithError("slider-crank initial conditions failed");
      return;
    }
    const std::unique_ptr<Integrator> integrator = make_integrator(sys, settings.solver);
    for (long k = 0; k < n; ++k) {
      const StepResult r = integrator->step(s, h);
      if (!r.converged) {
        state.SkipWithError(("step failed: " + r.message).c_str());
        return;
      }
      iterations += r.iterations;
      factorizations += r.factorizations;
    }
    steps += n;
    benchmark::DoNotOptimize(s.x_W.data());
  }
  const double total = static_cast<double>(steps);
  state.counters["steps/s"] = benchmark::Counter(total, benchmark::Counter::kIsRate);
  state.counters["newton_it/step"] = static_cast<double>(iterations) / total;
  state.counters["factor/step"] = static_cast<double>(factorizations) / total;
  System sys(model);
  state.SetLabel(std::string(newton_label(settings.solver.newton)) + ", " +
                 make_integrator(sys, settings.solver)->name());
}
BENCHMARK(BM_SliderCrankStepLoop)
    ->ArgName("modified")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

// One step of make_integrator's integrator in isolation, from a consistent state; the state keeps
// advancing across iterations (the crank keeps turning), so every call is a representative step.
void BM_SliderCrankStep(benchmark::State& state) {
  const Model model = testing::slider_crank();
  const RunSettings settings = settings_of(state);
  System sys(model);
  std::vector<std::string> notes;
  State s = initial_state(sys, 0.0);
  if (!make_consistent(sys, s, settings.solver.newton_tol, notes).ok) {
    state.SkipWithError("slider-crank initial conditions failed");
    return;
  }
  const std::unique_ptr<Integrator> integrator = make_integrator(sys, settings.solver);
  long iterations = 0, factorizations = 0, steps = 0;
  for (auto _ : state) {
    const StepResult r = integrator->step(s, settings.solver.step);
    if (!r.converged) {
      state.SkipWithError(("step failed: " + r.message).c_str());
      return;
    }
    iterations += r.iterations;
    factorizations += r.factorizations;
    ++steps;
  }
  benchmark::DoNotOptimize(s.x_W.data());
  const double n = static_cast<double>(steps);
  state.counters["steps/s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
  state.counters["newton_it/step"] = static_cast<double>(iterations) / n;
  state.counters["factor/step"] = static_cast<double>(factorizations) / n;
  state.SetLabel(std::string(newton_label(settings.solver.newton)) + ", " + integrator->name());
}
BENCHMARK(BM_SliderCrankStep)
    ->ArgName("modified")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(1.0);

}  // namespace
}  // namespace cs::bench
