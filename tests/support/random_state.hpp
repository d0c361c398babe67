// Seeded random poses and velocities for tangent tests.
#pragma once

#include <random>

#include "clearsim/elements/element.hpp"
#include "clearsim/math/so3.hpp"

namespace cs::testing {

inline BodyKinematics random_body(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  BodyKinematics b;
  b.x_W = scale * Vec3(u(rng), u(rng), u(rng));
  b.R_WB = so3::exp(2.0 * Vec3(u(rng), u(rng), u(rng)));
  b.v_W = Vec3(u(rng), u(rng), u(rng));
  b.w_B = 3.0 * Vec3(u(rng), u(rng), u(rng));
  return b;
}

inline Vec3 random_vec(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return scale * Vec3(u(rng), u(rng), u(rng));
}

}  // namespace cs::testing
