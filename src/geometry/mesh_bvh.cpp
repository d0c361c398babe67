// FCL behind MeshBvh: FCL's BVHModel<OBBRSS> holds the hierarchy; collide() gives the pairs of
// intersecting triangles; the nearest triangle of a point is a branch and bound over the same
// tree (nearest()). Only triangle indices are taken from FCL: its mesh–mesh contact points and
// depths are those of triangle–triangle intersections, not penetrations
// (docs/contact-meshes-and-gears.md, "Mesh contact").
#include "clearsim/geometry/mesh_bvh.hpp"

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/geometry.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>
#include <fcl/narrowphase/detail/traversal/collision/intersect.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace cs {

using Bvh = fcl::BVHModel<fcl::OBBRSSd>;

struct MeshBvh::Impl {
  std::shared_ptr<Bvh> model = std::make_shared<Bvh>();
  const TriangleMesh* mesh = nullptr;
};

MeshBvh::MeshBvh(const TriangleMesh& mesh) : impl_(std::make_unique<Impl>()) {
  impl_->mesh = &mesh;
  std::vector<fcl::Triangle> tris;
  tris.reserve(mesh.triangles.size());
  for (const auto& t : mesh.triangles) tris.emplace_back(t[0], t[1], t[2]);
  impl_->model->beginModel(static_cast<int>(tris.size()), mesh.num_vertices());
  impl_->model->addSubModel(mesh.vertices, tris);
  if (impl_->model->endModel() != fcl::BVH_OK)
    throw std::invalid_argument("FCL could not build a bounding-volume hierarchy of the mesh");
  impl_->model->computeLocalAABB();
}

MeshBvh::~MeshBvh() = default;

namespace {
fcl::Transform3d transform(const MeshPose& X) {
  fcl::Transform3d T = fcl::Transform3d::Identity();
  T.linear() = X.R_WM;
  T.translation() = X.p_WM;
  return T;
}
}  // namespace

std::vector<std::array<int, 2>> MeshBvh::intersecting_triangles(const MeshBvh& a,
                                                                const MeshPose& X_a,
                                                                const MeshBvh& b,
                                                                const MeshPose& X_b) {
  // enable_contact = false: FCL only tests triangle–triangle intersection and records the pair.
  const fcl::CollisionRequestd request(std::numeric_limits<int>::max() / 2, false);
  fcl::CollisionResultd result;
  fcl::collide(a.impl_->model.get(), transform(X_a), b.impl_->model.get(), transform(X_b), request,
               result);
  std::vector<std::array<int, 2>> pairs;
  pairs.reserve(result.numContacts());
  for (std::size_t k = 0; k < result.numContacts(); ++k) {
    const auto& c = result.getContact(k);
    pairs.push_back({static_cast<int>(c.b1), static_cast<int>(c.b2)});
  }
  return pairs;
}

namespace {
// b's frame relative to a's (R, T), computed as FCL's mesh traversal does (bit for bit).
void relative(const MeshPose& X_a, const MeshPose& X_b, Mat3& R, Vec3& T) {
  const fcl::Transform3d ta = transform(X_a), tb = transform(X_b);
  fcl::relativeTransform(ta.linear(), ta.translation(), tb.linear(), tb.translation(), R, T);
}

fcl::OBBd grown(const fcl::OBBd& box, double by) {
  fcl::OBBd g = box;
  g.extent.array() += by;
  return g;
}

std::array<Vec3, 3> corners_of(const TriangleMesh& m, int t) {
  const auto& tri = m.triangles[t];
  return {m.vertices[tri[0]], m.vertices[tri[1]], m.vertices[tri[2]]};
}
}  // namespace

