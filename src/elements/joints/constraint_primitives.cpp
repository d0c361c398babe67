#include "clearsim/elements/joints/constraint_primitives.hpp"

#include <cmath>
#include <numbers>

#include "clearsim/math/so3.hpp"

namespace cs::joints {

using so3::skew;

namespace {
// Column offsets of the local blocks.
constexpr int kXi = 0, kTi = 3, kXj = 6, kTj = 9;

// R (Ω × (Ω × s̄)): the centripetal part of the acceleration of a body-fixed vector.
Vec3 centripetal(const BodyKinematics& b, const Vec3& s) {
  return b.R_WB * b.w_B.cross(b.w_B.cross(s));
}
// R (Ω × s̄): velocity of a body-fixed vector.
Vec3 spin(const BodyKinematics& b, const Vec3& s) { return b.R_WB * b.w_B.cross(s); }
}  // namespace

Vec12 local_velocity(const BodyKinematics& bi, const BodyKinematics& bj) {
  Vec12 v;
  v << bi.v_W, bi.w_B, bj.v_W, bj.w_B;
  return v;
}

Eigen::Matrix<double, 2, 12> tangential_jacobian(const BodyKinematics& bi, const BodyKinematics& bj,
                                                 const Vec3& p_W, const Vec3& n_W) {
  // Material points of each body at p_W; their velocity difference is point_coincidence's B v.
  const Vec3 s_i = bi.R_WB.transpose() * (p_W - bi.x_W);
  const Vec3 s_j = bj.R_WB.transpose() * (p_W - bj.x_W);
  const PointResult p = point_coincidence(bi, s_i, bj, s_j);
  const Mat3 frame = so3::frame_with_z_axis(n_W);
  Eigen::Matrix<double, 2, 12> T;
  T.row(0) = frame.col(0).transpose() * p.B;
  T.row(1) = frame.col(1).transpose() * p.B;
  return T;
}

PointResult point_coincidence(const BodyKinematics& bi, const Vec3& s_i, const BodyKinematics& bj,
                              const Vec3& s_j, bool with_zeta, bool with_jacobian) {
  PointResult r;
  r.phi = (bj.x_W + bj.R_WB * s_j) - (bi.x_W + bi.R_WB * s_i);
  r.B.setZero();
  if (!with_jacobian) {
    r.zeta.setZero();
    return r;
  }
  r.B.block<3, 3>(0, kXi) = -Mat3::Identity();
  r.B.block<3, 3>(0, kTi) = bi.R_WB * skew(s_i);
  r.B.block<3, 3>(0, kXj) = Mat3::Identity();
  r.B.block<3, 3>(0, kTj) = -bj.R_WB * skew(s_j);
  r.zeta = with_zeta ? Vec3(centripetal(bj, s_j) - centripetal(bi, s_i)) : Vec3::Zero();
  return r;
}

void point_coincidence_tangent(const BodyKinematics& bi, const Vec3& s_i, const BodyKinematics& bj,
                               const Vec3& s_j, const Vec3& lambda, Mat12& K) {
  // Bᵀλ rotation rows are −s̃_i R_iᵀλ and s̃_j R_jᵀλ; δ(Rᵀλ) = (Rᵀλ)~ δΘ.
  K.block<3, 3>(kTi, kTi) -= skew(s_i) * skew(bi.R_WB.transpose() * lambda);
  K.block<3, 3>(kTj, kTj) += skew(s_j) * skew(bj.R_WB.transpose() * lambda);
}

ScalarResult dot1(const BodyKinematics& bi, const Vec3& a_i, const BodyKinematics& bj,
                  const Vec3& b_j, bool with_zeta, bool with_jacobian) {
  const Vec3 a = bi.R_WB * a_i;
  const Vec3 b = bj.R_WB * b_j;
  ScalarResult r;
  r.phi = a.dot(b);
  if (!with_jacobian) return r;
  r.B.segment<3>(kTi) = a_i.cross(bi.R_WB.transpose() * b).transpose();
  r.B.segment<3>(kTj) = b_j.cross(bj.R_WB.transpose() * a).transpose();
  if (with_zeta) {
    r.zeta = centripetal(bi, a_i).dot(b) + 2.0 * spin(bi, a_i).dot(spin(bj, b_j)) +
             a.dot(centripetal(bj, b_j));
  }
  return r;
}

void dot1_tangent(const BodyKinematics& bi, const Vec3& a_i, const BodyKinematics& bj,
                  const Vec3& b_j, double lambda, Mat12& K) {
  const Vec3 a = bi.R_WB * a_i;
  const Vec3 b = bj.R_WB * b_j;
  const Mat3 Rij = bi.R_WB.transpose() * bj.R_WB;
  const Mat3 A = skew(a_i), Bs = skew(b_j);
  K.block<3, 3>(kTi, kTi) += lambda * A * skew(bi.R_WB.transpose() * b);
  K.block<3, 3>(kTi, kTj) -= lambda * A * Rij * Bs;
  K.block<3, 3>(kTj, kTj) += lambda * Bs * skew(bj.R_WB.transpose() * a);
  K.block<3, 3>(kTj, kTi) -= lambda * Bs * Rij.transpose() * A;
}

ScalarResult dot2(const BodyKinematics& bi, const Vec3& a_i, const Vec3& s_i,
                  const BodyKinematics& bj, const Vec3& s_j, bool with_zeta, bool with_jacobian) {
  const Vec3 a = bi.R_WB * a_i;
  const PointResult p = point_coincidence(bi, s_i, bj, s_j, with_zeta, with_jacobian);
  const Vec3& d = p.phi;
  ScalarResult r;
  r.phi = a.dot(d);
  if (!with_jacobian) return r;
  r.B.segment<3>(kXi) = -a.transpose();
  r.B.segment<3>(kTi) = a_i.cross(s_i + bi.R_WB.transpose() * d).transpose();
  r.B.segment<3>(kXj) = a.transpose();
  r.B.segment<3>(kTj) = s_j.cross(bj.R_WB.transpose() * a).transpose();
  if (with_zeta) {
    const Vec3 d_dot = (bj.v_W + spin(bj, s_j)) - (bi.v_W + spin(bi, s_i));
    r.zeta = centripetal(bi, a_i).dot(d) + 2.0 * spin(bi, a_i).dot(d_dot) + a.dot(p.zeta);
  }
  return r;
}

void dot2_tangent(const BodyKinematics& bi, const Vec3& a_i, const Vec3& s_i,
                  const BodyKinematics& bj, const Vec3& s_j, double lambda, Mat12& K) {
  const Mat3& Ri = bi.R_WB;
  const Mat3& Rj = bj.R_WB;
  const Vec3 a = Ri * a_i;
  const Vec3 d = (bj.x_W + Rj * s_j) - (bi.x_W + Ri * s_i);
  const Mat3 A = skew(a_i);
  const Mat3 Si = skew(s_i), Sj = skew(s_j);
  // Translation rows ∓λa depend on Θ_i through a.
  K.block<3, 3>(kXi, kTi) += lambda * Ri * A;
  K.block<3, 3>(kXj, kTi) -= lambda * Ri * A;
  // Θ_i row: λ ā × (s̄_i + R_iᵀ d).
  K.block<3, 3>(kTi, kXi) -= lambda * A * Ri.transpose();
  K.block<3, 3>(kTi, kXj) += lambda * A * Ri.transpose();
  K.block<3, 3>(kTi, kTi) += lambda * A * (skew(Ri.transpose() * d) + Si);
  K.block<3, 3>(kTi, kTj) -= lambda * A * Ri.transpose() * Rj * Sj;
  // Θ_j row: λ s̄_j × R_jᵀ a.
  K.block<3, 3>(kTj, kTj) += lambda * Sj * skew(Rj.transpose() * a);
  K.block<3, 3>(kTj, kTi) -= lambda * Sj * Rj.transpose() * Ri * A;
}

AngleResult relative_angle(const BodyKinematics& bi, const Mat3& R_BMi, const BodyKinematics& bj,
                           const Mat3& R_BMj, double reference, bool with_zeta,
                           bool with_jacobian) {
  // s = (R_i ȳ_i)·(R_j x̄_j), k = (R_i x̄_i)·(R_j x̄_j), θ = atan2(s, k).
  const ScalarResult s = dot1(bi, R_BMi.col(1), bj, R_BMj.col(0), with_zeta, with_jacobian);
  const ScalarResult k = dot1(bi, R_BMi.col(0), bj, R_BMj.col(0), with_zeta, with_jacobian);
  AngleResult r;
  const double raw = std::atan2(s.phi, k.phi);
  const double two_pi = 2.0 * std::numbers::pi;
  r.theta = raw + two_pi * std::round((reference - raw) / two_pi);
  if (!with_jacobian) return r;
  const Vec12 v = local_velocity(bi, bj);
  const double rho = s.phi * s.phi + k.phi * k.phi;
  r.grad = (k.phi * s.B - s.phi * k.B) / rho;
  const double s_dot = s.B.dot(v.transpose());
  const double k_dot = k.B.dot(v.transpose());
  r.theta_dot = (k.phi * s_dot - s.phi * k_dot) / rho;
  if (with_zeta) {
    const double rho_dot = 2.0 * (s.phi * s_dot + k.phi * k_dot);
    r.zeta = (k.phi * s.zeta - s.phi * k.zeta) / rho - r.theta_dot * rho_dot / rho;
  }
  return r;
}

void relative_angle_tangent(const BodyKinematics& bi, const Mat3& R_BMi, const BodyKinematics& bj,
                            const Mat3& R_BMj, double lambda, Mat12& K) {
  const ScalarResult s = dot1(bi, R_BMi.col(1), bj, R_BMj.col(0));
  const ScalarResult k = dot1(bi, R_BMi.col(0), bj, R_BMj.col(0));
  Mat12 Ks = Mat12::Zero(), Kk = Mat12::Zero();
  dot1_tangent(bi, R_BMi.col(1), bj, R_BMj.col(0), 1.0, Ks);
  dot1_tangent(bi, R_BMi.col(0), bj, R_BMj.col(0), 1.0, Kk);
  const double rho = s.phi * s.phi + k.phi * k.phi;
  const Row12 grad = (k.phi * s.B - s.phi * k.B) / rho;
  const Row12 drho = 2.0 * (s.phi * s.B + k.phi * k.B);
  // ∂(∇θᵀ)/∂q = [∇sᵀ∇k + k K_s − ∇kᵀ∇s − s K_k]/ρ − ∇θᵀ ∂ρ/ρ
  K += lambda * ((s.B.transpose() * k.B + k.phi * Ks - k.B.transpose() * s.B - s.phi * Kk) / rho -
                 grad.transpose() * drho / rho);
}

}  // namespace cs::joints
