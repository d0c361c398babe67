// Finite journal bearing (reference.md §5.5): the cost of one direct Reynolds solve on the default
// 96 × 16 grid (cold, warm-started from a nearby state, and without cavitation), of building the
// default table, and of one table evaluation with its tangents. The numbers quoted in
// reynolds_bearing.hpp come from here.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "clearsim/elements/lubrication/reynolds_bearing.hpp"

namespace cs::bench {
namespace {

using lubrication::Cavitation;
using lubrication::FilmState;
using lubrication::FiniteBearingTable;
using lubrication::FiniteBearingTableOptions;
using lubrication::ReynoldsSetup;
using lubrication::ReynoldsWorkspace;

ReynoldsSetup default_setup(Cavitation cavitation) {
  ReynoldsSetup s;
  s.cavitation = cavitation;
  return s;
}

// Reynolds condition from the unconstrained solution (no warm start): the active-set loop
// refactorizes about a dozen times.
void BM_ReynoldsSolveCold(benchmark::State& state) {
  const ReynoldsSetup s = default_setup(Cavitation::kReynolds);
  ReynoldsWorkspace ws;
  for (auto _ : state) {
    ws.cold_start();
    benchmark::DoNotOptimize(lubrication::solve_reynolds(s, FilmState{0.6, 2.0, 300.0}, &ws));
  }
}
BENCHMARK(BM_ReynoldsSolveCold)->Unit(benchmark::kMillisecond);

// Reynolds condition warm-started from the previous call, as inside time stepping: the film
// state moves by a typical step (Δε = 0.002, ε̇ and ω̄ change by 1 %) between calls.
void BM_ReynoldsSolveWarm(benchmark::State& state) {
  const ReynoldsSetup s = default_setup(Cavitation::kReynolds);
  ReynoldsWorkspace ws;
  const FilmState films[2] = {{0.600, 2.00, 300.0}, {0.602, 2.02, 303.0}};
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(lubrication::solve_reynolds(s, films[k], &ws));
    k = 1 - k;
  }
  state.counters["iterations/solve"] = ws.last_active_set_iterations();
}
BENCHMARK(BM_ReynoldsSolveWarm)->Unit(benchmark::kMillisecond);

// No cavitation: one LDLᵀ factorization (ε changes every call) and one solve.
void BM_SommerfeldSolve(benchmark::State& state) {
  const ReynoldsSetup s = default_setup(Cavitation::kSommerfeld);
  ReynoldsWorkspace ws;
  const FilmState films[2] = {{0.600, 2.00, 300.0}, {0.602, 2.02, 303.0}};
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(lubrication::solve_reynolds(s, films[k], &ws));
    k = 1 - k;
  }
}
BENCHMARK(BM_SommerfeldSolve)->Unit(benchmark::kMillisecond);

void BM_TableBuild(benchmark::State& state) {
  FiniteBearingTableOptions o;
  o.cavitation = static_cast<Cavitation>(state.range(0));
  for (auto _ : state) {
    FiniteBearingTable table(o);
    benchmark::DoNotOptimize(table.build_seconds());
  }
}
BENCHMARK(BM_TableBuild)
    ->Arg(static_cast<int>(Cavitation::kSommerfeld))
    ->Arg(static_cast<int>(Cavitation::kHalfSommerfeld))
    ->Arg(static_cast<int>(Cavitation::kReynolds))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(2);

// Force and its 2 × 3 tangent at scattered film states (no cache or branch luck).
void BM_TableEvaluate(benchmark::State& state) {
  const FiniteBearingTable table(FiniteBearingTableOptions{});
  const lubrication::BearingParameters bearing{0.4, 0.01, 0.02, 5e-5};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> eps(0.0, 0.95), rate(-50.0, 50.0), omega(-500.0, 500.0);
  std::vector<FilmState> films(1024);
  for (FilmState& f : films) f = {eps(rng), rate(rng), omega(rng)};
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(table.evaluate(films[k], bearing));
    k = (k + 1) & 1023;
  }
}
BENCHMARK(BM_TableEvaluate);

}  // namespace
}  // namespace cs::bench
