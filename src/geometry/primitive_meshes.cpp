#include "clearsim/geometry/primitive_meshes.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace cs {

TriangleMesh box_mesh(const Vec3& size) {
  TriangleMesh mesh;
  for (int k = 0; k < 8; ++k)  // vertex k has coordinate bits (x, y, z) = (k&1, k&2, k&4)
    mesh.vertices.emplace_back((k & 1 ? 0.5 : -0.5) * size.x(), (k & 2 ? 0.5 : -0.5) * size.y(),
                               (k & 4 ? 0.5 : -0.5) * size.z());
  mesh.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},   // −z, +z
                    {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},   // −y, +y
                    {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};  // −x, +x
  return mesh;
}

namespace {

// Splits every triangle into four through its edge midpoints, shared between neighbours.
TriangleMesh subdivide(const TriangleMesh& in) {
  TriangleMesh out;
  out.vertices = in.vertices;
  std::map<std::pair<int, int>, int> midpoint;
  auto middle = [&](int a, int b) {
    const auto key = std::minmax(a, b);
    const auto [it, inserted] = midpoint.emplace(key, out.num_vertices());
    if (inserted) out.vertices.push_back(0.5 * (in.vertices[a] + in.vertices[b]));
    return it->second;
  };
  for (const auto& t : in.triangles) {
    const int ab = middle(t[0], t[1]), bc = middle(t[1], t[2]), ca = middle(t[2], t[0]);
    out.triangles.push_back({t[0], ab, ca});
    out.triangles.push_back({t[1], bc, ab});
    out.triangles.push_back({t[2], ca, bc});
    out.triangles.push_back({ab, bc, ca});
  }
  return out;
}

}  // namespace

TriangleMesh sphere_mesh(double radius, int subdivisions) {
  const double g = (1 + std::sqrt(5.0)) / 2;  // golden ratio
  TriangleMesh mesh;
  mesh.vertices = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                   {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
  mesh.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                    {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                    {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                    {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (int s = 0; s < subdivisions; ++s) mesh = subdivide(mesh);
  for (Vec3& v : mesh.vertices) v = radius * v.normalized();
  return mesh;
}

}  // namespace cs
