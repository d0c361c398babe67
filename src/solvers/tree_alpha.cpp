#include "clearsim/solvers/tree_alpha.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/newton_stop.hpp"

namespace cs {

namespace {
// A factorization from an earlier step is refreshed at the current iterate when an iteration
// contracts slower than this (JᵀMJ moves with the configuration; GeneralizedAlpha's mass iteration
// uses the same bound for its moving rows).
constexpr double kRefresh = 1e-3;
// A fresh factorization that contracts slower than this fails the attempt (the driver splits).
constexpr double kSlowRate = 0.5;
// Joint coordinates pay a dense iteration matrix of their own size; beyond this many the sparse
// absolute coordinates are the faster choice.
constexpr int kMaxCoordinates = 200;

using newton_stop::kDivergenceGrowth;
using newton_stop::kDivergenceMotion;
using newton_stop::kNoiseBand;
using newton_stop::kStepErrorFraction;
}  // namespace

bool TreeAlpha::applies(const System& sys, const SolverSettings& st, std::string* why) {
  auto refuse = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (st.coordinates != CoordinateChoice::kAuto) return refuse("solver.coordinates: absolute");
  if (st.analysis != Analysis::kDynamic) return refuse("not a dynamic analysis");
  if (st.integrator == IntegratorKind::kNsga || st.integrator == IntegratorKind::kRk4 ||
      st.integrator == IntegratorKind::kDormandPrince)
    return refuse("the integrator is not of the generalized-α family");
  if (st.formulation != ConstraintFormulation::kIndex3 &&
      st.formulation != ConstraintFormulation::kStabilized)
    return refuse("the constraint formulation is ali3p or penalty");
  if (st.newton != NewtonMode::kModified) return refuse("newton: full");
  const std::optional<JointTree> tree = JointTree::build(sys, initial_state(sys), why);
  if (!tree) return false;
  if (tree->num_coordinates() > kMaxCoordinates)
    return refuse("more than " + std::to_string(kMaxCoordinates) + " joint coordinates");
  return true;
}

TreeAlpha::TreeAlpha(const System& sys, const SolverSettings& settings)
    : sys_(sys), settings_(settings), p_(AlphaParameters::from_settings(settings)) {
  kin_.resize(sys.model().num_bodies());
}

void TreeAlpha::start(State& s) {
  std::string why;
  if (!tree_ || s.tree_q.size() != tree_->num_coordinates()) {
    tree_ = JointTree::build(sys_, s, &why);
    if (!tree_) return;
    sys_.gather(s, kin_);
    s.tree_q.setZero(tree_->num_coordinates());
    tree_->rates(kin_, s.tree_qd);
    // q̈ from the reduced equations at the start: JᵀMJ q̈ = −Jᵀ(M J̇q̇ − f).
    evaluate(s.t, s.tree_q, s.tree_qd, VecX::Zero(tree_->num_coordinates()));
    blocks_.assign(sys_.model().num_bodies(), Mat6::Zero());
    sys_.mass(MatrixSink(&blocks_));
    tree_->project_blocks(kin_, blocks_, A_);
    s.tree_qdd = A_.ldlt().solve(-r_);
    s.tree_a = s.tree_qdd;
    factored_h_ = -1.0;
    hist_end_t_ = -INFINITY;
  }
}

void TreeAlpha::evaluate(double t, const VecX& q, const VecX& qd, const VecX& qdd) {
  tree_->kinematics(q, qd, kin_);
  tree_->accelerations(kin_, qd, qdd, vdot_);
  sys_.forces(kin_, t, f_, MatrixSink(), MatrixSink());
  y_.resize(vdot_.size());
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    const Body& body = sys_.model().bodies[b];
    y_.segment<3>(6 * b) = body.mass * vdot_.segment<3>(6 * b) - f_.segment<3>(6 * b);
    y_.segment<3>(6 * b + 3) =
        body.inertia_B * vdot_.segment<3>(6 * b + 3) - f_.segment<3>(6 * b + 3);
  }
  tree_->transpose_times(kin_, y_, r_);
}

