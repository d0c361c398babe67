#include "clearsim/solvers/nonsmooth_correction.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"

namespace cs {

namespace {
// A velocity below which a closing contact is "in contact" rather than "impacting" [m/s].
constexpr double kImpactSpeed = 1e-4;
// The velocity jump refactors when an iteration on a reused factorization reduces the residual
// by less than this factor (a fresh factorization costs about two such iterations).
constexpr double kRefactorRate = 0.1;
}  // namespace

NonsmoothCorrection::NonsmoothCorrection(const System& sys, double tol, int max_iterations,
                                         double restitution_threshold)
    : sys_(sys),
      own_space_(std::make_unique<BodyPoseSpace>(sys)),
      space_(*own_space_),
      tol_(tol),
      max_iterations_(max_iterations),
      restitution_threshold_(restitution_threshold),
      pos_(sys.model()),
      vel_(sys.model()) {
  size_workspace();
}

NonsmoothCorrection::NonsmoothCorrection(const System& sys, CorrectionSpace& space, double tol,
                                         int max_iterations, double restitution_threshold)
    : sys_(sys),
      space_(space),
      tol_(tol),
      max_iterations_(max_iterations),
      restitution_threshold_(restitution_threshold),
      pos_(sys.model()),
      vel_(sys.model()) {
  if (!space.body_poses() && sys.has_friction())
    throw std::invalid_argument("NSGA with friction runs in body poses only");
  size_workspace();
}

void NonsmoothCorrection::size_workspace() {
  const int n = space_.dofs(), m = space_.rows(), p = sys_.num_gaps();
  const int N = n + m + p;
  dense_ = !use_sparse(N, LinearSolverKind::kAuto);
  schur_ = dense_ && space_.body_poses();
  if (!schur_)
    for (Factorization* f : {&pos_, &vel_}) f->ls.resize(N, !dense_);
  rhs_.resize(N);
}

void NonsmoothCorrection::jacobians(const State& x) {
  space_.evaluate(x, &phi_, &phi_t_, &B_, &g_, &G_);
}

bool NonsmoothCorrection::factor(Factorization& f, const std::vector<char>& active) {
  // [M Bᵀ −Gᵀ; B 0 0; G_A 0 0] with identity rows for the inactive gaps (ν_j = 0 or Λ_j = 0),
  // from the current B_ and G_.
  const int n = space_.dofs(), m = space_.rows(), p = sys_.num_gaps();
  f.active = active;
  if (schur_) {
    f.valid = f.schur.factor_gaps(B_, G_, active);
    return f.valid;
  }
  MatrixSink S = f.ls.begin();
  space_.mass(S);
  S.add_block(0, n, B_.transpose());
  S.add_block(n, 0, B_);
  S.add_block(0, n + m, -G_.transpose());
  for (int j = 0; j < p; ++j) {
    if (active[j]) {
      S.add_block(n + m + j, 0, G_.row(j));
    } else {
      S.add(n + m + j, n + m + j, 1.0);
    }
  }
  f.valid = f.ls.factorize();
  return f.valid;
}

void NonsmoothCorrection::momentum_residual(const VecX& x, const VecX& mu, const VecX& Lambda,
                                            bool all_zero) {
  const int n = space_.dofs();
  if (all_zero) {
    rhs_.head(n).setZero();
    return;
  }
  space_.mass_times(x, Mx_);
  rhs_.head(n) = -Mx_;
  rhs_.head(n).noalias() -= B_.transpose() * mu;
  rhs_.head(n).noalias() += G_.transpose() * Lambda;
}

bool NonsmoothCorrection::factor_or_report(Factorization& f, const char* what, double t,
                                           NonsmoothReport& rep) {
  if (factor(f, active_)) {
    ++rep.factorizations;
    last_ = &f;
    return true;
  }
  last_ = nullptr;
  rep.ok = false;
  rep.message = std::string("singular matrix in the ") + what + " at t = " + std::to_string(t) +
                closed_gaps(active_);
  return false;
}

void NonsmoothCorrection::solve(Factorization& f, VecX& rhs) {
  if (!schur_) {
    f.ls.solve(rhs);
    return;
  }
  f.schur.solve_gaps(rhs);
}

std::string NonsmoothCorrection::closed_gaps(const std::vector<char>& active) const {
  // "; closed contacts: wall (sphere_plane), ..." — a singular matrix means the closed contacts
  // and the joints constrain the same motion (a contact against a locked direction).
  std::string out;
  for (std::size_t j = 0; j < active.size(); ++j)
    if (active[j])
      out += (out.empty() ? "; closed contacts: " : ", ") + sys_.describe_gap(static_cast<int>(j));
  return out;
}

const LinearSystem* NonsmoothCorrection::last_factorization(
    const std::vector<char>** active) const {
  if (last_ == nullptr || schur_ || !dense_ || !last_->valid) return nullptr;
  *active = &last_->active;
  return &last_->ls;
}

NonsmoothReport NonsmoothCorrection::correct(const State& prev, State& x,
                                             const CorrectionHints& hints) {
  NonsmoothReport rep;
  last_ = nullptr;
  hints_ = schur_ ? hints : CorrectionHints{};
  hint_ = hints_.chord_active != nullptr ? hints_.chord : nullptr;
  hint_active_ = hints_.chord_active;
  chord_ = nullptr;
  const int p = sys_.num_gaps();
  if (x.nu.size() != p) x.resize_gaps(p);
  // Pre-impact normal velocity with the gradient at t_n: ġ⁻ = G(q_n) v_n, kept from the previous
  // step, or evaluated here (before the corrections evaluate the space at x).
  if (p > 0 && prev.gdot_N.size() == p) {
    gdot_pre_ = prev.gdot_N;
  } else if (p > 0) {
    MatX Gp;
    VecX gp;
    State at_prev = prev;
    space_.evaluate(at_prev, nullptr, nullptr, nullptr, &gp, &Gp);
    gdot_pre_ = Gp * space_.velocity(at_prev);
  } else {
    gdot_pre_.resize(0);
  }
  if (keep_record_) record_.smooth = x;
  // The first pass starts at the smooth prediction q̃; its gaps g(q̃) decide which contacts may
  // impact in this step.
  if (!positions(x, rep, true)) return rep;
  if (keep_record_) {
    record_.U = U_;
    record_.nu_B = nu_B_;
    record_.nu_N = nu_N_;
    record_.g = g_;
    record_.g_tilde = g_tilde_;
    record_.position_active = active_;
    record_.r_eff = r_eff_;
  }
  if (sys_.has_friction() && prev.sticking.size() == static_cast<std::size_t>(p)) {
    hold_sticking(prev, x);
    if (!positions(x, rep, false)) return rep;  // re-close to tolerance (the hold moves by O(h²))
  }
  if (velocities(prev, x, rep) && keep_record_) {
    record_.W = W_;
    record_.mu = mu_B_;
    record_.Lambda = Lambda_;
    record_.e_eff = e_eff_;
    record_.gdot_pre = gdot_pre_;
    record_.law = gdot_ + e_eff_.cwiseProduct(gdot_pre_);
    record_.candidate = candidate_;
    record_.jump_active = active_;
  }
  return rep;
}

bool NonsmoothCorrection::positions(State& x, NonsmoothReport& rep, bool first) {
  const int n = space_.dofs(), m = space_.rows(), p = sys_.num_gaps();
  bool based = false;  // base_ holds the configuration U is measured from
  U_.setZero(n);
  nu_B_.setZero(m);
  nu_N_.setZero(p);
  active_.assign(p, 0);
  previous_.assign(p, 2);
  double last = INFINITY;
  // The smooth step's rows at q̃ stand in for the first evaluation of the bilateral joints.
  bool shared = first && hints_.B != nullptr && hints_.phi != nullptr && m > 0 &&
                hints_.B->rows() == m && hints_.B->cols() == n;
  for (int it = 0;; ++it) {
    if (it == 0 && shared) {
      B_ = *hints_.B;
      phi_ = *hints_.phi;
      space_.evaluate(x, nullptr, nullptr, nullptr, &g_, &G_);
    } else {
      jacobians(x);
    }
    if (it == 0) {
      effective_masses();
      if (first) g_tilde_ = g_;
    }
    double worst = position_active_set(x);
    if (it > 0) worst = std::max(worst, momentum_misfit());
    // Semismooth convergence: small residual and an active set that did not change. At the
    // first iterate (ν = 0) a small residual alone suffices: the NCP residual of a gap within
    // tolerance of zero is r_j |g_j| (persistent contacts carried by the smooth step).
    const bool settled = it == 0 || active_ == previous_;
    if (worst <= tol_ && settled && it == 0 && shared) {
      // Done at q̃ itself: evaluate the joints there after all (the velocity jump needs Φ_t,
      // and the residual is checked on a fresh evaluation).
      shared = false;
      --it;
      continue;
    }
    if (worst <= tol_ && settled) {
      x.nu = nu_N_;
      rep.position_iterations += it;
      return true;
    }
    if (it >= max_iterations_ || !std::isfinite(worst)) {
      std::ostringstream os;
      os << "position correction did not converge at t = " << x.t << " s (residual " << worst
         << " after " << it << " iterations)";
      rep.ok = false;
      rep.message = os.str();
      return false;
    }
    previous_ = active_;
    if (!position_matrix(it, first, it >= 1 && worst > (dense_ ? 0.1 : 0.5) * last, x.t, rep))
      return false;
    last = worst;
    position_increment(it == 0);
    if (!based) base_ = x;  // x is still the configuration the call started from
    based = true;
    space_.integrate(base_, U_, x);
  }
}

double NonsmoothCorrection::momentum_misfit() {
  // The iteration satisfies M U + Bᵀν_B − Gᵀν_N = 0 with B and G of the previous iterate; at
  // the new one it is off by (ΔB)ᵀν, which Φ and g alone do not see. Left there, q is not the
  // M-orthogonal projection the equations define, but the end of so many Newton steps: a
  // difference of the last increment times the gap's curvature (1/c) — 4.5e-6 relative in the
  // position sensitivities of seed 000's first impact. Measured as the displacement it is
  // worth: in body poses per body r_t/m and r_r/J_max; in joint coordinates r_i over the least
  // body mass or principal inertia (a joint coordinate's own inertia is at least its child
  // body's, so this never understates it).
  const int n = space_.dofs();
  momentum_residual(U_, nu_B_, nu_N_, false);
  const Model& model = sys_.model();
  if (!space_.body_poses()) {
    double least = INFINITY;
    for (const Body& body : model.bodies)
      least = std::min({least, body.mass, body.inertia_B.diagonal().minCoeff()});
    return rhs_.head(n).lpNorm<Eigen::Infinity>() / least;
  }
  double worst = 0.0;
  for (int b = 0; b < n / 6; ++b) {
    const Body& body = model.bodies[static_cast<std::size_t>(b)];
    worst = std::max(worst, rhs_.segment<3>(6 * b).lpNorm<Eigen::Infinity>() / body.mass);
    worst = std::max(worst, rhs_.segment<3>(6 * b + 3).lpNorm<Eigen::Infinity>() /
                                body.inertia_B.diagonal().maxCoeff());
  }
  return worst;
}

double NonsmoothCorrection::position_active_set(const State& x) {
  // Active set by the max rule: ν_j − r_j g_j ≥ 0 (r_j > 0, so at ν = 0 it is g_j ≤ 0).
  // A persistent contact the smooth step carried with a compressive force (λ_N > 0) stays on
  // g_j = 0 like a bilateral joint of the stabilized formulation: the smooth step keeps it only
  // at velocity level, and the generalized-α position update would otherwise let it drift off
  // the wall (a ball at rest on a plane hovered 3e-8 m above it).
  const int m = space_.rows(), p = sys_.num_gaps();
  for (int j = 0; j < p; ++j) {
    const bool carried = x.lambda_N.size() == p && x.lambda_N(j) > 0.0;
    active_[j] = (carried || nu_N_(j) - r_eff_(j) * g_(j) >= 0.0) ? 1 : 0;
  }
  // The residual: Φ, and g_j (active) or its penetration (inactive).
  double worst = m > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
  for (int j = 0; j < p; ++j)
    worst = std::max(worst, active_[j] ? std::abs(g_(j)) : std::max(0.0, -g_(j)));
  return worst;
}

bool NonsmoothCorrection::position_matrix(int it, bool first, bool slow, double t,
                                          NonsmoothReport& rep) {
  // Small models refactor at the first iterate of every step (the Schur factorization is
  // cheap; an exact Jacobian at q̃ makes the first increment nearly the answer); large ones
  // reuse the factorization across steps while the active set holds. Either way the
  // residuals are exact, so reuse changes the convergence rate, not the solution.
  // The smooth step's mass-iteration factorization (same rows, at the predictor, a few 1e-7
  // away) serves as a chord for this step while its active set matches and it contracts.
  if (it == 0) {
    chord_ = (first && hint_ != nullptr && hint_active_ != nullptr && *hint_active_ == active_)
                 ? hint_
                 : nullptr;
  } else if (chord_ != nullptr && (slow || *hint_active_ != active_)) {
    chord_ = nullptr;
    pos_.valid = false;
  }
  if (chord_ == nullptr && (!pos_.valid || pos_.active != active_ || slow || (dense_ && it == 0)))
    return factor_or_report(pos_, "position correction", t, rep);
  return true;
}

void NonsmoothCorrection::position_increment(bool first_iterate) {
  // Residuals: M U + Bᵀν_B − Gᵀν_N (zero at the first iterate), Φ, and g_j (active) or ν_j
  // (inactive).
  const int n = space_.dofs(), m = space_.rows(), p = sys_.num_gaps();
  momentum_residual(U_, nu_B_, nu_N_, first_iterate);
  rhs_.segment(n, m) = -phi_;
  for (int j = 0; j < p; ++j) rhs_(n + m + j) = active_[j] ? -g_(j) : -nu_N_(j);
  if (chord_ != nullptr) {
    chord_->solve_gaps(rhs_);
  } else {
    solve(pos_, rhs_);
  }
  U_ += rhs_.head(n);
  nu_B_ += rhs_.segment(n, m);
  nu_N_ += rhs_.tail(p);
}

void NonsmoothCorrection::effective_masses() {
  // r_j = 1/(G_j M⁻¹ G_jᵀ), the effective mass of contact j, from the current G_.
  space_.inverse_mass_weights(G_, r_eff_);
  for (Eigen::Index j = 0; j < r_eff_.size(); ++j)
    r_eff_(j) = r_eff_(j) > 0.0 ? 1.0 / r_eff_(j) : 1.0;
}

bool NonsmoothCorrection::velocities(const State& prev, State& x, NonsmoothReport& rep) {
  // Φ_t, B and G at q_{n+1} are those the position correction ended with.
  VecX& v = space_.velocity(x);
  start_jump(x, v);
  JumpSolve js;
  // Small models start from the position correction's factorization of this step when its
  // active set is the same.
  js.f = dense_ && pos_.valid ? &pos_ : &vel_;
  // Outside body poses a factorization from an earlier step is no chord worth trying: the small
  // LU at this configuration costs less than the solve and residual it would save (in joint
  // coordinates the rows turn at v/c between steps: tried first, the stale LU needed a second
  // solve at nearly every step of the Flores example).
  js.stale = !schur_ && last_ == nullptr;
  // Or from the chord the position correction ended with.
  js.chord = chord_ != nullptr && *hint_active_ == active_ ? chord_ : nullptr;
  // The jump is solved 1000 times below newton_tol (plus round-off of the momenta): its error is
  // a velocity in any direction, and at newton_tol per step it random-walked the energy of a
  // sliding contact by 3e-6 over 50 000 steps (1e-7 now).
  space_.mass_times(v_smooth_, Mx_);
  js.vtol = 1e-3 * tol_ + 1e-14 * Mx_.lpNorm<Eigen::Infinity>();
  js.h = x.t - prev.t;
  for (int pass = 0;; ++pass) {
    if (!jump_pass(x, v, js, rep)) return false;
    // Newton's law applied at several contacts at once can create kinetic energy (a known
    // defect of kinematic restitution in multiple impacts): the rebound demanded at one contact
    // is forced through another that the jump holds closed. A pin struck at one end while the
    // other end closed, in seed 002's example, gained 0.24 J (a third of the mechanism's
    // energy) in one step that way, at any step size. Frictionless normal impulses may not do
    // positive work, W_c = ½ Λᵀ G (v⁺ + ṽ) ≤ 0; when several contacts take impulses and W_c is
    // positive beyond round-off, the jump is solved again with e = 0 (a plastic impact, an
    // M-orthogonal projection, which cannot create energy). Single impacts are left to Newton's
    // law as the seeds write it.
    if (pass > 0 || !plastic_would_be_safer()) break;
    for (int j = 0; j < static_cast<int>(active_.size()); ++j) {
      e_eff_(j) = 0.0;
      active_[j] = carried_[j] || (candidate_[j] && gdot_smooth_(j) < 0.0);
    }
    ++rep.plastic_impacts;
  }
  v = v_smooth_ + W_;
  x.v_jump = W_;
  x.lambda_jump = mu_B_;
  rep.velocity_iterations += js.solves;
  x.Lambda = Lambda_;
  if (sys_.has_friction()) {
    // The frictionless jump is the starting point of the frictional Newton iteration.
    State smooth = x;
    smooth.v = v_smooth_;
    const std::vector<char> candidate = candidate_;
    const VecX gdot_pre = gdot_pre_;
    if (!friction(smooth, x, candidate, gdot_pre, rep)) return false;
  }
  classify_contacts(x, v);
  return true;
}

void NonsmoothCorrection::start_jump(const State& x, const VecX& v) {
  const int p = sys_.num_gaps();
  const VecX& e = sys_.restitution();
  // Candidates: contacts the smooth motion closed, or that it carried (persistent contacts).
  // A carried contact ends the step with G v = 0 exactly (an equality, like its g = 0 in the
  // position correction): the smooth step held it only to its own, looser, tolerance, and a
  // leftover normal velocity would make it lose its persistent status next step.
  candidate_.assign(p, 0);
  active_.assign(p, 0);
  carried_.assign(p, 0);
  for (int j = 0; j < p; ++j) {
    carried_[j] = x.lambda_N.size() == p && x.lambda_N(j) > 0.0;
    candidate_[j] = g_tilde_(j) <= 0.0 || x.nu(j) > 0.0 || carried_[j];
  }
  v_smooth_ = v;
  gdot_.noalias() = G_ * v_smooth_;
  gdot_smooth_ = gdot_;
  // Restitution applies to impacts this step can resolve: an approach faster than the change of
  // normal velocity the smooth motion makes over one step (|G(q_{n+1})ṽ − ġ⁻| ≈ |a_N| h).
  // Slower approaches, and "pre-impact" velocities that are already separating, would bounce
  // back within the step; they close plastically (e = 0) and the contact becomes persistent.
  // Without this a pressed contact rattles numerically, ġ⁺ = −e ġ⁻ alternating in sign and
  // decaying only by e per step. The threshold vanishes with h, so the scheme still converges to
  // Newton's law; `restitution_threshold` in the solver settings fixes it instead.
  e_eff_.resize(p);
  if (keep_record_) record_.resolve_margin.resize(p);
  for (int j = 0; j < p; ++j) {
    const double threshold =
        restitution_threshold_ >= 0.0 ? restitution_threshold_ : std::abs(gdot_(j) - gdot_pre_(j));
    const bool resolved = restitution_threshold_ == 0.0 || -gdot_pre_(j) > threshold;
    e_eff_(j) = resolved ? e(j) : 0.0;
    if (keep_record_)
      record_.resolve_margin(j) =
          restitution_threshold_ == 0.0 ? INFINITY : -gdot_pre_(j) - threshold;
  }
  // Start with the candidates that approach.
  for (int j = 0; j < p; ++j)
    active_[j] = carried_[j] || (candidate_[j] && (gdot_(j) + e_eff_(j) * gdot_pre_(j) < 0.0));
}

bool NonsmoothCorrection::jump_pass(State& x, VecX& v, JumpSolve& js, NonsmoothReport& rep) {
  // Linear in (W, μ, Λ) for a given active set; solved by iterations on exact residuals with a
  // factorization reused while the active set is the same (refreshed when the iteration
  // stalls), then the active set is updated by the max rule.
  const int n = space_.dofs(), m = space_.rows(), p = sys_.num_gaps();
  W_.setZero(n);
  mu_B_.setZero(m);
  Lambda_.setZero(p);
  double last = INFINITY;
  const int solves_before = js.solves;
  for (int it = 0;; ++it) {
    v = v_smooth_ + W_;
    momentum_residual(W_, mu_B_, Lambda_, js.solves == solves_before);  // all zero before a solve
    rhs_.segment(n, m) = -phi_t_;
    rhs_.segment(n, m).noalias() -= B_ * v;
    gdot_.noalias() = G_ * v;
    for (int j = 0; j < p; ++j)
      rhs_(n + m + j) = active_[j] ? -(gdot_(j) + e_eff_(j) * gdot_pre_(j)) : -Lambda_(j);
    const double residual = rhs_.lpNorm<Eigen::Infinity>();
    if (residual <= js.vtol) {
      if (!update_jump_active_set(x, js.h)) return true;
      last = INFINITY;
      continue;
    }
    if (it >= 4 * max_iterations_ || !std::isfinite(residual)) {
      rep.ok = false;
      rep.message = "velocity jump did not converge at t = " + std::to_string(x.t);
      return false;
    }
    const bool slow = residual > kRefactorRate * last;
    if (js.chord != nullptr && (slow || *hint_active_ != active_)) js.chord = nullptr;
    if (js.chord == nullptr && (!js.f->valid || js.f->active != active_ || slow || js.stale)) {
      js.stale = false;
      js.f = &vel_;
      if (!factor_or_report(vel_, "velocity jump", x.t, rep)) return false;
    }
    last = residual;
    if (js.chord != nullptr) {
      js.chord->solve_gaps(rhs_);
    } else {
      solve(*js.f, rhs_);
    }
    ++js.solves;
    W_ += rhs_.head(n);
    mu_B_ += rhs_.segment(n, m);
    Lambda_ += rhs_.tail(p);
  }
}

bool NonsmoothCorrection::update_jump_active_set(const State& x, double h) {
  const int p = sys_.num_gaps();
  previous_ = active_;
  for (int j = 0; j < p; ++j) {
    // A carried contact may take an impulse of either sign (it only removes the normal velocity
    // the position correction's rotation of the normal left, ~v_slide·U/c), but the total normal
    // impulse of the step, λ_N h + Λ_N, must push: when it would pull (the other end of a pin
    // impacting, say) the contact leaves the carried set and obeys the ordinary complementarity
    // below.
    if (carried_[j] && x.lambda_N(j) * h + Lambda_(j) < 0.0) carried_[j] = 0;
    if (!candidate_[j] || carried_[j]) continue;
    const double law = gdot_(j) + e_eff_(j) * gdot_pre_(j);
    active_[j] = (Lambda_(j) - r_eff_(j) * law >= 0.0) && (Lambda_(j) > 0.0 || law < 0.0);
  }
  return active_ != previous_;
}

void NonsmoothCorrection::classify_contacts(State& x, const VecX& v) const {
  // Closed: the gap is at zero (to the correction's tolerance) or an impulse acted. g_ and G_
  // are those of q_{n+1}; G v_{n+1} is the next step's pre-impact normal velocity.
  const int p = sys_.num_gaps();
  const VecX& Lambda = x.Lambda;
  x.gdot_N.noalias() = G_ * v;
  for (int j = 0; j < p; ++j) {
    const bool carried = x.lambda_N.size() == p && x.lambda_N(j) > 0.0;
    const bool closed = g_(j) <= 10.0 * tol_ || x.nu(j) > 0.0 || Lambda(j) > 0.0 || carried;
    if (!closed) {
      x.contact[j] = ContactState::kOpen;
    } else if (Lambda(j) > 0.0 && gdot_pre_(j) < -kImpactSpeed) {
      x.contact[j] = ContactState::kImpact;
    } else {
      x.contact[j] = ContactState::kContact;
    }
  }
}

bool NonsmoothCorrection::plastic_would_be_safer() const {
  // After a converged frictionless jump: gdot_ = G v⁺, gdot_smooth_ = G ṽ, Λ_ the impulses.
  const int p = static_cast<int>(Lambda_.size());
  int impulses = 0;
  bool restitution = false;
  for (int j = 0; j < p; ++j) {
    if (Lambda_(j) == 0.0) continue;
    ++impulses;
    restitution = restitution || e_eff_(j) > 0.0;
  }
  if (impulses < 2 || !restitution) return false;
  const double work = 0.5 * Lambda_.dot(gdot_ + gdot_smooth_);
  // Round-off of Λᵀ G v is ~1e-16 of its terms; 1e-9 of the kinetic energy is far above it and
  // far below any energy a real rebound moves.
  VecX Mv;
  space_.mass_times(v_smooth_, Mv);
  return work > 1e-9 * 0.5 * v_smooth_.dot(Mv) + 1e-300;
}

void NonsmoothCorrection::hold_sticking(const State& prev, State& x) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const VecX& mu = sys_.friction();
  std::vector<int> hold;
  for (int j = 0; j < p; ++j)
    if (prev.sticking[j] && x.nu(j) > 0.0 && mu(j) > 0.0) hold.push_back(j);
  if (hold.empty()) return;
  // Displacement since t_n on the group, per body [x − x_n; log(R_nᵀ R)].
  VecX delta(n);
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    delta.segment<3>(6 * b) = x.x_W[b] - prev.x_W[b];
    delta.segment<3>(6 * b + 3) = so3::log(prev.R_WB[b].transpose() * x.R_WB[b]);
  }
  sys_.gather(x, kin_);
  MatX T = MatX::Zero(2 * p, n);
  sys_.tangential(kin_, x.t, MatrixSink(&T));
  std::vector<int> closed;
  for (int j = 0; j < p; ++j)
    if (x.nu(j) > 0.0) closed.push_back(j);
  const int nh = 2 * static_cast<int>(hold.size()), nc = static_cast<int>(closed.size());
  const int N = n + m + nc + nh;
  MatX S = MatX::Zero(N, N);
  sys_.mass(MatrixSink(&S));
  S.block(0, n, n, m) = B_.transpose();
  S.block(n, 0, m, n) = B_;
  VecX rhs = VecX::Zero(N);
  for (int k = 0; k < nc; ++k) {
    S.block(0, n + m + k, n, 1) = G_.row(closed[k]).transpose();
    S.block(n + m + k, 0, 1, n) = G_.row(closed[k]);
  }
  for (std::size_t k = 0; k < hold.size(); ++k) {
    const auto Tj = T.middleRows(2 * hold[k], 2);
    S.block(0, n + m + nc + 2 * k, n, 2) = Tj.transpose();
    S.block(n + m + nc + 2 * k, 0, 2, n) = Tj;
    rhs.segment<2>(n + m + nc + 2 * k) = -(Tj * delta);
  }
  Eigen::PartialPivLU<MatX> lu(S);
  const VecX sol = lu.solve(rhs);
  if (!sol.allFinite()) return;
  // Coulomb at position level: the tangential multiplier may not exceed μ ν_N.
  for (std::size_t k = 0; k < hold.size(); ++k) {
    const int j = hold[k];
    if (sol.segment<2>(n + m + nc + 2 * k).norm() > mu(j) * x.nu(j) * (1.0 + 1e-9)) return;
  }
  integrate_configuration(x, sol.head(n), x);
}