// Boxes grown by margin/2 each overlap whenever their contents come within `margin` (the
// midpoint of two such points lies in both), so no pair within the margin is pruned.
std::vector<CandidatePair> MeshBvh::triangles_within(const MeshBvh& a, const MeshPose& X_a,
                                                     const MeshBvh& b, const MeshPose& X_b,
                                                     double margin) {
  Mat3 R;
  Vec3 T;
  relative(X_a, X_b, R, T);
  const Bvh &ta = *a.impl_->model, &tb = *b.impl_->model;
  const TriangleMesh &ma = *a.impl_->mesh, &mb = *b.impl_->mesh;
  const double g = 0.5 * margin;
  std::vector<CandidatePair> out;
  std::vector<std::pair<int, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [ia, ib] = stack.back();
    stack.pop_back();
    const auto &na = ta.getBV(ia), &nb = tb.getBV(ib);
    if (!fcl::overlap(R, T, grown(na.bv.obb, g), grown(nb.bv.obb, g))) continue;
    if (na.isLeaf() && nb.isLeaf()) {
      const auto p = corners_of(ma, na.primitiveId()), q = corners_of(mb, nb.primitiveId());
      Vec3 P, Q;
      const double d = fcl::detail::TriangleDistanced::triDistance(p[0], p[1], p[2], q[0], q[1],
                                                                   q[2], R, T, P, Q);
      if (d <= margin) out.push_back({na.primitiveId(), nb.primitiveId(), d});
      continue;
    }
    // Descend the larger box (FCL's rule for BVH pairs), or the one that is not a leaf.
    const bool split_a = nb.isLeaf() || (!na.isLeaf() && na.bv.size() > nb.bv.size());
    if (split_a) {
      stack.emplace_back(na.leftChild(), ib);
      stack.emplace_back(na.rightChild(), ib);
    } else {
      stack.emplace_back(ia, nb.leftChild());
      stack.emplace_back(ia, nb.rightChild());
    }
  }
  std::sort(out.begin(), out.end(),
            [](const CandidatePair& x, const CandidatePair& y) { return x.distance < y.distance; });
  return out;
}

std::vector<std::array<int, 2>> MeshBvh::intersecting_among(const MeshBvh& a, const MeshPose& X_a,
                                                            const MeshBvh& b, const MeshPose& X_b,
                                                            const std::vector<CandidatePair>& pairs,
                                                            double max_distance) {
  Mat3 R;
  Vec3 T;
  relative(X_a, X_b, R, T);
  const TriangleMesh &ma = *a.impl_->mesh, &mb = *b.impl_->mesh;
  std::vector<std::array<int, 2>> out;
  for (const CandidatePair& c : pairs) {
    if (c.distance > max_distance) break;  // sorted: the rest cannot have closed the gap
    const auto p = corners_of(ma, c.a), q = corners_of(mb, c.b);
    if (fcl::detail::Intersect<double>::intersect_Triangle(p[0], p[1], p[2], q[0], q[1], q[2], R,
                                                           T))
      out.push_back({c.a, c.b});
  }
  return out;
}

