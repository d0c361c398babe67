#include "clearsim/solvers/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/static_equilibrium.hpp"
#include "clearsim/solvers/tree_alpha.hpp"

namespace cs {

namespace {
using Clock = std::chrono::steady_clock;

double constraint_violation(const System& sys, const State& s) {
  if (sys.num_constraints() == 0) return 0.0;
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX phi(sys.num_constraints());
  sys.constraints(kin, s.t, &phi, MatrixSink(), nullptr, nullptr);
  return phi.lpNorm<Eigen::Infinity>();
}

// Contact regime counters and the largest penetration after an accepted step. Holds its
// workspace so that counting allocates nothing in the stepping loop.
class ContactCounter {
 public:
  explicit ContactCounter(const System& sys) : sys_(sys) {}
  // The regimes before the step (for the onset count).
  void remember(const State& s) { before_ = s.contact; }
  void count(const State& after, RunStats& st) {
    const int p = sys_.num_gaps();
    if (p == 0) return;
    for (int j = 0; j < p; ++j) {
      switch (after.contact[j]) {
        case ContactState::kOpen:
          ++st.open_steps;
          break;
        case ContactState::kContact:
          ++st.contact_steps;
          break;
        case ContactState::kImpact:
          ++st.impact_steps;
          break;
      }
      if (before_[j] == ContactState::kOpen && after.contact[j] != ContactState::kOpen)
        ++st.contact_onsets;
    }
    sys_.gather(after, kin_);
    g_.resize(p);
    sys_.gaps(kin_, after.t, &g_, MatrixSink());
    st.max_penetration = std::max(st.max_penetration, -g_.minCoeff());
  }

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
// another set is kGain times better (docs/ARCHITECTURE.md, "Redundant constraints along the
// motion"). The hysteresis keeps the choice from flickering between sets of similar quality.
// A removed row that is violated anyway (models too large for the estimate, or a fall within
// one step) forces a new choice; only if none holds it does the run stop, with a message that
// says whether the start was singular or the mechanism is at a singular position now.
class RowWatch {
 public:
  RowWatch(System& sys, Integrator* integrator) : sys_(sys), integrator_(integrator) {}
  // For a new run with `integrator` (rows chosen afresh by make_consistent).
  void restart(Integrator* integrator) {
    integrator_ = integrator;
    best_ = 0.0;
    last_ = -1.0;
    interval_ = 1;
    countdown_ = 0;
  }
  // After an accepted step; false (stats.message set) if a removed row is violated and no
  // choice of rows holds it.
  bool after_step(State& s, double tol, RunStats& stats) {
    if (!sys_.has_removed_rows()) return true;
    sys_.gather(s, kin_);
    if (--countdown_ <= 0) watch(s, stats);
    return removed_rows_hold(s, tol, stats);
  }

 private:
  static constexpr double kDrop = 0.25;
  static constexpr double kGain = 2.0;

  static constexpr int kMaxInterval = 16;

