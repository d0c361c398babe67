// A one-line progress bar on a terminal (nothing when stderr is not a terminal), redrawn at most
// ten times a second, and the end-of-run summary.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "clearsim/solvers/simulation.hpp"

namespace cs {

class ProgressBar {
 public:
  ProgressBar(double t_end, bool enabled);
  void update(double t, const RunStats& stats);
  void finish();

 private:
  double t_end_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// "steps 30000 (rejected 0) | Newton iterations 60213 (2.01/step) | ... | wall 0.52 s | ..."
std::string summary(const RunStats& stats, const std::string& analysis);

}  // namespace cs
