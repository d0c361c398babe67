// A planar pendulum chain for the side-by-side benchmark with MuJoCo (bench/peers/): N slender
// links in the x–z plane joined by revolute joints about y, the first hinged to ground at the
// origin, released from rest under gravity. The same mechanism as MuJoCo's nested hinges, which
// pendulum_chain_model.hpp's spatial chain of spherical joints is not.
#pragma once

#include <cmath>
#include <string>

#include "clearsim/model/model_builder.hpp"

namespace cs::bench {

struct PlanarChainParameters {
  double link_length = 0.1;   // L [m], joint to joint
  double link_mass = 1.0;     // m [kg]
  double link_radius = 0.01;  // r [m] of the solid cylinder used for the inertia
  double tilt = 0.3;          // initial angle of the straight chain below horizontal [rad]
};

// Solid-cylinder inertia about the centre of mass, axis along the link: (axial, cross, cross).
inline Vec3 planar_link_inertia(const PlanarChainParameters& p) {
  const double m = p.link_mass, r = p.link_radius, L = p.link_length;
  return Vec3(0.5 * m * r * r, m * (3.0 * r * r + L * L) / 12.0, m * (3.0 * r * r + L * L) / 12.0);
}

inline Model planar_pendulum_chain(int num_links, const PlanarChainParameters& p = {}) {
  Model m;
  m.name = "planar_chain_" + std::to_string(num_links);
  m.gravity_W = Vec3(0.0, 0.0, -9.81);
  const Vec3 dir_W(std::cos(p.tilt), 0.0, -std::sin(p.tilt));
  // Body x along the link: a rotation about y by +tilt maps (1, 0, 0) to dir_W.
  const Mat3 R_WB = Eigen::AngleAxisd(p.tilt, Vec3::UnitY()).toRotationMatrix();
  const double L = p.link_length;
  int previous = kGround;
  for (int k = 0; k < num_links; ++k) {
    Body b;
    b.name = "link" + std::to_string(k);
    b.mass = p.link_mass;
    b.inertia_B = planar_link_inertia(p).asDiagonal();
    b.R0_WB = R_WB;
    b.x0_W = (k + 0.5) * L * dir_W;
    const int body = add_body(m, b);
    add_joint(m, "joint" + std::to_string(k), joints::JointType::kRevolute, previous, body,
              k * L * dir_W, Vec3::UnitY());
    previous = body;
  }
  return m;
}

}  // namespace cs::bench