namespace {
// The frictional jump's iterate, as friction() assembles its Newton system from it.
struct FrictionIterate {
  const MatX &G, &T;
  const VecX &gdot, &vT, &LN, &LT, &gdot_pre;
  const std::vector<char>& candidate;
  int n, m, p;
};

// Contact j's normal row: r(G_j v + e ġ⁻_j) where the max rule closes it, else Λ_N,j.
void normal_rows(int j, const FrictionIterate& c, double r, double e, VecX& R, MatX& J) {
  const int rn = c.n + c.m + j;
  const double law = c.gdot(j) + e * c.gdot_pre(j);
  if (c.candidate[j] && c.LN(j) - r * law >= 0.0) {
    R(rn) = r * law;
    J.block(rn, 0, 1, c.n) = r * c.G.row(j);
  } else {
    R(rn) = c.LN(j);
    J(rn, rn) = 1.0;
  }
}

// Contact j's tangential rows, Λ_T − proj_{D(μΛ_N)}(Λ_T − r v_T) = 0: stick (v_T = 0) inside the
// disc, slip (Λ_T = μΛ_N τ) on its rim. True if it sticks with a pushing Λ_N.
bool coulomb_rows(int j, const FrictionIterate& c, double r, double mu, VecX& R, MatX& J) {
  const int n = c.n, rt = c.n + c.m + c.p + 2 * j;
  const Eigen::Vector2d lt = c.LT.segment<2>(2 * j);
  const Eigen::Vector2d z = lt - r * c.vT.segment<2>(2 * j);
  const double radius = mu * std::max(c.LN(j), 0.0);
  const double zn = z.norm();
  if (zn <= radius) {  // stick: v_T = 0
    R.segment<2>(rt) = r * c.vT.segment<2>(2 * j);
    J.block(rt, 0, 2, n) = r * c.T.middleRows(2 * j, 2);
  } else {  // slip: Λ_T = μΛ_N τ
    const Eigen::Vector2d tau = z / zn;
    const Eigen::Matrix2d P = (Eigen::Matrix2d::Identity() - tau * tau.transpose()) / zn;
    R.segment<2>(rt) = lt - radius * tau;
    J.block<2, 2>(rt, rt) = Eigen::Matrix2d::Identity() - radius * P;
    J.block(rt, 0, 2, n) = radius * P * r * c.T.middleRows(2 * j, 2);
    if (c.LN(j) > 0.0) J.block<2, 1>(rt, c.n + c.m + j) = -mu * tau;
  }
  return zn <= radius && c.LN(j) > 0.0;
}
}  // namespace

