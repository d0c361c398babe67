#include "clearsim/sensitivity/step_linearization.hpp"

#include <type_traits>
#include <vector>

#include "clearsim/math/so3.hpp"

namespace cs {

StepRows step_rows(const SolverSettings& s) {
  if (s.integrator == IntegratorKind::kNsga || s.formulation == ConstraintFormulation::kStabilized)
    return StepRows::kVelocities;
  if (s.formulation == ConstraintFormulation::kPenalty) return StepRows::kPenalty;
  return StepRows::kPositions;
}

StepLinearization::StepLinearization(const System& sys, const SolverSettings& settings,
                                     StepRows rows)
    : sys_(sys),
      settings_(with_usable_penalty(sys, settings)),
      p_(AlphaParameters::from_settings(settings)),
      rows_(rows) {}

PenaltyParameters StepLinearization::penalty_of(const System& sys) const {
  // α = 1e3·m̄ follows the model's largest mass; ω and μ are the settings' (PenaltyAlpha).
  return PenaltyParameters::at_step(sys, with_usable_penalty(sys, settings_), settings_.step);
}

namespace {
// ∂g/∂q (or ∂g/∂v with `velocities`) of rows g(x) at x, column by column by central
// differences on the group (x ⊕ ±σ e_j, ±2σ e_j) combined by Richardson (truncation O(σ⁴)):
// the penalty rows', as no element writes the derivatives of B v̇ or ζ in q and v (the velocity
// rows' come from the constraints' tangents: System::velocity_rows_tangent).
template <class Rows>
MatX rows_tangent(const State& x, int n, int m, bool velocities, double sigma, const Rows& rows) {
  MatX D(m, n);
  StateTangent e = StateTangent::zero(x);
  VecX& direction = velocities ? e.v : e.q;
  for (int j = 0; j < n; ++j) {
    direction.setZero();
    direction(j) = 1.0;
    const auto at = [&](double step) { return rows(displaced(x, e, step)); };
    const VecX c1 = (at(sigma) - at(-sigma)) / (2.0 * sigma);
    const VecX c2 = (at(2.0 * sigma) - at(-2.0 * sigma)) / (4.0 * sigma);
    D.col(j) = (4.0 * c1 - c2) / 3.0;
  }
  return D;
}

// The penalty rows carry ω²Φ and 2μωΦ̇ (ω = 1/h: 1e10 and 1e5 times the rows at h = 1e-5 s),
// whose round-off a small σ divides: measured on the slider–crank, the accelerations'
// derivative 7.8e-6 off at σ = 1e-6, 3e-8 at 1e-4 (q) and 1e-2 (v). Joint rows are linear or
// quadratic in positions and ζ quadratic in v, which Richardson's combination differentiates
// exactly at any σ; rotations of 1e-4 rad leave O(1e-16) of truncation.
constexpr double kPenaltyRowStep[2] = {1e-4, 1e-2};  // q [m or rad], v [m/s or rad/s]

// The penalty rows Φ̈ + 2μωΦ̇ + ω²Φ at y (λ = α times them; penalty_multipliers with α = 1).
VecX penalty_rows(const System& sys, const State& y, PenaltyParameters pen,
                  std::vector<BodyKinematics>& kin) {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  sys.gather(y, kin);
  VecX phi = VecX::Zero(m), phi_t = VecX::Zero(m), zeta = VecX::Zero(m), rows;
  MatX B = MatX::Zero(m, n);
  sys.constraints(kin, y.t, &phi, MatrixSink(&B), &phi_t, &zeta);
  pen.alpha = 1.0;
  penalty_multipliers(pen, B * y.vdot, zeta, B * y.v + phi_t, phi, rows);
  return rows;
}
}  // namespace

int StepLinearization::rows() const { return sys_.num_dofs() + sys_.num_constraints(); }

void StepLinearization::residual(const System& sys, const State& prev, double h, const VecX& vdot,
                                 const VecX& lambda, State& x, VecX& r,
                                 const std::vector<char>* only) const {
  step_state(prev, h, vdot, lambda, x);
  residual_at(sys, x, r, only);
}

void StepLinearization::step_state(const State& prev, double h, const VecX& vdot,
                                   const VecX& lambda, State& x) const {
  x.t = prev.t + h;
  x.memory = prev.memory;  // the step's forces read the memory of its start
  x.vdot = vdot;
  x.lambda = lambda;
  alpha_update(p_, prev, h, x, hdq_);
}

void StepLinearization::residual_at(const System& sys, const State& x, VecX& r,
                                    const std::vector<char>* only) const {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  if (rows_ == StepRows::kPenalty) only = nullptr;
  sys.gather(x, kin_);
  sys.forces(kin_, x.t, f_, MatrixSink(), MatrixSink(), only);
  // Written into r's own storage: the sensitivities ask for 4 residuals per parameter and step.
  r.resize(n + m);
  VecX& r_q = r_q_;
  sys.mass_times(x.vdot, r_q);
  r_q -= f_;
  phi_.resize(m);
  bv_.resize(m);
  if (only != nullptr) {  // the rows of the elements left out stay zero
    phi_.setZero();
    bv_.setZero();
  }
  const bool velocities = rows_ == StepRows::kVelocities;
  if (m > 0)
    sys.constraint_products(kin_, x.t, x.lambda, velocities ? &x.v : nullptr, phi_, r_q,
                            velocities ? &bv_ : nullptr, only);
  r.head(n) = r_q;
  if (rows_ == StepRows::kPenalty && m > 0) {
    const PenaltyParameters pen = penalty_of(sys);
    r.tail(m) = x.lambda / pen.alpha - penalty_rows(sys, x, pen, kin_);
  } else {
    r.tail(m) = velocities ? bv_ : phi_;
  }
}

void StepLinearization::linearize(const State& prev, const State& s) {
  // The exact Jacobians at the converged step (the elements' own tangents, checked against
  // finite differences where they are written): ∂f/∂q, ∂f/∂v, B, ∂(Bᵀλ)/∂q at x_{n+1}, and the
  // step's hΔq for the group update's derivative.
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  h_ = s.t - prev.t;
  factorized_ = factorize_tried_ = false;
  State x = s;
  x.memory = prev.memory;  // the step's forces read the memory of its start (s has the new one)
  alpha_update(p_, prev, h_, x, hdq_);
  sys_.gather(x, kin_);
  dfdq_.setZero(n, n);
  dfdv_.setZero(n, n);
  sys_.forces(kin_, s.t, f_, MatrixSink(&dfdq_), MatrixSink(&dfdv_));
  B_.setZero(m, n);
  K_.setZero(n, n);
  if (m > 0) {
    sys_.constraints(kin_, s.t, nullptr, MatrixSink(&B_), nullptr, nullptr);
    sys_.constraint_tangent(kin_, s.t, s.lambda, MatrixSink(&K_));
    if (rows_ == StepRows::kVelocities) {
      D_.setZero(m, n);
      sys_.velocity_rows_tangent(kin_, s.t, x.v, MatrixSink(&D_));
    } else if (rows_ == StepRows::kPenalty) {
      const PenaltyParameters pen = penalty_of(sys_);
      alpha_ = pen.alpha;
      const auto rows = [&](const State& y) { return penalty_rows(sys_, y, pen, kin_); };
      D_ = rows_tangent(x, n, m, false, kPenaltyRowStep[0], rows);
      Dv_ = rows_tangent(x, n, m, true, kPenaltyRowStep[1], rows);
    }
  }
  hdq_step_ = hdq_;
}

namespace {
// The step's formulas (alpha_update) differentiated, for one tangent (T = StateTangent, X = VecX)
// or many (T = TangentColumns, X = MatX): a, hΔq, v and q_{n+1} = q_n ∘ exp(hΔq), whose
// body-frame tangent is exp(hΔq_r)ᵀ δθ_n + T(hΔq_r) δ(hΔq_r). Written once for both, so that a
// single tangent (the direct sensitivities, a parameter per step) pays no copies into matrices.
template <class T, class X>
void step_formulas(const AlphaParameters& p, double h, const VecX& hdq_step, const T& dS,
                   const X& dvdot, const X& dlambda, T& next) {
  const Eigen::Index n = dS.q.rows();
  const double am = p.alpha_m, af = p.alpha_f, beta = p.beta, gamma = p.gamma;
  next.vdot = dvdot;
  next.lambda = dlambda;
  next.a = ((1.0 - af) * dvdot + af * dS.vdot - am * dS.a) / (1.0 - am);
  const X dhdq = h * (dS.v + h * (0.5 - beta) * dS.a + h * beta * next.a);
  next.v = dS.v + h * (1.0 - gamma) * dS.a + h * gamma * next.a;
  next.q.resize(n, dS.q.cols());
  for (Eigen::Index b = 0; b < n / 6; ++b) {
    const Vec3 psi = hdq_step.segment<3>(6 * b + 3);
    next.q.template middleRows<3>(6 * b) =
        dS.q.template middleRows<3>(6 * b) + dhdq.template middleRows<3>(6 * b);
    next.q.template middleRows<3>(6 * b + 3).noalias() =
        so3::exp(psi).transpose() * dS.q.template middleRows<3>(6 * b + 3);
    next.q.template middleRows<3>(6 * b + 3).noalias() +=
        so3::tangent(psi) * dhdq.template middleRows<3>(6 * b + 3);
  }
}

// The Jacobians of the residual at the step's end, for residual_of.
struct ResidualJacobians {
  const System& sys;
  const MatX &dfdq, &dfdv, &K, &B, &D, &Dv;
  StepRows rows;
  double alpha;  // penalty rows
};

// dR = (M dv̇ − ∂f/∂q dq − ∂f/∂v dv + ∂(Bᵀλ)/∂q dq + Bᵀ dλ, B dq), the velocity rows
// B dv + ∂(B v + Φ_t)/∂q dq, the penalty rows dλ/α − (B dv̇ + D dq + D_v dv), along the end
// tangents `next` (one or many, as step_formulas).
template <class T, class X>
X residual_of(const ResidualJacobians& J, const T& next, const X& dvdot, const X& dlambda) {
  const int n = J.sys.num_dofs(), m = J.sys.num_constraints();
  X dR(n + m, next.q.cols());
  dR.topRows(n).noalias() = J.K * next.q;
  dR.topRows(n).noalias() -= J.dfdq * next.q;
  dR.topRows(n).noalias() -= J.dfdv * next.v;
  VecX Mdv;
  if constexpr (std::is_same_v<X, VecX>) {
    J.sys.mass_times(dvdot, Mdv);
    dR.head(n) += Mdv;
  } else {
    for (Eigen::Index c = 0; c < dvdot.cols(); ++c) {
      if (dvdot.col(c).isZero(0.0)) continue;  // a propagation's dX = 0 pass
      J.sys.mass_times(dvdot.col(c), Mdv);
      dR.col(c).head(n) += Mdv;
    }
  }
  if (m > 0) {
    dR.topRows(n).noalias() += J.B.transpose() * dlambda;
    if (J.rows == StepRows::kVelocities) {
      dR.bottomRows(m).noalias() = J.B * next.v;
      dR.bottomRows(m).noalias() += J.D * next.q;
    } else if (J.rows == StepRows::kPenalty) {
      dR.bottomRows(m) = dlambda / J.alpha;
      dR.bottomRows(m).noalias() -= J.B * dvdot;
      dR.bottomRows(m).noalias() -= J.D * next.q;
      dR.bottomRows(m).noalias() -= J.Dv * next.v;
    } else {
      dR.bottomRows(m).noalias() = J.B * next.q;
    }
  }
  return dR;
}
}  // namespace

void StepLinearization::step_tangent(const TangentColumns& dS, const MatX& dvdot,
                                     const MatX& dlambda, TangentColumns& next) const {
  step_formulas(p_, h_, hdq_step_, dS, dvdot, dlambda, next);
}

void StepLinearization::step_tangent(const StateTangent& dS, const VecX& dvdot, const VecX& dlambda,
                                     StateTangent& next) const {
  step_formulas(p_, h_, hdq_step_, dS, dvdot, dlambda, next);
}

MatX StepLinearization::residual_tangent(const TangentColumns& next, const MatX& dvdot,
                                         const MatX& dlambda) const {
  return residual_of(ResidualJacobians{sys_, dfdq_, dfdv_, K_, B_, D_, Dv_, rows_, alpha_}, next,
                     dvdot, dlambda);
}

void StepLinearization::directional(const StateTangent& dS, const VecX& dvdot, const VecX& dlambda,
                                    StateTangent& next, VecX& dR) const {
  step_formulas(p_, h_, hdq_step_, dS, dvdot, dlambda, next);
  dR = residual_of(ResidualJacobians{sys_, dfdq_, dfdv_, K_, B_, D_, Dv_, rows_, alpha_}, next,
                   dvdot, dlambda);
}

void StepLinearization::factorize_if_needed() {
  if (factorize_tried_) return;
  factorize_tried_ = true;
  // R_X = J_R G_X from the dense matrices: G_X maps dv̇ to dv = hγ c dv̇ and to the body-frame
  // dq = h²β c blockdiag(1, T(hΔq_r)) dv̇, c = (1 − α_f)/(1 − α_m) (directional()'s formulas), so
  //   R_X = [M + (K − ∂f/∂q) Q − hγ c ∂f/∂v, Bᵀ; B Q, 0],  Q = h²β c blockdiag(1, T),
  // the velocity rows are hγ c B + D Q, and the penalty rows [−(B + D Q + hγ c D_v), I/α].
  // StepLinearizationTest checks it against directional() column by column.
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const double c = (1.0 - p_.alpha_f) / (1.0 - p_.alpha_m), h = h_;
  // Q is block diagonal: X Q is written body by body (a dense product would cost n³).
  const double q_scale = h * h * p_.beta * c;
  std::vector<Mat3> T(static_cast<std::size_t>(n / 6));
  for (Eigen::Index b = 0; b < n / 6; ++b)
    T[static_cast<std::size_t>(b)] = q_scale * so3::tangent(hdq_step_.segment<3>(6 * b + 3));
  const auto times_Q = [&](const MatX& X) {
    MatX XQ(X.rows(), n);
    for (Eigen::Index b = 0; b < n / 6; ++b) {
      XQ.middleCols<3>(6 * b) = q_scale * X.middleCols<3>(6 * b);
      XQ.middleCols<3>(6 * b + 3).noalias() =
          X.middleCols<3>(6 * b + 3) * T[static_cast<std::size_t>(b)];
    }
    return XQ;
  };
  MatX& A = scaled_R_X_;
  A.setZero(n + m, n + m);
  sys_.mass(MatrixSink(&A));
  A.topLeftCorner(n, n) += times_Q(K_ - dfdq_);
  A.topLeftCorner(n, n) -= h * p_.gamma * c * dfdv_;
  // The constraint rows are B Q ~ h²β B: 1e-10 of the dynamic rows at h = 1e-5 s (hγ B for
  // the velocity rows, 1/α for the penalty rows). Scaled to the size of the dynamic rows, partial
  // pivoting judges the matrix, not its units, and a probe's residual does not measure the
  // scale's round-off.
  switch (rows_) {
    case StepRows::kPositions:
      row_scale_ = p_.beta_prime(h_);
      break;
    case StepRows::kVelocities:
      row_scale_ = 1.0 / (h * p_.gamma * c);
      break;
    case StepRows::kPenalty:
      row_scale_ = alpha_;
      break;
  }
  if (m > 0) {
    A.topRightCorner(n, m) = B_.transpose();
    if (rows_ == StepRows::kVelocities) {
      A.bottomLeftCorner(m, n) = row_scale_ * (h * p_.gamma * c * B_ + times_Q(D_));
    } else if (rows_ == StepRows::kPenalty) {
      A.bottomLeftCorner(m, n) = -row_scale_ * (B_ + times_Q(D_) + h * p_.gamma * c * Dv_);
      A.bottomRightCorner(m, m).setIdentity();
    } else {
      A.bottomLeftCorner(m, n) = row_scale_ * times_Q(B_);
    }
  }
  // Rows in newtons and in metres, columns in accelerations and forces: a rank test on the
  // pivots would judge the scaling, not the matrix. A probe's residual judges the solution.
  if (!lu_.compute(A)) return;
  const VecX probe = VecX::Ones(n + m);
  MatX x = probe;
  lu_.solve_in_place(x);
  factorized_ = x.allFinite() && (A * x - probe).norm() <= 1e-8 * probe.norm();
}

bool StepLinearization::factorize() {
  factorize_if_needed();
  return factorized_;
}

MatX StepLinearization::respond(const MatX& R_p) const {
  // −R_X⁻¹ R_p, column by column as solve() but in one pass of the factorization.
  MatX sb = -R_p;
  sb.bottomRows(sys_.num_constraints()) *= row_scale_;
  lu_.solve_in_place(sb);
  return sb;
}

VecX StepLinearization::solve(const VecX& b) const {
  // R_X x = b with A = S R_X, S = diag(1, s): A x = S b.
  VecX sb = b;
  sb.tail(sys_.num_constraints()) *= row_scale_;
  lu_.solve_in_place(sb);
  return sb;
}

bool StepLinearization::solve_exactly(const StateTangent& dS, const VecX& R_p, VecX& dvdot,
                                      VecX& dlambda) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  factorize_if_needed();
  if (!factorized_) return false;
  StateTangent scratch = dS;
  VecX base;
  directional(dS, VecX::Zero(n), VecX::Zero(m), scratch, base);  // R_S dS
  const VecX b = -(base + R_p);
  const VecX dX = solve(b);
  if (!dX.allFinite()) return false;
  dvdot = dX.head(n);
  dlambda = dX.tail(m);
  return true;
}

