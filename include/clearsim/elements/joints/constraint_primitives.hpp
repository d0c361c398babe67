// Basic constraint equations between two markers, from which every ideal joint is composed
// (Haug's "basic constraints", written on R³ × SO(3) with body-frame rotation increments).
//
// Each primitive gives its residual Φ, its row(s) of B = ∂Φ/∂q_loc, the velocity-squared term
// ζ = Φ̈ − B v̇, and the tangent K = ∂(Bᵀλ)/∂q_loc for a multiplier λ. Local coordinates are
// [δx_i, δΘ_i, δx_j, δΘ_j] (element.hpp). Vectors with a bar in the comments (s̄, ā) are constant
// body-frame vectors; without a bar they are in the world frame. `with_zeta = false` skips ζ
// (left at zero): the time steppers only need it for consistent initial accelerations.
// `with_jacobian = false` skips B (left at zero) and, with it, ζ: Φ alone (the ‖Φ‖ of output
// points).
#pragma once

#include "clearsim/elements/element.hpp"

namespace cs::joints {

using Row12 = Eigen::Matrix<double, 1, 12>;

// p_j − p_i = 0 with p = x + R s̄ (3 rows, world frame).
struct PointResult {
  Vec3 phi;
  Eigen::Matrix<double, 3, 12> B;
  Vec3 zeta;
};
PointResult point_coincidence(const BodyKinematics& bi, const Vec3& s_i, const BodyKinematics& bj,
                              const Vec3& s_j, bool with_zeta = true, bool with_jacobian = true);
// Adds ∂(Bᵀλ)/∂q for λ ∈ R³.
void point_coincidence_tangent(const BodyKinematics& bi, const Vec3& s_i, const BodyKinematics& bj,
                               const Vec3& s_j, const Vec3& lambda, Mat12& K);

// Scalar result of a one-row primitive.
struct ScalarResult {
  double phi = 0.0;
  Row12 B = Row12::Zero();
  double zeta = 0.0;
};

// dot-1: (R_i ā)·(R_j b̄) = 0 — two body-fixed directions stay perpendicular.
ScalarResult dot1(const BodyKinematics& bi, const Vec3& a_i, const BodyKinematics& bj,
                  const Vec3& b_j, bool with_zeta = true, bool with_jacobian = true);
void dot1_tangent(const BodyKinematics& bi, const Vec3& a_i, const BodyKinematics& bj,
                  const Vec3& b_j, double lambda, Mat12& K);

// dot-2: (R_i ā)·(p_j − p_i) = 0 — point j stays in the plane through p_i normal to ā.
ScalarResult dot2(const BodyKinematics& bi, const Vec3& a_i, const Vec3& s_i,
                  const BodyKinematics& bj, const Vec3& s_j, bool with_zeta = true,
                  bool with_jacobian = true);
void dot2_tangent(const BodyKinematics& bi, const Vec3& a_i, const Vec3& s_i,
                  const BodyKinematics& bj, const Vec3& s_j, double lambda, Mat12& K);

// Relative rotation angle θ = atan2((R_i ȳ)·(R_j x̄_j), (R_i x̄)·(R_j x̄_j)) about the common axis
// of two markers whose z axes are aligned (revolute, cylindrical). `reference` is the angle the
// caller expects (e.g. the previous value); the result is unwrapped to lie within π of it.
struct AngleResult {
  double theta = 0.0;          // [rad]
  Row12 grad = Row12::Zero();  // ∂θ/∂q_loc
  double theta_dot = 0.0;      // θ̇ = grad·v
  double zeta = 0.0;           // θ̈ − grad·v̇
};
AngleResult relative_angle(const BodyKinematics& bi, const Mat3& R_BMi, const BodyKinematics& bj,
                           const Mat3& R_BMj, double reference, bool with_zeta = true,
                           bool with_jacobian = true);
// Adds λ·∂(gradᵀ)/∂q.
void relative_angle_tangent(const BodyKinematics& bi, const Mat3& R_BMi, const BodyKinematics& bj,
                            const Mat3& R_BMj, double lambda, Mat12& K);

// Rows of the tangential relative velocity at a contact point p_W with unit normal n_W: the
// velocity of body j's material point at p_W minus body i's, along two unit vectors ⟂ n_W.
Eigen::Matrix<double, 2, 12> tangential_jacobian(const BodyKinematics& bi, const BodyKinematics& bj,
                                                 const Vec3& p_W, const Vec3& n_W);

// Local velocity vector [v_i; w_i; v_j; w_j].
Vec12 local_velocity(const BodyKinematics& bi, const BodyKinematics& bj);

}  // namespace cs::joints
