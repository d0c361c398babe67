// MeshBvh forwards to the FCL plugin's hierarchy (mesh_bvh_plugin.hpp, plugins/fcl_plugin.cpp).
#include "clearsim/geometry/mesh_bvh.hpp"

#include "clearsim/geometry/mesh_bvh_plugin.hpp"
#include "clearsim/io/plugin.hpp"

namespace cs {
namespace {

const MeshBvhBackend& backend() {
  static const MeshBvhBackend* const fcl =
      plugin_function<MeshBvhBackendFunction>("fcl", kMeshBvhBackendSymbol)();
  return *fcl;
}

}  // namespace

MeshBvh::MeshBvh(const TriangleMesh& mesh) : tree_(backend().build(mesh)) {}

MeshBvh::~MeshBvh() = default;

std::vector<std::array<int, 2>> MeshBvh::intersecting_triangles(const MeshBvh& a,
                                                                const MeshPose& X_a,
                                                                const MeshBvh& b,
                                                                const MeshPose& X_b) {
  return a.tree_->intersecting_triangles(X_a, *b.tree_, X_b);
}

std::vector<std::array<int, 2>> MeshBvh::intersecting_triangles_fcl(const MeshBvh& a,
                                                                    const MeshPose& X_a,
                                                                    const MeshBvh& b,
                                                                    const MeshPose& X_b) {
  return a.tree_->intersecting_triangles_fcl(X_a, *b.tree_, X_b);
}

std::vector<CandidatePair> MeshBvh::triangles_within(const MeshBvh& a, const MeshPose& X_a,
                                                     const MeshBvh& b, const MeshPose& X_b,
                                                     double margin) {
  return a.tree_->triangles_within(X_a, *b.tree_, X_b, margin);
}

std::vector<std::array<int, 2>> MeshBvh::intersecting_among(const MeshBvh& a, const MeshPose& X_a,
                                                            const MeshBvh& b, const MeshPose& X_b,
                                                            const std::vector<CandidatePair>& pairs,
                                                            double max_distance) {
  return a.tree_->intersecting_among(X_a, *b.tree_, X_b, pairs, max_distance);
}

std::vector<MeshBox> MeshBvh::boxes(int depth) const { return tree_->boxes(depth); }

bool MeshBvh::boxes_within(const MeshBox& a, const MeshPose& X_a, const MeshBox& b,
                           const MeshPose& X_b, double distance) {
  return backend().boxes_within(a, X_a, b, X_b, distance);
}

std::vector<MeshPatch> MeshBvh::patches(int max_triangles) const {
  return tree_->patches(max_triangles);
}

void MeshBvh::triangles_in_box(const MeshBox& box_M, std::vector<int>& out) const {
  tree_->triangles_in_box(box_M, out);
}

double MeshBvh::clearance(const MeshBox& box_M, double floor, double cap) const {
  return tree_->clearance(box_M, floor, cap);
}

NearestTriangle MeshBvh::nearest(const Vec3& p_M, int hint) const {
  return tree_->nearest(p_M, hint);
}

std::array<Vec3, 8> MeshBox::corners() const {
  std::array<Vec3, 8> c;
  for (int k = 0; k < 8; ++k) {
    const Vec3 s((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0);
    c[k] = centre + axes * s.cwiseProduct(half);
  }
  return c;
}

}  // namespace cs
