#include <algorithm>
#include <sstream>

#include "clearsim/solvers/run_watches.hpp"

namespace cs {

void RowWatch::restart(Integrator* integrator) {
  integrator_ = integrator;
  best_ = 0.0;
  last_ = -1.0;
  interval_ = 1;
  countdown_ = 0;
}
// After an accepted step; false (stats.message set) if a removed row is violated and no
// choice of rows holds it.
bool RowWatch::after_step(State& s, double tol, RunStats& stats) {
  if (!sys_.has_removed_rows()) return true;
  sys_.gather(s, kin_);
  if (--countdown_ <= 0) watch(s, stats);
  return removed_rows_hold(s, tol, stats);
}

// Estimates the kept rows' conditioning (one QR of the m × n kept Jacobian, ≈ 8 µs CPU for
// A04's 29 × 30, a quarter of its step) and re-chooses them if it has fallen. The next look is
// halfway to the trigger along the current trend, at most kMaxInterval steps on: the
// conditioning moves with the configuration, so it cannot jump between steps.
void RowWatch::watch(State& s, RunStats& stats) {
  const double c = sys_.kept_rows_conditioning(kin_, s.t);
  best_ = std::max(best_, c);
  if (c < kDrop * best_) {
    const System::RowChoice choice = sys_.rechoose_rows(s, kGain);
    if (choice.changed) rechosen(stats);
    // With no better set (the whole set loses rank: a singular position, like A02's flat
    // ones) look again only after a further fall.
    best_ = choice.changed ? choice.conditioning : c;
    last_ = -1.0;
    interval_ = countdown_ = 1;
    return;
  }
  int next = std::min(2 * interval_, kMaxInterval);
  if (last_ >= 0.0 && c < last_) {
    const double fall_per_step = (last_ - c) / interval_;
    const double steps_to_trigger = (c - kDrop * best_) / fall_per_step;
    next = std::clamp(static_cast<int>(0.5 * steps_to_trigger), 1, next);
  }
  last_ = c;
  interval_ = countdown_ = next;
}

void RowWatch::rechosen(RunStats& stats) {
  ++stats.row_rechoices;
  if (integrator_ != nullptr) integrator_->rows_changed();
}

bool RowWatch::removed_rows_hold(State& s, double tol, RunStats& stats) {
  // A formulation that holds the kept rows only approximately (penalty) leaves the removed
  // rows as far off: they are judged against the kept rows' own violation.
  kept_phi_.resize(sys_.num_constraints());
  sys_.constraints(kin_, s.t, &kept_phi_, MatrixSink(), nullptr, nullptr);
  const double kept = kept_phi_.size() > 0 ? kept_phi_.lpNorm<Eigen::Infinity>() : 0.0;
  const double limit = std::max({1e-7, 1e3 * tol, 100.0 * kept});
  std::string which;
  double v = sys_.removed_rows_violation(kin_, s.t, &which);
  if (v <= limit) return true;
  // The step left the kept rows' span: any better set takes the violated row back in, and
  // the next step's Newton iteration (or projection) closes it.
  const System::RowChoice choice = sys_.rechoose_rows(s, 1.0);
  if (choice.changed) {
    rechosen(stats);
    best_ = choice.conditioning;
    v = sys_.removed_rows_violation(kin_, s.t, &which);
    if (v <= limit) return true;
  }
  std::ostringstream os;
  os << "at t = " << s.t << " s the constraint " << which << " is violated by " << v
     << " although it was left out as dependent on the others";
  if (choice.full_rank > sys_.num_constraints()) {
    os << ": the constraints have rank " << choice.full_rank << " here but only "
       << sys_.num_constraints()
       << " at the start, so the initial configuration is singular (a dead-centre or locked "
          "position: rows dependent there are independent nearby). Start the model away from "
          "it";
  } else {
    os << "; no choice of " << sys_.num_constraints()
       << " independent rows holds it here: the mechanism is at a singular position (its "
          "constraints lose rank) that the step crossed. Check the geometry, or try a smaller "
          "step";
  }
  stats.ok = false;
  stats.message = os.str();
  return false;
}

}  // namespace cs
