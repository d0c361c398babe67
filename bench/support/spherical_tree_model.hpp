// Spatial trees of slender links on spherical joints for the scaling benchmarks and the Simbody
// peer: a binary tree (body k hangs from body (k − 1)/2) and a chain whose far end is joined to
// ground by one more spherical joint (a loop). One description, SphericalTree, gives both the
// clearsim model and the peer's (bench/peers/simbody_tree.hpp), so the two integrate the same
// bodies. Each link has its body frame's x along the link, from its joint to its far end, where
// its children hang; released from rest under gravity (−z).
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "clearsim/model/model_builder.hpp"

namespace cs::bench {

struct SphericalTree {
  struct Link {
    int parent = -1;            // −1: ground
    Vec3 joint = Vec3::Zero();  // joint point, world [m]
    Vec3 dir = Vec3::UnitX();   // unit direction of the link, world
    double length = 0.05;       // [m]
  };
  std::vector<Link> links;     // parents before children
  double link_mass = 0.1;      // [kg]
  double link_radius = 0.005;  // of the solid cylinder giving the inertia [m]
  bool closed = false;         // the last link's far end is joined to ground

  Vec3 far_end(int k) const { return links[k].joint + links[k].length * links[k].dir; }
  // Body frame of link k: x along the link.
  Mat3 rotation(int k) const {
    return Eigen::Quaterniond::FromTwoVectors(Vec3::UnitX(), links[k].dir).toRotationMatrix();
  }
  // Central inertia of link k about its body axes [kg m²].
  Vec3 inertia(int k) const {
    const double m = link_mass, r = link_radius, L = links[k].length;
    return Vec3(0.5 * m * r * r, m * (3.0 * r * r + L * L) / 12.0,
                m * (3.0 * r * r + L * L) / 12.0);
  }
};

// A binary tree of n links of 0.05 m: the root leans 0.3 rad below horizontal, the children of
// each link spread to either side and turn with depth, so that the tree moves in space.
inline SphericalTree binary_spherical_tree(int n) {
  SphericalTree tree;
  tree.links.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    SphericalTree::Link& L = tree.links[static_cast<std::size_t>(k)];
    if (k == 0) {
      L.dir = Vec3(std::cos(0.3), 0.2, -std::sin(0.3)).normalized();
      continue;
    }
    L.parent = (k - 1) / 2;
    const int depth = static_cast<int>(std::log2(static_cast<double>(k + 1)));
    const double a = (k % 2 == 1 ? 0.0 : M_PI) + 0.7 * depth;
    L.dir = Vec3(std::cos(a), std::sin(a), -1.5).normalized();
    L.joint = tree.far_end(L.parent);
  }
  return tree;
}

// A chain of n links on a half circle in a vertical plane (with a small out-of-plane wave), from
// the origin to its far end, which a spherical joint holds to ground: 3n − 3 degrees of freedom.
// The links are about 0.05 m long; the half circle is no catenary, so the loop sags and swings.
inline SphericalTree closed_spherical_chain(int n) {
  SphericalTree tree;
  tree.closed = true;
  const double radius = 0.05 * n / M_PI;
  auto point = [&](int k) {
    const double phi = M_PI * k / n;
    return Vec3(radius * (1.0 - std::cos(phi)), 0.1 * radius * std::sin(2.0 * phi),
                -radius * std::sin(phi));
  };
  tree.links.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    SphericalTree::Link& L = tree.links[static_cast<std::size_t>(k)];
    L.parent = k - 1;
    L.joint = point(k);
    const Vec3 d = point(k + 1) - point(k);
    L.length = d.norm();
    L.dir = d / L.length;
  }
  return tree;
}

inline Model spherical_tree_model(const SphericalTree& tree, const std::string& name) {
  Model m;
  m.name = name;
  m.gravity_W = Vec3(0.0, 0.0, -9.81);
  const int n = static_cast<int>(tree.links.size());
  for (int k = 0; k < n; ++k) {
    const SphericalTree::Link& L = tree.links[static_cast<std::size_t>(k)];
    Body b;
    b.name = "link" + std::to_string(k);
    b.mass = tree.link_mass;
    b.inertia_B = tree.inertia(k).asDiagonal();
    b.R0_WB = tree.rotation(k);
    b.x0_W = L.joint + 0.5 * L.length * L.dir;
    const int body = add_body(m, b);
    add_joint(m, "joint" + std::to_string(k), joints::JointType::kSpherical,
              L.parent < 0 ? kGround : L.parent, body, L.joint, Vec3::Zero());
  }
  if (tree.closed)
    add_joint(m, "closing", joints::JointType::kSpherical, n - 1, kGround, tree.far_end(n - 1),
              Vec3::Zero());
  return m;
}

}  // namespace cs::bench
