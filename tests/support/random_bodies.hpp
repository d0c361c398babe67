// Bodies with different masses and full (non-diagonal) SPD inertias, for the tests of the
// mass-weighted saddle-point solvers, and their block-diagonal mass matrix.
#pragma once

#include <random>
#include <string>

#include "clearsim/model/model_builder.hpp"

namespace cs::testing {

inline Model bodies_with_full_inertia(int bodies, unsigned seed) {
  Model m;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int b = 0; b < bodies; ++b) {
    Body body;
    body.name = "body" + std::to_string(b);
    body.mass = 0.3 + b;
    Mat3 A;
    for (int i = 0; i < 9; ++i) A(i / 3, i % 3) = u(rng);
    body.inertia_B = 1e-3 * (A * A.transpose() + Mat3::Identity());
    add_body(m, body);
  }
  return m;
}

inline MatX mass_matrix(const Model& m) {
  MatX M = MatX::Zero(6 * m.num_bodies(), 6 * m.num_bodies());
  for (int b = 0; b < m.num_bodies(); ++b) {
    M.block<3, 3>(6 * b, 6 * b) = m.bodies[b].mass * Mat3::Identity();
    M.block<3, 3>(6 * b + 3, 6 * b + 3) = m.bodies[b].inertia_B;
  }
  return M;
}

}  // namespace cs::testing
