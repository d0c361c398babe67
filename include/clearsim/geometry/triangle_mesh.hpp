// A triangle mesh: shared vertices and index triangles, with the per-face data and the solid
// properties (volume, centroid, inertia) of the region a closed mesh bounds. Plain data; checks of
// the topology live in mesh_check.hpp, files in mesh_io.hpp.
#pragma once

#include <array>
#include <vector>

#include "clearsim/math/types.hpp"

namespace cs {

// Vertices in the mesh's own frame (a body frame once a body carries it) and triangles as
// 0-based vertex indices. A triangle's vertices run counter-clockwise seen from outside, so the
// right-hand normal (v1 − v0) × (v2 − v0) points out of the solid.
struct TriangleMesh {
  std::vector<Vec3> vertices;                 // [m]
  std::vector<std::array<int, 3>> triangles;  // vertex indices, counter-clockwise from outside

  int num_vertices() const { return static_cast<int>(vertices.size()); }
  int num_triangles() const { return static_cast<int>(triangles.size()); }
};

struct AxisAlignedBox {
  Vec3 lower = Vec3::Zero();  // [m]
  Vec3 upper = Vec3::Zero();  // [m]
};

// Solid properties of the region a closed, outward-oriented mesh bounds, for a density of 1 (so
// the mass equals the volume: multiply the inertia by the density ρ [kg/m³]).
struct MassProperties {
  double volume = 0.0;                         // V [m³]; negative if the mesh is oriented inward
  Vec3 centroid = Vec3::Zero();                // [m]
  Mat3 inertia_about_centroid = Mat3::Zero();  // ∫ (|r|² I − r rᵀ) dV about the centroid [m⁵]
};

// Unit outward normal of triangle t; zero for a degenerate (zero-area) triangle.
Vec3 face_normal(const TriangleMesh& mesh, int t);
std::vector<Vec3> face_normals(const TriangleMesh& mesh);
// Area of triangle t [m²].
double face_area(const TriangleMesh& mesh, int t);
double surface_area(const TriangleMesh& mesh);
AxisAlignedBox bounding_box(const TriangleMesh& mesh);
// Volume, centroid and inertia by the divergence theorem (a signed tetrahedron from the origin
// per triangle). Exact for a closed mesh; meaningless for an open one.
MassProperties mass_properties(const TriangleMesh& mesh);

// Appends `other` to `mesh` (disjoint union, e.g. the two helices of a double-helical gear).
void append_mesh(TriangleMesh& mesh, const TriangleMesh& other);

}  // namespace cs
