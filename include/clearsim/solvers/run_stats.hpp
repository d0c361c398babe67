// What a run reports (RunStats) and how a caller watches it go (StepObserver): shared by the
// run loop (Simulation), the analyses and every front end.
#pragma once

#include <string>
#include <vector>

#include "clearsim/math/body_kinematics.hpp"
#include "clearsim/state/state.hpp"

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
  // ‖Φ‖∞ of the output point on_output is given, while it runs, with the system and the state
  // it is of, and the bodies' kinematics gathered for it: channels of that system at that very
  // state read them rather than evaluating Φ or gathering a second time (null pointers: none
  // given).
  struct OutputViolation {
    const void* system = nullptr;
    const State* state = nullptr;
    double value = 0.0;
    const std::vector<BodyKinematics>* kinematics = nullptr;
  } output_violation;
  // Unilateral contacts (NSGA): steps spent in each regime summed over gaps, contact onsets
  // (open → closed), and the largest penetration max(−g_N) over all steps [m].
  long open_steps = 0, contact_steps = 0, impact_steps = 0, contact_onsets = 0;
  // Accepted steps whose velocity jump was solved plastically because Newton's law at several
  // contacts would have created kinetic energy (docs/time-integration.md, "No energy from multiple
  // impacts").
  long plastic_impacts = 0;
  // Times the independent constraint rows were re-chosen because the kept ones lost rank
  // along the motion (System::rechoose_rows; over-constrained mechanisms such as Bricard's).
  long row_rechoices = 0;
  double max_penetration = 0.0;
  double wall_seconds = 0.0;
  std::string integrator;  // the integrator that ran (Integrator::name), empty before a step
  bool ok = true;
  bool interrupted = false;  // stopped because the observer asked (keep_going() was false)
  std::string message;       // why the run stopped early
  // What the run found wrong as it went without stopping (mechanical energy growing with no
  // source to explain it): each said once, appended when found, so that an observer can print
  // it at once (RunStats reaches on_step) and a caller can read it after the run.
  std::vector<std::string> warnings;
};

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  // Called at t₀ and every `every` steps, and at the last state.
  virtual void on_output(const State& s, const RunStats& stats) = 0;
  // Called after every accepted step (cheap; for progress display).
  virtual void on_step(const State& /*s*/, const RunStats& /*stats*/) {}
  // Asked after every accepted step: false stops the run there, after an output of that state
  // (RunStats::interrupted; e.g. the command line on SIGINT, so the results end at a step).
  virtual bool keep_going() const { return true; }
  // False if on_output never reads joint reactions (the multipliers of ideal joints' rows in
  // State::lambda and lambda_jump): integrators that leave them out of the step (joint
  // coordinates) then do not compute them. Drivers' multipliers are always there.
  virtual bool reads_joint_reactions() const { return true; }
};

}  // namespace cs
