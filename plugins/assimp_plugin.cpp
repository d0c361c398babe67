// libclearsim_assimp.so: mesh files (.stl, .obj) through assimp (include/clearsim/geometry/
// mesh_file_plugin.hpp). Only this module links libassimp, so a model without mesh files never
// loads it.
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <exception>
#include <string>

#include "clearsim/geometry/mesh_file_plugin.hpp"

namespace {

void collect(const aiScene& scene, cs::MeshFileTriangles& out) {
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& am = *scene.mMeshes[m];
    for (unsigned f = 0; f < am.mNumFaces; ++f) {
      const aiFace& face = am.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines carry no surface
      auto& tri = out.corners.emplace_back();
      for (int k = 0; k < 3; ++k) {
        const aiVector3D& p = am.mVertices[face.mIndices[k]];
        tri[k] = {p.x, p.y, p.z};
      }
    }
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) bool clearsim_assimp_read(
    const std::string& path, cs::MeshFileTriangles& out, std::string& error) {
  try {
    Assimp::Importer importer;
    // Only triangulation and node transforms: no vertex joining, degenerate removal or normal
    // fixing, so clearsim's checks see the file as it is.
    const aiScene* scene =
        importer.ReadFile(path, aiProcess_Triangulate | aiProcess_PreTransformVertices);
    if (scene == nullptr) {
      error = std::string("cannot read the mesh: ") + importer.GetErrorString();
      return false;
    }
    collect(*scene, out);
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}