void StepLinearization::propagate(const TangentColumns& dS, const MatX& R_p,
                                  TangentColumns& next) const {
  // R_S dS (the residual's change with dX = 0), then dX = −R_X⁻¹ (R_S dS + R_p) in one solve
  // and the step's formulas at it (the residual at dX is 0: not needed).
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const MatX zero_n = MatX::Zero(n, dS.cols()), zero_m = MatX::Zero(m, dS.cols());
  step_tangent(dS, zero_n, zero_m, next);
  MatX base = residual_tangent(next, zero_n, zero_m);
  if (R_p.size() > 0) base += R_p;
  const MatX dX = respond(base);
  step_tangent(dS, dX.topRows(n), dX.bottomRows(m), next);
}

void StepLinearization::propagate(const StateTangent& dS, const VecX& R_p,
                                  StateTangent& next) const {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  VecX base;
  directional(dS, VecX::Zero(n), VecX::Zero(m), next, base);  // R_S dS: dX = 0
  if (R_p.size() > 0) base += R_p;
  const VecX dX = solve(-base);
  step_tangent(dS, dX.head(n), dX.tail(m), next);  // the residual at dX is 0: not needed
  next.memory = dS.memory;
}

void StepLinearization::transposed_step(const StateTangent& w, StateTangent& wS, VecX& wvdot,
                                        VecX& wlambda) const {
  // directional()'s formulas read backwards: each assignment's inputs receive its output's
  // covector times the coefficient.
  const int n = sys_.num_dofs();
  const double am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma, h = h_;
  wS.q.setZero(n);
  wS.v = w.v;
  wS.a = h * (1.0 - gamma) * w.v;
  wS.vdot.setZero(n);
  wS.lambda.setZero(w.lambda.size());
  wS.memory.setZero(w.memory.size());
  VecX w_hdq(n);
  for (Eigen::Index b = 0; b < n / 6; ++b) {
    const Vec3 psi = hdq_step_.segment<3>(6 * b + 3);
    wS.q.segment<3>(6 * b) = w.q.segment<3>(6 * b);
    w_hdq.segment<3>(6 * b) = w.q.segment<3>(6 * b);
    wS.q.segment<3>(6 * b + 3) = so3::exp(psi) * w.q.segment<3>(6 * b + 3);
    w_hdq.segment<3>(6 * b + 3) = so3::tangent(psi).transpose() * w.q.segment<3>(6 * b + 3);
  }
  // hΔq = h (v + h(½ − β) a + hβ a_{n+1}); v_{n+1} = v + h(1 − γ) a + hγ a_{n+1}.
  wS.v += h * w_hdq;
  wS.a += h * h * (0.5 - beta) * w_hdq;
  const VecX w_anext = w.a + h * gamma * w.v + h * h * beta * w_hdq;
  // a_{n+1} = ((1 − α_f) v̇_{n+1} + α_f v̇_n − α_m a_n)/(1 − α_m).
  wvdot = w.vdot + (1.0 - af) / (1.0 - am) * w_anext;
  wS.vdot += af / (1.0 - am) * w_anext;
  wS.a -= am / (1.0 - am) * w_anext;
  wlambda = w.lambda;
}