std::array<Vec3, 8> MeshBox::corners() const {
  std::array<Vec3, 8> c;
  for (int k = 0; k < 8; ++k) {
    const Vec3 s((k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0, (k & 4) ? 1.0 : -1.0);
    c[k] = centre + axes * s.cwiseProduct(half);
  }
  return c;
}

std::vector<MeshBox> MeshBvh::boxes(int depth) const {
  const Bvh& bvh = *impl_->model;
  std::vector<int> level{0};
  for (int d = 0; d < depth; ++d) {
    std::vector<int> next;
    for (int id : level) {
      const auto& n = bvh.getBV(id);
      if (n.isLeaf()) {
        next.push_back(id);
      } else {
        next.push_back(n.leftChild());
        next.push_back(n.rightChild());
      }
    }
    level.swap(next);
  }
  std::vector<MeshBox> out;
  for (int id : level) {
    const fcl::OBBd& o = bvh.getBV(id).bv.obb;
    out.push_back({o.axis, o.To, o.extent});
  }
  return out;
}

bool MeshBvh::boxes_within(const MeshBox& a, const MeshPose& X_a, const MeshBox& b,
                           const MeshPose& X_b, double distance) {
  Mat3 R;
  Vec3 T;
  relative(X_a, X_b, R, T);
  fcl::OBBd oa, ob;
  oa.axis = a.axes;
  oa.To = a.centre;
  oa.extent = a.half.array() + 0.5 * distance;
  ob.axis = b.axes;
  ob.To = b.centre;
  ob.extent = b.half.array() + 0.5 * distance;
  return fcl::overlap(R, T, oa, ob);
}

namespace {
// Whether a node whose box is `lower` (squared) from the point can be skipped when a triangle
// `bound` (squared) away is known. The box distance is computed in the box's frame and may come
// out a rounding error above the distance of a triangle it holds (a flat box around a face), so
// the test leaves a slack far above rounding: 1e-6 of the distance and 1e-12 m.
bool prunes(double lower, double bound) { return lower > bound * (1.0 + 2e-6) + 1e-24; }

// Squared distance from p to an oriented box (FCL's OBB: centre To, axes, half extents).
double squared_distance_to(const fcl::OBBd& box, const Vec3& p) {
  const Vec3 local = box.axis.transpose() * (p - box.To);
  return (local.cwiseAbs() - box.extent).cwiseMax(0.0).squaredNorm();
}
}  // namespace

// Branch and bound over FCL's hierarchy (node boxes in the mesh frame: FCL 0.7 never makes them
// parent-relative), nearer child first. FCL's own distance() from a radius-0 sphere gives the
// same triangle (in b1, whichever argument order) but costs 3–11 µs a query against about 1 µs
// here: it runs GJK per leaf and sets up a traversal per call.
//
// With a hint, its distance d_h bounds the search from the start, and a node is skipped only if
// its box lies beyond min(d_h, best) (with a slack, prunes()): a node holding a triangle at the
// least distance is then never skipped, the nodes are visited in the same order as without the
// hint, and the first triangle at the least distance in that order is the one returned either
// way.
NearestTriangle MeshBvh::nearest(const Vec3& p_M, int hint) const {
  NearestTriangle out;
  const TriangleMesh& m = *impl_->mesh;
  const Bvh& bvh = *impl_->model;
  if (m.triangles.empty()) return out;
  double best = std::numeric_limits<double>::infinity();
  double bound = best;  // prune above this (with the rounding slack of prunes())
  if (hint >= 0 && hint < static_cast<int>(m.triangles.size())) {
    const auto& tri = m.triangles[hint];
    bound = (closest_point_on_triangle(p_M, m.vertices[tri[0]], m.vertices[tri[1]],
                                       m.vertices[tri[2]]) -
             p_M)
                .squaredNorm();
  }
  std::vector<std::pair<double, int>> stack{{0.0, 0}};  // (lower bound², node)
  stack.reserve(64);
  while (!stack.empty()) {
    const auto [lower, id] = stack.back();
    stack.pop_back();
    if (prunes(lower, bound)) continue;
    const auto& node = bvh.getBV(id);
    if (node.isLeaf()) {
      const int t = node.primitiveId();
      const auto& tri = m.triangles[t];
      const Vec3 q = closest_point_on_triangle(p_M, m.vertices[tri[0]], m.vertices[tri[1]],
                                               m.vertices[tri[2]]);
      if ((q - p_M).squaredNorm() < best) {
        best = (q - p_M).squaredNorm();
        bound = std::min(bound, best);
        out.triangle = t;
        out.closest = q;
      }
      continue;
    }
    const int a = node.leftChild(), b = node.rightChild();
    const double da = squared_distance_to(bvh.getBV(a).bv.obb, p_M);
    const double db = squared_distance_to(bvh.getBV(b).bv.obb, p_M);
    if (da <= db) {  // the nearer child on top
      stack.emplace_back(db, b);
      stack.emplace_back(da, a);
    } else {
      stack.emplace_back(da, a);
      stack.emplace_back(db, b);
    }
  }
  return out;
}

Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace cs
