// Closed, outward-oriented meshes of simple solids, centred on the origin: for tests, examples
// and as contact shapes.
#pragma once

#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs {

// A box with edge lengths `size` [m] (12 triangles).
TriangleMesh box_mesh(const Vec3& size);
// A sphere of radius `radius` [m]: an icosahedron subdivided `subdivisions` times, the vertices
// pushed onto the sphere (20·4^s triangles; inscribed, so its volume is a little below 4πr³/3).
TriangleMesh sphere_mesh(double radius, int subdivisions);

}  // namespace cs
