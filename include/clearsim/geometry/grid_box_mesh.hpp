// A box whose faces are regular grids (closed, outward oriented, shared vertices): a plane of
// chosen resolution for contact tests and benches (a thin slab), or a finely meshed box.
#pragma once

#include <Eigen/Core>

#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs {

// Box of edge lengths `size` [m] centred on the origin, with cells[a] grid cells along axis a
// (each ≥ 1): 4(c_x c_y + c_y c_z + c_z c_x) triangles.
TriangleMesh grid_box_mesh(const Vec3& size, const Eigen::Vector3i& cells);

}  // namespace cs