bool NonsmoothCorrection::friction(const State& x_smooth, State& x,
                                   const std::vector<char>& candidate, const VecX& gdot_pre,
                                   NonsmoothReport& rep) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const VecX& mu = sys_.friction();
  sys_.gather(x, kin_);
  MatX M = MatX::Zero(n, n), T = MatX::Zero(2 * p, n);
  sys_.mass(MatrixSink(&M));
  sys_.tangential(kin_, x.t, MatrixSink(&T));
  const MatX& B = B_;
  const MatX& G = G_;
  const VecX& vs = x_smooth.v;
  // Unknowns y = [W; μ; Λ_N; Λ_T], started from the frictionless solution.
  const int N = n + m + 3 * p;
  VecX y = VecX::Zero(N), R(N);
  y.head(n) = x.v - vs;
  y.segment(n + m, p) = x.Lambda;
  // μ of the frictionless solve is not kept; one Newton step recovers it (linear rows).
  MatX J(N, N);
  const double vscale = 1.0 + vs.lpNorm<Eigen::Infinity>();
  for (int it = 0; it < 4 * max_iterations_; ++it) {
    const VecX v = vs + y.head(n);
    const VecX LN = y.segment(n + m, p), LT = y.tail(2 * p);
    J.setZero();
    R.head(n) =
        M * y.head(n) + B.transpose() * y.segment(n, m) - G.transpose() * LN - T.transpose() * LT;
    J.block(0, 0, n, n) = M;
    J.block(0, n, n, m) = B.transpose();
    J.block(0, n + m, n, p) = -G.transpose();
    J.block(0, n + m + p, n, 2 * p) = -T.transpose();
    R.segment(n, m) = B * v + phi_t_;
    J.block(n, 0, m, n) = B;
    const VecX gdot = G * v;
    const VecX vT = T * v;
    const FrictionIterate c{G, T, gdot, vT, LN, LT, gdot_pre, candidate, n, m, p};
    for (int j = 0; j < p; ++j) {
      const double r = r_eff_(j);
      normal_rows(j, c, r, e_eff_(j), R, J);
      if (!candidate[j] || mu(j) <= 0.0) {
        const int rt = n + m + p + 2 * j;
        R.segment<2>(rt) = LT.segment<2>(2 * j);
        J.block<2, 2>(rt, rt).setIdentity();
        continue;
      }
      x.sticking[j] = coulomb_rows(j, c, r, mu(j), R, J);
    }
    Eigen::PartialPivLU<MatX> lu(J);
    const VecX dy = lu.solve(-R);
    if (!dy.allFinite()) break;
    y += dy;
    if (dy.head(n).lpNorm<Eigen::Infinity>() <= 1e-13 * vscale &&
        dy.tail(3 * p).lpNorm<Eigen::Infinity>() <=
            1e-13 * (1.0 + y.tail(3 * p).lpNorm<Eigen::Infinity>())) {
      x.v = vs + y.head(n);
      x.lambda_jump = y.segment(n, m);
      x.Lambda = y.segment(n + m, p);
      rep.velocity_iterations += it + 1;
      return true;
    }
  }
  rep.ok = false;
  rep.message = "frictional velocity jump did not converge at t = " + std::to_string(x.t);
  return false;
}

}  // namespace cs
