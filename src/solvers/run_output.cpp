#include <algorithm>
#include <sstream>

#include "clearsim/solvers/run_watches.hpp"

namespace cs {

namespace {
double constraint_violation(const System& sys, const State& s) {
  if (sys.num_constraints() == 0) return 0.0;
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX phi(sys.num_constraints());
  sys.constraints(kin, s.t, &phi, MatrixSink(), nullptr, nullptr);
  return phi.lpNorm<Eigen::Infinity>();
}
}  // namespace

void emit_output(const System& sys, const State& s, RunStats& stats, StepObserver& obs) {
  stats.max_constraint_violation =
      std::max(stats.max_constraint_violation, constraint_violation(sys, s));
  obs.on_output(s, stats);
}

bool stop_asked(const System& sys, const State& s, bool emitted, RunStats& stats,
                StepObserver& obs) {
  if (obs.keep_going()) return false;
  if (!emitted) emit_output(sys, s, stats, obs);
  std::ostringstream os;
  os << "interrupted at t = " << s.t << " s, after step " << stats.steps;
  stats.ok = false;
  stats.interrupted = true;
  stats.message = os.str();
  return true;
}

}  // namespace cs
