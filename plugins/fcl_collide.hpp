// The intersecting triangle pairs of two meshes by a traversal of their FCL hierarchies written
// here (MeshBvh::intersecting_triangles): FCL's collide gives the same pairs for 2.7 times the
// instructions on seed 004's gears (docs/PERFORMANCE.md, "Mesh–mesh contact"). Part of the FCL
// plugin (plugins/fcl_plugin.cpp) only.
//
// Why not FCL's collide: near the mesh of two gears the flanks are nearly conformal and the two
// hierarchies' boxes overlap down to the leaves (90 k box pairs for 570 intersecting triangle
// pairs on seed 004's pair); FCL tests each box pair on all fifteen separating axes and computes
// the relative placement of both boxes for every pair (about 620 instructions a pair). Here
//   * a box of b is placed in a's frame once, when the traversal descends into it, and carried
//     on the stack to the pairs below;
//   * above the leaves, a pair is pruned by a sphere test and the six face axes of the two boxes
//     only, each box grown by a rounding slack: the nine edge–edge axes of every pair cost more
//     than the few more pairs they would prune;
//   * a pair of leaves is decided as FCL decides it: FCL's own box test, then FCL's triangle
//     test, in the relative frame FCL computes.
// Why the pairs are FCL's: two triangles that intersect share a point, which lies in every box
// holding either of them, so no pair of their ancestors' boxes is pruned here (the tests are
// conservative, the slack covers their rounding), whatever the order of descent; their leaves
// are then decided by FCL's own tests. A leaf pair FCL never reaches has triangles that do not
// intersect, which FCL's triangle test rejects here too. (Only triangles touching to rounding,
// whose ancestors FCL might prune by rounding, could differ; none do in the tests.)
#pragma once

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/detail/traversal/collision/intersect.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs::fcl_plugin {

using Bvh = fcl::BVHModel<fcl::OBBRSSd>;

// FCL's node encoding (fcl/geometry/bvh/BV_node_base.h) read directly: its accessors are calls
// into libfcl, not inlined (isLeaf() alone was 1.5 % of a step on seed 004's gears). A leaf holds
// first_child = −(triangle + 1); a node's children are first_child and first_child + 1.
inline bool is_leaf(const fcl::BVNodeBase& n) { return n.first_child < 0; }
inline int triangle_of(const fcl::BVNodeBase& n) { return -(n.first_child + 1); }

// A pair of nodes (of a, of b) on the traversal's stack, with b's box placed in a's frame (axes as
// columns, centre).
struct PlacedNode {
  int a = 0, b = 0;
  Mat3 axes;
  Vec3 centre;
};

// Whether box `na` (a's frame) and the placed box of b may overlap: false only if a sphere test
// or one of the six face axes separates them with both grown by `slack`.
inline bool may_overlap(const fcl::OBBd& na, const fcl::OBBd& nb, const PlacedNode& p,
                        double slack) {
  const Vec3 ea = na.extent.array() + slack, eb = nb.extent.array() + slack;
  const Vec3 d = p.centre - na.To;
  const double reach = ea.norm() + eb.norm();
  if (d.squaredNorm() > reach * reach) return false;
  // B: b's axes in the axes of a's box, t: the centres' offset there, a row at a time, so that
  // a pair separated along one of a's axes (half the pairs tested) stops early.
  Mat3 B;
  Vec3 t;
  for (int i = 0; i < 3; ++i) {
    const auto axis = na.axis.col(i);
    B.row(i) = axis.transpose() * p.axes;
    t(i) = axis.dot(d);
    if (std::abs(t(i)) > ea(i) + B.row(i).cwiseAbs().dot(eb)) return false;
  }
  for (int j = 0; j < 3; ++j)
    if (std::abs(t.dot(B.col(j))) > eb(j) + B.col(j).cwiseAbs().dot(ea)) return false;
  return true;
}

// An eighth of a box's surface: what decides which box of a pair is split. FCL splits the one
// with the longer diagonal; on seed 004's gears, whose flank triangles are long slivers, splitting
// the one with the larger faces tests 12 % fewer box pairs (89.7 k against 101.7 k at the steady
// pose).
inline double face_area(const fcl::OBBd& o) {
  const Vec3& e = o.extent;
  return e(0) * e(1) + e(1) * e(2) + e(2) * e(0);
}

// Appends every pair (triangle of a, triangle of b) that FCL's collide reports, b placed in a's
// frame by (R, T) as FCL computes it (fcl::relativeTransform), in traversal order.
inline void intersecting_pairs(const Bvh& a, const TriangleMesh& ma, const Bvh& b,
                               const TriangleMesh& mb, const Mat3& R, const Vec3& T,
                               std::vector<std::array<int, 2>>& out) {
  if (a.getNumBVs() == 0 || b.getNumBVs() == 0) return;
  const auto place = [&](int id, int with) {
    const fcl::OBBd& o = b.getBV(id).bv.obb;
    return PlacedNode{with, id, R * o.axis, R * o.To + T};
  };
  // Far above the rounding of the box tests, far below any geometry: 1e-9 of the scene's size.
  const fcl::OBBd &root_a = a.getBV(0).bv.obb, &root_b = b.getBV(0).bv.obb;
  const double slack = 1e-9 * (1.0 + root_a.extent.norm() + root_a.To.norm() +
                               root_b.extent.norm() + root_b.To.norm() + T.norm());
  std::vector<PlacedNode> stack{place(0, 0)};
  stack.reserve(128);
  while (!stack.empty()) {
    const PlacedNode p = stack.back();
    stack.pop_back();
    const auto &na = a.getBV(p.a), &nb = b.getBV(p.b);
    const bool leaf_a = is_leaf(na), leaf_b = is_leaf(nb);
    const bool may = may_overlap(na.bv.obb, nb.bv.obb, p, slack);
    if (leaf_a && leaf_b) {
      // FCL's BVTesting, where the cheaper test above has not already separated the boxes
      // (whatever it separates, FCL's fifteen axes separate too).
      if (!may || !fcl::overlap(R, T, na.bv, nb.bv)) continue;
      const int pa = triangle_of(na), pb = triangle_of(nb);
      const auto& ta = ma.triangles[static_cast<std::size_t>(pa)];
      const auto& tb = mb.triangles[static_cast<std::size_t>(pb)];
      if (fcl::detail::Intersect<double>::intersect_Triangle(
              ma.vertices[ta[0]], ma.vertices[ta[1]], ma.vertices[ta[2]], mb.vertices[tb[0]],
              mb.vertices[tb[1]], mb.vertices[tb[2]], R, T))
        out.push_back({pa, pb});
      continue;
    }
    if (!may) continue;
    if (leaf_b || (!leaf_a && face_area(na.bv.obb) > face_area(nb.bv.obb))) {
      PlacedNode c = p;
      c.a = na.first_child + 1;
      stack.push_back(c);
      c.a = na.first_child;
      stack.push_back(c);
    } else {
      stack.push_back(place(nb.first_child + 1, p.a));
      stack.push_back(place(nb.first_child, p.a));
    }
  }
}

}  // namespace cs::fcl_plugin
