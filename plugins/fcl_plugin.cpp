// libclearsim_fcl.so: FCL behind MeshBvh (include/clearsim/geometry/mesh_bvh_plugin.hpp). FCL's
// BVHModel<OBBRSS> holds the hierarchy; the pairs of intersecting triangles are collide()'s, from
// a traversal of FCL's two hierarchies written here (fcl_collide.hpp, faster than collide()); the
// nearest triangle of a point is a branch and bound over the same tree (nearest()). Only triangle
// indices are taken from FCL: its mesh–mesh contact points and depths are those of
// triangle–triangle intersections, not penetrations (docs/contact-meshes-and-gears.md, "Mesh
// contact"). Only this module links libfcl (and octomap, ccd), so a model without meshes never
// loads them.
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/geometry.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/detail/primitive_shape_algorithm/triangle_distance.h>
#include <fcl/narrowphase/detail/traversal/collision/intersect.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "clearsim/geometry/mesh_bvh_plugin.hpp"
#include "fcl_collide.hpp"

namespace {

using cs::CandidatePair;
using cs::Mat3;
using cs::MeshBox;
using cs::MeshPose;
using cs::NearestTriangle;
using cs::TriangleMesh;
using cs::Vec3;
using Bvh = fcl::BVHModel<fcl::OBBRSSd>;

fcl::Transform3d transform(const MeshPose& X) {
  fcl::Transform3d T = fcl::Transform3d::Identity();
  T.linear() = X.R_WM;
  T.translation() = X.p_WM;
  return T;
}

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
  const auto& tri = m.triangles[static_cast<std::size_t>(t)];
  return {m.vertices[static_cast<std::size_t>(tri[0])],
          m.vertices[static_cast<std::size_t>(tri[1])],
          m.vertices[static_cast<std::size_t>(tri[2])]};
}

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

fcl::OBBd obb_of(const MeshBox& b) {
  fcl::OBBd o;
  o.axis = b.axes;
  o.To = b.centre;
  o.extent = b.half;
  return o;
}

// A lower bound on the distance between two boxes given in one frame: their largest separation
// along one of the 15 axes of the separating-axis test (the boxes' own axes and the unit cross
// products of one axis of each). A point set's projection on a unit axis is no farther from
// another's than the sets are, so each separation is a lower bound. ≤ 0 when no axis
// separates them (they overlap, or nearly: then there is no bound but 0).
double separation(const fcl::OBBd& a, const fcl::OBBd& b) {
  const Mat3 R = a.axis.transpose() * b.axis;  // b's axes in a's frame, as columns
  const Vec3 t = a.axis.transpose() * (b.To - a.To);
  const Mat3 absR = R.cwiseAbs();
  double gap = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    gap = std::max(gap, std::abs(t(i)) - a.extent(i) - absR.row(i).dot(b.extent));
    gap = std::max(gap, std::abs(t.dot(R.col(i))) - absR.col(i).dot(a.extent) - b.extent(i));
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Vec3 L = Vec3::Unit(i).cross(R.col(j));  // a's axis i × b's axis j, in a's frame
      const double n = L.norm();
      if (n < 1e-6) continue;  // parallel axes: covered by the face axes above
      const double ra = L.cwiseAbs().dot(a.extent);
      const double rb = (R.transpose() * L).cwiseAbs().dot(b.extent);
      gap = std::max(gap, (std::abs(L.dot(t)) - ra - rb) / n);
    }
  return gap;
}

class FclTree final : public cs::MeshBvhTree {
 public:
  explicit FclTree(const TriangleMesh& mesh) : mesh_(mesh) {
    std::vector<fcl::Triangle> tris;
    tris.reserve(mesh.triangles.size());
    for (const auto& t : mesh.triangles)
      tris.emplace_back(static_cast<std::size_t>(t[0]), static_cast<std::size_t>(t[1]),
                        static_cast<std::size_t>(t[2]));
    model_->beginModel(static_cast<int>(tris.size()), mesh.num_vertices());
    model_->addSubModel(mesh.vertices, tris);
    if (model_->endModel() != fcl::BVH_OK)
      throw std::invalid_argument("FCL could not build a bounding-volume hierarchy of the mesh");
    model_->computeLocalAABB();
  }

