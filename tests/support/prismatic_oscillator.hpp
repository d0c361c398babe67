// A 1 kg body on a prismatic guide along x, pulled by a spring of stiffness k to ground: from
// rest at x = 1.1 m with free length 1 m, x(t) = 1 + 0.1 cos(√k t). A closed form for the order
// of the integrators (with k = 4π² the period is 1 s).
#pragma once

#include <memory>

#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/model/model_builder.hpp"

namespace cs::testing {

inline Model prismatic_oscillator(double stiffness) {
  Model m;
  Body b;
  b.name = "mass";
  b.mass = 1.0;
  b.inertia_B = Mat3::Identity();
  b.x0_W = Vec3(1.1, 0, 0);
  add_body(m, b);
  add_joint(m, "guide", joints::JointType::kPrismatic, kGround, 0, Vec3(1.1, 0, 0), Vec3::UnitX());
  forces::SpringDamperParams p;
  p.stiffness = stiffness;
  p.free_length = 1.0;
  add_element(m, std::make_unique<forces::TranslationalSpringDamper>(
                     "spring", marker_at(m, kGround, Vec3::Zero(), Mat3::Identity()),
                     marker_at(m, 0, Vec3(1.1, 0, 0), Mat3::Identity()), p));
  return m;
}

}  // namespace cs::testing
