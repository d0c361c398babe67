#include "clearsim/sensitivity/projection_tangent.hpp"

#include <vector>

#include "clearsim/math/body_kinematics.hpp"
#include "clearsim/math/so3.hpp"

namespace cs {

namespace {
constexpr int kModels = PerturbedModels::kModels;
// Rows are dependent when B Bᵀ's smallest pivot is below this fraction of its largest, a
// singular value ratio of 1e-6 (measured: the Bricard mechanism's kept dependent row 5e-16 to
// 1e-15; the slider–crank 5.8e-3, the A01 pendulum 0.25).
constexpr double kDependent = 1e-12;

// ζ(q, v) of `sys` at x (B v̇ + ζ = Φ̈).
VecX zeta_at(const System& sys, const State& x) {
  std::vector<BodyKinematics> kin;
  sys.gather(x, kin);
  VecX zeta = VecX::Zero(sys.num_constraints());
  sys.constraints(kin, x.t, nullptr, MatrixSink(), nullptr, &zeta);
  return zeta;
}
}  // namespace

ProjectionTangent::ProjectionTangent(const System& sys, const SolverSettings& settings)
    : sys_(sys), settings_(settings), p_(AlphaParameters::from_settings(settings)) {}

ProjectionTangent::~ProjectionTangent() = default;

ProjectionTangent::End ProjectionTangent::end_of(const System& sys, const State& start,
                                                 const State& x) const {
  auto& integrator = integrators_[&sys];
  if (!integrator) integrator = std::make_unique<PenaltyAlpha>(sys, settings_);
  const double h = x.t - start.t, beta = p_.beta;
  // The step's increment by its formula (alpha_update): along a tangent of the step it moves
  // with the positions.
  const VecX hdq = h * (start.v + h * (0.5 - beta) * start.a + h * beta * x.a);
  State at = x;
  at.memory = start.memory;  // the step's forces read the memory of its start
  End e;
  e.P = integrator->projection_matrix(start, at, hdq);
  e.hdq = hdq;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  std::vector<BodyKinematics> kin;
  sys.gather(x, kin);
  VecX phi(m);
  e.B.setZero(m, n);
  e.phi_t.setZero(m);
  sys.constraints(kin, x.t, &phi, MatrixSink(&e.B), &e.phi_t, nullptr);
  return e;
}

VecX ProjectionTangent::velocity_residual(const End& e, const State& x, const VecX& Z) {
  const Eigen::Index n = e.B.cols(), m = e.B.rows();
  VecX H(n + m);
  H.head(n) = e.P.A_hat * (Z.head(n) - x.v) + e.B.transpose() * Z.tail(m);
  H.tail(m) = e.B * Z.head(n) + e.phi_t;
  return H;
}

VecX ProjectionTangent::acceleration_residual(const System& sys, const End& e, const State& x,
                                              const VecX& v_star, const VecX& Z) {
  const Eigen::Index n = e.B.cols(), m = e.B.rows();
  State at = x;
  at.v = v_star;
  const VecX zeta = zeta_at(sys, at);
  VecX H(n + m);
  H.head(n) = e.P.A_hat * (Z.head(n) - x.vdot) + e.B.transpose() * Z.tail(m);
  H.tail(m) = e.B * Z.head(n) + zeta;
  return H;
}

VecX ProjectionTangent::lambda_shift(const End& e, const State& x, const VecX& vdot_star) {
  // (T − I)(v̇* − ṽ̇): T the step's rotation tangent per body, as A's augmented block has it.
  const Eigen::Index n = e.B.cols();
  VecX turned = VecX::Zero(n);
  for (Eigen::Index b = 0; b < n / 6; ++b) {
    const Mat3 T = so3::tangent(e.hdq.segment<3>(6 * b + 3));
    const Vec3 rot = vdot_star.segment<3>(6 * b + 3) - x.vdot.segment<3>(6 * b + 3);
    turned.segment<3>(6 * b + 3) = (T - Mat3::Identity()) * rot;
  }
  return (e.P.row_alpha / e.P.beta_p).cwiseProduct(e.B * turned);
}

bool ProjectionTangent::linearize(const State& prev, const State& s, State& smooth,
                                  std::string& why) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const double h = s.t - prev.t, am = p_.alpha_m, af = p_.alpha_f;
  // The projections leave q and a alone: the step's formulas at a give ṽ and ṽ̇.
  smooth = s;
  smooth.vdot = ((1.0 - am) * s.a + am * prev.a - af * prev.vdot) / (1.0 - af);
  VecX hdq;
  alpha_update(p_, prev, h, smooth, hdq);
  prev_ = prev;
  if (m == 0) {
    smooth_ = smooth;
    return true;
  }
  // λ̃ from the dynamic rows Bᵀλ̃ = f − M ṽ̇, which the augmented-Lagrangian iteration solved.
  std::vector<BodyKinematics> kin;
  State at = smooth;
  at.memory = prev.memory;  // the step's forces read the memory of its start
  sys_.gather(at, kin);
  VecX f, Mv, phi(m);
  sys_.forces(kin, at.t, f, MatrixSink(), MatrixSink());
  sys_.mass_times(smooth.vdot, Mv);
  MatX B = MatX::Zero(m, n);
  sys_.constraints(kin, smooth.t, &phi, MatrixSink(&B), nullptr, nullptr);
  // λ̃ = (B Bᵀ)⁻¹ B (f − M ṽ̇); B Bᵀ's pivots say whether the rows are independent.
  const Eigen::LDLT<MatX> bbt(B * B.transpose());
  const VecX pivots = bbt.vectorD().cwiseAbs();
  if (bbt.info() != Eigen::Success || !(pivots.minCoeff() > kDependent * pivots.maxCoeff())) {
    why =
        "the model keeps dependent constraint rows (formulation ali3p keeps them): their "
        "multipliers are not unique, and the step has no derivative in them (remove the "
        "redundant joint, or use formulation index3 or penalty)";
    return false;
  }
  smooth.lambda = bbt.solve(VecX(B * (f - Mv)));
  smooth_ = smooth;
  // The projections solved again exactly (the run's stop at newton_tol relative), and H_Z.
  const End e = end_of(sys_, prev, smooth);
  MatX J = MatX::Zero(n + m, n + m);
  J.topLeftCorner(n, n) = e.P.A_hat;
  J.topRightCorner(n, m) = e.B.transpose();
  J.bottomLeftCorner(m, n) = e.B;
  if (!H_Z_.compute(J)) {
    why = "the projections' matrix [Â Bᵀ; B 0] is singular";
    return false;
  }
  VecX rhs(n + m);
  rhs.head(n) = e.P.A_hat * smooth.v;
  rhs.tail(m) = -e.phi_t;
  Zv_ = rhs;
  H_Z_.solve_in_place(Zv_);
  State projected = smooth;
  projected.v = Zv_.head(n);
  rhs.head(n) = e.P.A_hat * smooth.vdot;
  rhs.tail(m) = -zeta_at(sys_, projected);
  Za_ = rhs;
  H_Z_.solve_in_place(Za_);
  return true;
}