  std::vector<std::array<int, 2>> intersecting_triangles(const MeshPose& X_a,
                                                         const cs::MeshBvhTree& other,
                                                         const MeshPose& X_b) const override;
  std::vector<std::array<int, 2>> intersecting_triangles_fcl(const MeshPose& X_a,
                                                             const cs::MeshBvhTree& other,
                                                             const MeshPose& X_b) const override;
  std::vector<CandidatePair> triangles_within(const MeshPose& X_a, const cs::MeshBvhTree& other,
                                              const MeshPose& X_b, double margin) const override;
  std::vector<std::array<int, 2>> intersecting_among(const MeshPose& X_a,
                                                     const cs::MeshBvhTree& other,
                                                     const MeshPose& X_b,
                                                     const std::vector<CandidatePair>& pairs,
                                                     double max_distance) const override;
  std::vector<MeshBox> boxes(int depth) const override;
  NearestTriangle nearest(const Vec3& p_M, int hint) const override;
  std::vector<cs::MeshPatch> patches(int max_triangles) const override;
  void triangles_in_box(const MeshBox& box_M, std::vector<int>& out) const override;
  double clearance(const MeshBox& box_M, double floor, double cap) const override;

 private:
  // The triangles under node `id`, appended to `out`.
  void leaves_under(int id, std::vector<int>& out) const;

  // Both trees of a query come from this plugin (mesh_bvh_plugin.hpp).
  static const FclTree& of(const cs::MeshBvhTree& t) { return static_cast<const FclTree&>(t); }

  const TriangleMesh& mesh_;
  std::shared_ptr<Bvh> model_ = std::make_shared<Bvh>();
};

