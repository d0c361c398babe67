// The interface of the FCL plugin (plugins/fcl_plugin.cpp, libclearsim_fcl.so) behind MeshBvh
// (mesh_bvh.hpp, which documents each query). Header-only on purpose: the plugin needs no
// symbol of libclearsim (io/plugin.hpp). Both trees of a two-mesh query come from the plugin.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "clearsim/geometry/mesh_bvh.hpp"

namespace cs {

class MeshBvhTree {
 public:
  virtual ~MeshBvhTree() = default;
  virtual std::vector<std::array<int, 2>> intersecting_triangles(const MeshPose& X_a,
                                                                 const MeshBvhTree& b,
                                                                 const MeshPose& X_b) const = 0;
  virtual std::vector<std::array<int, 2>> intersecting_triangles_fcl(const MeshPose& X_a,
                                                                     const MeshBvhTree& b,
                                                                     const MeshPose& X_b) const = 0;
  virtual std::vector<CandidatePair> triangles_within(const MeshPose& X_a, const MeshBvhTree& b,
                                                      const MeshPose& X_b, double margin) const = 0;
  virtual std::vector<std::array<int, 2>> intersecting_among(
      const MeshPose& X_a, const MeshBvhTree& b, const MeshPose& X_b,
      const std::vector<CandidatePair>& pairs, double max_distance) const = 0;
  virtual std::vector<MeshBox> boxes(int depth) const = 0;
  virtual NearestTriangle nearest(const Vec3& p_M, int hint) const = 0;
  virtual std::vector<MeshPatch> patches(int max_triangles) const = 0;
  virtual void triangles_in_box(const MeshBox& box_M, std::vector<int>& out) const = 0;
  virtual double clearance(const MeshBox& box_M, double floor, double cap) const = 0;
};

class MeshBvhBackend {
 public:
  virtual ~MeshBvhBackend() = default;
  // The hierarchy of `mesh`, which must outlive it. Throws std::invalid_argument.
  virtual std::unique_ptr<MeshBvhTree> build(const TriangleMesh& mesh) const = 0;
  virtual bool boxes_within(const MeshBox& a, const MeshPose& X_a, const MeshBox& b,
                            const MeshPose& X_b, double distance) const = 0;
};

// The plugin's entry point: its backend, alive as long as the process.
using MeshBvhBackendFunction = const MeshBvhBackend*();
inline constexpr const char* kMeshBvhBackendSymbol = "clearsim_fcl_backend";

}  // namespace cs
