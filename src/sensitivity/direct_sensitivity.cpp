#include "clearsim/sensitivity/direct_sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "clearsim/io/channels.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "clearsim/solvers/static_equilibrium.hpp"

namespace cs {

namespace {
// The parameter's models and their differences: perturbed_models.hpp.
constexpr int kModels = PerturbedModels::kModels;
// The tangent iteration stops when its last change of dv̇ is kTangentTol of dv̇, or stops
// shrinking below kStallFloor of it, and gives up after kMaxTangentIterations (the tangent is
// then NaN, with a warning).
constexpr double kTangentTol = 1e-12;
constexpr double kStallFloor = 1e-7;
constexpr int kMaxTangentIterations = 50;
// The memory's difference step, relative to its largest entry (at least 1: speeds in m/s).
constexpr double kMemoryStep = 1e-6;
// The memory update's state difference reaches at most these [m], [m/s] from the state.
constexpr double kMemoryReach[2] = {1e-9, 1e-6};
// One-sided differences of the memory update that differ by more than this share: a kink.
constexpr double kKinkTolerance = 1e-3;
// An iteration whose change shrinks by less than this per iteration is solved exactly instead.
constexpr double kSlowRate = 0.5;
// The exact R_X (written dense and factorized once per step, then one pass of its LU for every
// parameter's column) replaces the parameters' iterations from this many parameters on, and
// from one per this many unknowns n + m: its LU grows as (n + m)³, an iteration as (n + m)² per
// parameter. Measured on the slider–crank in body poses (33 unknowns, callgrind, 1000 steps):
// the iteration costs about 100 k instructions per parameter and step, the factorization about
// 100 k per step and each parameter's column about 10 k, so the factorization pays for itself
// from 100 / (100 − 10) parameters: 2 parameters iterating took 319 M instructions in all, 3
// solved exactly 309 M.
constexpr std::size_t kExactFromParameters = 2;
constexpr int kExactUnknownsPerParameter = 24;

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
}  // namespace

struct DirectSensitivity::Parameter : PerturbedModels {
  StateTangent d;  // dS/dp at the current state
};

std::string DirectSensitivity::unsupported(const System& sys, const RunSettings& run) {
  const SolverSettings& st = run.solver;
  if (st.analysis == Analysis::kKinematic) {
    if (sys.num_dofs() - sys.num_constraints() > 0)
      return "a kinematic analysis has sensitivities when every degree of freedom is driven: "
             "with free ones its positions follow the path taken (least kinetic energy), not the "
             "parameter alone";
    if (sys.num_gaps() > 0)
      return "the model has unilateral contacts: its kinematic analysis is not differentiated";
    return {};
  }
  if (st.analysis == Analysis::kStatic) {
    if (sys.num_gaps() > 0)
      return "the model has unilateral contacts: its static equilibrium is not differentiated";
    return {};
  }
  switch (st.integrator) {
    case IntegratorKind::kGeneralizedAlpha:
    case IntegratorKind::kNewmark:
    case IntegratorKind::kHht:
    case IntegratorKind::kTrapezoidal:
      break;
    case IntegratorKind::kNsga:
      if (sys.has_friction())
        return "NSGA's frictional impacts are not differentiated (friction at a rigid contact: "
               "set its friction coefficient to 0, or model the contact as compliant)";
      break;
    default:
      return "the explicit Runge-Kutta integrators have no sensitivities (use the "
             "generalized-alpha family)";
  }
  const bool nsga = st.integrator == IntegratorKind::kNsga;
  if (st.adaptive)
    return "sensitivities need fixed steps (solver.adaptive: false): adaptive step sizes "
           "depend on the parameter";
  if (st.coordinates == CoordinateChoice::kJoint)
    return "sensitivities are computed in body poses (solver.coordinates: absolute or auto)";
  if (!nsga && sys.num_gaps() > 0)
    return "the model has unilateral contacts: they need solver.integrator: nsga";
  return {};
}

RunSettings DirectSensitivity::adapted(RunSettings run, std::string& note) {
  if (run.solver.analysis == Analysis::kDynamic &&
      run.solver.coordinates == CoordinateChoice::kAuto) {
    run.solver.coordinates = CoordinateChoice::kAbsolute;
    note = "sensitivities: the run integrates in body poses (solver.coordinates: absolute)";
  }
  if (run.solver.analysis == Analysis::kDynamic && run.solver.integrator == IntegratorKind::kNsga &&
      run.solver.persistent_contacts) {
    // The smooth step's persistent-contact rows and their releases are not differentiated.
    run.solver.persistent_contacts = false;
    note += std::string(note.empty() ? "" : "; ") +
            "sensitivities: NSGA leaves every contact to its corrections "
            "(solver.persistent_contacts: false)";
  }
  return run;
}

DirectSensitivity::DirectSensitivity(const std::string& text, const std::string& name,
                                     const std::vector<Override>& overrides,
                                     const std::vector<std::string>& paths,
                                     const std::vector<std::string>& channels, const System& sys,
                                     const RunSettings& run)
    : sys_(sys),
      run_(run),
      p_(AlphaParameters::from_settings(run.solver)),
      paths_(paths),
      channels_(channels),
      step_(sys, run.solver, step_rows(run.solver)) {
  // The step ends in projections of q onto Φ = 0 and of v onto B v + Φ_t = 0 (NSGA's
  // corrections, with unilateral rows or without): the stabilized formulation.
  if (step_rows(run.solver) == StepRows::kVelocities && run.solver.analysis == Analysis::kDynamic) {
    // The smooth step's persistent-contact rows are not differentiated: a run that kept them
    // would get derivatives of another scheme, silently.
    if (run.solver.persistent_contacts && sys.num_gaps() > 0)
      throw std::logic_error("DirectSensitivity: NSGA settings not adapted (persistent contacts)");
    corrections_ = std::make_unique<CorrectionTangent>(sys, run.solver);
  }
  if (run.solver.formulation == ConstraintFormulation::kAli3p &&
      run.solver.analysis == Analysis::kDynamic && run.solver.integrator != IntegratorKind::kNsga)
    projections_ = std::make_unique<ProjectionTangent>(sys, run.solver);
  ParameterizedModel source =
      PerturbedModels::source(text, name, overrides, paths, "--sensitivity");
  for (const std::string& path : paths) {
    auto par = std::make_unique<Parameter>();
    par->load(source, path, "--sensitivity " + path, sys, channels);
    params_.push_back(std::move(par));
  }
  exact_ = solve_exactly_for(params_.size(), sys.num_dofs() + sys.num_constraints());
}

DirectSensitivity::~DirectSensitivity() = default;

bool DirectSensitivity::solve_exactly_for(std::size_t parameters, int unknowns) {
  const auto by_size = static_cast<std::size_t>((unknowns + kExactUnknownsPerParameter - 1) /
                                                kExactUnknownsPerParameter);
  return parameters >= std::max(kExactFromParameters, by_size);
}

const StateTangent& DirectSensitivity::tangent(std::size_t k) const { return params_.at(k)->d; }

void DirectSensitivity::warn(const std::string& message) {
  for (const std::string& w : warnings_)
    if (w == message) return;
  warnings_.push_back(message);
}

bool DirectSensitivity::start(const State& s0, std::string& why) {
  for (auto& par : params_)
    if (!par->initial_tangent(run_, s0, par->d, why)) return false;
  return true;
}

bool DirectSensitivity::iteration_impossible() const {
  // The step ends in projections (NSGA, stabilized, ali3p) or has no multipliers among its
  // unknowns (penalty): there is no matrix of the index-3 rows to iterate with.
  return corrections_ || projections_ || run_.solver.formulation == ConstraintFormulation::kPenalty;
}

VecX DirectSensitivity::constant_term(Parameter& par, const State& prev, const State& smooth) {
  // R_p, the residual differenced between the parameter's models at the nominal step, and the
  // forces' dependence on the memory of the step's start.
  VecX R_p = par.residual_derivative(step_, prev, smooth.t - prev.t, smooth.vdot, smooth.lambda);
  R_p += memory_term(prev, smooth, par.d.memory);
  if (!par.reach_note.empty()) {
    warn(par.reach_note);
    par.reach_note.clear();
  }
  return R_p;
}

DirectSensitivity::TangentOutcome DirectSensitivity::step_tangent(Parameter& par, const State& prev,
                                                                  const State& s,
                                                                  const State& smooth,
                                                                  Simulation& sim) {
  const VecX R_p = constant_term(par, prev, smooth);
  VecX dvdot = par.d.vdot, dlambda = par.d.lambda;
  StateTangent next = par.d;
  bool converged = iterate_tangent(par, p_.beta_prime(s.t - prev.t), R_p, dvdot, dlambda, sim);
  if (!converged) return TangentOutcome::kUnconverged;
  step_.step_tangent(par.d, dvdot, dlambda, next);  // R there is zero: not evaluated
  return finish_tangent(par, prev, s, next);
}

bool DirectSensitivity::step_tangents_exactly(const std::vector<Parameter*>& live,
                                              const State& prev, const State& s,
                                              const State& smooth,
                                              std::vector<TangentOutcome>& outcomes) {
  outcomes.assign(live.size(), TangentOutcome::kUnconverged);
  if (live.empty()) return true;
  if (!step_.factorize()) return false;
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const auto P = static_cast<Eigen::Index>(live.size());
  TangentColumns dS{MatX(n, P), MatX(n, P), MatX(n, P), MatX(n, P), MatX(m, P)}, ends;
  MatX R_P(n + m, P);
  for (Eigen::Index k = 0; k < P; ++k) {
    Parameter& par = *live[static_cast<std::size_t>(k)];
    dS.q.col(k) = par.d.q;
    dS.v.col(k) = par.d.v;
    dS.a.col(k) = par.d.a;
    dS.vdot.col(k) = par.d.vdot;
    dS.lambda.col(k) = par.d.lambda;
    R_P.col(k) = constant_term(par, prev, smooth);
  }
  step_.propagate(dS, R_P, ends);
  for (Eigen::Index k = 0; k < P; ++k) {
    Parameter& par = *live[static_cast<std::size_t>(k)];
    StateTangent next = par.d;
    next.q = ends.q.col(k);
    next.v = ends.v.col(k);
    next.a = ends.a.col(k);
    next.vdot = ends.vdot.col(k);
    next.lambda = ends.lambda.col(k);
    if (next.vdot.allFinite() && next.lambda.allFinite())
      outcomes[static_cast<std::size_t>(k)] = finish_tangent(par, prev, s, next);
  }
  return true;
}

DirectSensitivity::TangentOutcome DirectSensitivity::finish_tangent(Parameter& par,
                                                                    const State& prev,
                                                                    const State& s,
                                                                    StateTangent& next) {
  if (corrections_) corrections_->apply(par.d, next, par);
  if (projections_) projections_->apply(par.d, next, par);
  bool kink = false;
  next.memory = memory_tangent(par, prev, s, next, kink);
  par.d = next;
  if (kink) return TangentOutcome::kKink;
  return par.d.all_finite() ? TangentOutcome::kExact : TangentOutcome::kUnconverged;
}

bool DirectSensitivity::iterate_tangent(const Parameter& par, double beta_p, const VecX& R_p,
                                        VecX& dvdot, VecX& dlambda, Simulation& sim) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  StateTangent next = par.d;
  VecX dR, rhs(n + m);
  double last_change = INFINITY, first_change = 0.0;
  bool converged = false;
  for (int it = 0; it < kMaxTangentIterations && !converged; ++it) {
    step_.directional(par.d, dvdot, dlambda, next, dR);
    dR += R_p;  // R_X dX + R_S dS + R_p
    rhs.head(n) = -dR.head(n) / beta_p;
    rhs.tail(m) = -dR.tail(m);
    if (!sim.solve_step_matrix(rhs)) break;
    dvdot += beta_p * rhs.head(n);
    dlambda += beta_p * rhs.tail(m);
    const double change = beta_p * rhs.head(n).lpNorm<Eigen::Infinity>();
    // The scale includes the first change: a parameter that leaves the accelerations alone (a
    // mass in a driven mechanism) has dv̇ = 0 to round-off, which no relative test reaches.
    if (it == 0) first_change = change;
    const double scale = std::max(dvdot.lpNorm<Eigen::Infinity>(), first_change);
    // Converged, or stalled at the round-off of the residual's cancellations (M v̇ against Bᵀλ,
    // amplified by a small inertia's 1/J; 4e-11 relative on the A01 pendulum).
    const bool stalled = change >= 0.5 * last_change && change <= kStallFloor * scale;
    converged = change <= kTangentTol * scale || stalled;
    // The step's matrix leaves out too much for the iteration to contract (a stiff contact
    // under modified Newton's mass iteration: rate 0.99 at the Flores slider–crank's first
    // impact): the exact R_X, solved once.
    if (!converged && it >= 2 && change > kSlowRate * last_change) {
      converged = step_.solve_exactly(par.d, R_p, dvdot, dlambda);
      break;
    }
    last_change = change;
  }
  return converged;
}

