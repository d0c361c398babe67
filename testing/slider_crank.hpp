// Seed 000's slider–crank (reference.md §6a/§6b) with ideal joints, built in C++, and its
// closed-form kinematics (reference.md §8.1). Shared by the tests and the benchmarks (both put the
// project root on their include path: #include "testing/slider_crank.hpp").
#pragma once

#include <cmath>

#include "clearsim/model/model_builder.hpp"

namespace cs::testing {

inline constexpr double kCrank = 0.05, kRod = 0.12, kOmega = 5000.0 * 2.0 * M_PI / 60.0;

inline Model slider_crank(double omega = kOmega) {
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

struct SliderKinematics {
  double x, v, a;
};

inline SliderKinematics slider_closed_form(double t, double omega = kOmega) {
  const double r = kCrank, l = kRod, th = omega * t;
  const double sn = std::sin(th), cs_ = std::cos(th);
  const double s = std::sqrt(l * l - r * r * sn * sn);
  SliderKinematics k;
  k.x = r * cs_ + s;
  k.v = -r * omega * sn - r * r * omega * sn * cs_ / s;
  k.a = -r * omega * omega * cs_ -
        r * r * omega * omega * ((cs_ * cs_ - sn * sn) * s * s + r * r * sn * sn * cs_ * cs_) /
            (s * s * s);
  return k;
}

}  // namespace cs::testing
