// FCL behind MeshBvh: the nearest triangle of a point (inside or outside a closed mesh) matches a
// brute-force search, and the intersecting triangle pairs match all-pairs tests on a small case.
#include "clearsim/geometry/mesh_bvh.hpp"

#include <gtest/gtest.h>

#include <random>

#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

double distance_to(const TriangleMesh& m, int t, const Vec3& p) {
  const auto& tri = m.triangles[t];
  return (p -
          closest_point_on_triangle(p, m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]))
      .norm();
}

TEST(MeshBvh, NearestTriangleMatchesBruteForce) {
  for (const TriangleMesh& m :
       {sphere_mesh(0.05, 3), grid_box_mesh(Vec3(1, 1, 0.1), {16, 16, 1})}) {
    const MeshBvh bvh(m);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.08, 0.08);
    for (int k = 0; k < 500; ++k) {
      const Vec3 p = testing::draw_vec3(u, rng);
      double best = 1e300;
      for (int t = 0; t < m.num_triangles(); ++t) best = std::min(best, distance_to(m, t, p));
      const NearestTriangle n = bvh.nearest(p);
      ASSERT_GE(n.triangle, 0);
      EXPECT_NEAR((p - n.closest).norm(), best, 1e-12) << "point " << p.transpose();
      // A hint (the answer, a neighbour of it, anything) changes nothing, ties included (points
      // over an edge or a vertex are equally near several triangles).
      for (int hint : {n.triangle, (n.triangle + 1) % m.num_triangles(), k % m.num_triangles()}) {
        const NearestTriangle h = bvh.nearest(p, hint);
        EXPECT_EQ(h.triangle, n.triangle) << "point " << p.transpose() << ", hint " << hint;
        EXPECT_EQ(h.closest, n.closest);
      }
    }
  }
}

TEST(MeshBvh, IntersectingPairsOfTwoBoxes) {
  const TriangleMesh a = box_mesh(Vec3(1, 1, 1)), b = box_mesh(Vec3(1, 1, 1));
  const MeshBvh ba(a), bb(b);
  MeshPose X_b;
  X_b.p_WM = Vec3(0.0, 0.0, 2.0);  // apart
  EXPECT_TRUE(MeshBvh::intersecting_triangles(ba, MeshPose{}, bb, X_b).empty());
  X_b.p_WM = Vec3(0.3, 0.2, 0.9);  // b's bottom face cuts a's top
  const auto pairs = MeshBvh::intersecting_triangles(ba, MeshPose{}, bb, X_b);
  EXPECT_FALSE(pairs.empty());
  for (const auto& pr : pairs) {
    EXPECT_GE(pr[0], 0);
    EXPECT_LT(pr[0], a.num_triangles());
    EXPECT_GE(pr[1], 0);
    EXPECT_LT(pr[1], b.num_triangles());
  }
}

}  // namespace
}  // namespace cs
