// Bounding-volume hierarchy of a triangle mesh, built once in the mesh's own frame, and the two
// queries mesh contact needs from it. The hierarchy and its traversals are FCL's (Debian
// libfcl-dev, docs/ARCHITECTURE.md "Mesh contact"); this header keeps FCL's templates out of the
// rest of clearsim.
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
  // X_b. Cost: the boxes the two hierarchies overlap in, i.e. the triangles near contact.
  static std::vector<std::array<int, 2>> intersecting_triangles(const MeshBvh& a,
                                                                const MeshPose& X_a,
                                                                const MeshBvh& b,
                                                                const MeshPose& X_b);
  // The triangle nearest to the point p_M (mesh frame) and its closest point on it (branch and
  // bound over the hierarchy's boxes: cost ~ log of the triangle count).
  NearestTriangle nearest(const Vec3& p_M) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Closest point of the triangle (a, b, c) to p (Ericson, Real-Time Collision Detection §5.1.5).
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace cs
