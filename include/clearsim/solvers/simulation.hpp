// The run loop, written once: `Simulation` owns time, fixed and adaptive steps, the splitting of a
// failed step, element memory, the watches (contact regimes, redundant rows, energy) and the
// start-up notes. `run_analysis` runs a whole analysis: a dynamic one is a Simulation stepped to
// its end with an observer; kinematic and static analyses are not time integrations and run on
// their own. The command line, the Python module and the sweeps use nothing else.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/run_stats.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

// Why these settings cannot run this model (empty if they can): e.g. unilateral contacts need
// the NSGA integrator.
std::string incompatible_settings(const System& sys, const SolverSettings& settings);

// Makes the initial state consistent (notes receive warnings such as removed redundant rows),
// then runs settings.solver.analysis. Returns the final state through `s`.
RunStats run_analysis(System& sys, const RunSettings& settings, StepObserver& observer, State& s,
                      std::vector<std::string>& notes);

// A dynamic run step by step: the public stepping API and the loop behind run_analysis. Stepping
// it to t gives the same states, bit for bit, as run_analysis with end = t on the same settings,
// fixed or adaptive (solver.adaptive).
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

  // Consistent initial conditions at t = 0 (notes receive warnings: removed redundant rows, an
  // unstable choice of formulation). False, with stats().message, if the model cannot start.
  bool initialize(std::vector<std::string>& notes);
  // One accepted step. Fixed steps: h = end/round(end/step), split in halves (down to 1/1024)
  // when Newton fails. Adaptive steps: the controller's next step (rejected attempts are retried
  // smaller), landing on the settings' end time when it is ahead. False, with stats().message,
  // if no step can be taken. The state is complete (joint reactions too) after it.
  bool step();
  // Steps until the time reaches t (adaptive steps land on t), handing the initial state (on the
  // first call), every `output.every`-th state and the last one to `observer`, as run_analysis
  // does; the observer may stop the run (StepObserver::keep_going). False on failure or stop.
  bool run_to(double t, StepObserver* observer = nullptr);
  // One accepted step that does not pass t (adaptive steps land on it), as step() otherwise: for
  // callers that loop themselves (the Python module polls for Ctrl-C between steps).
  bool step_toward(double t);
  // Whether the time has reached t: within half a fixed step, or round-off of an adaptive one.
  bool reached(double t) const;

  // --- driving the run from outside (a controller, a co-simulation; simulation_drive.cpp) ----
  // Restarts at s.t from the poses s.x_W, s.R_WB and velocities s.v (the rest of s is not
  // read), as a run whose model starts there: positions within newton_tol and velocities with
  // ‖B v + Φ_t‖∞ ≤ newton_tol are kept exactly (others are made consistent, the smallest
  // mass-weighted change), accelerations and reactions are solved, the integrator starts afresh
  // and fixed steps count from s.t. Run statistics carry on. Throws std::invalid_argument naming
  // the item (sizes, a value that is not finite, a rotation that is not one) without changing
  // anything, and std::runtime_error when the state cannot be made consistent (the simulation
  // then restarts from its previous state). A simulation stopped by a failed step steps again.
  void set_state(const State& s, std::vector<std::string>& notes);
  // Goes back (or on) to a state this run of fixed steps passed through after `k` accepted
  // steps: `s` is taken whole (accelerations, reactions, element memory) and the integrator
  // starts afresh (nothing factorized or extrapolated is kept). A run that also resumed at its
  // own state there steps on from it bit for bit the same: the adjoint's checkpoints
  // (adjoint_gradient.hpp). Run statistics carry on. Throws std::logic_error for an adaptive
  // run, one not started, or states of another size.
  void resume(const State& s, long k);
  // Holds the force F_W [N] at the body point p_B [m] (body frame, from the centre of mass) and
  // the torque τ_W [N·m] (both world frame) on `body` over the following steps, until the
  // body's next apply_load or clear_loads: the force of a point_load element with these
  // constant values (bit for bit when no element after it acts on the body). Loads changed
  // before the first step after a start count in its accelerations (solved again), as the
  // model's own loads do. Throws std::invalid_argument naming an unknown body (or ground) or a
  // value that is not finite.
  void apply_load(const std::string& body, const Vec3& p_B, const Vec3& F_W, const Vec3& tau_W);
  void clear_loads();

  const State& state() const { return state_; }
  const RunStats& stats() const { return stats_; }
  // The size of the next step: fixed, or the adaptive controller's next attempt [s].
  double step_size() const;
  bool adaptive() const { return settings_.solver.adaptive; }
  // The last step's iteration matrix solved in place (Integrator::solve_step_matrix): for the
  // tangent of the step (sensitivities). False if the integrator offers none.
  bool solve_step_matrix(VecX& rhs) { return integrator_ && integrator_->solve_step_matrix(rhs); }

 private:
  // Makes `guess` consistent and starts the integration there (initialize, set_state).
  bool start(State guess, std::vector<std::string>& notes, StartFrom from);
  // After apply_load or clear_loads: a start not yet stepped from is solved again.
  void loads_changed();
  // One accepted step towards t_stop (adaptive steps do not pass it), without outputs.
  bool next_step(double t_stop, StepObserver* observer);
  bool advance_fixed(double h, int depth, std::string& why);
  std::string full_step_stiffness_;  // advance_fixed: the full step's stiffest-force diagnosis
  bool advance_adaptive(double t_stop);
  void account(const StepResult& r);
  void accepted(const StepResult& r, double h);
  // Counts and watches after an accepted step; false if the row watch stops the run.
  bool watch(StepObserver* observer);
  bool fail(std::string message);
  // The time t_stop of step(): the end of the settings' run while it is ahead, else none.
  double default_stop() const;

  System& sys_;
  RunSettings settings_;
  std::unique_ptr<Integrator> integrator_;
  struct Workspace;  // watches between steps (no allocation per step)
  std::unique_ptr<Workspace> work_;
  State state_;
  RunStats stats_;
  double t0_ = 0.0, h_ = 0.0;
  double h_next_ = 0.0;  // adaptive: the next attempt's size
  long k_ = 0;           // accepted steps
  long n_ = 1;           // fixed steps per settings.solver.end
  bool ready_ = false;
  bool initial_output_ = false;  // the initial state went to an observer
};

}  // namespace cs
