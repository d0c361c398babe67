// Scaling: a spatial pendulum chain of N links joined by spherical joints, released under gravity,
// 200 generalized-α steps at h = 1e-3 (ρ∞ = 0.8, index 3, full and modified Newton). In body poses
// (LinearSolverKind::kAuto: dense LU up to 150 unknowns, sparse LU above; unknowns = 6N + 3N), and
// as shipped (joint coordinates, 3N of them, up to 200).
// The consistent-initial-condition phase (make_consistent) is timed separately.
// Planar chains (BM_PlanarChain): N revolute links at h = 1e-4 s, the peers' case
// (bench/peers/), for 0.2 s and 1 s, with the iteration matrix dense, recursive or chosen as
// shipped: the recursive path's scaling and the crossover between the two.
#include <benchmark/benchmark.h>

#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/tree_alpha.hpp"
#include "peers/planar_chain_start.hpp"
#include "support/pendulum_chain_model.hpp"
#include "support/planar_chain_model.hpp"

namespace cs::bench {
namespace {

constexpr int kChainSteps = 200;
constexpr double kChainStep = 1e-3;  // h [s]

// CPU time of this thread [s] (robust against other processes on a shared machine).
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

SolverSettings chain_settings(NewtonMode newton) {
  SolverSettings st;
  st.analysis = Analysis::kDynamic;
  st.integrator = IntegratorKind::kGeneralizedAlpha;
  st.rho_inf = 0.8;
  st.formulation = ConstraintFormulation::kIndex3;
  st.step = kChainStep;
  st.end = kChainSteps * kChainStep;
  st.newton = newton;
  st.linear_solver = LinearSolverKind::kAuto;
  return st;
}

// 200 steps from the consistent initial state; set-up and make_consistent are not timed.
void chain_steps(benchmark::State& state, int links, const SolverSettings& st) {
  const NewtonMode newton = st.newton;
  const Model model = pendulum_chain(links);
  System sys(model);
  std::vector<std::string> notes;
  State start = initial_state(sys, 0.0);
  if (!make_consistent(sys, start, st.newton_tol, notes).ok || !notes.empty()) {
    state.SkipWithError("chain initial conditions failed or rows were removed");
    return;
  }
  long iterations = 0, factorizations = 0, steps = 0;
  std::string integrator_name;  // of the run (a fall-back to body poses shows in it)
  for (auto _ : state) {
    state.PauseTiming();
    State s = start;
    const std::unique_ptr<Integrator> integrator = make_integrator(sys, st);
    state.ResumeTiming();
    for (int k = 0; k < kChainSteps; ++k) {
      const StepResult r = integrator->step(s, kChainStep);
      if (!r.converged) {
        state.SkipWithError(("chain step failed: " + r.message).c_str());
        return;
      }
      iterations += r.iterations;
      factorizations += r.factorizations;
    }
    steps += kChainSteps;
    integrator_name = integrator->name();
    benchmark::DoNotOptimize(s.x_W.data());
  }
  const double n = static_cast<double>(steps);
  const int unknowns = sys.num_dofs() + sys.num_constraints();
  state.counters["bodies"] = links;
  state.counters["unknowns"] = unknowns;
  // Inverted rates: seconds per step and per step per body (the console adds SI prefixes).
  state.counters["time/step"] =
      benchmark::Counter(n, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["time/step/body"] =
      benchmark::Counter(n * links, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["newton_it/step"] = static_cast<double>(iterations) / n;
  state.counters["factor/step"] = static_cast<double>(factorizations) / n;
  const std::string& integrator = integrator_name;
  state.SetLabel(integrator == "generalized-alpha"
                     ? std::string(use_sparse(unknowns, st.linear_solver) ? "sparse" : "dense") +
                           (newton == NewtonMode::kFull ? ", full Newton" : ", modified Newton")
                     : integrator);
}

// In body poses (solver.coordinates: absolute), the scaling of the absolute-coordinate path.
void BM_ChainSteps(benchmark::State& state) {
  SolverSettings st =
      chain_settings(state.range(1) == 0 ? NewtonMode::kFull : NewtonMode::kModified);
  st.newton_step_error_stop = state.range(2) != 0;  // 0: newton_tol alone (before issue 12)
  st.coordinates = CoordinateChoice::kAbsolute;
  chain_steps(state, static_cast<int>(state.range(0)), st);
}
BENCHMARK(BM_ChainSteps)
    ->ArgNames({"N", "modified", "step_stop"})
    ->ArgsProduct({{2, 3, 4, 6, 10, 30, 100, 300, 1000}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

// As shipped: make_integrator's choice (joint coordinates up to 200 of them: 66 links of 3).
void BM_ChainStepsShipped(benchmark::State& state) {
  chain_steps(state, static_cast<int>(state.range(0)), chain_settings(NewtonMode::kModified));
}
BENCHMARK(BM_ChainStepsShipped)
    ->ArgName("N")
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Arg(6)
    ->Arg(10)
    ->Arg(30)
    ->Arg(66)
    ->Arg(67)
    ->Arg(100)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

// The initial-condition phase alone (System construction and make_consistent), with the time of
// each of its stages as counters (CPU seconds per call): the redundancy check (rank-revealing QR of
// Bᵀ, run twice by make_consistent), the position, velocity and acceleration assembly.
void BM_ChainMakeConsistent(benchmark::State& state) {
  const int links = static_cast<int>(state.range(0));
  const Model model = pendulum_chain(links);
  const SolverSettings st = chain_settings(NewtonMode::kFull);
  double t_redundancy = 0.0, t_positions = 0.0, t_velocities = 0.0, t_accelerations = 0.0;
  for (auto _ : state) {
    System sys(model);
    std::vector<std::string> notes;
    State s = initial_state(sys, 0.0);
    if (!make_consistent(sys, s, st.newton_tol, notes).ok) {
      state.SkipWithError("chain initial conditions failed");
      return;
    }
    benchmark::DoNotOptimize(s.lambda.data());
    // The same stages again, one by one, outside the timed region.
    state.PauseTiming();
    LinearSystem ls;
    s = initial_state(sys, 0.0);
    const auto t0 = cpu_seconds();
    benchmark::DoNotOptimize(sys.remove_redundant_rows(s));
    const auto t1 = cpu_seconds();
    const bool ok = assemble_positions(sys, s, st.newton_tol, 50, ls).ok;
    const auto t2 = cpu_seconds();
    s.lambda = VecX::Zero(sys.num_constraints());
    const bool ok_v = assemble_velocities(sys, s, ls).ok;
    const auto t3 = cpu_seconds();
    const bool ok_a = solve_accelerations(sys, s, ls).ok;
    const auto t4 = cpu_seconds();
    if (!ok || !ok_v || !ok_a) {
      state.SkipWithError("chain initial-condition stage failed");
      return;
    }
    t_redundancy += t1 - t0;
    t_positions += t2 - t1;
    t_velocities += t3 - t2;
    t_accelerations += t4 - t3;
    state.ResumeTiming();
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["bodies"] = links;
  state.counters["redundancy_qr"] = t_redundancy / n;
  state.counters["positions"] = t_positions / n;
  state.counters["velocities"] = t_velocities / n;
  state.counters["accelerations"] = t_accelerations / n;
  state.SetLabel(use_sparse(9 * links, LinearSolverKind::kAuto) ? "sparse" : "dense");
}
BENCHMARK(BM_ChainMakeConsistent)
    ->ArgName("N")
    ->Arg(2)
    ->Arg(3)
    ->Arg(4)
    ->Arg(6)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond);

// N-link planar chain, h = 1e-4 s, `steps` steps in joint coordinates with the iteration matrix
// range(2): 0 as shipped (kAuto), 1 dense, 2 recursive. CPU time of the steps alone.
void BM_PlanarChain(benchmark::State& state) {
  constexpr double h = 1e-4;
  const int links = static_cast<int>(state.range(0));
  const long steps = state.range(1);
  const auto matrix = static_cast<TreeAlpha::IterationMatrix>(state.range(2));
  const Model model = planar_pendulum_chain(links);
  System sys(model);
  SolverSettings st;  // shipped defaults
  st.step = h;
  const State start = planar_chain_start(sys);
  long iterations = 0, factorizations = 0, total = 0;
  double cpu = 0.0;
  std::string name;
  for (auto _ : state) {
    State s = start;
    TreeAlpha integrator(sys, st);
    integrator.set_iteration_matrix(matrix);
    const double t0 = cpu_seconds();
    for (long k = 0; k < steps; ++k) {
      const StepResult r = integrator.step(s, h);
      if (!r.converged) {
        state.SkipWithError(("planar chain step failed: " + r.message).c_str());
        return;
      }
      iterations += r.iterations;
      factorizations += r.factorizations;
    }
    const double dt = cpu_seconds() - t0;
    cpu += dt;
    total += steps;
    state.SetIterationTime(dt);
    name = integrator.recursive() ? "recursive" : "dense";
  }
  const double n = static_cast<double>(total);
  state.counters["steps/s"] = n / cpu;
  state.counters["us/body/step"] = 1e6 * cpu / (n * links);
  state.counters["it/step"] = static_cast<double>(iterations) / n;
  state.counters["fact/step"] = static_cast<double>(factorizations) / n;
  state.SetLabel(name);
}
BENCHMARK(BM_PlanarChain)
    ->ArgNames({"N", "steps", "matrix"})
    ->ArgsProduct({{10, 90, 1000, 10000}, {2000, 10000}, {0}})
    ->ArgsProduct({{6, 8, 10, 12, 16, 20, 24, 30, 40}, {2000, 10000}, {1, 2}})
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cs::bench
