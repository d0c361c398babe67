// Rigid body and marker descriptions (immutable during a run).
#pragma once

#include <string>

#include "clearsim/math/types.hpp"

namespace cs {

// A rigid body on R³ × SO(3). Its generalized velocity is [v_W; w_B]: the velocity of the centre
// of mass in the world frame and the angular velocity Ω in the body frame, so the mass matrix is
// the constant diag(m I, J_B).
struct Body {
  std::string name;
  double mass = 0.0;                        // m [kg], > 0
  Mat3 inertia_B = Mat3::Zero();            // J about the centre of mass, body frame [kg·m²], SPD
  Vec3 x0_W = Vec3::Zero();                 // initial (approximate) CoM position [m]
  Mat3 R0_WB = Mat3::Identity();            // initial (approximate) orientation
  Vec3 v0_W = Vec3::Zero();                 // initial CoM velocity guess [m/s]
  Vec3 w0_W = Vec3::Zero();                 // initial angular velocity guess, world frame [rad/s]
  bool v0_prescribed = false;               // v0_W is imposed exactly by the velocity assembly
  bool w0_prescribed = false;               // w0_W is imposed exactly by the velocity assembly
};

// A frame fixed on a body (or on ground, body = kGround): origin p_B and orientation R_BM, both in
// the body frame. For ground the body frame is the world frame.
struct Marker {
  int body = kGround;
  Vec3 p_B = Vec3::Zero();      // marker origin in body coordinates [m]
  Mat3 R_BM = Mat3::Identity(); // marker axes in body coordinates
};

}  // namespace cs
