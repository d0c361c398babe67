// Seeded random poses and velocities for tangent tests.
#pragma once

#include <random>

#include "clearsim/elements/element.hpp"
#include "clearsim/math/so3.hpp"

namespace cs::testing {

// Three draws of u in a fixed order, z first. The order of evaluation of a call's arguments is
// unspecified: written as Vec3(u(rng), u(rng), u(rng)), GCC draws z first and Clang x first, so
// the two compilers tested different cases. z first keeps the cases the tests were written on.
template <class Distribution>
Vec3 draw_vec3(Distribution& u, std::mt19937& rng) {
  const double z = u(rng), y = u(rng), x = u(rng);
  return Vec3(x, y, z);
}

inline BodyKinematics random_body(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  BodyKinematics b;
  b.x_W = scale * draw_vec3(u, rng);
  b.R_WB = so3::exp(2.0 * draw_vec3(u, rng));
  b.v_W = draw_vec3(u, rng);
  b.w_B = 3.0 * draw_vec3(u, rng);
  return b;
}

inline Vec3 random_vec(std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return scale * draw_vec3(u, rng);
}

}  // namespace cs::testing
