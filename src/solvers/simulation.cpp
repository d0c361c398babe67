#include "clearsim/solvers/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/plausibility_watch.hpp"
#include "clearsim/solvers/run_watches.hpp"

namespace cs {

namespace {
using Clock = std::chrono::steady_clock;

// A failed fixed step is split in halves down to h/2^kMaxSplits. Ten, not six: IFToMM A02
// (stabilized, ρ∞ = 1) built without -march=native meets a flat passage at t = 8.998 s that
// h/64 does not pass and the deeper halves do; a step that fails at every depth costs at most
// about kMaxSplits more attempts, so the bound only matters for steps that then succeed.
constexpr int kMaxSplits = 10;

// ali3p and penalty put BᵀB in an n × n matrix that stays regular with dependent rows, so they
// take back the rows make_consistent removed as redundant: no kept set to watch or re-choose
// (the reason seed 004's authors prefer these formulations with redundant constraints).
void keep_dependent_rows(System& sys, const SolverSettings& st, State& s,
                         std::vector<std::string>& notes) {
  const bool penalty_family = st.formulation == ConstraintFormulation::kAli3p ||
                              st.formulation == ConstraintFormulation::kPenalty;
  if (!penalty_family || st.integrator == IntegratorKind::kNsga ||
      st.integrator == IntegratorKind::kRk4 || st.integrator == IntegratorKind::kDormandPrince)
    return;
  if (const int k = sys.restore_removed_rows(s); k > 0)
    notes.push_back(std::to_string(k) +
                    " redundant constraint row(s) are kept in the dynamic analysis: formulation " +
                    (st.formulation == ConstraintFormulation::kAli3p ? "ali3p" : "penalty") +
                    " needs no independent set of rows");
}

// Index-3 constraints under a non-dissipative member of the family (nsga, and any model with
// contacts, always runs the stabilized formulation): the spectral radius of the algebraic mode
// is |α_m/(1 − α_m)|-like, and without numerical dissipation (α_m = α_f, γ = ½) the multipliers
// grow (Cardona & Géradin 1989).
void note_unstable_index3(const System& sys, const SolverSettings& st,
                          std::vector<std::string>& notes) {
  if (st.formulation != ConstraintFormulation::kIndex3 || st.integrator == IntegratorKind::kNsga ||
      sys.num_gaps() > 0 || sys.num_constraints() == 0)
    return;
  const AlphaParameters p = AlphaParameters::from_settings(st);
  if (std::abs(p.gamma - 0.5) < 1e-9) {
    notes.push_back(
        "index-3 constraints with a non-dissipative integrator (γ = ½, e.g. ρ∞ = 1 "
        "or trapezoidal) are unstable: the multipliers grow without bound. Use "
        "rho_inf < 1 or solver.formulation: stabilized");
  }
}
}  // namespace

struct Simulation::Workspace {
  explicit Workspace(System& sys) : contacts(sys), rows(sys, nullptr), plausibility(sys) {}
  ContactCounter contacts;
  RowWatch rows;
  PlausibilityWatch plausibility;     // restarted by each initialize(), not by set_state
  std::optional<EnergyWatch> energy;  // made anew by each initialize()
  State backup;                       // adaptive: the state before an attempt
};

Simulation::Simulation(System& sys, RunSettings settings)
    : sys_(sys), settings_(std::move(settings)), work_(std::make_unique<Workspace>(sys)) {}

Simulation::~Simulation() = default;

bool Simulation::fail(std::string message) {
  stats_.ok = false;
  stats_.message = std::move(message);
  ready_ = false;
  return false;
}

bool Simulation::initialize(std::vector<std::string>& notes) {
  stats_ = RunStats{};
  work_->plausibility.restart();
  return start(initial_state(sys_, 0.0), notes, StartFrom::kModel);
}

bool Simulation::start(State guess, std::vector<std::string>& notes, StartFrom from) {
  const SolverSettings& st = settings_.solver;
  ready_ = false;
  initial_output_ = false;
  if (st.analysis != Analysis::kDynamic)
    return fail("a Simulation steps a dynamic analysis (solver.analysis: dynamic)");
  if (const std::string why = incompatible_settings(sys_, st); !why.empty()) return fail(why);
  state_ = std::move(guess);
  const SolveReport init = make_consistent(sys_, state_, st.newton_tol, notes, from);
  if (!init.ok) return fail("initial conditions: " + init.message);
  keep_dependent_rows(sys_, st, state_, notes);
  note_unstable_index3(sys_, st, notes);
  integrator_ = make_integrator(sys_, st);
  stats_.integrator = integrator_->name();
  work_->rows.restart(integrator_.get());
  work_->energy.emplace(sys_);
  work_->energy->update(state_, stats_);
  t0_ = state_.t;
  // Fixed steps are end/n with n = round(end/step), at the target times t0 + end·k/n.
  n_ = fixed_step_count(st.end, st.step);
  h_ = st.end / static_cast<double>(n_);
  h_next_ = st.step;
  k_ = 0;
  ready_ = true;
  return true;
}

void Simulation::resume(const State& s, long k) {
  if (!ready_ || adaptive() || k < 0)
    throw std::logic_error(
        "Simulation::resume: a started run of fixed steps resumes after k >= 0 "
        "of its steps");
  if (s.x_W.size() != state_.x_W.size() || s.v.size() != state_.v.size() ||
      s.lambda.size() != state_.lambda.size() || s.memory.size() != state_.memory.size())
    throw std::logic_error("Simulation::resume: the state is not one of this run's");
  state_ = s;
  k_ = k;
  integrator_ = make_integrator(sys_, settings_.solver);
  stats_.integrator = integrator_->name();
  work_->rows.restart(integrator_.get());
}

double Simulation::step_size() const { return adaptive() ? h_next_ : h_; }

double Simulation::default_stop() const {
  const double t_end = t0_ + settings_.solver.end;
  return state_.t < t_end - 1e-12 * settings_.solver.end ? t_end : INFINITY;
}

void Simulation::account(const StepResult& r) {
  stats_.newton_iterations += r.iterations;
  stats_.factorizations += r.factorizations;
  stats_.position_iterations += r.position_iterations;
  stats_.velocity_iterations += r.velocity_iterations;
}

void Simulation::accepted(const StepResult& r, double h) {
  // A joint's reaction as a load (a bearing loss model) needs the multipliers of every row.
  if (sys_.memory_reads_reactions()) integrator_->complete_outputs(state_);
  sys_.update_memory(state_);
  stats_.plastic_impacts += r.plastic_impacts;
  stats_.last_iterations = r.iterations;
  stats_.last_step = h;
}

// Advances by h, splitting the step in halves (down to h/2^kMaxSplits) when Newton fails.
bool Simulation::advance_fixed(double h, int depth, std::string& why) {
  const StepResult r = integrator_->step(state_, h);
  account(r);
  if (r.converged) {
    accepted(r, h);
    return true;
  }
  ++stats_.rejected_steps;
  // The full step's diagnosis of a force too stiff for h (integrators end their message with
  // it): the last half may fail for what the halves before it inherited, where no such force
  // acts any more (Flores' slider-crank with K = 1e17 at h = 2e-4 s in the sanitizer build: the
  // full step names the contact at ω h = 4.2e4, the last half of 2e-7 s only a residual).
  const std::size_t stiff = r.message.find(System::kStiffestForce);
  if (depth == 0) full_step_stiffness_ = stiff == std::string::npos ? "" : r.message.substr(stiff);
  if (depth >= kMaxSplits) {
    why = r.message;
    if (stiff == std::string::npos && !full_step_stiffness_.empty()) {
      std::ostringstream os;
      os.precision(6);
      os << "; at the full step of " << h * (1 << kMaxSplits) << " s, the " << full_step_stiffness_;
      why += os.str();
    }
    return false;
  }
  return advance_fixed(0.5 * h, depth + 1, why) && advance_fixed(0.5 * h, depth + 1, why);
}

// Attempts steps until one is accepted: rejected when Newton fails (h/4) or the local error is
// above its tolerance (h scaled by 0.9 err^(−1/(order+1)), at least 0.2). The next attempt grows
// by the same rule, at most twice.
bool Simulation::advance_adaptive(double t_stop) {
  const SolverSettings& st = settings_.solver;
  const double h_max = st.max_step > 0.0 ? st.max_step : st.end;
  const double exponent = 1.0 / (integrator_->order() + 1);  // local error ∝ h^(order+1)
  while (true) {
    const double h = std::min({h_next_, h_max, t_stop - state_.t});
    work_->backup = state_;
    const StepResult r = integrator_->step(state_, h);
    account(r);
    if (r.converged && r.error_estimate <= 1.0) {
      accepted(r, h);
      const double grow =
          r.error_estimate > 0.0 ? 0.9 * std::pow(1.0 / r.error_estimate, exponent) : 2.0;
      h_next_ = h * std::clamp(grow, 0.2, 2.0);
      return true;
    }
    ++stats_.rejected_steps;
    if (r.converged) state_ = work_->backup;  // error too large: undo
    h_next_ =
        h * (r.converged ? std::max(0.2, 0.9 * std::pow(1.0 / r.error_estimate, exponent)) : 0.25);
    if (h_next_ < st.min_step)
      return fail(r.converged ? "step size fell below min_step at t = " + std::to_string(state_.t)
                              : r.message + "; step size fell below min_step");
  }
}

bool Simulation::next_step(double t_stop, StepObserver* observer) {
  if (!ready_) {  // keeps the message of the failure that ended it
    if (stats_.message.empty()) stats_.message = "the simulation is not initialized";
    stats_.ok = false;
    return false;
  }
  work_->contacts.remember(state_);
  if (adaptive()) {
    if (!advance_adaptive(t_stop)) return false;
  } else {
    // The target times t0 + end·k/n, so that every caller takes bit-identical steps.
    const double target =
        t0_ + settings_.solver.end * static_cast<double>(k_ + 1) / static_cast<double>(n_);
    std::string why;
    if (!advance_fixed(target - state_.t, 0, why)) return fail(why);
  }
  ++k_;
  ++stats_.steps;
  return watch(observer);
}

bool Simulation::watch(StepObserver* observer) {
  if (k_ % 32 == 0) stats_.integrator = integrator_->name();  // it may change coordinates
  work_->contacts.count(state_, stats_);
  work_->energy->update(state_, stats_);
  work_->plausibility.after_step(state_, stats_);
  if (observer) observer->on_step(state_, stats_);
  if (!work_->rows.after_step(state_, settings_.solver.newton_tol, stats_)) {
    ready_ = false;
    return false;
  }
  return true;
}

bool Simulation::step() { return step_toward(default_stop()); }

bool Simulation::reached(double t) const {
  return adaptive() ? state_.t >= t - 1e-12 * settings_.solver.end : state_.t >= t - 0.5 * h_;
}

bool Simulation::step_toward(double t) {
  const auto start = Clock::now();
  const bool ok = next_step(t, nullptr);
  if (ok) integrator_->complete_outputs(state_);  // the caller reads the state after every step
  stats_.wall_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  return ok;
}

bool Simulation::run_to(double t, StepObserver* observer) {
  if (std::isnan(t)) throw std::invalid_argument("Simulation::run_to: the time is NaN");
  const auto start = Clock::now();
  const int every = std::max(1, settings_.output.every);
  if (observer && ready_ && !initial_output_) {
    emit_output(sys_, state_, stats_, *observer);
    initial_output_ = true;
  }
  bool ok = true, completed = true;
  while (ok && !reached(t)) {
    ok = next_step(t, observer);
    completed = false;
    if (!ok || !observer) continue;
    const bool output = k_ % every == 0 || reached(t);
    if ((output || !observer->keep_going()) && observer->reads_joint_reactions()) {
      integrator_->complete_outputs(state_);
      completed = true;
    }
    if (output) emit_output(sys_, state_, stats_, *observer);
    if (stop_asked(sys_, state_, output, stats_, *observer)) ok = false;
  }
  if (integrator_) {
    if (!completed) integrator_->complete_outputs(state_);  // for the caller
    stats_.integrator = integrator_->name();
  }
  stats_.wall_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  return ok;
}

}  // namespace cs