bool TreeAlpha::factor(double t, double h) {
  const double beta_p = (1.0 - p_.alpha_m) / ((1.0 - p_.alpha_f) * h * h * p_.beta);
  const double gamma_p = p_.gamma / (h * p_.beta);
  // A = Jᵀ(M + (γ′/β′) C_t + (1/β′) K_t)J: the body-diagonal blocks through the tree's composite
  // blocks, the force tangents' couplings between two bodies (springs, dampers) through J.
  const int nb = sys_.model().num_bodies();
  tangents_.clear();
  sys_.forces(kin_, t, f_, MatrixSink(&tangents_, 0, 0, -1.0 / beta_p),
              MatrixSink(&tangents_, 0, 0, -gamma_p / beta_p));
  sys_.mass(MatrixSink(&tangents_));
  blocks_.assign(nb, Mat6::Zero());
  couplings_.clear();
  for (const auto& e : tangents_) {
    if (e.row() / 6 == e.col() / 6) {
      blocks_[e.row() / 6](e.row() % 6, e.col() % 6) += e.value();
    } else if (e.value() != 0.0) {
      couplings_.push_back(e);
    }
  }
  tree_->project_blocks(kin_, blocks_, A_);
  if (!couplings_.empty()) {
    K_.resize(6 * nb, 6 * nb);
    K_.setFromTriplets(couplings_.begin(), couplings_.end());
    tree_->jacobian(kin_, J_);
    A_.noalias() += J_.transpose() * (K_ * J_);
  }
  lu_.compute(A_);
  if (!(std::abs(lu_.determinant()) > 0.0) || !lu_.matrixLU().allFinite()) return false;
  factored_h_ = h;
  return true;
}

StepResult TreeAlpha::step(State& s, double h) {
  StepResult res;
  start(s);
  if (!tree_) {
    res.message = "the joint-coordinate tree could not be built";
    return res;
  }
  const int n = tree_->num_coordinates();
  const double am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma;
  const double beta_p = (1.0 - am) / ((1.0 - af) * h * h * beta);
  const double gamma_p = gamma / (h * beta);
  const double t = s.t + h;
  // The Newton stop of GeneralizedAlpha's modified Newton (generalized_alpha.cpp, smooth_solve),
  // in joint coordinates: κ h²|β − 1/6|‖a_{n+1} − a_n‖∞, capped by newton_tol, bounded by the
  // accelerations, floored at round-off.
  const double err_c = kStepErrorFraction * h * h * std::abs(beta - 1.0 / 6.0);
  const double roundoff = std::max(
      newton_stop::roundoff(s), newton_stop::kRoundoffFloor * s.tree_q.lpNorm<Eigen::Infinity>());
  const double newton_tol = alpha_newton_cap(settings_, roundoff);
  const double tol_floor = std::min(newton_tol, roundoff);
  const bool step_stop = settings_.newton_step_error_stop;
  auto step_tol = [&]() {
    const double est = err_c * (a_ - s.tree_a).lpNorm<Eigen::Infinity>();
    const double pos =
        std::isfinite(est) && step_stop ? std::clamp(est, tol_floor, newton_tol) : newton_tol;
    return step_stop ? newton_stop::accel_bound(qdd_, beta_p, tol_floor, pos) : pos;
  };

  // Predictor: q̈ extrapolated from the last step when it ended here, else held.
  qdd_ = s.tree_qdd;
  if (s.t == hist_end_t_ && qdd_hist_.size() == n) qdd_ += (h / hist_h_) * (s.tree_qdd - qdd_hist_);
  a_ = ((1.0 - af) * qdd_ + af * s.tree_qdd - am * s.tree_a) / (1.0 - am);
  q_ = s.tree_q + h * s.tree_qd + h * h * (0.5 - beta) * s.tree_a + h * h * beta * a_;
  qd_ = s.tree_qd + h * (1.0 - gamma) * s.tree_a + h * gamma * a_;
  const double motion = std::max((q_ - s.tree_q).lpNorm<Eigen::Infinity>(), kNoiseBand * tol_floor);

  if (std::abs(factored_h_ - h) > 1e-9 * h) factored_h_ = -1.0;
  double last_dx = INFINITY, prev_dx = INFINITY;
  int fresh_at = -1;       // the iteration whose matrix was factorized at its iterate
  bool evaluated = false;  // kin_ and vdot_ belong to the final iterate
  for (int it = 0; it <= settings_.max_newton_iterations; ++it) {
    evaluate(t, q_, qd_, qdd_);
    if (!r_.allFinite()) break;
    const double tol = step_tol();
    if (it > 0 && last_dx <= tol) {
      res.converged = true;
      evaluated = true;
      break;
    }
    if (it == settings_.max_newton_iterations) break;
    const bool stale = fresh_at < 0;
    if (fresh_at >= 0 && it >= fresh_at + 2 && last_dx > kSlowRate * prev_dx &&
        last_dx > kNoiseBand * tol_floor) {
      res.message = "Newton contracts too slowly";
      break;
    }
    if (factored_h_ < 0.0 || (stale && it >= 1 && last_dx > kRefresh * prev_dx)) {
      if (!factor(t, h)) {
        res.message = "singular iteration matrix";
        break;
      }
      ++res.factorizations;
      fresh_at = it;
    }
    xi_ = lu_.solve(-r_ / beta_p);
    const double dx = xi_.lpNorm<Eigen::Infinity>();
    if (!std::isfinite(dx)) break;
    if (it >= 1 && dx > kDivergenceGrowth * last_dx && dx > kDivergenceMotion * motion) {
      // Diverging (see GeneralizedAlpha::smooth_solve): a stale matrix is refactorized here, a
      // fresh one fails the attempt.
      if (fresh_at != it) {
        factored_h_ = -1.0;
        res.iterations = it + 1;
        continue;
      }
      res.message = "Newton diverges";
      break;
    }
    prev_dx = last_dx;
    last_dx = dx;
    q_ += xi_;
    qd_ += gamma_p * xi_;
    qdd_ += beta_p * xi_;
    a_ += ((1.0 - af) / (1.0 - am)) * beta_p * xi_;
    res.iterations = it + 1;
    // Accept when the contraction rate ρ bounds the remaining error, ρ/(1 − ρ)·‖ξ‖ ≤ tol/10, or
    // the increment is at the round-off floor.
    const bool at_floor = it >= 1 && last_dx <= kNoiseBand * tol_floor && last_dx >= 0.5 * prev_dx;
    if (it >= 1 && (last_dx < prev_dx || at_floor)) {
      const double rho = last_dx < prev_dx ? last_dx / prev_dx : 0.0;
      if (at_floor || last_dx <= tol_floor || rho / (1.0 - rho) * last_dx <= 0.1 * step_tol()) {
        res.converged = true;
        break;
      }
    }
  }
  if (!res.converged) {
    factored_h_ = -1.0;
    if (res.message.empty()) res.message = "Newton did not converge";
    return res;
  }
  if (!evaluated) {
    tree_->kinematics(q_, qd_, kin_);
    tree_->accelerations(kin_, qd_, qdd_, vdot_);
  }
  if (settings_.adaptive) res.error_estimate = scaled_local_error(s, a_ - s.tree_a, h);
  qdd_hist_ = s.tree_qdd;
  hist_h_ = h;
  hist_end_t_ = t;
  s.tree_q = q_;
  s.tree_qd = qd_;
  s.tree_qdd = qdd_;
  s.tree_a = a_;
  write_state(t, s);
  return res;
}

