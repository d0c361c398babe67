#include "clearsim/geometry/triangle_mesh.hpp"

#include <limits>

namespace cs {

namespace {

Vec3 area_vector(const TriangleMesh& mesh, int t) {  // (v1 − v0) × (v2 − v0), twice the area
  const auto& tri = mesh.triangles[t];
  const Vec3& v0 = mesh.vertices[tri[0]];
  return (mesh.vertices[tri[1]] - v0).cross(mesh.vertices[tri[2]] - v0);
}

}  // namespace

Vec3 face_normal(const TriangleMesh& mesh, int t) {
  const Vec3 n = area_vector(mesh, t);
  const double len = n.norm();
  return len > 0.0 ? Vec3(n / len) : Vec3::Zero();
}

std::vector<Vec3> face_normals(const TriangleMesh& mesh) {
  std::vector<Vec3> normals(mesh.triangles.size());
  for (int t = 0; t < mesh.num_triangles(); ++t) normals[t] = face_normal(mesh, t);
  return normals;
}

double face_area(const TriangleMesh& mesh, int t) { return 0.5 * area_vector(mesh, t).norm(); }

double surface_area(const TriangleMesh& mesh) {
  double area = 0.0;
  for (int t = 0; t < mesh.num_triangles(); ++t) area += face_area(mesh, t);
  return area;
}

AxisAlignedBox bounding_box(const TriangleMesh& mesh) {
  if (mesh.vertices.empty()) return {};
  AxisAlignedBox box;
  box.lower = Vec3::Constant(std::numeric_limits<double>::infinity());
  box.upper = -box.lower;
  for (const Vec3& v : mesh.vertices) {
    box.lower = box.lower.cwiseMin(v);
    box.upper = box.upper.cwiseMax(v);
  }
  return box;
}

// Each triangle (a, b, c) and the origin span a signed tetrahedron of volume det[a b c]/6. Its
// second moment ∫ r rᵀ dV is det · A C₀ Aᵀ with A = [a b c] and C₀ the canonical tetrahedron's
// covariance (2 on the diagonal, 1 off it, over 120). Summing gives the solid's moments.
MassProperties mass_properties(const TriangleMesh& mesh) {
  Mat3 canonical;
  canonical << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  canonical /= 120.0;
  double six_volume = 0.0;
  Vec3 first_moment_x24 = Vec3::Zero();  // 24 ∫ r dV
  Mat3 second_moment = Mat3::Zero();     // ∫ r rᵀ dV about the origin
  for (const auto& tri : mesh.triangles) {
    Mat3 a;
    a << mesh.vertices[tri[0]], mesh.vertices[tri[1]], mesh.vertices[tri[2]];
    const double det = a.determinant();
    six_volume += det;
    first_moment_x24 += det * (a.col(0) + a.col(1) + a.col(2));
    second_moment += det * a * canonical * a.transpose();
  }
  MassProperties p;
  p.volume = six_volume / 6.0;
  if (p.volume == 0.0) return p;
  p.centroid = first_moment_x24 / (24.0 * p.volume);
  const Mat3 about_centroid = second_moment - p.volume * p.centroid * p.centroid.transpose();
  p.inertia_about_centroid = about_centroid.trace() * Mat3::Identity() - about_centroid;
  return p;
}

void append_mesh(TriangleMesh& mesh, const TriangleMesh& other) {
  const int offset = mesh.num_vertices();
  mesh.vertices.insert(mesh.vertices.end(), other.vertices.begin(), other.vertices.end());
  for (const auto& tri : other.triangles)
    mesh.triangles.push_back({tri[0] + offset, tri[1] + offset, tri[2] + offset});
}

}  // namespace cs