std::vector<std::array<int, 2>> FclTree::intersecting_triangles(const MeshPose& X_a,
                                                                const cs::MeshBvhTree& other,
                                                                const MeshPose& X_b) const {
  Mat3 R;
  Vec3 T;
  relative(X_a, X_b, R, T);
  std::vector<std::array<int, 2>> pairs;
  cs::fcl_plugin::intersecting_pairs(*model_, mesh_, *of(other).model_, of(other).mesh_, R, T,
                                     pairs);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<std::array<int, 2>> FclTree::intersecting_triangles_fcl(const MeshPose& X_a,
                                                                    const cs::MeshBvhTree& other,
                                                                    const MeshPose& X_b) const {
  // enable_contact = false: FCL only tests triangle–triangle intersection and records the pair.
  const fcl::CollisionRequestd request(std::numeric_limits<int>::max() / 2, false);
  fcl::CollisionResultd result;
  fcl::collide(model_.get(), transform(X_a), of(other).model_.get(), transform(X_b), request,
               result);
  std::vector<std::array<int, 2>> pairs;
  pairs.reserve(result.numContacts());
  for (std::size_t k = 0; k < result.numContacts(); ++k) {
    const auto& c = result.getContact(k);
    pairs.push_back({static_cast<int>(c.b1), static_cast<int>(c.b2)});
  }
  return pairs;
}

// Boxes grown by margin/2 each overlap whenever their contents come within `margin` (the
// midpoint of two such points lies in both), so no pair within the margin is pruned.
std::vector<CandidatePair> FclTree::triangles_within(const MeshPose& X_a,
                                                     const cs::MeshBvhTree& other,
                                                     const MeshPose& X_b, double margin) const {
  Mat3 R;
  Vec3 T;
  relative(X_a, X_b, R, T);
  const FclTree& b = of(other);
  const Bvh &ta = *model_, &tb = *b.model_;
  const double g = 0.5 * margin;
  std::vector<CandidatePair> out;
  std::vector<std::pair<int, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [ia, ib] = stack.back();
    stack.pop_back();
    const auto &na = ta.getBV(ia), &nb = tb.getBV(ib);
    if (!fcl::overlap(R, T, grown(na.bv.obb, g), grown(nb.bv.obb, g))) continue;
    if (na.isLeaf() && nb.isLeaf()) {
      const auto p = corners_of(mesh_, na.primitiveId()), q = corners_of(b.mesh_, nb.primitiveId());
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

std::vector<std::array<int, 2>> FclTree::intersecting_among(const MeshPose& X_a,
                                                            const cs::MeshBvhTree& other,
                                                            const MeshPose& X_b,
                                                            const std::vector<CandidatePair>& pairs,
                                                            double max_distance) const {
  Mat3 R;
  Vec3 T;
  relative(X_a, X_b, R, T);
  const TriangleMesh& mb = of(other).mesh_;
  std::vector<std::array<int, 2>> out;
  for (const CandidatePair& c : pairs) {
    if (c.distance > max_distance) break;  // sorted: the rest cannot have closed the gap
    const auto p = corners_of(mesh_, c.a), q = corners_of(mb, c.b);
    if (fcl::detail::Intersect<double>::intersect_Triangle(p[0], p[1], p[2], q[0], q[1], q[2], R,
                                                           T))
      out.push_back({c.a, c.b});
  }
  return out;
}

std::vector<MeshBox> FclTree::boxes(int depth) const {
  const Bvh& bvh = *model_;
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
NearestTriangle FclTree::nearest(const Vec3& p_M, int hint) const {
  NearestTriangle out;
  const TriangleMesh& m = mesh_;
  const Bvh& bvh = *model_;
  if (m.triangles.empty()) return out;
  double best = std::numeric_limits<double>::infinity();
  double bound = best;  // prune above this (with the rounding slack of prunes())
  if (hint >= 0 && hint < m.num_triangles()) {
    const auto c = corners_of(m, hint);
    bound = (cs::closest_point_on_triangle(p_M, c[0], c[1], c[2]) - p_M).squaredNorm();
  }
  std::vector<std::pair<double, int>> stack{{0.0, 0}};  // (lower bound², node)
  stack.reserve(64);
  while (!stack.empty()) {
    const auto [lower, id] = stack.back();
    stack.pop_back();
    if (prunes(lower, bound)) continue;
    const auto& node = bvh.getBV(id);
    if (cs::fcl_plugin::is_leaf(node)) {
      const int t = cs::fcl_plugin::triangle_of(node);
      const auto c = corners_of(m, t);
      const Vec3 q = cs::closest_point_on_triangle(p_M, c[0], c[1], c[2]);
      if ((q - p_M).squaredNorm() < best) {
        best = (q - p_M).squaredNorm();
        bound = std::min(bound, best);
        out.triangle = t;
        out.closest = q;
      }
      continue;
    }
    const int a = node.first_child, b = node.first_child + 1;
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

void FclTree::leaves_under(int id, std::vector<int>& out) const {
  std::vector<int> stack{id};
  while (!stack.empty()) {
    const auto& n = model_->getBV(stack.back());
    stack.pop_back();
    if (n.isLeaf()) {
      out.push_back(n.primitiveId());
    } else {
      stack.push_back(n.rightChild());
      stack.push_back(n.leftChild());
    }
  }
}

std::vector<cs::MeshPatch> FclTree::patches(int max_triangles) const {
  std::vector<cs::MeshPatch> out;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const auto& n = model_->getBV(id);
    if (!n.isLeaf() && n.num_primitives > max_triangles) {
      stack.push_back(n.rightChild());
      stack.push_back(n.leftChild());
      continue;
    }
    cs::MeshPatch p;
    p.box = {n.bv.obb.axis, n.bv.obb.To, n.bv.obb.extent};
    leaves_under(id, p.triangles);
    out.push_back(std::move(p));
  }
  return out;
}

// FCL's own box test (the one collide() prunes with), the box given in this mesh's frame.
void FclTree::triangles_in_box(const MeshBox& box_M, std::vector<int>& out) const {
  const fcl::OBBd query = obb_of(box_M);
  const Mat3 I = Mat3::Identity();
  const Vec3 zero = Vec3::Zero();
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const auto& n = model_->getBV(stack.back());
    stack.pop_back();
    if (!fcl::overlap(I, zero, query, n.bv.obb)) continue;
    if (n.isLeaf()) {
      out.push_back(n.primitiveId());
    } else {
      stack.push_back(n.rightChild());
      stack.push_back(n.leftChild());
    }
  }
}

// Branch and bound on separation() (a lower bound for every triangle under a node, since a
// node's box holds its children's): a node no nearer than the best leaf so far, or than `cap`,
// is skipped.
double FclTree::clearance(const MeshBox& box_M, double floor, double cap) const {
  const fcl::OBBd query = obb_of(box_M);
  double best = cap;
  std::vector<std::pair<double, int>> stack{{separation(query, model_->getBV(0).bv.obb), 0}};
  while (!stack.empty()) {
    const auto [gap, id] = stack.back();
    stack.pop_back();
    if (gap >= best) continue;
    const auto& n = model_->getBV(id);
    if (n.isLeaf()) {
      best = std::max(gap, 0.0);
      if (best < floor) return best;
      continue;
    }
    const int a = n.leftChild(), b = n.rightChild();
    const double ga = separation(query, model_->getBV(a).bv.obb);
    const double gb = separation(query, model_->getBV(b).bv.obb);
    if (ga <= gb) {  // the nearer child on top
      stack.emplace_back(gb, b);
      stack.emplace_back(ga, a);
    } else {
      stack.emplace_back(ga, a);
      stack.emplace_back(gb, b);
    }
  }
  return best;
}

class FclBackend final : public cs::MeshBvhBackend {
 public:
  std::unique_ptr<cs::MeshBvhTree> build(const TriangleMesh& mesh) const override {
    return std::make_unique<FclTree>(mesh);
  }
  bool boxes_within(const MeshBox& a, const MeshPose& X_a, const MeshBox& b, const MeshPose& X_b,
                    double distance) const override {
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
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const cs::MeshBvhBackend* clearsim_fcl_backend() {
  static const FclBackend backend;
  return &backend;
}
