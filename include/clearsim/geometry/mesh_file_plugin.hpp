// The interface of the mesh-file plugin (plugins/assimp_plugin.cpp, libclearsim_assimp.so):
// assimp reads an .stl or .obj file into a triangle soup; load_mesh_file (mesh_io.hpp) checks,
// scales and welds it. Header-only on purpose: the plugin needs no symbol of libclearsim
// (io/plugin.hpp).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace cs {

// Every triangle of the file (all meshes, node transforms applied, polygons triangulated, in
// file order) as its three corners, in file units exactly as assimp read them.
struct MeshFileTriangles {
  std::vector<std::array<std::array<double, 3>, 3>> corners;
};

// Reads `path` into `out`. Returns false and fills `error` (assimp's reason) if it cannot.
using MeshFileReadFunction = bool(const std::string& path, MeshFileTriangles& out,
                                  std::string& error);
inline constexpr const char* kMeshFileReadSymbol = "clearsim_assimp_read";

}  // namespace cs
