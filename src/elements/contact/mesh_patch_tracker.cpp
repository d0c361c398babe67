#include "clearsim/elements/contact/mesh_patch_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs::contact {

namespace {

constexpr std::int64_t kCellRange = std::int64_t{1} << 20;  // |cell index| below this

double largest_coordinate(const TriangleMesh& m) {
  double r = 0.0;
  for (const Vec3& v : m.vertices) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// The median of the triangles' largest bounding-box extent: a grid cell about one triangle wide.
double median_triangle_size(const TriangleMesh& m) {
  std::vector<double> size;
  size.reserve(m.triangles.size());
  for (const auto& t : m.triangles) {
    const Vec3 &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]];
    size.push_back((a.cwiseMax(b).cwiseMax(c) - a.cwiseMin(b).cwiseMin(c)).maxCoeff());
  }
  std::nth_element(size.begin(), size.begin() + size.size() / 2, size.end());
  return size[size.size() / 2];
}

// A box around the triangle (a, b, c): along its longest edge, its normal and their cross
// product, grown by `slack`; an axis-aligned one for a degenerate triangle.
MeshBox triangle_box(const Vec3& a, const Vec3& b, const Vec3& c, double slack) {
  const Vec3 edges[3] = {b - a, c - b, a - c};
  int longest = 0;
  for (int k = 1; k < 3; ++k)
    if (edges[k].squaredNorm() > edges[longest].squaredNorm()) longest = k;
  Vec3 n = edges[0].cross(edges[1]);
  MeshBox box;
  if (n.norm() > 1e-12 * edges[longest].squaredNorm() && edges[longest].norm() > 0.0) {
    const Vec3 u = edges[longest].normalized();
    n.normalize();
    box.axes.col(0) = u;
    box.axes.col(1) = n.cross(u);
    box.axes.col(2) = n;
  }
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Vec3* v : {&a, &b, &c}) {
    const Vec3 local = box.axes.transpose() * *v;
    lo = lo.cwiseMin(local);
    hi = hi.cwiseMax(local);
  }
  box.centre = box.axes * (0.5 * (lo + hi));
  box.half = 0.5 * (hi - lo) + Vec3::Constant(slack);
  return box;
}

}  // namespace

PatchTracker::PatchTracker(const MeshInstance& m0, const MeshInstance& m1, double margin)
    : margin_(margin) {
  if (!(margin_ > 0.0))
    margin_ = 0.1 * std::max(median_triangle_size(*m0.mesh), median_triangle_size(*m1.mesh));
  p_side_ = m0.mesh->num_triangles() <= m1.mesh->num_triangles() ? 0 : 1;
  const TriangleMesh& p = p_side_ == 0 ? *m0.mesh : *m1.mesh;
  const TriangleMesh& q = p_side_ == 0 ? *m1.mesh : *m0.mesh;
  const MeshBvh& p_bvh = p_side_ == 0 ? *m0.bvh : *m1.bvh;
  // Distances are compared after sums of products of coordinates: 1e-9 of them is far above
  // their rounding and far below a contact's depth.
  slack_ = 1e-9 * (1.0 + largest_coordinate(p) + largest_coordinate(q));
  cell_size_ = std::max(kCellFraction * median_triangle_size(q), 1e3 * slack_);
  for (MeshPatch& piece : p_bvh.patches(kPatchTriangles)) {
    Patch patch;
    patch.radius = piece.box.half.norm();
    patch.piece = std::move(piece);
    patches_.push_back(std::move(patch));
  }
  for (const auto& t : q.triangles) {
    const Vec3 &a = q.vertices[t[0]], &b = q.vertices[t[1]], &c = q.vertices[t[2]];
    q_boxes_.push_back({a.cwiseMin(b).cwiseMin(c), a.cwiseMax(b).cwiseMax(c)});
    q_normals_.push_back((b - a).cross(c - a));
    q_offsets_.push_back(q_normals_.back().dot(a));
  }
  seen_.assign(q.triangles.size(), 0);
}

PatchTracker::Relative PatchTracker::relative(const MeshInstance& m0,
                                              const MeshInstance& m1) const {
  return p_side_ == 0 ? relative_pose(m0.pose, m1.pose) : relative_pose(m1.pose, m0.pose);
}

// The header's bound on how far any point of the patch has moved relative to Q since `p.at`.
double PatchTracker::moved_since(const Patch& p, const Relative& X) const {
  const Mat3 dM = X.M - p.at.M;
  return (dM * p.piece.box.centre + (X.c - p.at.c)).norm() + dM.norm() * p.radius;
}

// The patch's clearance at X; a certificate if at least the margin, none (0) otherwise.
void PatchTracker::refresh(Patch& p, const MeshBvh& q_bvh, const Relative& X) const {
  MeshBox box_Q;
  box_Q.axes = X.M * p.piece.box.axes;
  box_Q.centre = X.M * p.piece.box.centre + X.c;
  box_Q.half = p.piece.box.half + Vec3::Constant(slack_);
  const double clearance = q_bvh.clearance(box_Q, margin_, kClearanceCap * margin_);
  p.clearance = clearance >= margin_ ? clearance : 0.0;
  p.at = X;
}

