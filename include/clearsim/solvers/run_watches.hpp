// What the run loop (Simulation) does around every accepted step, apart from the step itself:
// contact regime counts and the largest penetration, the choice of independent constraint rows
// along the motion, and the watch for energy that grows with no source. Each holds its workspace,
// so that watching allocates nothing in the stepping loop.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/run_stats.hpp"

namespace cs {

// Contact regime counters and the largest penetration after an accepted step.
class ContactCounter {
 public:
  explicit ContactCounter(const System& sys) : sys_(sys) {}
  // The regimes before the step (for the onset count).
  void remember(const State& s) { before_ = s.contact; }
  void count(const State& after, RunStats& st);

 private:
  const System& sys_;
  std::vector<ContactState> before_;
  std::vector<BodyKinematics> kin_;
  VecX g_;
};

// Keeps the kept constraint rows independent along the motion. In an over-constrained mechanism
// the rows found dependent at the start need not stay dependent on the same partners: Bricard's
// mechanism (IFToMM A04) has 30 rows of rank 29 throughout, but the 29 kept at t = 0 lose rank
// near t = 1.25 s. Every 1 to 16 accepted steps the kept rows' conditioning is estimated (one
// QR of their m × n Jacobian, done only for models that dropped rows); when it has fallen below
// kDrop of the best value since the rows were chosen, they are re-chosen at that state if
// another set is kGain times better (docs/coordinates-and-constraints.md, "Redundant constraints
// along the motion"). The hysteresis keeps the choice from flickering between sets of similar
// quality. A removed row that is violated anyway (models too large for the estimate, or a fall
// within one step) forces a new choice; only if none holds it does the run stop, with a message
// that says whether the start was singular or the mechanism is at a singular position now.
class RowWatch {
 public:
  RowWatch(System& sys, Integrator* integrator) : sys_(sys), integrator_(integrator) {}
  // For a new run with `integrator` (rows chosen afresh by make_consistent).
  void restart(Integrator* integrator);
  // After an accepted step; false (stats.message set) if a removed row is violated and no
  // choice of rows holds it.
  bool after_step(State& s, double tol, RunStats& stats);

 private:
  static constexpr double kDrop = 0.25;
  static constexpr double kGain = 2.0;
  static constexpr int kMaxInterval = 16;

  void watch(State& s, RunStats& stats);
  void rechosen(RunStats& stats);
  bool removed_rows_hold(State& s, double tol, RunStats& stats);

  System& sys_;
  Integrator* integrator_;
  VecX kept_phi_;
  double best_ = 0.0;   // best conditioning of the kept rows since they were chosen
  double last_ = -1.0;  // conditioning at the last look (−1: none since the last choice)
  int interval_ = 1;    // steps between the last look and the next
  int countdown_ = 0;   // steps to the next look
  std::vector<BodyKinematics> kin_;
};

// A run whose mechanical energy grows without a source to explain it is said, once, while it
// goes (a 1e12 N/m spring at h = 1 ms with ρ∞ = 1 and full Newton grows from 0.5 J to 3e7 J by
// t = 2 s, exit 0). A warning and not a stop: the test is a heuristic, and a time-varying load
// can feed energy legitimately; a run that actually diverges stops at its first non-finite
// value anyway. The sources are found by what elements say they do (Element::delivers_power,
// Element::rows_depend_on_time), never by what they are.
class EnergyWatch {
 public:
  explicit EnergyWatch(const System& sys);
  // After every accepted step (and at the start).
  void update(const State& s, RunStats& stats);

 private:
  static constexpr double kGrowth = 1e3;
  static constexpr long kEvery = 8;
  // [J] below this the scale is round-off of a model at rest, not an energy to compare with.
  static constexpr double kFloor = 1e-9;

  double load_power(double t) const;
  double driver_power(const State& s);
  int fastest_body() const;
  int strongest_feeder(double t, double& power) const;
  std::string message(const State& s, double h, double e, double growth) const;

  const System& sys_;
  std::vector<BodyKinematics> kin_;
  std::vector<int> drivers_;  // elements whose rows depend on time
  std::vector<int> loads_;    // elements that deliver power from outside
  bool started_ = false, done_ = false;
  long steps_ = 0;
  double e_start_ = 0.0, ke_start_ = 0.0, e_min_ = 0.0, scale_ = 0.0, reference_ = 0.0;
  double t_ref_ = 0.0;
  double source_work_ = 0.0, t_last_ = 0.0, t_step_ = 0.0;
};

// Hands an output state to the observer, with the largest constraint violation so far.
void emit_output(const System& sys, const State& s, RunStats& stats, StepObserver& obs);

// True (the run must stop) when the observer asks to stop after this accepted step. The state is
// output first unless it just was, so that the results end exactly where the run stopped.
bool stop_asked(const System& sys, const State& s, bool emitted, RunStats& stats,
                StepObserver& obs);

}  // namespace cs