VecX DirectSensitivity::memory_term(const State& prev, const State& s, const VecX& dm) const {
  // The step's forces read the memory of its start (a compliant contact's damping divides by
  // the approach speed it remembers from its onset): R's derivative along its tangent dm, by a
  // central difference of the residual at the converged step (the memory enters smoothly).
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const double size = dm.size() > 0 ? dm.lpNorm<Eigen::Infinity>() : 0.0;
  if (!(size > 0.0)) return VecX::Zero(n + m);
  const double t = kMemoryStep * std::max(1.0, prev.memory.lpNorm<Eigen::Infinity>()) / size;
  State ahead = prev, behind = prev, x = s;
  ahead.memory += t * dm;
  behind.memory -= t * dm;
  VecX r_ahead, r_behind;
  step_.residual(sys_, ahead, s.t - prev.t, s.vdot, s.lambda, x, r_ahead);
  step_.residual(sys_, behind, s.t - prev.t, s.vdot, s.lambda, x, r_behind);
  return (r_ahead - r_behind) / (2.0 * t);
}

VecX DirectSensitivity::memory_tangent(const Parameter& par, const State& prev, const State& s,
                                       const StateTangent& next, bool& kink) const {
  // The memory the run loop keeps after the step (a contact's onset speed, a bristle's anchor)
  // is a function of the new state, the old memory (s holds the memory already updated: an
  // onset would not be seen again) and the parameter.
  if (par.d.memory.size() == 0) return par.d.memory;
  State start = s;
  start.memory = prev.memory;
  StateTangent along = next;
  along.memory = par.d.memory;
  // Its state part by a central difference of the nominal update along the tangent, over a
  // displacement of at most 1e-9 m and 1e-6 m/s: a contact that has just closed by a few µm
  // must not open in a displaced state (at ±1e-3 of the parameter's tangent it did, at the
  // Flores slider–crank's grazing onsets, and the remembered speed jumped to zero).
  const double reach = std::max({along.q.lpNorm<Eigen::Infinity>() / kMemoryReach[0],
                                 along.v.lpNorm<Eigen::Infinity>() / kMemoryReach[1],
                                 along.memory.lpNorm<Eigen::Infinity>() / kMemoryReach[1]});
  VecX dm = VecX::Zero(prev.memory.size());
  if (reach > 0.0) {
    State ahead = displaced(start, along, 1.0 / reach);
    State behind = displaced(start, along, -1.0 / reach);
    State here = start;
    sys_.update_memory(ahead);
    sys_.update_memory(behind);
    sys_.update_memory(here);
    // Where the update has a kink (a contact closing at the floor of the approach speeds it
    // remembers, a grazing onset) its one-sided differences disagree: no derivative exists.
    const VecX forward = reach * (ahead.memory - here.memory);
    const VecX backward = reach * (here.memory - behind.memory);
    if ((forward - backward).lpNorm<Eigen::Infinity>() >
        kKinkTolerance *
            std::max(forward.lpNorm<Eigen::Infinity>(), backward.lpNorm<Eigen::Infinity>())) {
      kink = true;
      return VecX::Constant(prev.memory.size(), NAN);
    }
    dm = 0.5 * (forward + backward);
  }
  // Its parameter part: the parameter's models at the nominal state.
  VecX mem[kModels];
  for (int k = 0; k < kModels; ++k) {
    State xk = start;
    par.sys[k]->update_memory(xk);
    mem[k] = xk.memory;
  }
  return dm + par.richardson(VecX((mem[0] - mem[1]) / (2.0 * par.eps[0])),
                             VecX((mem[2] - mem[3]) / (2.0 * par.eps[1])));
}

