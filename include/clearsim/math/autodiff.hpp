// Forward-mode automatic differentiation for smooth element kernels (DESIGN.md "Room for
// sensitivities"). A kernel written once as a template over its scalar gives its value with
// `double` and its exact tangents ∂/∂q_loc, ∂/∂v_loc with `Dual24`: 24 derivative directions,
// the 12 right-trivialized position increments [δx_i, δΘ_i, δx_j, δΘ_j] followed by the 12
// velocities [v_i, Ω_i, v_j, Ω_j] of element.hpp. Rotations are seeded on the group,
// R(δΘ) = R (I + δΘ̃) to first order, which is exactly R exp(δΘ̃) for first derivatives.
//
// Why forward AD rather than hand-written tangents: contact and film forces are products of
// several nonlinear geometric factors (gap, normal, contact point, relative velocity, film
// thickness); their second derivatives (the gap-curvature terms ∂(Gᵀλ)/∂q, ∂(G v)/∂q) are long
// and error-prone by hand, and every law × geometry pair would need its own. With AD each law and
// each geometry is written once and the tangent is exact to round-off. Each kernel is still
// checked against central differences on the group (tests/unit/contact).
#pragma once

// clang-format off
#include "clearsim/math/body_kinematics.hpp"  // Eigen/Core first: AutoDiff needs it
#include <unsupported/Eigen/AutoDiff>
// clang-format on

namespace cs {

using Dual24 = Eigen::AutoDiffScalar<Eigen::Matrix<double, 24, 1>>;

template <class S>
using V3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using M3 = Eigen::Matrix<S, 3, 3>;

inline double value_of(double x) { return x; }
inline double value_of(const Dual24& x) { return x.value(); }

// A body's pose and velocity in scalar S (BodyKinematics for S = double).
template <class S>
struct Pose {
  V3<S> x;    // centre of mass [m], world
  M3<S> R;    // body to world
  V3<S> v;    // centre-of-mass velocity [m/s], world
  V3<S> w_B;  // angular velocity [rad/s], body frame

  V3<S> point(const Vec3& p_B) const { return x + R * p_B.cast<S>(); }
  V3<S> direction(const Vec3& d_B) const { return R * d_B.cast<S>(); }
  V3<S> omega_W() const { return R * w_B; }
  // Velocity of the material point now at p_W.
  V3<S> velocity_at(const V3<S>& p_W) const { return v + omega_W().cross(p_W - x); }
};

inline Pose<double> pose_of(const BodyKinematics& b) { return {b.x_W, b.R_WB, b.v_W, b.w_B}; }

// Pose with derivative directions seeded: body slot 0 (i) or 1 (j).
inline Pose<Dual24> seeded_pose(const BodyKinematics& b, int slot) {
  using D = Dual24;
  Pose<D> p;
  const int q0 = 6 * slot, v0 = 12 + 6 * slot;
  M3<D> rot_increment;  // I + δΘ̃
  V3<D> dTheta;
  for (int k = 0; k < 3; ++k) {
    p.x(k) = D(b.x_W(k), 24, q0 + k);
    dTheta(k) = D(0.0, 24, q0 + 3 + k);
    p.v(k) = D(b.v_W(k), 24, v0 + k);
    p.w_B(k) = D(b.w_B(k), 24, v0 + 3 + k);
  }
  rot_increment << D(1.0), -dTheta(2), dTheta(1), dTheta(2), D(1.0), -dTheta(0), -dTheta(1),
      dTheta(0), D(1.0);
  p.R = b.R_WB.cast<D>() * rot_increment;
  return p;
}

// Generalized force of a force F [N] acting on the body at the world point p [m]:
// [F; R_Bᵀ((p − x) × F)] (force in world, moment in the body frame, element.hpp layout).
template <class S>
Eigen::Matrix<S, 6, 1> wrench_at(const Pose<S>& b, const V3<S>& p, const V3<S>& F) {
  Eigen::Matrix<S, 6, 1> w;
  w.template head<3>() = F;
  w.template tail<3>() = b.R.transpose() * (p - b.x).cross(F);
  return w;
}

// Copies a Dual24 12-vector into f and its derivatives into ∂f/∂q, ∂f/∂v.
inline void unpack_force(const Eigen::Matrix<Dual24, 12, 1>& f, ForceBlock& out) {
  for (int r = 0; r < 12; ++r) {
    out.f(r) += f(r).value();
    const auto& d = f(r).derivatives();
    out.df_dq.row(r) += d.head<12>().transpose();
    out.df_dv.row(r) += d.tail<12>().transpose();
  }
}

}  // namespace cs
