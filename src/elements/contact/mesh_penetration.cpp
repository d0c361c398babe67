#include "clearsim/elements/contact/mesh_penetration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace cs::contact {

namespace {

Vec3 to_world(const MeshPose& X, const Vec3& p_M) { return X.R_WM * p_M + X.p_WM; }
Vec3 to_mesh(const MeshPose& X, const Vec3& p_W) { return X.R_WM.transpose() * (p_W - X.p_WM); }

// Vertex v of `own` inside `other`: the closest point of the nearest face lies in front of it
// (its outward normal points from the vertex towards the surface). Depth is the distance behind
// that face's plane, the quantity the force kernel differentiates.
// `hint`: a face of `other` likely near the vertex (it bounds the search from the start; the
// answer is the same).
bool probe(const MeshInstance& own, int v, const MeshInstance& other, int hint, Penetration& out,
           Vec3& closest) {
  const Vec3 p = to_mesh(other.pose, to_world(own.pose, own.mesh->vertices[v]));
  const NearestTriangle nt = other.bvh->nearest(p, hint);
  out.face = nt.triangle;  // also for a vertex found outside (its region's crossings)
  closest = nt.closest;
  if (nt.triangle < 0) return false;
  const Vec3 n = face_normal(*other.mesh, nt.triangle);  // zero for a degenerate face
  if ((p - nt.closest).dot(n) >= 0.0) return false;
  const Vec3& a = other.mesh->vertices[other.mesh->triangles[nt.triangle][0]];
  out.depth = n.dot(a - p);
  out.vertex = v;
  out.face = nt.triangle;
  // A vertex on the other mesh's surface (coplanar end faces of two gears) is outside: its sign
  // is rounding. Tolerance: 1e-9 of the face's edge, far above it.
  const Vec3& b = other.mesh->vertices[other.mesh->triangles[nt.triangle][1]];
  return out.depth > 1e-9 * (b - a).norm();
}

// Inside vertices of `own` reachable from `seeds` through inside vertices (flood fill on edges).
// Seeds and vertices carry a hint for their nearest-face query: the face of `other` their
// intersecting triangle pair names, or the one found for the inside vertex that reached them.
void flood(const MeshInstance& own, const MeshInstance& other, int side,
           const std::vector<std::pair<int, int>>& seeds, std::vector<Penetration>& found,
           std::unordered_map<int, int>& index_of,
           std::unordered_map<int, std::pair<int, Vec3>>& outside_face, DetectionStats* stats) {
  std::unordered_set<int> visited;
  std::vector<std::pair<int, int>> stack(seeds.rbegin(), seeds.rend());  // (vertex, hint)
  while (!stack.empty()) {
    const auto [v, hint] = stack.back();
    stack.pop_back();
    if (!visited.insert(v).second) continue;
    if (stats) ++stats->vertices_tested;
    Penetration p;
    Vec3 closest;
    if (!probe(own, v, other, hint, p, closest)) {
      if (p.face >= 0) outside_face[v] = {p.face, closest};
      continue;
    }
    p.side = side;
    index_of[v] = static_cast<int>(found.size());
    found.push_back(p);
    for (int nb : (*own.neighbours)[v])
      if (!visited.count(nb)) stack.emplace_back(nb, p.face);
  }
}

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int root(int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  }
  void join(int a, int b) {
    a = root(a);
    b = root(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// The vertices of `side`'s triangles in `pairs`, in increasing order, each with the other
// triangle of its first pair as the hint of its nearest-face query.
std::vector<std::pair<int, int>> seed_vertices(const TriangleMesh& m,
                                               const std::vector<std::array<int, 2>>& pairs,
                                               int side) {
  std::vector<std::pair<int, int>> seeds;
  for (const auto& pr : pairs)
    for (int v : m.triangles[pr[side]]) seeds.emplace_back(v, pr[1 - side]);
  std::stable_sort(seeds.begin(), seeds.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  seeds.erase(std::unique(seeds.begin(), seeds.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              seeds.end());
  return seeds;
}

}  // namespace

std::vector<std::vector<int>> vertex_neighbours(const TriangleMesh& mesh) {
  std::vector<std::vector<int>> nb(mesh.vertices.size());
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      nb[t[k]].push_back(t[(k + 1) % 3]);
      nb[t[k]].push_back(t[(k + 2) % 3]);
    }
  for (auto& list : nb) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return nb;
}

std::vector<Region> find_regions(const MeshInstance& m0, const MeshInstance& m1,
                                 DetectionStats* stats) {
  return find_regions(m0, m1, MeshBvh::intersecting_triangles(*m0.bvh, m0.pose, *m1.bvh, m1.pose),
                      stats);
}

std::vector<Region> find_regions(const MeshInstance& m0, const MeshInstance& m1,
                                 const std::vector<std::array<int, 2>>& pairs,
                                 DetectionStats* stats) {
  if (stats) stats->triangle_pairs = static_cast<int>(pairs.size());
  if (pairs.empty()) return {};
  std::vector<Penetration> found;
  std::unordered_map<int, int> index_of[2];
  std::unordered_map<int, std::pair<int, Vec3>> outside_face[2];
  flood(m0, m1, 0, seed_vertices(*m0.mesh, pairs, 0), found, index_of[0], outside_face[0], stats);
  flood(m1, m0, 1, seed_vertices(*m1.mesh, pairs, 1), found, index_of[1], outside_face[1], stats);
  UnionFind uf(static_cast<int>(found.size()));
  const MeshInstance* own[2] = {&m0, &m1};
  for (int k = 0; k < static_cast<int>(found.size()); ++k) {  // along edges
    const auto& map = index_of[found[k].side];
    for (int nb : (*own[found[k].side]->neighbours)[found[k].vertex])
      if (auto it = map.find(nb); it != map.end()) uf.join(k, it->second);
  }
  for (const auto& pr : pairs) {  // across an intersecting triangle pair
    int first = -1;
    for (int side = 0; side < 2; ++side)
      for (int v : own[side]->mesh->triangles[pr[side]])
        if (auto it = index_of[side].find(v); it != index_of[side].end()) {
          if (first < 0) first = it->second;
          uf.join(first, it->second);
        }
    if (first < 0 && stats) ++stats->unresolved_pairs;
  }
  std::map<int, int> region_of_root;
  std::vector<Region> regions;
  for (int k = 0; k < static_cast<int>(found.size()); ++k) {
    const auto [it, added] =
        region_of_root.try_emplace(uf.root(k), static_cast<int>(regions.size()));
    if (added) regions.emplace_back();
    Region& r = regions[it->second];
    const int local = static_cast<int>(r.points.size());
    r.points.push_back(found[k]);
    const int side = found[k].side;
    for (int nb : (*own[side]->neighbours)[found[k].vertex])
      if (auto o = outside_face[side].find(nb); o != outside_face[side].end())
        r.crossings.push_back({side, local, nb, o->second.first, o->second.second});
  }
  return regions;
}

namespace {
double root_size(const MeshBvh& bvh) { return bvh.boxes(0).front().half.norm(); }
}  // namespace

ContactCandidates::ContactCandidates(const MeshBvh& bvh0, const MeshBvh& bvh1, double margin)
    : bvh_{&bvh0, &bvh1}, margin_(margin) {
  // Cut the larger mesh: its boxes far from the smaller one may move a lot (a wheel's far side)
  // without forcing a rebuild.
  partitioned_ = root_size(bvh0) > root_size(bvh1) ? 0 : 1;
  boxes_ = bvh_[partitioned_]->boxes(kPartitionDepth);
  for (const MeshBox& b : boxes_) corners_.push_back(b.corners());
  reference_boxes_ = bvh_[1 - partitioned_]->boxes(kReferenceDepth);
}

ContactCandidates::Relative ContactCandidates::relative(const MeshInstance& m0,
                                                        const MeshInstance& m1) const {
  return partitioned_ == 0 ? relative_pose(m0.pose, m1.pose) : relative_pose(m1.pose, m0.pose);
}

void ContactCandidates::rebuild(const MeshInstance& m0, const MeshInstance& m1, const Relative& X) {
  pairs_ = MeshBvh::triangles_within(*m0.bvh, m0.pose, *m1.bvh, m1.pose, margin_);
  const MeshPose& P = partitioned_ == 0 ? m0.pose : m1.pose;
  const MeshPose& O = partitioned_ == 0 ? m1.pose : m0.pose;
  near_.assign(boxes_.size(), 0);
  for (std::size_t k = 0; k < boxes_.size(); ++k)
    for (const MeshBox& r : reference_boxes_)
      if (MeshBvh::boxes_within(r, O, boxes_[k], P, kFarFactor * margin_)) {
        near_[k] = 1;
        break;
      }
  built_at_ = X;
  built_ = true;
}

std::pair<double, double> ContactCandidates::displacement(const Relative& X) const {
  const Mat3 dM = X.M - built_at_.M;
  const Vec3 dc = X.c - built_at_.c;
  double near = 0.0, far = 0.0;
  for (std::size_t k = 0; k < corners_.size(); ++k) {
    double& u = near_[k] ? near : far;
    for (const Vec3& q : corners_[k]) u = std::max(u, (dM * q + dc).squaredNorm());
  }
  return {std::sqrt(near), std::sqrt(far)};
}

std::vector<std::array<int, 2>> ContactCandidates::intersecting(const MeshInstance& m0,
                                                                const MeshInstance& m1,
                                                                DetectionStats* stats) {
  const Relative X = relative(m0, m1);
  double moved = 0.0;
  bool valid = built_;
  if (valid) {
    const auto [near, far] = displacement(X);
    valid = near <= margin_ && far <= kFarFactor * margin_;
    moved = near;
  }
  if (!valid) rebuild(m0, m1, X);
  if (stats) {
    stats->candidate_pairs = static_cast<int>(pairs_.size());
    stats->candidates_rebuilt = !valid;
  }
  // The slack keeps pairs whose distance at X₀ is zero but came out a rounding error above it.
  const double reach = moved + 1e-6 * margin_;
  return MeshBvh::intersecting_among(*m0.bvh, m0.pose, *m1.bvh, m1.pose, pairs_, reach);
}

}  // namespace cs::contact