void DirectSensitivity::step(const State& prev, const State& s, Simulation& sim, bool split) {
  if (split && !broken_) {
    std::ostringstream os;
    os << "the step ending at t = " << s.t
       << " s was split (Newton failed at full size); sensitivities are NaN from there";
    warn(os.str());
    broken_ = true;
  }
  std::string why;
  if (!broken_ && projections_ && !projections_->linearize(prev, s, smooth_, why)) {
    warn("no derivative from t = " + number(s.t) + " s: " + why + "; NaN from there");
    broken_ = true;
  }
  const State& smooth = projections_ ? smooth_ : s;
  if (!broken_) step_.linearize(prev, smooth);
  if (!broken_ && corrections_) {
    // The smooth end (q̃, ṽ) the corrections started from: the step's formulas at its v̇.
    State start_of_corrections = s;
    VecX r;
    step_.residual(sys_, prev, s.t - prev.t, s.vdot, s.lambda, start_of_corrections, r);
    if (!corrections_->linearize(prev, start_of_corrections, why)) {
      warn("no derivative from t = " + number(s.t) + " s: " + why + "; NaN from there");
      broken_ = true;
    }
  }
  std::vector<Parameter*> live;
  for (auto& par : params_) {
    if (broken_)
      par->d.fill_nan();
    else if (par->d.all_finite())
      live.push_back(par.get());
  }
  // One LU of the exact R_X for every parameter (or the only way); each parameter iterating
  // with the run's step matrix otherwise, or when R_X is singular.
  std::vector<TangentOutcome> outcomes;
  const bool exactly = exact_ || iteration_impossible();
  if (!exactly ||
      (!step_tangents_exactly(live, prev, s, smooth, outcomes) && !iteration_impossible())) {
    outcomes.clear();
    for (Parameter* par : live) outcomes.push_back(step_tangent(*par, prev, s, smooth, sim));
  }
  for (std::size_t k = 0; k < live.size(); ++k) {
    Parameter* par = live[k];
    const TangentOutcome outcome = outcomes[k];
    if (outcome == TangentOutcome::kExact) continue;
    std::ostringstream os;
    os << "--sensitivity " << par->path << ": ";
    if (outcome == TangentOutcome::kKink) {
      os << "no derivative at t = " << s.t
         << " s: an element's remembered state (a contact's approach speed at a grazing "
            "onset, at the floor min_approach_speed) has a kink there; NaN from there";
    } else {
      os << "the tangent of the step ending at t = " << s.t
         << " s did not converge; NaN from there";
    }
    warn(os.str());
    par->d.fill_nan();
  }
}

