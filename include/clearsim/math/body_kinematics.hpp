// What element kernels read and write, below the element layer so that math tools (automatic
// differentiation, finite differences on the group) can use them: a body's pose and velocity, and
// the generalized force block on an element's two bodies with its tangents. The 12 local
// coordinates are [δx_i (world), δΘ_i (body i), δx_j (world), δΘ_j (body j)], matching the
// body velocity layout [v_W; w_B] (elements/element.hpp).
#pragma once

#include "clearsim/math/types.hpp"

namespace cs {

using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat12 = Eigen::Matrix<double, 12, 12>;

// Pose and velocity of one body as the kernels read them. Ground: identity and zeros.
struct BodyKinematics {
  Vec3 x_W = Vec3::Zero();       // centre-of-mass position [m]
  Mat3 R_WB = Mat3::Identity();  // orientation, body to world
  Vec3 v_W = Vec3::Zero();       // centre-of-mass velocity [m/s], world frame
  Vec3 w_B = Vec3::Zero();       // angular velocity Ω [rad/s], body frame
};

// Generalized force on the two bodies and its tangents.
struct ForceBlock {
  Vec12 f = Vec12::Zero();      // [F_i (world), τ_i (body i), F_j (world), τ_j (body j)]
  Mat12 df_dq = Mat12::Zero();  // ∂f/∂q_loc
  Mat12 df_dv = Mat12::Zero();  // ∂f/∂v_loc
};

}  // namespace cs
