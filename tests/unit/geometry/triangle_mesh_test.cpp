// Mass properties of closed meshes against closed forms, and the topology checks on meshes
// broken in each way the checker reports.
#include "clearsim/geometry/triangle_mesh.hpp"

#include <gtest/gtest.h>

#include "clearsim/geometry/mesh_check.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"

namespace cs {
namespace {

TEST(TriangleMesh, BoxMassPropertiesAreExact) {
  TriangleMesh box = box_mesh(Vec3(2, 3, 4));
  for (Vec3& v : box.vertices) v += Vec3(1, -2, 0.5);
  const MassProperties mp = mass_properties(box);
  EXPECT_NEAR(mp.volume, 24.0, 1e-12);
  EXPECT_LT((mp.centroid - Vec3(1, -2, 0.5)).norm(), 1e-12);
  const Mat3 expected =
      Vec3(24.0 / 12 * (9 + 16), 24.0 / 12 * (4 + 16), 24.0 / 12 * (4 + 9)).asDiagonal();
  EXPECT_LT((mp.inertia_about_centroid - expected).norm(), 1e-11);
  EXPECT_NEAR(surface_area(box), 2 * (6 + 8 + 12), 1e-12);
  const AxisAlignedBox bb = bounding_box(box);
  EXPECT_LT((bb.lower - Vec3(0, -3.5, -1.5)).norm(), 1e-15);
  EXPECT_LT((face_normal(box, 0) - Vec3(0, 0, -1)).norm(), 1e-15);
  EXPECT_TRUE(check_mesh(box).valid_solid());
}

TEST(TriangleMesh, SphereConvergesToTheBall) {
  const double r = 0.5;
  double previous_error = 1.0;
  for (int s = 2; s <= 5; ++s) {
    const TriangleMesh sphere = sphere_mesh(r, s);
    ASSERT_TRUE(check_mesh(sphere).valid_solid());
    const MassProperties mp = mass_properties(sphere);
    const double v = 4.0 / 3.0 * M_PI * r * r * r;
    const double error = 1 - mp.volume / v;
    EXPECT_GT(error, 0.0);                   // inscribed
    EXPECT_LT(error, 0.3 * previous_error);  // about fourfold per subdivision
    previous_error = error;
    EXPECT_NEAR(mp.inertia_about_centroid(0, 0) / (0.4 * mp.volume * r * r), 1.0, 4 * error);
  }
  EXPECT_LT(previous_error, 2e-3);
}

TEST(MeshCheck, OpenMeshListsTheOpenEdges) {
  TriangleMesh box = box_mesh(Vec3::Ones());
  box.triangles.pop_back();  // a hole: three edges lose their second triangle
  const MeshReport r = check_mesh(box);
  EXPECT_FALSE(r.closed());
  EXPECT_EQ(r.open_edges.size(), 3u);
  EXPECT_FALSE(r.valid_solid());
  ASSERT_FALSE(r.problems().empty());
  EXPECT_NE(r.problems()[0].find("3 open edges"), std::string::npos) << r.problems()[0];
}

TEST(MeshCheck, FlippedTriangleIsReportedByIndex) {
  TriangleMesh box = box_mesh(Vec3::Ones());
  std::swap(box.triangles[5][1], box.triangles[5][2]);
  const MeshReport r = check_mesh(box);
  EXPECT_TRUE(r.closed());
  EXPECT_EQ(r.misoriented_triangles, std::vector<int>{5});
  EXPECT_FALSE(r.valid_solid());
}

TEST(MeshCheck, InwardMeshIsReported) {
  TriangleMesh box = box_mesh(Vec3::Ones());
  for (auto& t : box.triangles) std::swap(t[1], t[2]);
  const MeshReport r = check_mesh(box);
  EXPECT_TRUE(r.closed());
  EXPECT_TRUE(r.consistently_oriented());
  EXPECT_TRUE(r.inward);
  EXPECT_NEAR(r.volume, -1.0, 1e-12);
}

TEST(MeshCheck, DegenerateAndDuplicatedTrianglesAreReportedByIndex) {
  TriangleMesh box = box_mesh(Vec3::Ones());
  box.triangles.push_back(box.triangles[3]);  // 12: duplicate of 3
  box.vertices.push_back(0.5 * (box.vertices[0] + box.vertices[1]));
  box.triangles.push_back({0, 1, 8});  // 13: zero area (8 lies on the edge 0–1)
  box.triangles.push_back({2, 2, 3});  // 14: repeated vertex
  const MeshReport r = check_mesh(box);
  ASSERT_EQ(r.duplicated_triangles.size(), 1u);
  EXPECT_EQ(r.duplicated_triangles[0], (std::array<int, 2>{3, 12}));
  EXPECT_EQ(r.degenerate_triangles, (std::vector<int>{13, 14}));
  EXPECT_FALSE(r.valid_solid());
}

TEST(MeshCheck, NonFiniteVerticesAreReported) {
  TriangleMesh box = box_mesh(Vec3::Ones());
  box.vertices[4].y() = std::nan("");
  const MeshReport r = check_mesh(box);
  EXPECT_EQ(r.nonfinite_vertices, std::vector<int>{4});
  EXPECT_FALSE(r.valid_solid());
}

TEST(MeshCheck, EmptyMeshIsNoSolid) { EXPECT_FALSE(check_mesh(TriangleMesh{}).valid_solid()); }

}  // namespace
}  // namespace cs