std::vector<std::string> DirectSensitivity::column_names() const {
  std::vector<std::string> names;
  for (const auto& par : params_)
    for (const std::string& c : channels_) names.push_back("d(" + c + ")/d(" + par->path + ")");
  return names;
}

void DirectSensitivity::channel_derivatives(const State& s, const RunStats& stats,
                                            std::vector<double>& out) const {
  for (const auto& par : params_) {
    if (!par->d.all_finite()) {
      // No derivative (warned): every channel's is NaN, counters and states included.
      out.insert(out.end(), channels_.size(), NAN);
      continue;
    }
    std::vector<double> v[kModels];
    for (int k = 0; k < kModels; ++k)
      par->ch[k]->evaluate(displaced(s, par->d, (k % 2 == 0 ? 1.0 : -1.0) * par->eps[k / 2]), stats,
                           v[k]);
    for (std::size_t c = 0; c < v[0].size(); ++c)
      out.push_back(par->richardson((v[0][c] - v[1][c]) / (2.0 * par->eps[0]),
                                    (v[2][c] - v[3][c]) / (2.0 * par->eps[1])));
  }
}

void DirectSensitivity::solved_point(const State& s) {
  if (run_.solver.analysis == Analysis::kStatic)
    equilibrium(s);
  else
    kinematic_point(s);
}

