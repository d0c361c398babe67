// Bounding-volume hierarchy of a triangle mesh, built once in the mesh's own frame, and the two
// queries mesh contact needs from it. The hierarchy and its traversals are FCL's (Debian
// libfcl-dev, docs/contact-meshes-and-gears.md "Mesh contact"), in the FCL plugin
// (plugins/fcl_plugin.cpp, io/plugin.hpp): a model without meshes never loads FCL.
#pragma once

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs {

// A rigid placement of a mesh frame M in the world: p_W = R_WM p_M + p_WM.
struct MeshPose {
  Mat3 R_WM = Mat3::Identity();
  Vec3 p_WM = Vec3::Zero();
};

// The pose of mesh P's frame in mesh O's frame: a point q of P is at M q + c in O's frame.
struct RelativePose {
  Mat3 M = Mat3::Identity();
  Vec3 c = Vec3::Zero();
};
inline RelativePose relative_pose(const MeshPose& P, const MeshPose& O) {
  return {O.R_WM.transpose() * P.R_WM, O.R_WM.transpose() * (P.p_WM - O.p_WM)};
}

// An oriented box in a mesh frame: centre + axes · (±half).
struct MeshBox {
  Mat3 axes = Mat3::Identity();  // columns: the box's unit axes
  Vec3 centre = Vec3::Zero();
  Vec3 half = Vec3::Zero();  // half extents along the axes
  std::array<Vec3, 8> corners() const;
};

// A triangle pair (a's triangle, b's triangle) whose distance was at most a margin.
struct CandidatePair {
  int a = -1, b = -1;
  double distance = 0.0;  // their distance at the poses of the search [m]
};

// A piece of a mesh: the triangles under one node of its hierarchy and that node's box.
struct MeshPatch {
  MeshBox box;                 // mesh frame
  std::vector<int> triangles;  // indices into mesh.triangles
};

struct NearestTriangle {
  int triangle = -1;            // index into mesh.triangles, −1 if the mesh is empty
  Vec3 closest = Vec3::Zero();  // closest point of that triangle, mesh frame [m]
};

class MeshBvh {
 public:
  // Builds the hierarchy (oriented/swept-sphere boxes, FCL's OBBRSS) over `mesh`, in its frame.
  explicit MeshBvh(const TriangleMesh& mesh);
  ~MeshBvh();
  MeshBvh(const MeshBvh&) = delete;
  MeshBvh& operator=(const MeshBvh&) = delete;

  // Every pair (triangle of a, triangle of b) that intersects, with the meshes at poses X_a and
  // X_b, sorted: the pairs of FCL's collide (intersecting_triangles_fcl), from a traversal of
  // FCL's two hierarchies written here (plugins/fcl_collide.hpp). A pair of leaves is decided as
  // FCL decides it, by FCL's box test and triangle test in the same relative frame; above the
  // leaves a pair of boxes is pruned by a sphere test and the boxes' six face axes, each box
  // grown by a rounding slack. Two intersecting triangles share a point inside every box that
  // holds either, so such tests never prune them. Less than half FCL's instructions per step on
  // seed 004's gears (docs/PERFORMANCE.md, "Mesh–mesh contact"). Cost: the boxes the two
  // hierarchies overlap in, i.e. the triangles near contact.
  static std::vector<std::array<int, 2>> intersecting_triangles(const MeshBvh& a,
                                                                const MeshPose& X_a,
                                                                const MeshBvh& b,
                                                                const MeshPose& X_b);
  // The same pairs from FCL's own collide over the two hierarchies (in FCL's order): the
  // reference the tests compare with (tests/unit/contact/mesh_collide_test.cpp).
  static std::vector<std::array<int, 2>> intersecting_triangles_fcl(const MeshBvh& a,
                                                                    const MeshPose& X_a,
                                                                    const MeshBvh& b,
                                                                    const MeshPose& X_b);
  // Every triangle pair whose distance is at most `margin` at the poses X_a, X_b (a superset
  // of intersecting_triangles: the same traversal with each box grown by margin/2), sorted by
  // distance. Cost: the boxes the grown hierarchies overlap in.
  static std::vector<CandidatePair> triangles_within(const MeshBvh& a, const MeshPose& X_a,
                                                     const MeshBvh& b, const MeshPose& X_b,
                                                     double margin);
  // Those of `pairs` that intersect at X_a, X_b, by FCL's own triangle test in the same relative
  // frame as collide(): the same answer intersecting_triangles gives for these pairs.
  static std::vector<std::array<int, 2>> intersecting_among(const MeshBvh& a, const MeshPose& X_a,
                                                            const MeshBvh& b, const MeshPose& X_b,
                                                            const std::vector<CandidatePair>& pairs,
                                                            double max_distance);
  // The hierarchy's boxes `depth` levels below the root (shallower leaves included): a partition
  // of the mesh into at most 2^depth boxes. depth 0: the root box.
  std::vector<MeshBox> boxes(int depth) const;
  // Whether two boxes (each in its mesh's frame, the meshes at X_a and X_b) come within
  // `distance` of each other (false means farther apart; true may be a near miss).
  static bool boxes_within(const MeshBox& a, const MeshPose& X_a, const MeshBox& b,
                           const MeshPose& X_b, double distance);

  // The mesh cut into patches: the largest subtrees of the hierarchy that hold at most
  // `max_triangles` triangles each (every triangle in exactly one patch).
  std::vector<MeshPatch> patches(int max_triangles) const;
  // Appends to `out` every triangle whose leaf box overlaps `box_M` (a box in this mesh's frame):
  // a superset of the triangles that meet the box.
  void triangles_in_box(const MeshBox& box_M, std::vector<int>& out) const;
  // A lower bound on the distance from `box_M` (this mesh's frame) to this mesh's triangles: the
  // least separation of the box from a leaf box along one of their 15 separating axes (a
  // projection on a unit axis never lengthens a distance), by branch and bound over the
  // hierarchy, at most `cap` (nodes at least that far are not opened: a far box costs a few
  // tests). Returns early, with some value below `floor`, once a leaf box is found closer than
  // `floor`: then it is no bound. 0 when the box meets a leaf box.
  double clearance(const MeshBox& box_M, double floor, double cap) const;

  // The triangle nearest to the point p_M (mesh frame) and its closest point on it (branch and
  // bound over the hierarchy's boxes: cost ~ log of the triangle count). `hint`, a triangle
  // likely to be near (e.g. a neighbouring vertex's), only bounds the search from the start: the
  // answer is the same triangle as without it, ties included.
  NearestTriangle nearest(const Vec3& p_M, int hint = -1) const;

 private:
  std::unique_ptr<class MeshBvhTree> tree_;  // the plugin's hierarchy (mesh_bvh_plugin.hpp)
};

// Closest point of the triangle (a, b, c) to p (Ericson, Real-Time Collision Detection §5.1.5).
// Inline: the FCL plugin's nearest() uses it too (io/plugin.hpp).
inline Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace cs