void TreeAlpha::write_state(double t, State& s) const {
  s.t = t;
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    s.x_W[b] = kin_[b].x_W;
    s.R_WB[b] = kin_[b].R_WB;
    s.v.segment<3>(6 * b) = kin_[b].v_W;
    s.v.segment<3>(6 * b + 3) = kin_[b].w_B;
  }
  s.vdot = vdot_;
  s.a = vdot_;  // no pseudo-acceleration in body coordinates
}

double TreeAlpha::scaled_local_error(const State& x, const VecX& da, double h) {
  // The position error in joint coordinates, h²|β − 1/6|(a_{n+1} − a_n), moved to the bodies by
  // J and measured there as GeneralizedAlpha measures its own.
  tree_->jacobian(kin_, J_);
  scratch_.x_W.resize(kin_.size());
  for (std::size_t b = 0; b < kin_.size(); ++b) scratch_.x_W[b] = kin_[b].x_W;
  scratch_.a = J_ * da;
  zero_.a = VecX::Zero(scratch_.a.size());
  (void)x;
  return alpha_local_error(sys_, settings_, p_, zero_, scratch_, h);
}

void TreeAlpha::complete_outputs(State& s) {
  if (!tree_ || s.tree_q.size() != tree_->num_coordinates() || sys_.num_constraints() == 0) return;
  std::vector<BodyKinematics>& kin = kin_;
  sys_.gather(s, kin);
  sys_.forces(kin, s.t, f_, MatrixSink(), MatrixSink());
  tree_->reactions(sys_, kin, s.t, s.vdot, f_, s.lambda);
}

}  // namespace cs
