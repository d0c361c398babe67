// Seed 000's slider–crank (reference.md §6a/§6b) with ideal joints, built in C++ for the
// benchmarks. A copy of tests/support/slider_crank.hpp's builder: benchmarks do not depend on the
// test tree.
#pragma once

#include <cmath>

#include "clearsim/model/model_builder.hpp"

namespace cs::bench {

inline constexpr double kCrankOmega = 5000.0 * 2.0 * M_PI / 60.0;  // crank speed [rad/s]

// Crank 0.05 m, rod 0.12 m, slider on a prismatic guide; the crank is driven at `omega`.
inline Model slider_crank(double omega = kCrankOmega) {
  Model m;
  auto body = [&](const char* name, double mass, double J, Vec3 x) {
    Body b;
    b.name = name;
    b.mass = mass;
    b.inertia_B = J * Mat3::Identity();
    b.x0_W = x;
    return add_body(m, b);
  };
  const int crank = body("crank", 0.30, 1e-5, Vec3(0.025, 0, 0));
  const int rod = body("rod", 0.21, 2.5e-4, Vec3(0.11, 0, 0));
  const int slider = body("slider", 0.14, 1e-4, Vec3(0.17, 0, 0));
  using joints::JointType;
  add_joint(m, "pivot", JointType::kRevolute, kGround, crank, Vec3::Zero(), Vec3::UnitZ());
  add_joint(m, "crank_rod", JointType::kSpherical, crank, rod, Vec3(0.05, 0, 0), Vec3::Zero());
  add_joint(m, "rod_slider", JointType::kSpherical, rod, slider, Vec3(0.17, 0, 0), Vec3::Zero());
  add_joint(m, "guide", JointType::kPrismatic, kGround, slider, Vec3(0.17, 0, 0), Vec3::UnitX());
  add_driver(m, "drive", "pivot", joints::JointDriver::Motion::kRotation,
             joints::JointDriver::Given::kVelocity, TimeFunction::constant(omega));
  return m;
}

}  // namespace cs::bench
