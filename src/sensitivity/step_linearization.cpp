#include "clearsim/sensitivity/step_linearization.hpp"

#include "clearsim/math/so3.hpp"

namespace cs {

StepLinearization::StepLinearization(const System& sys, const AlphaParameters& p)
    : sys_(sys), p_(p) {}

int StepLinearization::rows() const { return sys_.num_dofs() + sys_.num_constraints(); }

void StepLinearization::residual(const System& sys, const State& prev, double h, const VecX& vdot,
                                 const VecX& lambda, State& x, VecX& r) const {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  x.t = prev.t + h;
  x.memory = prev.memory;  // the step's forces read the memory of its start
  x.vdot = vdot;
  x.lambda = lambda;
  alpha_update(p_, prev, h, x, hdq_);
  sys.gather(x, kin_);
  sys.forces(kin_, x.t, f_, MatrixSink(), MatrixSink());
  VecX r_q, phi(m);
  sys.mass_times(x.vdot, r_q);
  r_q -= f_;
  if (m > 0) sys.constraint_products(kin_, x.t, x.lambda, nullptr, phi, r_q, nullptr);
  r.resize(n + m);
  r << r_q, phi;
}

void StepLinearization::linearize(const State& prev, const State& s) {
  // The exact Jacobians at the converged step (the elements' own tangents, checked against
  // finite differences where they are written): ∂f/∂q, ∂f/∂v, B, ∂(Bᵀλ)/∂q at x_{n+1}, and the
  // step's hΔq for the group update's derivative.
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  h_ = s.t - prev.t;
  factorized_ = false;
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
  }
  hdq_step_ = hdq_;
}

void StepLinearization::directional(const StateTangent& dS, const VecX& dvdot, const VecX& dlambda,
                                    StateTangent& next, VecX& dR) const {
  // The step's formulas (alpha_update) differentiated: a, hΔq, v and q_{n+1} = q_n ∘ exp(hΔq),
  // whose body-frame tangent is exp(hΔq_r)ᵀ δθ_n + T(hΔq_r) δ(hΔq_r).
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const double am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma, h = h_;
  next.vdot = dvdot;
  next.lambda = dlambda;
  next.a = ((1.0 - af) * dvdot + af * dS.vdot - am * dS.a) / (1.0 - am);
  const VecX dhdq = h * (dS.v + h * (0.5 - beta) * dS.a + h * beta * next.a);
  next.v = dS.v + h * (1.0 - gamma) * dS.a + h * gamma * next.a;
  next.q.resize(n);
  for (Eigen::Index b = 0; b < n / 6; ++b) {
    const Vec3 psi = hdq_step_.segment<3>(6 * b + 3);
    next.q.segment<3>(6 * b) = dS.q.segment<3>(6 * b) + dhdq.segment<3>(6 * b);
    next.q.segment<3>(6 * b + 3) = so3::exp(psi).transpose() * dS.q.segment<3>(6 * b + 3) +
                                   so3::tangent(psi) * dhdq.segment<3>(6 * b + 3);
  }
  // dR = (M dv̇ − ∂f/∂q dq − ∂f/∂v dv + ∂(Bᵀλ)/∂q dq + Bᵀ dλ, B dq).
  VecX Mdv;
  sys_.mass_times(dvdot, Mdv);
  dR.resize(n + m);
  dR.head(n) = Mdv - dfdq_ * next.q - dfdv_ * next.v + K_ * next.q;
  if (m > 0) {
    dR.head(n) += B_.transpose() * dlambda;
    dR.tail(m) = B_ * next.q;
  }
}

namespace {
// R_X column by column: the directional derivative is affine in dX.
MatX assemble_R_X(const StepLinearization& lin, const StateTangent& dS, int n, int m, VecX& base) {
  StateTangent scratch = dS;
  VecX column, unit = VecX::Zero(n + m);
  lin.directional(dS, VecX::Zero(n), VecX::Zero(m), scratch, base);
  MatX R_X(n + m, n + m);
  for (int j = 0; j < n + m; ++j) {
    unit(j) = 1.0;
    lin.directional(dS, unit.head(n), unit.tail(m), scratch, column);
    R_X.col(j) = column - base;
    unit(j) = 0.0;
  }
  return R_X;
}
}  // namespace

bool StepLinearization::solve_exactly(const StateTangent& dS, const VecX& R_p, VecX& dvdot,
                                      VecX& dlambda) const {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  VecX base;
  const MatX R_X = assemble_R_X(*this, dS, n, m, base);
  // Rows in newtons and in metres, columns in accelerations and forces: a rank test on the
  // pivots would judge the scaling, not the matrix. The solution is judged by its residual.
  const VecX b = -(base + R_p);
  const VecX dX = R_X.partialPivLu().solve(b);
  if (!dX.allFinite() || (R_X * dX - b).norm() > 1e-8 * b.norm()) return false;
  dvdot = dX.head(n);
  dlambda = dX.tail(m);
  return true;
}

bool StepLinearization::factorize() {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  VecX base;
  StateTangent zero;
  zero.q.setZero(n);
  zero.v.setZero(n);
  zero.a.setZero(n);
  zero.vdot.setZero(n);
  const MatX R_X = assemble_R_X(*this, zero, n, m, base);
  lu_.compute(R_X);
  // The same judgement as solve_exactly's, on a probe: singular pivots leave a large residual.
  const VecX probe = VecX::Ones(n + m);
  const VecX x = lu_.solve(probe);
  factorized_ = x.allFinite() && (R_X * x - probe).norm() <= 1e-8 * probe.norm();
  return factorized_;
}

void StepLinearization::propagate(const StateTangent& dS, const VecX& R_p,
                                  StateTangent& next) const {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const VecX zero_n = VecX::Zero(n), zero_m = VecX::Zero(m);
  VecX base;
  directional(dS, zero_n, zero_m, next, base);  // R_S dS: the part independent of dX
  if (R_p.size() > 0) base += R_p;
  const VecX dX = lu_.solve(-base);
  directional(dS, dX.head(n), dX.tail(m), next, base);
  next.memory = dS.memory;
}

}  // namespace cs
