// Runs one analysis (dynamic, kinematic or static) from consistent initial conditions, handing
// every N-th state to an observer (output writers, progress display) as it goes.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

struct RunStats {
  long steps = 0;           // accepted steps (or analysis points)
  long rejected_steps = 0;  // adaptive rejections and Newton-failure retries
  long newton_iterations = 0;
  long factorizations = 0;  // all linear-system factorizations (smooth and corrections)
  // NSGA: iterations of the position correction and of the velocity jump (semismooth Newton).
  long position_iterations = 0, velocity_iterations = 0;
  int last_iterations = 0;                // Newton iterations of the last step
  double last_step = 0.0;                 // last accepted step size [s]
  double max_constraint_violation = 0.0;  // max ‖Φ‖∞ over the output points
  // Unilateral contacts (NSGA): steps spent in each regime summed over gaps, contact onsets
  // (open → closed), and the largest penetration max(−g_N) over all steps [m].
  long open_steps = 0, contact_steps = 0, impact_steps = 0, contact_onsets = 0;
  // Accepted steps whose velocity jump was solved plastically because Newton's law at several
  // contacts would have created kinetic energy (docs/ARCHITECTURE.md, NSGA).
  long plastic_impacts = 0;
  double max_penetration = 0.0;
  double wall_seconds = 0.0;
  bool ok = true;
  std::string message;  // why the run stopped early
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // Called at t₀ and every `every` steps, and at the last state.
  virtual void on_output(const State& s, const RunStats& stats) = 0;
  // Called after every accepted step (cheap; for progress display).
  virtual void on_step(const State& /*s*/, const RunStats& /*stats*/) {}
};

// Why these settings cannot run this model (empty if they can): e.g. unilateral contacts need
// the NSGA integrator.
std::string incompatible_settings(const System& sys, const SolverSettings& settings);

// Makes the initial state consistent (notes receive warnings such as removed redundant rows),
// then runs settings.solver.analysis. Returns the final state through `s`.
RunStats run_analysis(System& sys, const RunSettings& settings, StepObserver& observer, State& s,
                      std::vector<std::string>& notes);

}  // namespace cs
