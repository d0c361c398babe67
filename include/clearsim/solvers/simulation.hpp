// Runs one analysis (dynamic, kinematic or static) from consistent initial conditions, handing
// every N-th state to an observer (output writers, progress display) as it goes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/integrator.hpp"
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

// Why these settings cannot run this model (empty if they can): e.g. unilateral contacts need
// the NSGA integrator.
std::string incompatible_settings(const System& sys, const SolverSettings& settings);

// Makes the initial state consistent (notes receive warnings such as removed redundant rows),
// then runs settings.solver.analysis. Returns the final state through `s`.
RunStats run_analysis(System& sys, const RunSettings& settings, StepObserver& observer, State& s,
                      std::vector<std::string>& notes);

// A dynamic run step by step (the public stepping API: the command line runs whole analyses with
// run_analysis; a program, the Python module or a sweep drives a Simulation). Stepping it to t
// gives the same states, bit for bit, as run_analysis with end = t on the same settings.
//
//   cs::System sys(model);
//   cs::Simulation sim(sys, settings);
//   std::vector<std::string> notes;
//   if (!sim.initialize(notes)) throw std::runtime_error(sim.stats().message);
//   while (sim.state().t < 0.1 && sim.step()) use(sim.state());
class Simulation {
 public:
  // `sys` must outlive the simulation; settings.solver.analysis must be dynamic.
  Simulation(System& sys, RunSettings settings);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Consistent initial conditions at t = 0 (notes receive warnings). False, with
  // stats().message, if the model cannot start.
  bool initialize(std::vector<std::string>& notes);
  // One step of the settings' size h = end/round(end/step) (split in halves, down to 1/1024, when
  // Newton fails). False, with stats().message, if the step cannot be taken.
  bool step();
  // Steps until the time reaches t (within a step), handing outputs to `observer` every
  // `output.every` steps as run_analysis does. False on failure.
  bool run_to(double t, StepObserver* observer = nullptr);

  const State& state() const { return state_; }
  const RunStats& stats() const { return stats_; }
  double step_size() const { return h_; }

 private:
  System& sys_;
  RunSettings settings_;
  std::unique_ptr<Integrator> integrator_;
  struct Workspace;  // contact counting and row watching between steps (no allocation per step)
  std::unique_ptr<Workspace> work_;
  State state_;
  RunStats stats_;
  double t0_ = 0.0, h_ = 0.0;
  long k_ = 0;  // steps taken
  long n_ = 1;  // steps per settings.solver.end
  bool ready_ = false;
};

}  // namespace cs
