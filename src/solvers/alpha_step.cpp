// The generalized-α step and NSGA's composition of it (see alpha_step.hpp).
#include "clearsim/solvers/alpha_step.hpp"

#include <cmath>
#include <sstream>

namespace cs {

namespace {
// A closed contact whose normal velocity after the last step is below this multiple of the
// Newton tolerance [m/s] is persistent: the smooth step carries it (choose_persistent_contacts).
constexpr double kPersistentSpeedFactor = 100.0;

// The smooth step with NSGA's release loop: a persistent contact that pulls is let go and the
// step solved again from the start (at most once per contact: the set only shrinks).
void smooth_step(AlphaStepper& a, State& s, double h, StepResult& res) {
  for (;;) {
    StepResult attempt;
    a.smooth_solve(s, h, attempt);
    if (!attempt.converged) {
      // Modified Newton can stall where full Newton converges (next to a singular position,
      // IFToMM A02 lying flat, the matrix changes within the step): one full-Newton attempt of
      // the same step before the run cuts it.
      StepResult retry;
      if (a.retry_full_newton(s, h, retry)) {
        res.iterations += attempt.iterations;
        res.factorizations += attempt.factorizations;
        attempt = retry;
      }
    }
    res.iterations += attempt.iterations;
    res.factorizations += attempt.factorizations;
    res.converged = attempt.converged;
    res.message = attempt.message;
    if (!res.converged || !a.release_pulling()) return;
    a.restore_start(s);
    a.restart_accelerations(s);
    a.plan_predictor(s, h, true);
  }
}
}  // namespace

StepResult alpha_step(AlphaStepper& a, State& s, double h) {
  StepResult res;
  a.keep_start(s);
  a.choose_persistent(s);
  a.plan_predictor(s, h, a.restart_accelerations(s));
  smooth_step(a, s, h, res);
  if (!res.converged) {
    a.discard_matrix();
    a.restore_start(s);
    res.message = a.failure_report(s, h) + (res.message.empty() ? "" : " (" + res.message + ")");
    return res;
  }
  if (!a.apply_corrections(s, h, res)) {
    // The smooth step converged; say which correction failed rather than quoting smooth
    // residuals that are within tolerance.
    a.discard_matrix();
    a.restore_start(s);
    std::ostringstream os;
    os << a.correction_name() << " failed at t = " << s.t + h << " s (step h = " << h
       << " s): " << res.message;
    res.converged = false;
    res.message = os.str();
    return res;
  }
  a.accept_step(s, h, res);
  return res;
}

bool release_pulling_contacts(const VecX& lambda_N, std::vector<char>& persistent) {
  bool released = false;
  for (std::size_t j = 0; j < persistent.size(); ++j) {
    if (persistent[j] && lambda_N(static_cast<Eigen::Index>(j)) < 0.0) {
      persistent[j] = 0;
      released = true;
    }
  }
  return released;
}

bool choose_persistent_contacts(const System& sys, const SolverSettings& settings, const State& s,
                                std::vector<char>& persistent) {
  const int p = sys.num_gaps();
  persistent.assign(p, 0);
  if (p == 0 || !settings.persistent_contacts) return false;
  if (static_cast<int>(s.contact.size()) != p || s.gdot_N.size() != p) return false;
  const VecX& mu = sys.friction();
  const double speed = kPersistentSpeedFactor * settings.newton_tol;
  bool any = false;
  for (int j = 0; j < p; ++j) {
    if (s.contact[j] != ContactState::kOpen && std::abs(s.gdot_N(j)) <= speed && mu(j) <= 0.0) {
      persistent[j] = 1;
      any = true;
    }
  }
  return any;
}

}  // namespace cs