void ProjectionTangent::apply(const StateTangent& dprev, StateTangent& d,
                              const PerturbedModels& par) const {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  if (m == 0) return;
  const auto offset = [&](int k) { return (k % 2 == 0 ? 1.0 : -1.0) * par.eps[k / 2]; };
  // Velocities: H_Z dZ = −dH along (dprev, d, p) with Z fixed.
  End e[kModels];
  State x[kModels];
  VecX H[kModels];
  for (int k = 0; k < kModels; ++k) {
    x[k] = displaced(smooth_, d, offset(k));
    e[k] = end_of(*par.sys[k], displaced(prev_, dprev, offset(k)), x[k]);
    H[k] = velocity_residual(e[k], x[k], Zv_);
  }
  VecX dZv = -par.derivative(H);
  H_Z_.solve_in_place(dZv);
  const VecX dv = dZv.head(n);
  // Accelerations, ζ at the projected velocities moved along their tangent.
  for (int k = 0; k < kModels; ++k)
    H[k] = acceleration_residual(*par.sys[k], e[k], x[k], Zv_.head(n) + offset(k) * dv, Za_);
  VecX dZa = -par.derivative(H);
  H_Z_.solve_in_place(dZa);
  d.v = dv;
  d.vdot = dZa.head(n);
  // The multipliers' shift along the whole tangent, v̇* moved with its own.
  VecX shift[kModels];
  for (int k = 0; k < kModels; ++k)
    shift[k] = lambda_shift(e[k], x[k], Za_.head(n) + offset(k) * d.vdot);
  d.lambda += dZa.tail(m) - par.derivative(shift);
}

}  // namespace cs