const std::vector<int>& PatchTracker::cell(const std::array<std::int64_t, 3>& ijk,
                                           const MeshBvh& q_bvh) {
  std::uint64_t key = 0;
  for (std::int64_t i : ijk) key = (key << 21) | static_cast<std::uint64_t>(i + kCellRange);
  const auto [it, added] = cells_.try_emplace(key);
  if (added) {
    MeshBox box;
    for (int a = 0; a < 3; ++a) box.centre(a) = (static_cast<double>(ijk[a]) + 0.5) * cell_size_;
    box.half = Vec3::Constant(0.5 * cell_size_ + slack_);
    q_bvh.triangles_in_box(box, it->second);
  }
  return it->second;
}

// Whether the three points lie on one side of the plane n·x = d, farther than the slack: the
// plane's normal is one of the axes of FCL's triangle test, which then finds them apart too.
bool PatchTracker::beyond_plane(const Vec3& n, double d, const Vec3 (&p)[3]) const {
  const double tol = slack_ * n.norm();
  const double s0 = n.dot(p[0]) - d, s1 = n.dot(p[1]) - d, s2 = n.dot(p[2]) - d;
  return (s0 > tol && s1 > tol && s2 > tol) || (s0 < -tol && s1 < -tol && s2 < -tol);
}

bool PatchTracker::beyond_plane(const Vec3& n, double d, const TriangleMesh& q, int b) const {
  const auto& t = q.triangles[b];
  const Vec3 p[3] = {q.vertices[t[0]], q.vertices[t[1]], q.vertices[t[2]]};
  return beyond_plane(n, d, p);
}

void PatchTracker::list_pairs(int t, const TriangleMesh& p_mesh, const TriangleMesh& q_mesh,
                              const MeshBvh& q_bvh, const Relative& X,
                              std::vector<CandidatePair>& out) {
  const auto& tri = p_mesh.triangles[t];
  Vec3 v[3];
  for (int k = 0; k < 3; ++k) v[k] = X.M * p_mesh.vertices[tri[k]] + X.c;
  const Vec3 n = (v[1] - v[0]).cross(v[2] - v[0]);
  const Vec3 lo = v[0].cwiseMin(v[1]).cwiseMin(v[2]) - Vec3::Constant(slack_);
  const Vec3 hi = v[0].cwiseMax(v[1]).cwiseMax(v[2]) + Vec3::Constant(slack_);
  ++query_;
  const auto consider = [&](int b) {
    if (seen_[b] == query_) return;
    seen_[b] = query_;
    const Box& qb = q_boxes_[b];
    if ((qb.lo.array() > hi.array()).any() || (qb.hi.array() < lo.array()).any()) return;
    if (beyond_plane(n, n.dot(v[0]), q_mesh, b) || beyond_plane(q_normals_[b], q_offsets_[b], v))
      return;
    out.push_back(p_side_ == 0 ? CandidatePair{t, b, 0.0} : CandidatePair{b, t, 0.0});
  };
  std::array<std::int64_t, 3> first{}, last{};
  std::int64_t cells = 1;
  bool in_range = true;
  for (int a = 0; a < 3; ++a) {
    first[a] = static_cast<std::int64_t>(std::floor(lo(a) / cell_size_));
    last[a] = static_cast<std::int64_t>(std::floor(hi(a) / cell_size_));
    cells *= last[a] - first[a] + 1;
    in_range = in_range && first[a] > -kCellRange && last[a] < kCellRange;
  }
  if (!in_range || cells > kMaxCells) {  // a long triangle: ask the hierarchy with its own box
    scratch_.clear();
    q_bvh.triangles_in_box(triangle_box(v[0], v[1], v[2], slack_), scratch_);
    for (int b : scratch_) consider(b);
    return;
  }
  std::array<std::int64_t, 3> ijk{};
  for (ijk[0] = first[0]; ijk[0] <= last[0]; ++ijk[0])
    for (ijk[1] = first[1]; ijk[1] <= last[1]; ++ijk[1])
      for (ijk[2] = first[2]; ijk[2] <= last[2]; ++ijk[2])
        for (int b : cell(ijk, q_bvh)) consider(b);
}

std::vector<std::array<int, 2>> PatchTracker::intersecting(const MeshInstance& m0,
                                                           const MeshInstance& m1,
                                                           DetectionStats* stats) {
  const MeshInstance& P = p_side_ == 0 ? m0 : m1;
  const MeshInstance& Q = p_side_ == 0 ? m1 : m0;
  const Relative X = relative(m0, m1);
  std::vector<CandidatePair> candidates;
  int refreshed = 0, tested = 0;
  for (Patch& patch : patches_) {
    const double moved = moved_since(patch, X);
    if (patch.clearance > 0.0 && moved + slack_ < patch.clearance) continue;
    // A patch within the margin is tested whole; its clearance is measured again only once it
    // has moved by half the margin since the last try (any rule is safe here: it is tested).
    if (patch.clearance > 0.0 || moved >= 0.5 * margin_) {
      refresh(patch, *Q.bvh, X);
      ++refreshed;
      if (patch.clearance > 0.0) continue;
    }
    ++tested;
    for (int t : patch.piece.triangles) list_pairs(t, *P.mesh, *Q.mesh, *Q.bvh, X, candidates);
  }
  std::vector<std::array<int, 2>> pairs = MeshBvh::intersecting_among(
      *m0.bvh, m0.pose, *m1.bvh, m1.pose, candidates, std::numeric_limits<double>::infinity());
  std::sort(pairs.begin(), pairs.end());
  if (stats) {
    stats->candidate_pairs = static_cast<int>(candidates.size());
    stats->candidates_rebuilt = refreshed > 0;
    stats->patches_refreshed = refreshed;
    stats->patches_tested = tested;
  }
  return pairs;
}

}  // namespace cs::contact
