// Open trees and a closed chain for the joint-coordinate tests (JointTree, ArticulatedSolver,
// TreeAlpha): bodies hung below their parents with seeded random joint kinds, axes and inertias.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "support/random_state.hpp"

namespace cs::testing {

// prefix + k (appended: GCC 12 reports a false -Wrestrict on "literal" + std::string here).
inline std::string numbered(const char* prefix, std::size_t k) {
  std::string name(prefix);
  name.append(std::to_string(k));
  return name;
}

// Which joints a tree is made of.
enum class TreeJoints { kRevolute, kMixed };  // kMixed: revolute, prismatic, spherical, fixed

// Body k hangs below body parent[k] (−1: ground; parent[k] < k), 0.1 m further down and a little
// aside, through a joint halfway; kinds drawn from `joints` (a fixed joint never at the root).
inline Model random_tree(const std::vector<int>& parent, unsigned seed, TreeJoints joints) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> kind(0, 9);
  Model m;
  m.gravity_W = Vec3(0.0, 0.0, -9.81);
  std::vector<Vec3> x0;
  for (std::size_t k = 0; k < parent.size(); ++k) {
    Body b;
    b.name = numbered("b", k);
    b.mass = 0.2 + 0.1 * std::abs(random_vec(rng)(0));
    const Vec3 d = random_vec(rng, 1e-3).cwiseAbs() + Vec3::Constant(2e-4);
    const Mat3 R = so3::exp(random_vec(rng, 2.0));
    b.inertia_B = R * d.asDiagonal() * R.transpose();
    b.R0_WB = so3::exp(random_vec(rng, 0.5));
    const Vec3 above = parent[k] < 0 ? Vec3::Zero() : x0[parent[k]];
    b.x0_W = above + Vec3(0.0, 0.0, -0.1) + random_vec(rng, 0.05);
    x0.push_back(b.x0_W);
    const int body = add_body(m, b);
    const int up = parent[k] < 0 ? kGround : parent[k];
    const Vec3 at = 0.5 * (above + b.x0_W);
    const Vec3 axis = random_vec(rng).normalized();
    using joints::JointType;
    JointType type = JointType::kRevolute;
    if (joints == TreeJoints::kMixed) {
      const int draw = kind(rng);
      type = draw < 4                    ? JointType::kRevolute
             : draw < 6                  ? JointType::kPrismatic
             : draw < 9 || up == kGround ? JointType::kSpherical
                                         : JointType::kFixed;
    }
    add_joint(m, numbered("j", k), type, up, body, at, axis);
  }
  return m;
}

inline std::vector<int> chain_parents(int n) {
  std::vector<int> parent(n);
  for (int k = 0; k < n; ++k) parent[k] = k - 1;
  return parent;
}

// A complete binary tree of n bodies (body k below (k − 1)/2).
inline std::vector<int> binary_parents(int n) {
  std::vector<int> parent(n);
  for (int k = 0; k < n; ++k) parent[k] = k == 0 ? -1 : (k - 1) / 2;
  return parent;
}

// A chain of n links joined by spherical joints, hung from ground at both ends along a half
// circle of 0.4 m diameter: the last joint (to ground) closes the loop and keeps its 3 rows.
inline Model closed_spherical_chain(int n) {
  Model m;
  m.gravity_W = Vec3(0.0, 0.0, -9.81);
  const double radius = 0.2;
  auto point = [&](int k) {
    const double phi = M_PI * k / n;
    return Vec3(radius * (1.0 - std::cos(phi)), 0.05 * std::sin(2.0 * phi),
                -radius * std::sin(phi));
  };
  int previous = kGround;
  for (int k = 0; k < n; ++k) {
    Body b;
    b.name = numbered("link", static_cast<std::size_t>(k));
    b.mass = 0.1;
    const double len = (point(k + 1) - point(k)).norm();
    b.inertia_B = Vec3(1e-6, b.mass * len * len / 12.0, b.mass * len * len / 12.0).asDiagonal();
    b.x0_W = 0.5 * (point(k) + point(k + 1));
    const int body = add_body(m, b);
    add_joint(m, numbered("joint", static_cast<std::size_t>(k)), joints::JointType::kSpherical,
              previous, body, point(k), Vec3::UnitZ());
    previous = body;
  }
  add_joint(m, "closing", joints::JointType::kSpherical, previous, kGround, point(n),
            Vec3::UnitZ());
  return m;
}

}  // namespace cs::testing