void StepLinearization::transposed_residual(const VecX& mu, StateTangent& w) const {
  // dR = (M dv̇ + (K − ∂f/∂q) dq − ∂f/∂v dv + Bᵀ dλ, B dq or the penalty rows); M is symmetric.
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const VecX mu_q = mu.head(n);
  sys_.mass_times(mu_q, w.vdot);
  w.q = (K_ - dfdq_).transpose() * mu_q;
  w.v = -dfdv_.transpose() * mu_q;
  w.a.setZero(n);
  w.lambda.setZero(m);
  if (m > 0) {
    w.lambda = B_ * mu_q;
    if (rows_ == StepRows::kPenalty) {
      // dλ/α − (B dv̇ + D dq + D_v dv)
      const VecX mu_c = mu.tail(m);
      w.lambda += mu_c / alpha_;
      w.vdot.noalias() -= B_.transpose() * mu_c;
      w.q.noalias() -= D_.transpose() * mu_c;
      w.v.noalias() -= Dv_.transpose() * mu_c;
    } else {
      w.q += B_.transpose() * mu.tail(m);
    }
  }
  w.memory.resize(0);
}

VecX StepLinearization::solve_transposed(const VecX& w) const {
  // R_Xᵀ μ = w with A = S R_X, S = diag(1, β′): Aᵀ (S⁻¹ μ) = w.
  VecX mu = w;
  lu_.solve_transposed_in_place(mu);
  const Eigen::Index m = sys_.num_constraints();
  mu.tail(m) *= row_scale_;
  return mu;
}

}  // namespace cs