  // Estimates the kept rows' conditioning (one QR of the m × n kept Jacobian, ≈ 8 µs CPU for
  // A04's 29 × 30, a quarter of its step) and re-chooses them if it has fallen. The next look is
  // halfway to the trigger along the current trend, at most kMaxInterval steps on: the
  // conditioning moves with the configuration, so it cannot jump between steps.
  void watch(State& s, RunStats& stats) {
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

  void rechosen(RunStats& stats) {
    ++stats.row_rechoices;
    if (integrator_ != nullptr) integrator_->rows_changed();
  }

  bool removed_rows_hold(State& s, double tol, RunStats& stats) {
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

  System& sys_;
  Integrator* integrator_;
  VecX kept_phi_;
  double best_ = 0.0;   // best conditioning of the kept rows since they were chosen
  double last_ = -1.0;  // conditioning at the last look (−1: none since the last choice)
  int interval_ = 1;    // steps between the last look and the next
  int countdown_ = 0;   // steps to the next look
  std::vector<BodyKinematics> kin_;
};

// Issue 14, item 10: a run whose mechanical energy grows without a source to explain it is said,
// once, while it goes (a 1e12 N/m spring at h = 1 ms with ρ∞ = 1 and full Newton grows from
// 0.5 J to 3e7 J by t = 2 s, exit 0). A warning and not a stop: the test below is a heuristic, and
// a time-varying load can feed energy legitimately; a run that actually diverges stops at its first
// non-finite value anyway.
//
// The growth G(t) = E(t) − min E over [0, t] of E = kinetic + potential energy (free of the
// potential's datum) is compared with the energy scale of the run's first half or more: the
// largest kinetic energy and growth up to t_ref, where t_ref is moved to t whenever t reaches
// 2 t_ref (so t_ref >= t/2). Physical growth is at most polynomial in t (a mechanism speeding
// up from rest: ×4 when t doubles); an unstable integration grows exponentially. The work of the
// sources, ∫ (Σ |λ_i ∂Φ_i/∂t| + Σ |P_load|) dt over the drivers' rows and the external loads
// (point_load, speed_torque: their power channel), an upper bound of the energy they put in, is
// added to the allowance twice (the end-point rule of the integral errs by O(h)), so that a
// driver or a load switched on after a rest is not mistaken for an instability.
class EnergyWatch {
 public:
  explicit EnergyWatch(const System& sys) : sys_(sys) {
    find_loads();
    find_drivers();
  }
  // After every accepted step (and at the start).
  void update(const State& s, RunStats& stats) {
    if (done_) return;
    // A mesh contact's potential energy costs a collision query, so the energy is looked at every
    // kEvery steps only: an exponential growth is seen a few steps later, no more. The sources'
    // power is sampled at the same looks, over the time since the last one (a rectangle rule on
    // a smooth power: the allowance below doubles the work for such quadrature errors).
    const double step = started_ ? s.t - t_step_ : 0.0;
    t_step_ = s.t;
    if (started_ && ++steps_ % kEvery != 0) return;
    const double h = started_ ? s.t - t_last_ : 0.0;  // since the last look
    t_last_ = s.t;
    sys_.gather(s, kin_);
    source_work_ += h * (driver_power(s) + load_power(s.t));
    const double ke = sys_.kinetic_energy(kin_);
    const double e = ke + sys_.potential_energy(kin_, s.t);
    if (!std::isfinite(e)) return;  // the output stops the run on a non-finite value
    if (!started_) {
      started_ = true;
      e_min_ = e, e_start_ = e, ke_start_ = ke, t_ref_ = s.t;
    }
    e_min_ = std::min(e_min_, e);
    const double growth = e - e_min_;
    // The reference moves to the scale of the looks before this one: a blow-up within the first
    // kEvery steps (RK4 on a 1e12 N/m spring at ω h = 3: ×2.3 per step) must not become its own
    // reference.
    if (s.t >= 2.0 * t_ref_) t_ref_ = s.t, reference_ = std::max(scale_, ke_start_);
    scale_ = std::max({scale_, ke, growth});
    const double allowed = kGrowth * std::max(reference_, kFloor) + 2.0 * source_work_;
    if (growth <= allowed) return;
    done_ = true;
    stats.warnings.push_back(message(s, step, e, growth));
  }

 private:
  static constexpr double kGrowth = 1e3;
  static constexpr long kEvery = 8;
  // [J] below this the scale is round-off of a model at rest, not an energy to compare with.
  static constexpr double kFloor = 1e-9;

  // The external loads and the index of their "power" channel (the power they deliver).
  void find_loads() {
    const auto& elements = sys_.model().elements;
    for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
      const std::string kind = elements[e]->kind();
      if (kind != "point_load" && kind != "speed_torque") continue;
      const std::vector<std::string> names = elements[e]->channel_names();
      const auto it = std::find(names.begin(), names.end(), "power");
      if (it != names.end()) loads_.emplace_back(e, static_cast<int>(it - names.begin()));
    }
  }

  double load_power(double t) const {
    double p = 0.0;
    for (const auto& [e, k] : loads_)
      p += std::abs(sys_.model().elements[e]->channel_value(k, sys_.input(e, t, kin_), nullptr));
    return p;
  }

  // Elements with rows that depend on time (Φ_t ≠ 0): the drivers (joint_driver.cpp is the one
  // element that sets Φ_t).
  void find_drivers() {
    const auto& elements = sys_.model().elements;
    for (int e = 0; e < static_cast<int>(elements.size()); ++e)
      if (elements[e]->num_constraints() > 0 && elements[e]->kind() == "driver")
        drivers_.push_back(e);
  }

  // Σ |λ_i Φ_t,i| over the drivers' rows, evaluated on their own (every step: the other rows
  // have no Φ_t, and evaluating them all cost as much as a Newton iteration).
  double driver_power(const State& s) {
    const int m = sys_.num_constraints();
    if (drivers_.empty() || s.lambda.size() != m) return 0.0;
    double p = 0.0;
    ConstraintBlock cb;
    cb.want_zeta = false;
    for (int e : drivers_) {
      const Element& el = *sys_.model().elements[e];
      cb.reset(el.num_constraints());
      el.constraint(sys_.input(e, s.t, kin_), cb);
      for (int r = 0; r < cb.m; ++r) {
        const int g = sys_.global_row(e, r);
        if (g >= 0) p += std::abs(s.lambda(g) * cb.phi_t(r));
      }
    }
    return p;
  }

  // The body with the most kinetic energy, whose stiffest force is the likely cause.
  int fastest_body() const {
    int best = 0;
    double most = -1.0;
    for (int b = 0; b < sys_.model().num_bodies(); ++b) {
      const Body& body = sys_.model().bodies[b];
      const double ke = 0.5 * body.mass * kin_[b].v_W.squaredNorm() +
                        0.5 * kin_[b].w_B.dot(body.inertia_B * kin_[b].w_B);
      if (ke > most) most = ke, best = b;
    }
    return best;
  }

  std::string message(const State& s, double h, double e, double growth) const {
    std::ostringstream os;
    os.precision(3);
    os << "at t = " << s.t << " s the mechanical energy has grown by " << growth << " J (from "
       << e_start_ << " J at the start to " << e << " J), more than " << kGrowth
       << " × its scale up to t = " << t_ref_ << " s (" << std::max(reference_, kFloor)
       << " J) plus twice the work of drivers and loads (" << source_work_
       << " J): the integration is probably unstable and the results wrong; ";
    if (sys_.model().num_bodies() == 0) return os.str();
    const int b = fastest_body();
    const std::string stiff = sys_.describe_stiffest_force(b, s, nullptr, h);
    if (stiff.empty())
      os << "body '" << sys_.model().bodies[b].name << "' moves fastest; reduce solver.step";
    else
      os << stiff;
    return os.str();
  }

  const System& sys_;
  std::vector<BodyKinematics> kin_;
  std::vector<int> drivers_;
  bool started_ = false, done_ = false;
  long steps_ = 0;
  double e_start_ = 0.0, ke_start_ = 0.0, e_min_ = 0.0, scale_ = 0.0, reference_ = 0.0;
  double t_ref_ = 0.0;
  double source_work_ = 0.0, t_last_ = 0.0, t_step_ = 0.0;
  std::vector<std::pair<int, int>> loads_;  // (element, its power channel)
};

// False (with a message) if a row removed as redundant has become violated.
void emit(const System& sys, const State& s, RunStats& stats, StepObserver& obs) {
  stats.max_constraint_violation =
      std::max(stats.max_constraint_violation, constraint_violation(sys, s));
  obs.on_output(s, stats);
}

// True (the run must stop) when the observer asks to stop after this accepted step. The state is
// output first unless it just was, so that the results end exactly where the run stopped.
bool stop_asked(const System& sys, const State& s, bool emitted, RunStats& stats,
                StepObserver& obs) {
  if (obs.keep_going()) return false;
  if (!emitted) emit(sys, s, stats, obs);
  std::ostringstream os;
  os << "interrupted at t = " << s.t << " s, after step " << stats.steps;
  stats.ok = false;
  stats.interrupted = true;
  stats.message = os.str();
  return true;
}

// A failed fixed step is split in halves down to h/2^kMaxSplits. Ten, not six: IFToMM A02
// (stabilized, ρ∞ = 1) built without -march=native meets a flat passage at t = 8.998 s that
// h/64 does not pass and the deeper halves do; a step that fails at every depth costs at most
// about kMaxSplits more attempts, so the bound only matters for steps that then succeed.
constexpr int kMaxSplits = 10;

// Advances by h, splitting the step in halves (down to h/2^kMaxSplits) when Newton fails.
bool advance(const System& sys, Integrator& ga, State& s, double h, int depth, RunStats& stats,
             std::string& why) {
  StepResult r = ga.step(s, h);
  stats.newton_iterations += r.iterations;
  stats.factorizations += r.factorizations;
  stats.position_iterations += r.position_iterations;
  stats.velocity_iterations += r.velocity_iterations;
  if (r.converged) {
    sys.update_memory(s);
    stats.plastic_impacts += r.plastic_impacts;
    stats.last_iterations = r.iterations;
    stats.last_step = h;
    return true;
  }
  ++stats.rejected_steps;
  if (depth >= kMaxSplits) {
    why = r.message;
    return false;
  }
  return advance(sys, ga, s, 0.5 * h, depth + 1, stats, why) &&
         advance(sys, ga, s, 0.5 * h, depth + 1, stats, why);
}

void run_fixed(System& sys, const SolverSettings& st, int every, Integrator& ga, State& s,
               RunStats& stats, StepObserver& obs) {
  const std::int64_t n = fixed_step_count(st.end, st.step);
  const double t0 = s.t;
  ContactCounter contacts(sys);
  RowWatch rows(sys, &ga);
  EnergyWatch energy(sys);
  energy.update(s, stats);
  std::string why;
  for (std::int64_t k = 1; k <= n; ++k) {
    const double target = t0 + st.end * static_cast<double>(k) / static_cast<double>(n);
    contacts.remember(s);
    if (!advance(sys, ga, s, target - s.t, 0, stats, why)) {
      stats.ok = false;
      stats.message = why;
      return;
    }
    ++stats.steps;
    contacts.count(s, stats);
    energy.update(s, stats);
    obs.on_step(s, stats);
    if (!rows.after_step(s, st.newton_tol, stats)) return;
    const bool output = k % every == 0 || k == n;
    if ((output || !obs.keep_going()) && obs.reads_joint_reactions()) ga.complete_outputs(s);
    if (output) emit(sys, s, stats, obs);
    if (stop_asked(sys, s, output, stats, obs)) return;
  }
}

void run_adaptive(System& sys, const SolverSettings& st, int every, Integrator& ga, State& s,
                  RunStats& stats, StepObserver& obs) {
  const double t_end = s.t + st.end;
  double h = st.step;
  const double h_max = st.max_step > 0.0 ? st.max_step : st.end;
  ContactCounter contacts(sys);
  RowWatch rows(sys, &ga);
  EnergyWatch energy(sys);
  energy.update(s, stats);
  // Local error ∝ h^(order+1).
  const double exponent = 1.0 / (ga.order() + 1);
  while (s.t < t_end - 1e-12 * st.end) {
    h = std::min({h, h_max, t_end - s.t});
    const State backup = s;
    contacts.remember(s);
    StepResult r = ga.step(s, h);
    stats.newton_iterations += r.iterations;
    stats.factorizations += r.factorizations;
    stats.position_iterations += r.position_iterations;
    stats.velocity_iterations += r.velocity_iterations;
    if (!r.converged || r.error_estimate > 1.0) {
      ++stats.rejected_steps;
      if (r.converged) s = backup;  // error too large: undo
      h *= r.converged ? std::max(0.2, 0.9 * std::pow(1.0 / r.error_estimate, exponent)) : 0.25;
      if (h < st.min_step) {
        stats.ok = false;
        stats.message = r.converged ? "step size fell below min_step at t = " + std::to_string(s.t)
                                    : r.message + "; step size fell below min_step";
        return;
      }
      continue;
    }
    sys.update_memory(s);
    stats.last_iterations = r.iterations;
    stats.last_step = h;
    stats.plastic_impacts += r.plastic_impacts;
    ++stats.steps;
    contacts.count(s, stats);
    energy.update(s, stats);
    obs.on_step(s, stats);
    if (!rows.after_step(s, st.newton_tol, stats)) return;
    const bool last = s.t >= t_end - 1e-12 * st.end;
    const bool output = stats.steps % every == 0 || last;
    if ((output || !obs.keep_going()) && obs.reads_joint_reactions()) ga.complete_outputs(s);
    if (output) emit(sys, s, stats, obs);
    if (stop_asked(sys, s, output, stats, obs)) return;
    const double grow =
        r.error_estimate > 0.0 ? 0.9 * std::pow(1.0 / r.error_estimate, exponent) : 2.0;
    h *= std::clamp(grow, 0.2, 2.0);
  }
}

void run_kinematic(System& sys, const SolverSettings& st, int every, State& s, RunStats& stats,
                   StepObserver& obs) {
  const std::int64_t n =
      st.kinematic_steps > 0 ? st.kinematic_steps : fixed_step_count(st.end, st.step);
  const double t0 = s.t;
  LinearSystem ls;
  RowWatch rows(sys, nullptr);
  for (std::int64_t k = 1; k <= n; ++k) {
    const double t = t0 + st.end * static_cast<double>(k) / static_cast<double>(n);
    const double dt = t - s.t;
    // Second-order prediction, then exact position, velocity and acceleration solves.
    const VecX dq = dt * s.v + 0.5 * dt * dt * s.vdot;
    State next = s;
    next.t = t;
    integrate_configuration(s, dq, next);
    SolveReport r = assemble_positions(sys, next, st.newton_tol, st.max_newton_iterations, ls);
    stats.newton_iterations += r.iterations;
    if (!r.ok) {
      stats.ok = false;
      stats.message = "kinematic analysis at t = " + std::to_string(t) + ": " + r.message;
      return;
    }
    next.v.setZero();
    SolveReport rv = assemble_velocities(sys, next, ls, /*use_prescribed=*/false);
    SolveReport ra = solve_accelerations(sys, next, ls);
    if (!rv.ok || !ra.ok) {
      stats.ok = false;
      stats.message =
          "kinematic analysis at t = " + std::to_string(t) + ": " + rv.message + ra.message;
      return;
    }
    s = next;
    ++stats.steps;
    stats.last_iterations = r.iterations;
    stats.last_step = dt;
    obs.on_step(s, stats);
    if (!rows.after_step(s, st.newton_tol, stats)) return;
    const bool output = k % every == 0 || k == n;
    if (output) emit(sys, s, stats, obs);
    if (stop_asked(sys, s, output, stats, obs)) return;
  }
}
}  // namespace

std::string incompatible_settings(const System& sys, const SolverSettings& st) {
  if (!step_count_ok(st.end, st.step)) {
    std::ostringstream os;
    os << "solver.end = " << st.end << " s in steps of solver.step = " << st.step
       << " s is not a run: expected both positive and finite, with at most " << kMaxStepCount
       << " steps";
    return os.str();
  }
  const bool explicit_rk =
      st.integrator == IntegratorKind::kRk4 || st.integrator == IntegratorKind::kDormandPrince;
  if (sys.num_gaps() > 0 && st.analysis == Analysis::kDynamic && explicit_rk) {
    return "the model has unilateral contacts (" + sys.describe_gap(0) +
           (sys.num_gaps() > 1 ? ", ..." : "") + "): the explicit integrator " +
           (st.integrator == IntegratorKind::kRk4 ? "rk4" : "dormand_prince") +
           " has no impact law or non-penetration condition; use solver.integrator: nsga";
  }
  if (sys.num_gaps() > 0 &&
      (st.analysis != Analysis::kDynamic || st.integrator != IntegratorKind::kNsga)) {
    return "the model has unilateral contacts (" + sys.describe_gap(0) +
           (sys.num_gaps() > 1 ? ", ..." : "") +
           "): they need a dynamic analysis with solver.integrator: nsga";
  }
  std::string why;
  if (st.analysis == Analysis::kDynamic && st.coordinates == CoordinateChoice::kJoint &&
      !TreeAlpha::applies(sys, st, &why))
    return "solver.coordinates: joint is not possible here: " + why +
           " (coordinates: auto chooses by itself)";
  return {};
}

namespace {
// ali3p and penalty put BᵀB in an n × n matrix that stays regular with dependent rows, so they
// take back the rows make_consistent removed as redundant: no kept set to watch or re-choose
// (the reason seed 004's authors prefer these formulations with redundant constraints).
void keep_dependent_rows(System& sys, const SolverSettings& st, State& s,
                         std::vector<std::string>& notes) {
  const bool penalty_family = st.formulation == ConstraintFormulation::kAli3p ||
                              st.formulation == ConstraintFormulation::kPenalty;
  if (st.analysis != Analysis::kDynamic || !penalty_family ||
      st.integrator == IntegratorKind::kNsga || st.integrator == IntegratorKind::kRk4 ||
      st.integrator == IntegratorKind::kDormandPrince)
    return;
  if (const int k = sys.restore_removed_rows(s); k > 0)
    notes.push_back(std::to_string(k) +
                    " redundant constraint row(s) are kept in the dynamic analysis: formulation " +
                    (st.formulation == ConstraintFormulation::kAli3p ? "ali3p" : "penalty") +
                    " needs no independent set of rows");
}
}  // namespace

RunStats run_analysis(System& sys, const RunSettings& settings, StepObserver& observer, State& s,
                      std::vector<std::string>& notes) {
  const auto start = Clock::now();
  RunStats stats;
  const SolverSettings& st = settings.solver;
  const int every = std::max(1, settings.output.every);
  if (const std::string why = incompatible_settings(sys, st); !why.empty()) {
    stats.ok = false;
    stats.message = why;
    return stats;
  }
  s = initial_state(sys, 0.0);
  SolveReport init = make_consistent(sys, s, st.newton_tol, notes);
  if (!init.ok) {
    stats.ok = false;
    stats.message = "initial conditions: " + init.message;
    return stats;
  }
  keep_dependent_rows(sys, st, s, notes);
  const int dof = sys.num_dofs() - sys.num_constraints();
  // (nsga, and any model with contacts, always runs the stabilized formulation.)
  if (st.analysis == Analysis::kDynamic && st.formulation == ConstraintFormulation::kIndex3 &&
      st.integrator != IntegratorKind::kNsga && sys.num_gaps() == 0 && sys.num_constraints() > 0) {
    const AlphaParameters p = AlphaParameters::from_settings(st);
    // Spectral radius of the algebraic mode is |α_m/(1 − α_m)|-like: without numerical
    // dissipation (α_m = α_f, γ = ½) index-3 multipliers grow (Cardona & Géradin 1989).
    if (std::abs(p.gamma - 0.5) < 1e-9) {
      notes.push_back(
          "index-3 constraints with a non-dissipative integrator (γ = ½, e.g. ρ∞ = 1 "
          "or trapezoidal) are unstable: the multipliers grow without bound. Use "
          "rho_inf < 1 or solver.formulation: stabilized");
    }
  }
  if (st.analysis == Analysis::kKinematic && dof > 0) {
    notes.push_back("the mechanism has " + std::to_string(dof) +
                    " degree(s) of freedom that no driver prescribes; the kinematic analysis "
                    "gives them the least kinetic energy (zero velocity where possible)");
  }
  if (st.analysis == Analysis::kStatic) {
    stats = run_static(sys, st, s, observer);
  } else {
    emit(sys, s, stats, observer);
    if (st.analysis == Analysis::kKinematic) {
      run_kinematic(sys, st, every, s, stats, observer);
    } else {
      const std::unique_ptr<Integrator> integrator = make_integrator(sys, st);
      stats.integrator = integrator->name();
      if (st.adaptive) {
        run_adaptive(sys, st, every, *integrator, s, stats, observer);
      } else {
        run_fixed(sys, st, every, *integrator, s, stats, observer);
      }
      stats.integrator = integrator->name();  // it may have changed coordinates on the way
    }
  }
  stats.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

// --- Simulation ------------------------------------------------------------------------------
struct Simulation::Workspace {
  explicit Workspace(System& sys) : contacts(sys), rows(sys, nullptr) {}
  ContactCounter contacts;
  RowWatch rows;
  std::optional<EnergyWatch> energy;  // made anew by each initialize()
};

Simulation::Simulation(System& sys, RunSettings settings)
    : sys_(sys), settings_(std::move(settings)), work_(std::make_unique<Workspace>(sys)) {}

Simulation::~Simulation() = default;

bool Simulation::initialize(std::vector<std::string>& notes) {
  const SolverSettings& st = settings_.solver;
  stats_ = RunStats{};
  ready_ = false;
  if (st.analysis != Analysis::kDynamic) {
    stats_.ok = false;
    stats_.message = "a Simulation steps a dynamic analysis (solver.analysis: dynamic)";
    return false;
  }
  if (const std::string why = incompatible_settings(sys_, st); !why.empty()) {
    stats_.ok = false;
    stats_.message = why;
    return false;
  }
  state_ = initial_state(sys_, 0.0);
  const SolveReport init = make_consistent(sys_, state_, st.newton_tol, notes);
  if (!init.ok) {
    stats_.ok = false;
    stats_.message = "initial conditions: " + init.message;
    return false;
  }
  keep_dependent_rows(sys_, st, state_, notes);
  integrator_ = make_integrator(sys_, st);
  stats_.integrator = integrator_->name();
  work_->rows.restart(integrator_.get());
  work_->energy.emplace(sys_);
  work_->energy->update(state_, stats_);
  t0_ = state_.t;
  // The step run_fixed takes: end/n with n = round(end/step), so that both give the same states.
  n_ = fixed_step_count(st.end, st.step);
  h_ = st.end / static_cast<double>(n_);
  k_ = 0;
  ready_ = true;
  return true;
}

bool Simulation::step() {
  if (!ready_) {
    if (stats_.message.empty()) stats_.message = "the simulation is not initialized";
    stats_.ok = false;
    return false;
  }
  const auto start = Clock::now();
  ContactCounter& contacts = work_->contacts;
  contacts.remember(state_);
  // The same target times as run_fixed (t0 + end·k/n), so both take bit-identical steps.
  const double target =
      t0_ + settings_.solver.end * static_cast<double>(k_ + 1) / static_cast<double>(n_);
  std::string why;
  const bool ok = advance(sys_, *integrator_, state_, target - state_.t, 0, stats_, why);
  stats_.wall_seconds += std::chrono::duration<double>(Clock::now() - start).count();
  if (!ok) {
    stats_.ok = false;
    stats_.message = why;
    ready_ = false;
    return false;
  }
  ++k_;
  ++stats_.steps;
  integrator_->complete_outputs(state_);  // the state is the caller's to read after every step
  if (k_ % 32 == 0) stats_.integrator = integrator_->name();
  contacts.count(state_, stats_);
  work_->energy->update(state_, stats_);
  if (!work_->rows.after_step(state_, settings_.solver.newton_tol, stats_)) {
    ready_ = false;
    return false;
  }
  return true;
}

bool Simulation::run_to(double t, StepObserver* observer) {
  const int every = std::max(1, settings_.output.every);
  if (observer && k_ == 0 && ready_) emit(sys_, state_, stats_, *observer);
  while (state_.t < t - 0.5 * h_) {
    if (!step()) return false;
    if (observer) {
      observer->on_step(state_, stats_);
      if (k_ % every == 0 || state_.t >= t - 0.5 * h_) emit(sys_, state_, stats_, *observer);
    }
  }
  return true;
}

}  // namespace cs