void DirectSensitivity::kinematic_point(const State& s) {
  LinearSystem ls;
  if (!kinematic_ready_) {
    // The perturbed systems drop the same redundant rows the nominal one did at its start.
    for (auto& par : params_)
      for (auto& ps : par->sys) {
        State x = initial_state(*ps, 0.0);
        std::vector<std::string> notes;
        make_consistent(*ps, x, run_.solver.newton_tol, notes);
      }
    kinematic_ready_ = true;
  }
  // Positions: Φ(q(p), t; p) = 0, so B dq/dp = −∂Φ/∂p (B square: every freedom driven).
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  std::vector<BodyKinematics> kin;
  sys_.gather(s, kin);
  MatX B = MatX::Zero(m, n);
  sys_.constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  const Eigen::FullPivLU<MatX> lu(B);
  for (auto& par : params_) {
    par->d = StateTangent::zero(s);
    VecX phi[kModels];
    for (int k = 0; k < kModels; ++k) {
      phi[k].resize(m);
      par->sys[k]->constraints(kin, s.t, &phi[k], MatrixSink(), nullptr, nullptr);
    }
    const VecX phi_p = par->richardson(VecX((phi[0] - phi[1]) / (2.0 * par->eps[0])),
                                       VecX((phi[2] - phi[3]) / (2.0 * par->eps[1])));
    bool ok = m == n && lu.isInvertible();
    if (ok) par->d.q = lu.solve(-phi_p);
    // Velocities and accelerations: each perturbed model's own, solved at the configuration
    // moved along dq/dp by its own parameter step (a local difference: a position re-solved
    // from scratch would carry the parameter's effect accumulated over t, ω t for a speed).
    State ends[kModels];
    for (int k = 0; k < kModels && ok; ++k) {
      const System& ps = *par->sys[k];
      StateTangent along = StateTangent::zero(s);
      along.q = par->d.q;
      ends[k] = displaced(s, along, (k % 2 == 0 ? 1.0 : -1.0) * par->eps[k / 2]);
      ends[k].v.setZero();
      ok = assemble_velocities(ps, ends[k], ls, /*use_prescribed=*/false).ok &&
           solve_accelerations(ps, ends[k], ls).ok;
    }
    if (!ok) {
      par->d.fill_nan();
      warn("no derivative at t = " + number(s.t) + " s: the kinematic analysis of " + par->path +
           "'s perturbed models has no solution there (a singular position?)");
      continue;
    }
    par->d = par->derivative(ends);
  }
}

