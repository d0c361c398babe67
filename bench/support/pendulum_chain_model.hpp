// A spatial pendulum chain for scaling benchmarks: N slender links in series, the first hinged to
// ground, each joined to the previous one by a spherical joint (3 rows per joint, no redundant
// rows: a serial chain closes no loop), released from rest under gravity.
#pragma once

#include <string>

#include "clearsim/model/model_builder.hpp"

namespace cs::bench {

struct ChainParameters {
  double link_length = 0.05;   // L [m], joint to joint
  double link_mass = 0.1;      // m [kg]
  double link_radius = 0.005;  // r [m] of the solid cylinder used for the inertia
  double tilt = 0.3;           // initial angle of the straight chain below horizontal [rad]
};

// Links start as a straight line from the origin, tilted by p.tilt below the x axis in the x–z
// plane (gravity −z), and with a small y component so the motion is spatial, not planar.
inline Model pendulum_chain(int num_links, const ChainParameters& p = {}) {
  Model m;
  m.name = "pendulum_chain_" + std::to_string(num_links);
  m.gravity_W = Vec3(0.0, 0.0, -9.81);
  const Vec3 dir_W = Vec3(std::cos(p.tilt), 0.2, -std::sin(p.tilt)).normalized();
  // Body frame x along the link: R0_WB maps (1, 0, 0) to dir_W.
  const Mat3 R_WB = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitX(), dir_W).toRotationMatrix();
  const double L = p.link_length, mass = p.link_mass, r = p.link_radius;
  const double J_axial = 0.5 * mass * r * r;
  const double J_cross = mass * (3.0 * r * r + L * L) / 12.0;
  int previous = kGround;
  for (int k = 0; k < num_links; ++k) {
    Body b;
    b.name = "link" + std::to_string(k);
    b.mass = mass;
    b.inertia_B = Vec3(J_axial, J_cross, J_cross).asDiagonal();
    b.R0_WB = R_WB;
    b.x0_W = (k + 0.5) * L * dir_W;
    const int body = add_body(m, b);
    add_joint(m, "joint" + std::to_string(k), joints::JointType::kSpherical, previous, body,
              k * L * dir_W, Vec3::Zero());
    previous = body;
  }
  return m;
}

}  // namespace cs::bench
