// Test helpers: build-and-run a model from C++ and record every output state.
#pragma once

#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs::testing {

class Recorder final : public StepObserver {
 public:
  void on_output(const State& s, const RunStats&) override { states.push_back(s); }
  std::vector<State> states;
};

struct RunResult {
  RunStats stats;
  std::vector<State> states;
  std::vector<std::string> notes;
};

inline RunResult run(const Model& model, const RunSettings& settings) {
  System sys(model);
  Recorder rec;
  RunResult r;
  State s;
  r.stats = run_analysis(sys, settings, rec, s, r.notes);
  r.states = std::move(rec.states);
  return r;
}

}  // namespace cs::testing