void DirectSensitivity::equilibrium(const State& s) {
  MatX S;
  static_tangent(sys_, s, S);
  const Eigen::FullPivLU<MatX> lu(S);
  const int n = sys_.num_dofs();
  for (auto& par : params_) {
    par->d = StateTangent::zero(s);
    if (!lu.isInvertible()) {
      par->d.fill_nan();
      warn("no derivative at t = " + number(s.t) +
           " s: the equilibrium's stiffness matrix is "
           "singular");
      continue;
    }
    VecX r[kModels];
    for (int k = 0; k < kModels; ++k) static_residual(*par->sys[k], s, r[k]);
    const VecX r_p = par->richardson(VecX((r[0] - r[1]) / (2.0 * par->eps[0])),
                                     VecX((r[2] - r[3]) / (2.0 * par->eps[1])));
    const VecX dx = lu.solve(r_p);  // S dx/dp = ∂r/∂p at the solved equilibrium
    par->d.q = dx.head(n);
    par->d.lambda = dx.tail(dx.size() - n);
  }
}

namespace {
// Differentiates each point of a static or kinematic analysis as it is solved (the first output
// point of a kinematic analysis comes without a step), then hands it to the caller's observer.
class PointPropagation final : public StepObserver {
 public:
  PointPropagation(DirectSensitivity& sens, StepObserver& inner) : sens_(sens), inner_(inner) {}
  void on_output(const State& s, const RunStats& stats) override {
    differentiate(s);
    inner_.on_output(s, stats);
  }
  void on_step(const State& s, const RunStats& stats) override {
    differentiate(s);
    inner_.on_step(s, stats);
  }
  bool keep_going() const override { return inner_.keep_going(); }
  bool reads_joint_reactions() const override { return inner_.reads_joint_reactions(); }

