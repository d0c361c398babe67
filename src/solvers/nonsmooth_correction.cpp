#include "clearsim/solvers/nonsmooth_correction.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"

namespace cs {

namespace {
// A velocity below which a closing contact is "in contact" rather than "impacting" [m/s].
constexpr double kImpactSpeed = 1e-4;
}  // namespace

NonsmoothCorrection::NonsmoothCorrection(const System& sys, double tol, int max_iterations)
    : sys_(sys), tol_(tol), max_iterations_(max_iterations) {
  const int N = sys.num_dofs() + sys.num_constraints() + sys.num_gaps();
  for (Factorization* f : {&pos_, &vel_}) f->ls.resize(N, use_sparse(N, LinearSolverKind::kAuto));
}

void NonsmoothCorrection::jacobians(const std::vector<BodyKinematics>& kin, double t) {
  // One pass over the elements gives Φ, Φ_t, B and g, G together (a kernel computes all of
  // them at once, so separate passes would pay twice).
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  B_.setZero(m, n);
  G_.setZero(p, n);
  phi_.resize(m);
  phi_t_.resize(m);
  g_.resize(p);
  sys_.constraints(kin, t, &phi_, MatrixSink(&B_), &phi_t_, nullptr);
  if (p > 0) sys_.gaps(kin, t, &g_, MatrixSink(&G_));
}

bool NonsmoothCorrection::factor(Factorization& f, const std::vector<char>& active) {
  // [M Bᵀ −Gᵀ; B 0 0; G_A 0 0] with identity rows for the inactive gaps (ν_j = 0 or Λ_j = 0),
  // from the current B_ and G_.
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  MatrixSink S = f.ls.begin();
  sys_.mass(S);
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
  f.active = active;
  f.valid = f.ls.factorize();
  return f.valid;
}

NonsmoothReport NonsmoothCorrection::correct(const State& prev, State& x) {
  NonsmoothReport rep;
  const int p = sys_.num_gaps();
  // Gaps of the smooth prediction q̃ decide which contacts may impact in this step.
  sys_.gather(x, kin_);
  VecX g_tilde = VecX::Zero(p);
  if (p > 0) sys_.gaps(kin_, x.t, &g_tilde, MatrixSink());
  if (x.nu.size() != p) x.resize_gaps(p);
  if (!positions(x, rep)) return rep;
  if (sys_.has_friction() && prev.sticking.size() == static_cast<std::size_t>(p)) {
    hold_sticking(prev, x);
    if (!positions(x, rep)) return rep;  // re-close to tolerance (the hold moves by O(h²))
  }
  velocities(prev, x, g_tilde, rep);
  return rep;
}

bool NonsmoothCorrection::positions(State& x, NonsmoothReport& rep) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const State base = x;
  VecX U = VecX::Zero(n), nu_B = VecX::Zero(m), nu_N = VecX::Zero(p), rhs(n + m + p), MU(n);
  std::vector<char> active(p, 0), previous(p, 2);
  phi_.resize(m);
  g_.resize(p);
  double last = INFINITY;
  for (int it = 0;; ++it) {
    sys_.gather(x, kin_);
    jacobians(kin_, x.t);
    // Active set by the max rule: ν_j − r_j g_j ≥ 0 (r_j > 0, so at ν = 0 it is g_j ≤ 0).
    if (it == 0) effective_masses();
    for (int j = 0; j < p; ++j) active[j] = (nu_N(j) - r_eff_(j) * g_(j) >= 0.0) ? 1 : 0;
    double worst = m > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
    for (int j = 0; j < p; ++j)
      worst = std::max(worst, active[j] ? std::abs(g_(j)) : std::max(0.0, -g_(j)));
    // Semismooth convergence: small residual and an active set that did not change.
    const bool settled = it == 0
                             ? std::none_of(active.begin(), active.end(), [](char a) { return a; })
                             : active == previous;
    if (worst <= tol_ && settled) {
      x.nu = nu_N;
      rep.position_iterations = it;
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
    previous = active;
    // The factorization is reused across iterations and steps while the active set is the
    // same and the iteration contracts; the residuals below are exact, so this only changes
    // the convergence rate, not the solution.
    const bool slow = it >= 2 && worst > 0.5 * last;
    if (!pos_.valid || pos_.active != active || slow) {
      if (!factor(pos_, active)) {
        rep.ok = false;
        rep.message = "singular matrix in the position correction at t = " + std::to_string(x.t);
        return false;
      }
      ++rep.factorizations;
    }
    last = worst;
    // Residuals: M U + Bᵀν_B − Gᵀν_N, Φ, and g_j (active) or ν_j (inactive).
    sys_.mass_times(U, MU);
    rhs.head(n) = -(MU + B_.transpose() * nu_B - G_.transpose() * nu_N);
    rhs.segment(n, m) = -phi_;
    for (int j = 0; j < p; ++j) rhs(n + m + j) = active[j] ? -g_(j) : -nu_N(j);
    pos_.ls.solve(rhs);
    U += rhs.head(n);
    nu_B += rhs.segment(n, m);
    nu_N += rhs.tail(p);
    integrate_configuration(base, U, x);
  }
}

void NonsmoothCorrection::effective_masses() {
  // r_j = 1/(G_j M⁻¹ G_jᵀ), the effective mass of contact j, from the current G_.
  const int p = sys_.num_gaps();
  r_eff_.resize(p);
  const Model& model = sys_.model();
  if (inv_inertia_.size() != model.bodies.size()) {
    inv_inertia_.clear();
    for (const Body& b : model.bodies) inv_inertia_.push_back(b.inertia_B.inverse());
  }
  for (int j = 0; j < p; ++j) {
    double w = 0.0;
    for (int b = 0; b < model.num_bodies(); ++b) {
      w += G_.row(j).segment<3>(6 * b).squaredNorm() / model.bodies[b].mass;
      const Vec3 gr = G_.row(j).segment<3>(6 * b + 3).transpose();
      w += gr.dot(inv_inertia_[b] * gr);
    }
    r_eff_(j) = w > 0.0 ? 1.0 / w : 1.0;
  }
}

bool NonsmoothCorrection::velocities(const State& prev, State& x, const VecX& g_tilde,
                                     NonsmoothReport& rep) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const VecX& e = sys_.restitution();
  // Pre-impact normal velocity with the gradient at t_n: ġ⁻ = G(q_n) v_n.
  VecX gdot_pre = VecX::Zero(p);
  if (p > 0 && prev.gdot_N.size() == p) {
    gdot_pre = prev.gdot_N;  // G(q_n) v_n, kept from the previous step
  } else if (p > 0) {
    std::vector<BodyKinematics> kin_prev;
    sys_.gather(prev, kin_prev);
    MatX Gp = MatX::Zero(p, n);
    sys_.gaps(kin_prev, prev.t, nullptr, MatrixSink(&Gp));
    gdot_pre = Gp * prev.v;
  }
  sys_.gather(x, kin_);
  jacobians(kin_, x.t);  // Φ_t, B and G at q_{n+1}
  // Candidates: contacts the smooth motion closed. Start with those approaching.
  std::vector<char> candidate(p, 0), active(p, 0), previous;
  for (int j = 0; j < p; ++j) candidate[j] = g_tilde(j) <= 0.0 || x.nu(j) > 0.0;
  const VecX v_smooth = x.v;
  VecX gdot = G_ * v_smooth;
  for (int j = 0; j < p; ++j) active[j] = candidate[j] && (gdot(j) + e(j) * gdot_pre(j) < 0.0);
  // Linear in (W, μ, Λ) for a given active set; solved by iterations on exact residuals with a
  // factorization reused across steps while the active set is the same (refreshed when the
  // iteration stalls), then the active set is updated by the max rule.
  VecX W = VecX::Zero(n), mu_B = VecX::Zero(m), Lambda = VecX::Zero(p), rhs(n + m + p), MW(n);
  double last = INFINITY;
  int it = 0;
  for (;; ++it) {
    const VecX v = v_smooth + W;
    sys_.mass_times(W, MW);
    rhs.head(n) = -(MW + B_.transpose() * mu_B - G_.transpose() * Lambda);
    rhs.segment(n, m) = -(B_ * v + phi_t_);
    gdot = G_ * v;
    for (int j = 0; j < p; ++j)
      rhs(n + m + j) = active[j] ? -(gdot(j) + e(j) * gdot_pre(j)) : -Lambda(j);
    const double residual = rhs.lpNorm<Eigen::Infinity>();
    if (residual <= tol_ && it > 0) {
      previous = active;
      for (int j = 0; j < p; ++j) {
        if (!candidate[j]) continue;
        const double law = gdot(j) + e(j) * gdot_pre(j);
        active[j] = (Lambda(j) - r_eff_(j) * law >= 0.0) && (Lambda(j) > 0.0 || law < 0.0);
      }
      if (active == previous) break;
      last = INFINITY;
      continue;
    }
    if (it >= 4 * max_iterations_ || !std::isfinite(residual)) {
      rep.ok = false;
      rep.message = "velocity jump did not converge at t = " + std::to_string(x.t);
      return false;
    }
    const bool slow = residual > 0.25 * last;
    if (!vel_.valid || vel_.active != active || slow) {
      if (!factor(vel_, active)) {
        rep.ok = false;
        rep.message = "singular matrix in the velocity jump at t = " + std::to_string(x.t);
        return false;
      }
      ++rep.factorizations;
    }
    last = residual;
    vel_.ls.solve(rhs);
    W += rhs.head(n);
    mu_B += rhs.segment(n, m);
    Lambda += rhs.tail(p);
  }
  x.v = v_smooth + W;
  x.v_jump = W;
  rep.velocity_iterations = it + 1;
  x.Lambda = Lambda;
  if (sys_.has_friction()) {
    // The frictionless jump is the starting point of the frictional Newton iteration.
    State smooth = x;
    smooth.v = v_smooth;
    if (!friction(smooth, x, candidate, gdot_pre, rep)) return false;
    Lambda = x.Lambda;
  }
  // Closed: the gap is at zero (to the correction's tolerance) or an impulse acted. g_ and G_
  // are those of q_{n+1}; G v_{n+1} is the next step's pre-impact normal velocity.
  x.gdot_N = G_ * x.v;
  for (int j = 0; j < p; ++j) {
    const bool closed = g_(j) <= 10.0 * tol_ || x.nu(j) > 0.0 || Lambda(j) > 0.0;
    if (!closed) {
      x.contact[j] = ContactState::kOpen;
    } else if (Lambda(j) > 0.0 && gdot_pre(j) < -kImpactSpeed) {
      x.contact[j] = ContactState::kImpact;
    } else {
      x.contact[j] = ContactState::kContact;
    }
  }
  return true;
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

bool NonsmoothCorrection::friction(const State& x_smooth, State& x,
                                   const std::vector<char>& candidate, const VecX& gdot_pre,
                                   NonsmoothReport& rep) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const VecX& e = sys_.restitution();
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
    for (int j = 0; j < p; ++j) {
      const int rn = n + m + j, rt = n + m + p + 2 * j;
      const double r = r_eff_(j);
      const double law = gdot(j) + e(j) * gdot_pre(j);
      if (candidate[j] && LN(j) - r * law >= 0.0) {
        R(rn) = r * law;
        J.block(rn, 0, 1, n) = r * G.row(j);
      } else {
        R(rn) = LN(j);
        J(rn, rn) = 1.0;
      }
      const Eigen::Vector2d lt = LT.segment<2>(2 * j);
      if (!candidate[j] || mu(j) <= 0.0) {
        R.segment<2>(rt) = lt;
        J.block<2, 2>(rt, rt).setIdentity();
        continue;
      }
      const Eigen::Vector2d z = lt - r * vT.segment<2>(2 * j);
      const double radius = mu(j) * std::max(LN(j), 0.0);
      const double zn = z.norm();
      x.sticking[j] = zn <= radius && LN(j) > 0.0;
      if (zn <= radius) {  // stick: v_T = 0
        R.segment<2>(rt) = r * vT.segment<2>(2 * j);
        J.block(rt, 0, 2, n) = r * T.middleRows(2 * j, 2);
      } else {  // slip: Λ_T = μΛ_N τ
        const Eigen::Vector2d tau = z / zn;
        const Eigen::Matrix2d P = (Eigen::Matrix2d::Identity() - tau * tau.transpose()) / zn;
        R.segment<2>(rt) = lt - radius * tau;
        J.block<2, 2>(rt, rt) = Eigen::Matrix2d::Identity() - radius * P;
        J.block(rt, 0, 2, n) = radius * P * r * T.middleRows(2 * j, 2);
        if (LN(j) > 0.0) J.block<2, 1>(rt, n + m + j) = -mu(j) * tau;
      }
    }
    Eigen::PartialPivLU<MatX> lu(J);
    const VecX dy = lu.solve(-R);
    if (!dy.allFinite()) break;
    y += dy;
    if (dy.head(n).lpNorm<Eigen::Infinity>() <= 1e-13 * vscale &&
        dy.tail(3 * p).lpNorm<Eigen::Infinity>() <=
            1e-13 * (1.0 + y.tail(3 * p).lpNorm<Eigen::Infinity>())) {
      x.v = vs + y.head(n);
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
