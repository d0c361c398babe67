// A run observer for benchmarks: it keeps nothing, so the numbers measure the engine, not the
// output (it only stops the compiler from discarding the state).
#pragma once

#include <benchmark/benchmark.h>

#include "clearsim/solvers/simulation.hpp"

namespace cs::bench {

class DiscardObserver final : public StepObserver {
 public:
  void on_output(const State& s, const RunStats&) override { benchmark::DoNotOptimize(s.t); }
  bool reads_joint_reactions() const override { return false; }
};

}  // namespace cs::bench
