#include "clearsim/elements/contact/mesh_contact.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "clearsim/geometry/mesh_check.hpp"

namespace cs::contact {

namespace {
using ConstVec3Map = Eigen::Map<const Vec3>;

// The value part of a pose (its position and orientation: what the memory matching reads).
template <class S>
Pose<double> values_of(const Pose<S>& p) {
  Pose<double> v{Vec3::Zero(), Mat3::Zero(), Vec3::Zero(), Vec3::Zero()};
  for (int r = 0; r < 3; ++r) {
    v.x(r) = value_of(p.x(r));
    for (int c = 0; c < 3; ++c) v.R(r, c) = value_of(p.R(r, c));
  }
  return v;
}

double mean_edge_length(const TriangleMesh& m) {
  double sum = 0.0;
  for (const auto& t : m.triangles)
    for (int k = 0; k < 3; ++k) sum += (m.vertices[t[(k + 1) % 3]] - m.vertices[t[k]]).norm();
  return m.triangles.empty() ? 0.0 : sum / (3.0 * m.num_triangles());
}
}  // namespace

void check_contact_mesh(const Shape& shape, std::vector<std::string>& warnings) {
  if (!shape.mesh || shape.mesh->triangles.empty())
    throw std::invalid_argument("shape '" + shape.name + "' has no triangles");
  const MeshReport r = check_mesh(*shape.mesh);
  const bool fatal =
      !r.closed() || !r.consistently_oriented() || r.inward || !r.nonfinite_vertices.empty();
  std::ostringstream os;
  os << "shape '" << shape.name << "'";
  for (const std::string& p : r.problems()) os << "; " << p;
  if (fatal) {
    os << " — mesh contact needs a closed, consistently outward-oriented mesh (the inside of "
          "the other body is where its vertices are found)";
    throw std::invalid_argument(os.str());
  }
  if (!r.degenerate_triangles.empty() || !r.duplicated_triangles.empty())
    warnings.push_back(os.str() + " (ignored by the contact detector)");
}

MeshContact::MeshContact(std::string name, const Shape& shape_i, const Shape& shape_j,
                         ContactLaws laws, MeshContactOptions options)
    : Element(std::move(name), shape_i.body, shape_j.body),
      laws_(std::move(laws)),
      options_(options) {
  if (shape_i.body == shape_j.body)
    throw std::invalid_argument("mesh contact '" + this->name() + "': shapes '" + shape_i.name +
                                "' and '" + shape_j.name + "' are on the same body");
  if (options_.region_force == RegionForce::kLine && !(options_.reference_length > 0.0))
    throw std::invalid_argument("mesh contact '" + this->name() +
                                "': a line region force needs a reference length > 0");
  const Shape* shapes[2] = {&shape_i, &shape_j};
  for (const Shape* sh : shapes) check_contact_mesh(*sh, warnings_);
  double edge = 0.0, smallest_edge = std::numeric_limits<double>::infinity();
  for (int s = 0; s < 2; ++s) {
    Side& side = sides_[s];
    side.shape = *shapes[s];
    const TriangleMesh& m = *side.shape.mesh;
    side.bvh = std::make_shared<const MeshBvh>(m);
    side.neighbours = vertex_neighbours(m);
    for (const Vec3& v : m.vertices)
      side.vertices_B.push_back(side.shape.p_BS + side.shape.R_BS * v);
    for (int t = 0; t < m.num_triangles(); ++t)
      side.normals_B.push_back(side.shape.R_BS * face_normal(m, t));
    if (options_.region_force == RegionForce::kLine) {
      side.vertex_faces.resize(m.vertices.size());
      for (int t = 0; t < m.num_triangles(); ++t)
        for (int v : m.triangles[t]) side.vertex_faces[v].push_back(t);
    }
    const double mesh_edge = mean_edge_length(m);
    edge += 0.5 * mesh_edge;
    smallest_edge = std::min(smallest_edge, mesh_edge);
    Vec3 lo = m.vertices.front(), hi = lo;
    for (const Vec3& v : m.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    for (int k = 0; k < 8; ++k)
      side.box_corners.push_back(
          Vec3(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(), k & 4 ? hi.z() : lo.z()));
  }
  if (options_.match_distance <= 0.0) options_.match_distance = edge;
  // A search with margin m costs more the larger m (seed 004's teeth: 50 µm pays, 1 mm does
  // not; docs/PERFORMANCE.md), so the default only covers small motions.
  if (options_.candidate_margin == 0.0) options_.candidate_margin = 0.05 * edge;
  // The Newton iterates of a step move by micrometres; a larger move at the same t is a new
  // configuration and gets its own set.
  if (options_.hold_distance <= 0.0) options_.hold_distance = 0.01 * smallest_edge;
  if (options_.patch_tracking) {
    tracker_ = std::make_unique<PatchTracker>(
        instance(0, BodyKinematics{}), instance(1, BodyKinematics{}), options_.tracking_margin);
    options_.tracking_margin = tracker_->margin();
  } else if (options_.candidate_margin > 0.0) {
    candidates_ = std::make_unique<ContactCandidates>(*sides_[0].bvh, *sides_[1].bvh,
                                                      options_.candidate_margin);
  }
}

MeshInstance MeshContact::instance(int side, const BodyKinematics& b) const {
  const Side& s = sides_[side];
  MeshInstance m;
  m.mesh = s.shape.mesh.get();
  m.bvh = s.bvh.get();
  m.neighbours = &s.neighbours;
  m.pose.R_WM = b.R_WB * s.shape.R_BS;
  m.pose.p_WM = b.x_W + b.R_WB * s.shape.p_BS;
  return m;
}

std::vector<Region> MeshContact::detect(const ElementInput& in, DetectionStats* stats,
                                        bool full) const {
  const MeshInstance m0 = instance(0, *in.i), m1 = instance(1, *in.j);
  const auto fcl = [&] {
    return MeshBvh::intersecting_triangles_fcl(*m0.bvh, m0.pose, *m1.bvh, m1.pose);
  };
  if (full) return split_at_apex(find_regions(m0, m1, fcl(), stats), m0, m1);
  const auto search = [&](DetectionStats* st) {
    if (tracker_)
      return split_at_apex(find_regions(m0, m1, tracker_->intersecting(m0, m1, st), st), m0, m1);
    if (!candidates_)
      return split_at_apex(
          options_.fcl_collide ? find_regions(m0, m1, fcl(), st) : find_regions(m0, m1, st), m0,
          m1);
    return split_at_apex(find_regions(m0, m1, candidates_->intersecting(m0, m1, st), st), m0, m1);
  };
  const std::lock_guard<std::mutex> lock(candidates_mutex_);
  if (!options_.hold_contact_set) return search(stats);
  // Mesh 1's frame in mesh 0's: q ↦ M q + c.
  const Mat3 M = m0.pose.R_WM.transpose() * m1.pose.R_WM;
  const Vec3 c = m0.pose.R_WM.transpose() * (m1.pose.p_WM - m0.pose.p_WM);
  if (held_.valid && held_.t == in.t) {
    // The largest motion since the set was found of a point in both meshes' boxes relative to
    // the other mesh: affine in the point, so largest at a box corner (of either box).
    const Mat3 dM = M - held_.M;
    const Vec3 dc = c - held_.c;
    double moved_1 = 0.0, moved_0 = 0.0;
    for (const Vec3& q : sides_[1].box_corners) moved_1 = std::max(moved_1, (dM * q + dc).norm());
    for (const Vec3& p : sides_[0].box_corners)
      moved_0 =
          std::max(moved_0, (M.transpose() * (p - c) - held_.M.transpose() * (p - held_.c)).norm());
    if (std::min(moved_0, moved_1) <= options_.hold_distance) {
      if (stats) *stats = held_.stats;
      return held_.regions;
    }
  }
  held_.stats = DetectionStats{};
  held_.regions = search(&held_.stats);
  held_.valid = true;
  held_.t = in.t;
  held_.M = M;
  held_.c = c;
  if (stats) *stats = held_.stats;
  return held_.regions;
}

template <class S>
MeshContact::RegionKinematics<S> MeshContact::region_kinematics(const Region& r, const Pose<S>& i,
                                                                const Pose<S>& j) const {
  const Pose<S>* pose[2] = {&i, &j};
  V3<S> sum_N = V3<S>::Zero(), sum_c = V3<S>::Zero();
  S sum_w(0.0);
  RegionKinematics<S> k;
  k.depth = S(0.0);
  k.weight = S(1.0);
  std::vector<Vec3> c_values;
  const bool line = options_.region_force == RegionForce::kLine;
  std::vector<V3<S>> c_all, vertex_p;
  std::vector<S> depths;
  for (const Penetration& e : r.points) {
    const int own = e.side, other = 1 - e.side;
    const V3<S> p = pose[own]->point(sides_[own].vertices_B[e.vertex]);
    const V3<S> n = pose[other]->direction(sides_[other].normals_B[e.face]);
    const int a_index = sides_[other].shape.mesh->triangles[e.face][0];
    const V3<S> a = pose[other]->point(sides_[other].vertices_B[a_index]);
    const S depth = n.dot(a - p);
    const V3<S> c = p + (0.5 * depth) * n;
    sum_N += depth * (own == 1 ? n : V3<S>(-n));
    sum_c += depth * c;
    sum_w += depth;
    if (value_of(depth) > value_of(k.depth)) k.depth = depth;
    c_values.push_back(Vec3(value_of(c(0)), value_of(c(1)), value_of(c(2))));
    if (line) {
      c_all.push_back(c);
      vertex_p.push_back(p);
      depths.push_back(depth);
    }
  }
  std::vector<V3<S>> ends;
  if (line) {
    // Each edge leaving the region: its crossing x = p_a + f (p_b − p_a), f = δ_a/(δ_a + s_b),
    // s_b the outside vertex's distance to the other mesh.
    // Only across one surface of the other mesh: an outside vertex whose nearest face turns
    // away from the inside vertex's by more than 60° lies off another surface (a gear's end
    // face coplanar with its mate's, a tip land), and the region ends at the inside vertex.
    // Likewise the edge itself must run on the surface that meets the mate there: one of its
    // triangles within 60° of facing the mate's face (not an end face's long triangles).
    for (const Crossing& cr : r.crossings) {
      const int own = cr.side, other = 1 - cr.side;
      const Penetration& in_pt = r.points[cr.inside];
      const int inside_face = in_pt.face;
      bool along =
          sides_[other].normals_B[inside_face].dot(sides_[other].normals_B[cr.face]) >= 0.5;
      if (along) {
        const V3<S> n_mate = pose[other]->direction(sides_[other].normals_B[inside_face]);
        const Vec3 facing(-value_of(n_mate(0)), -value_of(n_mate(1)), -value_of(n_mate(2)));
        const Mat3 R_own = values_of(*pose[own]).R;
        const auto& tri = sides_[own].shape.mesh->triangles;
        along = false;
        for (int t : sides_[own].vertex_faces[in_pt.vertex]) {
          const auto& tv = tri[t];
          if (tv[0] != cr.vertex && tv[1] != cr.vertex && tv[2] != cr.vertex) continue;
          if ((R_own * sides_[own].normals_B[t]).dot(facing) >= 0.5) along = true;
        }
      }
      if (!along) {
        ends.push_back(vertex_p[cr.inside]);
        continue;
      }
      const V3<S> pb = pose[own]->point(sides_[own].vertices_B[cr.vertex]);
      // s_b: the distance to the nearest point q of the other mesh, held in its frame (its
      // first derivatives are those of the distance to the whole surface).
      const Shape& os = sides_[other].shape;
      const V3<S> q = pose[other]->point(Vec3(os.p_BS + os.R_BS * cr.closest));
      using std::sqrt;
      const S s_b = sqrt((pb - q).squaredNorm());
      const V3<S>& pa = vertex_p[cr.inside];
      const S& da = depths[cr.inside];
      if (value_of(s_b) <= 0.0 || value_of(da) <= 0.0) {
        ends.push_back(pb);
        continue;
      }
      ends.push_back(pa + (da / (da + s_b)) * (pb - pa));
    }
  }
  using std::sqrt;
  const S norm = sqrt(sum_N.squaredNorm());
  if (value_of(norm) <= 1e-12 * value_of(sum_w)) {  // opposite faces cancel: no usable normal
    k.N = V3<S>::Zero();
    k.depth = S(0.0);  // the law gives no force
  } else {
    k.N = sum_N / norm;
  }
  k.point = sum_c / sum_w;
  const Vec3 c0(value_of(k.point(0)), value_of(k.point(1)), value_of(k.point(2)));
  for (const Vec3& c : c_values) k.extent = std::max(k.extent, (c - c0).norm());
  if (line) {
    k.weight = line_weight(c_all, ends, k.N);
    for (const S& d : depths) k.shares.push_back(d / sum_w);
    k.points = std::move(c_all);
  }
  return k;
}

// L/L_ref, L = t·(c_a − c_b): the extent of the points c along their principal direction t in
// the tangent plane (the top eigenvector of C = Σ P(c − c̄)(c − c̄)ᵀP, P = I − N Nᵀ), a and b the
// extreme points along t (chosen in double, like the vertex–face pairs). t carries its exact
// first derivative dt = Σ_k t_k (t_kᵀ dC t)/(λ − λ_k) over the other eigenvectors, so the
// weight's tangent is exact while the extreme points stay the same.
template <class S>
S MeshContact::line_weight(const std::vector<V3<S>>& c, const std::vector<V3<S>>& ends,
                           const V3<S>& N) const {
  const int n = static_cast<int>(c.size());
  if (n < 2) return S(0.0);  // a single point has no length
  V3<S> mean = V3<S>::Zero();
  for (const V3<S>& x : c) mean += x;
  mean /= static_cast<double>(n);
  const M3<S> P = M3<S>::Identity() - N * N.transpose();
  M3<S> C = M3<S>::Zero();
  for (const V3<S>& x : c) {
    const V3<S> d = P * (x - mean);
    C += d * d.transpose();
  }
  Mat3 Cd;
  for (int r = 0; r < 3; ++r)
    for (int q = 0; q < 3; ++q) Cd(r, q) = value_of(C(r, q));
  Eigen::SelfAdjointEigenSolver<Mat3> eig;
  eig.computeDirect(Cd);
  const Vec3 t = eig.eigenvectors().col(2);  // eigenvalues ascending
  const double lambda = eig.eigenvalues()(2);
  V3<S> tS;
  for (int r = 0; r < 3; ++r) tS(r) = S(t(r));
  for (int k = 0; k < 2; ++k) {
    const double gap = lambda - eig.eigenvalues()(k);
    if (!(gap > 1e-12 * lambda)) continue;  // a round patch: no principal direction to follow
    const Vec3 tk = eig.eigenvectors().col(k);
    S proj(0.0);
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) proj += tk(r) * (C(r, q) - Cd(r, q)) * t(q);
    tS += (proj / gap) * V3<S>(S(tk(0)), S(tk(1)), S(tk(2)));
  }
  // The extreme points along t among the points and the crossings.
  const V3<S>* hi = &c[0];
  const V3<S>* lo = &c[0];
  double s_hi = -std::numeric_limits<double>::infinity(), s_lo = -s_hi;
  const auto consider = [&](const V3<S>& x) {
    const double s = t.dot(Vec3(value_of(x(0)), value_of(x(1)), value_of(x(2))));
    if (s > s_hi) s_hi = s, hi = &x;
    if (s < s_lo) s_lo = s, lo = &x;
  };
  for (const V3<S>& x : c) consider(x);
  for (const V3<S>& x : ends) consider(x);
  return tS.dot(*hi - *lo) / options_.reference_length;
}

std::vector<int> MeshContact::match(const std::vector<RegionKinematics<double>>& k,
                                    const Pose<double>& i, const double* memory) const {
  std::vector<int> slot(k.size(), -1);
  if (!memory) return slot;
  std::vector<std::tuple<double, int, int>> candidates;  // (distance, region, slot)
  for (int r = 0; r < static_cast<int>(k.size()); ++r) {
    const Vec3 c_B = i.R.transpose() * (k[r].point - i.x);
    for (int s = 0; s < options_.max_regions; ++s) {
      const double* mem = memory + kMemoryPerRegion * s;
      if (mem[0] <= 0.0) continue;
      const double d = (c_B - ConstVec3Map(mem + 1)).norm();
      if (d <= k[r].extent + options_.match_distance) candidates.emplace_back(d, r, s);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  std::vector<char> taken(options_.max_regions, 0);
  for (const auto& [d, r, s] : candidates) {
    if (slot[r] >= 0 || taken[s]) continue;
    slot[r] = s;
    taken[s] = 1;
  }
  return slot;
}

template <class S>
Eigen::Matrix<S, 12, 1> MeshContact::generalized_force(const std::vector<Region>& regions,
                                                       const Pose<S>& i, const Pose<S>& j,
                                                       const double* memory,
                                                       std::vector<RegionResult>* out) const {
  std::vector<RegionKinematics<double>> kd;
  Eigen::Matrix<S, 12, 1> f = Eigen::Matrix<S, 12, 1>::Zero();
  std::vector<RegionKinematics<S>> ks;
  for (const Region& reg : regions) {
    ks.push_back(region_kinematics(reg, i, j));
    RegionKinematics<double> d;
    d.point = ks.back().point.unaryExpr([](const S& x) { return value_of(x); });
    d.extent = ks.back().extent;
    kd.push_back(d);
  }
  const std::vector<int> slots = match(kd, values_of(i), memory);
  const FrictionLaw& fr = laws_.friction;
  for (std::size_t r = 0; r < regions.size(); ++r) {
    const RegionKinematics<S>& k = ks[r];
    const double* mem = slots[r] >= 0 ? memory + kMemoryPerRegion * slots[r] : nullptr;
    const V3<S> v = j.velocity_at(k.point) - i.velocity_at(k.point);
    const S delta_dot = -k.N.dot(v);
    const double v_minus = mem ? mem[0] : std::max(value_of(delta_dot), 0.0);
    const S F_N = k.weight * laws_.normal.force(k.depth, delta_dot, v_minus);
    V3<S> F = F_N * k.N, F_T = V3<S>::Zero();
    Vec3 friction_moment = Vec3::Zero();
    double friction_power = 0.0, friction_magnitude = 0.0;
    const bool spread = !k.points.empty() && !fr.has_bristle();
    if (spread && (fr.kind != FrictionLawKind::kNone || fr.viscous > 0.0)) {
      // The law at each point with its own velocity, weighted by the depth shares (header).
      for (std::size_t e = 0; e < k.points.size(); ++e) {
        const V3<S>& c = k.points[e];
        const V3<S> v_e = j.velocity_at(c) - i.velocity_at(c);
        const V3<S> v_T = v_e - k.N.dot(v_e) * k.N;
        const V3<S> F_e = k.shares[e] * fr.force(v_T, F_N, V3<S>(V3<S>::Zero()), v_T);
        F_T += F_e;
        f.template head<6>() += wrench_at(i, c, V3<S>(-F_e));
        f.template tail<6>() += wrench_at(j, c, F_e);
        if (!out) continue;
        const Vec3 Fd = F_e.unaryExpr([](const S& x) { return value_of(x); });
        const Vec3 cd = c.unaryExpr([](const S& x) { return value_of(x); });
        const Vec3 vd = v_e.unaryExpr([](const S& x) { return value_of(x); });
        friction_moment += (cd - kd[r].point).cross(Fd);
        friction_power -= Fd.dot(vd);
        friction_magnitude += Fd.norm();
      }
    } else if (fr.kind != FrictionLawKind::kNone || fr.viscous > 0.0) {
      const V3<S> v_T = v - k.N.dot(v) * k.N;
      V3<S> d = V3<S>::Zero(), d_dot = v_T;
      if (fr.has_bristle() && mem) {
        const V3<S> A_i = i.point(ConstVec3Map(mem + 4)), A_j = j.point(ConstVec3Map(mem + 7));
        const M3<S> P = M3<S>::Identity() - k.N * k.N.transpose();
        d = P * (A_j - A_i);
        d_dot = P * (j.velocity_at(A_j) - i.velocity_at(A_i));
      }
      F_T = fr.force(v_T, F_N, d, d_dot);
      F += F_T;
      if (out) {
        friction_power = -value_of(F_T.dot(v));
        friction_magnitude = std::sqrt(value_of(F_T.squaredNorm()));
      }
    }
    f.template head<6>() += wrench_at(i, k.point, V3<S>(-F));
    f.template tail<6>() += wrench_at(j, k.point, F);
    if (!out) continue;
    RegionResult res;
    res.point_W = kd[r].point;
    res.normal_W = k.N.unaryExpr([](const S& x) { return value_of(x); });
    res.depth = value_of(k.depth);
    res.F_N = value_of(F_N);
    res.weight = value_of(k.weight);
    res.friction_moment_W = friction_moment;
    res.friction_power = friction_power;
    res.F_T_W = F_T.unaryExpr([](const S& x) { return value_of(x); });
    res.friction_magnitude = friction_magnitude;
    res.vertices = static_cast<int>(regions[r].points.size());
    res.slot = slots[r];
    out->push_back(res);
  }
  return f;
}

void MeshContact::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  const std::vector<Region> regions = detect(in);
  if (regions.empty()) return;
  if (!tangents) {
    out.f += generalized_force(regions, pose_of(*in.i), pose_of(*in.j), in.memory, nullptr);
    return;
  }
  unpack_force(
      generalized_force(regions, seeded_pose(*in.i, 0), seeded_pose(*in.j, 1), in.memory, nullptr),
      out);
}

std::vector<MeshContact::RegionResult> MeshContact::evaluate(const ElementInput& in,
                                                             DetectionStats* stats) const {
  std::vector<RegionResult> out;
  generalized_force(detect(in, stats), pose_of(*in.i), pose_of(*in.j), in.memory, &out);
  return out;
}

double MeshContact::potential_energy(const ElementInput& in) const {
  double V = 0.0;
  for (const RegionResult& r : evaluate(in)) V += r.weight * laws_.normal.elastic_energy(r.depth);
  return V;
}

Element::ContactRates MeshContact::contact_rates(const ElementInput& in) const {
  ContactRates rates;
  for (const RegionResult& r : evaluate(in)) {
    const double v_minus = (in.memory && r.slot >= 0) ? in.memory[kMemoryPerRegion * r.slot] : 0.0;
    rates.stiffness = std::max(rates.stiffness, r.weight * laws_.normal.elastic_stiffness(r.depth));
    rates.damping = std::max(rates.damping, r.weight * laws_.normal.damping_rate(r.depth, v_minus));
  }
  return rates;
}

void MeshContact::update_memory(const ElementInput& in, double* memory) const {
  const Pose<double> pi = pose_of(*in.i), pj = pose_of(*in.j);
  const std::vector<RegionResult> regions = evaluate(in);
  const int n = num_memory();
  std::vector<double> next(n, 0.0);
  std::vector<char> used(options_.max_regions, 0);
  for (const RegionResult& r : regions)
    if (r.slot >= 0) used[r.slot] = 1;
  int free_slot = 0;
  const FrictionLaw& fr = laws_.friction;
  for (const RegionResult& r : regions) {
    int s = r.slot;
    if (s < 0) {  // onset: the first slot no region holds
      while (free_slot < options_.max_regions && used[free_slot]) ++free_slot;
      if (free_slot == options_.max_regions) continue;  // beyond capacity: no memory
      s = free_slot;
      used[s] = 1;
    }
    double* mem = next.data() + kMemoryPerRegion * s;
    const double* old = r.slot >= 0 ? memory + kMemoryPerRegion * r.slot : nullptr;
    const Vec3 v = pj.velocity_at(r.point_W) - pi.velocity_at(r.point_W);
    Vec3 A_i = r.point_W, A_j = r.point_W;  // onset: anchor the bristle at the point
    if (old) {
      std::copy(old, old + kMemoryPerRegion, mem);
      A_i = pi.point(ConstVec3Map(old + 4));
      A_j = pj.point(ConstVec3Map(old + 7));
      if (fr.has_bristle()) {
        const Mat3 P = Mat3::Identity() - r.normal_W * r.normal_W.transpose();
        const Vec3 d = P * (A_j - A_i);
        const Vec3 d_dot = P * (pj.velocity_at(A_j) - pi.velocity_at(A_i));
        const Vec3 v_T = v - r.normal_W.dot(v) * r.normal_W;
        const Vec3 settled = fr.settled_deflection(v_T, r.F_N, d, d_dot);
        if (settled != d) {  // slipping beyond the static limit: the anchor follows
          A_j = r.point_W;
          A_i = r.point_W - settled;
        }
      }
    } else {
      mem[0] = std::max(-r.normal_W.dot(v), laws_.normal.min_approach_speed);
    }
    Eigen::Map<Vec3>(mem + 1) = pi.R.transpose() * (r.point_W - pi.x);
    Eigen::Map<Vec3>(mem + 4) = pi.R.transpose() * (A_i - pi.x);
    Eigen::Map<Vec3>(mem + 7) = pj.R.transpose() * (A_j - pj.x);
  }
  std::copy(next.begin(), next.end(), memory);
}

std::vector<std::string> MeshContact::channel_names() const {
  std::vector<std::string> names = {
      "regions",          "normal_force",   "friction_force", "penetration", "triangle_pairs",
      "unresolved_pairs", "friction_power", "torque_i.x",     "torque_i.y",  "torque_i.z",
      "torque_j.x",       "torque_j.y",     "torque_j.z"};
  const std::vector<std::string> gear = gear_channel_names();
  names.insert(names.end(), gear.begin(), gear.end());
  return names;
}

double MeshContact::channel_value(int k, const ElementInput& in, const double* lambda) const {
  double value = 0.0;
  channel_values(&k, 1, in, lambda, &value);
  return value;
}

void MeshContact::channel_values(const int* k, int n, const ElementInput& in, const double*,
                                 double* out) const {
  // One evaluation of the regions for all the channels asked (13 on seed 004's mesh start-up,
  // where evaluating them per channel was 8 % of a step's instructions).
  bool need_regions = false;
  for (int i = 0; i < n; ++i)
    need_regions =
        need_regions || k[i] < kOwnChannels || gear_channel_reads_regions(k[i] - kOwnChannels);
  DetectionStats stats;
  const std::vector<RegionResult> regions =
      need_regions ? evaluate(in, &stats) : std::vector<RegionResult>{};
  for (int i = 0; i < n; ++i)
    out[i] = k[i] >= kOwnChannels ? gear_channel(k[i] - kOwnChannels, in, regions)
                                  : own_channel(k[i], in, regions, stats);
}

double MeshContact::own_channel(int k, const ElementInput& in,
                                const std::vector<RegionResult>& regions,
                                const DetectionStats& stats) const {
  if (k == 4) return stats.triangle_pairs;
  if (k == 5) return stats.unresolved_pairs;
  const Pose<double> pi = pose_of(*in.i), pj = pose_of(*in.j);
  if (k >= 7) {  // moment of the contact forces about the body's centre of mass, body frame
    const bool on_j = k >= 10;
    const Pose<double>& p = on_j ? pj : pi;
    Vec3 M = Vec3::Zero();
    for (const RegionResult& r : regions) {
      const Vec3 F = r.F_N * r.normal_W + r.F_T_W;  // on body j
      const Vec3 M_j = (r.point_W - p.x).cross(F) + r.friction_moment_W;
      M += on_j ? M_j : Vec3(-M_j);
    }
    return (p.R.transpose() * M)((k - 7) % 3);
  }
  double value = 0.0;
  for (const RegionResult& r : regions) {
    if (k == 1) value += r.F_N;
    if (k == 2) value += r.friction_magnitude;
    if (k == 3) value = std::max(value, r.depth);
    if (k == 6) value += r.friction_power;  // lost: −F_T·v_rel (spread: over its points)
  }
  return k == 0 ? static_cast<double>(regions.size()) : value;
}

}  // namespace cs::contact
