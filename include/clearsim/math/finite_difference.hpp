// Central finite differences on R³ × SO(3), for checking analytic Jacobians and tangents
// (STYLE.md §7–8). Positions are perturbed by x + ε e_k and rotations on the group by
// R·exp(ε e_k), matching the right-trivialized increments of element.hpp.
#pragma once

#include <functional>

#include "clearsim/math/body_kinematics.hpp"
#include "clearsim/math/so3.hpp"

namespace cs::fd {

// Perturbs local coordinate k (0..11 over [x_i, Θ_i, x_j, Θ_j]) of the pair (bi, bj) by eps.
inline void perturb(BodyKinematics& bi, BodyKinematics& bj, int k, double eps) {
  BodyKinematics& b = k < 6 ? bi : bj;
  const int c = k % 6;
  if (c < 3) {
    b.x_W(c) += eps;
  } else {
    b.R_WB = b.R_WB * so3::exp(eps * Vec3::Unit(c - 3));
  }
}

// Perturbs local velocity coordinate k of the pair by eps.
inline void perturb_velocity(BodyKinematics& bi, BodyKinematics& bj, int k, double eps) {
  BodyKinematics& b = k < 6 ? bi : bj;
  const int c = k % 6;
  if (c < 3) {
    b.v_W(c) += eps;
  } else {
    b.w_B(c - 3) += eps;
  }
}

// ∂F/∂q_loc by central differences, F: (bi, bj) → R^m.
inline MatX jacobian_q(const std::function<VecX(const BodyKinematics&, const BodyKinematics&)>& F,
                       const BodyKinematics& bi, const BodyKinematics& bj, double eps = 1e-6) {
  const VecX f0 = F(bi, bj);
  MatX J(f0.size(), 12);
  for (int k = 0; k < 12; ++k) {
    BodyKinematics ip = bi, jp = bj, im = bi, jm = bj;
    perturb(ip, jp, k, eps);
    perturb(im, jm, k, -eps);
    J.col(k) = (F(ip, jp) - F(im, jm)) / (2.0 * eps);
  }
  return J;
}

// ∂F/∂v_loc by central differences.
inline MatX jacobian_v(const std::function<VecX(const BodyKinematics&, const BodyKinematics&)>& F,
                       const BodyKinematics& bi, const BodyKinematics& bj, double eps = 1e-6) {
  const VecX f0 = F(bi, bj);
  MatX J(f0.size(), 12);
  for (int k = 0; k < 12; ++k) {
    BodyKinematics ip = bi, jp = bj, im = bi, jm = bj;
    perturb_velocity(ip, jp, k, eps);
    perturb_velocity(im, jm, k, -eps);
    J.col(k) = (F(ip, jp) - F(im, jm)) / (2.0 * eps);
  }
  return J;
}

// Advances a pair along its own velocity for time dt (x + v dt, R exp(Ω dt)) — used to check
// time derivatives (Φ̇ = B v, ζ) by differencing along a trajectory.
inline void advance(BodyKinematics& b, double dt) {
  b.x_W += dt * b.v_W;
  b.R_WB = b.R_WB * so3::exp(dt * b.w_B);
}

}  // namespace cs::fd
