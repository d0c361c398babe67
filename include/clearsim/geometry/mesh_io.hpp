// Triangle-mesh files: STL (ASCII and binary) and Wavefront OBJ are read through assimp; binary
// STL is written here. Every problem with a file — missing, empty, unreadable, binary garbage,
// NaN coordinates, a surface that does not bound a solid — comes out as a MeshFileError that
// names the file, never as a crash. The model reader turns it into FILE:LINE:COL at the key that
// named the mesh file.
#pragma once

#include <stdexcept>
#include <string>

#include "clearsim/geometry/mesh_check.hpp"
#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs {

// what() is "FILE: error: MESSAGE".
class MeshFileError : public std::runtime_error {
 public:
  MeshFileError(std::string file, std::string message);

  const std::string& file() const { return file_; }
  const std::string& message() const { return message_; }  // MESSAGE alone

 private:
  std::string file_;
  std::string message_;
};

struct MeshFileOptions {
  double scale = 1.0;  // metres per file unit (1e-3 for a file in millimetres)
  // Reject a mesh that does not bound a solid (MeshReport::valid_solid); with false the problems
  // are only reported in LoadedMesh::report. Non-finite coordinates are always rejected.
  bool require_solid = true;
};

struct LoadedMesh {
  TriangleMesh mesh;  // vertices welded: equal coordinates in the file become one vertex
  MeshReport report;
};

// Reads an .stl or .obj file (extension case-insensitive). Throws MeshFileError.
LoadedMesh load_mesh_file(const std::string& path, const MeshFileOptions& options = {});

// Writes `mesh` as binary STL, coordinates multiplied by `scale` (file units per metre: 1e3 for
// millimetres). The file is written under a temporary name and renamed when complete, so a
// failure leaves no half-written file. Throws MeshFileError.
void write_stl_binary(const TriangleMesh& mesh, const std::string& path, double scale = 1.0);

}  // namespace cs