 private:
  void differentiate(const State& s) {
    if (done_ && s.t == last_t_) return;
    sens_.solved_point(s);
    done_ = true;
    last_t_ = s.t;
  }

  DirectSensitivity& sens_;
  StepObserver& inner_;
  bool done_ = false;
  double last_t_ = 0.0;
};

// Propagates the sensitivities over each accepted step, then hands the step to the caller's
// observer.
class Propagation final : public StepObserver {
 public:
  Propagation(DirectSensitivity& sens, Simulation& sim, StepObserver& inner)
      : sens_(sens), sim_(sim), inner_(inner), prev_(sim.state()) {}
  void on_output(const State& s, const RunStats& stats) override { inner_.on_output(s, stats); }
  void on_step(const State& s, const RunStats& stats) override {
    sens_.step(prev_, s, sim_, stats.rejected_steps > rejected_);
    rejected_ = stats.rejected_steps;
    prev_ = s;
    inner_.on_step(s, stats);
  }
  bool keep_going() const override { return inner_.keep_going(); }
  bool reads_joint_reactions() const override { return inner_.reads_joint_reactions(); }

 private:
  DirectSensitivity& sens_;
  Simulation& sim_;
  StepObserver& inner_;
  State prev_;
  long rejected_ = 0;
};
}  // namespace

RunStats run_with_sensitivities(System& sys, const RunSettings& settings, DirectSensitivity& sens,
                                StepObserver& observer, State& s, std::vector<std::string>& notes) {
  if (settings.solver.analysis != Analysis::kDynamic) {
    PointPropagation propagation(sens, observer);
    return run_analysis(sys, settings, propagation, s, notes);
  }
  Simulation sim(sys, settings);
  if (sim.initialize(notes)) {
    std::string why;
    if (!sens.start(sim.state(), why)) {
      RunStats stats = sim.stats();
      stats.ok = false;
      stats.message = why;
      s = sim.state();
      return stats;
    }
    Propagation propagation(sens, sim, observer);
    sim.run_to(sim.state().t + settings.solver.end, &propagation);
  }
  s = sim.state();
  return sim.stats();
}

}  // namespace cs
