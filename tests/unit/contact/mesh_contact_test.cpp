// Mesh–mesh contact (elements/contact/mesh_contact.hpp) against closed forms: sphere and box
// meshes pressed into a plane mesh (a thin grid slab) give the analytic penetration and normal
// within the mesh resolution; swapping the bodies gives equal and opposite forces; the force
// tangent matches central differences while the contact set is fixed (point and line region
// force); a line region carries the law per reference length over its length; region memory
// follows a region between steps; open, inward and duplicated meshes are refused with a message.
#include "clearsim/elements/contact/mesh_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/math/so3.hpp"

namespace cs::contact {
namespace {

constexpr int kBody = 0;  // the moving body (ground is kGround)

Shape make_shape(const std::string& name, int body, TriangleMesh mesh,
                 const Vec3& p_BS = {0, 0, 0}) {
  Shape s;
  s.name = name;
  s.body = body;
  s.p_BS = p_BS;
  s.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return s;
}

// A 1 m × 1 m plane mesh, top face at z = 0, with `cells` × `cells` grid cells on top.
Shape plane_shape(int cells) {
  return make_shape("plane", kGround, grid_box_mesh(Vec3(1.0, 1.0, 0.1), {cells, cells, 1}),
                    Vec3(0, 0, -0.05));
}

ContactLaws hertz_laws(double K = 1e9) {
  ContactLaws laws;
  laws.normal.kind = NormalLawKind::kHertz;
  laws.normal.stiffness = K;
  return laws;
}

BodyKinematics body_at(const Vec3& x, const Mat3& R = Mat3::Identity()) {
  BodyKinematics b;
  b.x_W = x;
  b.R_WB = R;
  return b;
}

// Largest angle between adjacent vertices of an icosphere (its edge angle), so the largest
// distance from a point of the sphere to the nearest vertex is below it.
double max_edge_angle(const TriangleMesh& m, double r) {
  double a = 0.0;
  for (const auto& t : m.triangles)
    for (int k = 0; k < 3; ++k)
      a = std::max(a, std::acos(std::clamp(
                          m.vertices[t[k]].dot(m.vertices[t[(k + 1) % 3]]) / (r * r), -1.0, 1.0)));
  return a;
}

// Sphere meshes of three resolutions pressed to depth δ at several places and orientations: the
// detected δ is within the resolution of the analytic one and never above it (an inscribed
// mesh), and the normal is vertical within the cap's half-angle. Tolerance: the lowest vertex
// is within one edge angle θ of the south pole, so δ − δ_mesh ≤ r(1 − cos θ).
TEST(MeshContact, SpherePressedIntoPlaneGivesAnalyticDepthAndNormal) {
  const double r = 0.05;
  const Mat3 tilts[3] = {Mat3::Identity(), so3::exp(Vec3(0.3, -0.2, 0.7)),
                         so3::exp(Vec3(-1.1, 0.4, 0.2))};
  for (int subdivisions : {2, 3, 4}) {
    const TriangleMesh sphere = sphere_mesh(r, subdivisions);
    const double tol = r * (1.0 - std::cos(max_edge_angle(sphere, r)));
    double worst_depth = 0.0, worst_angle = 0.0;
    for (int plane_cells : {4, 64}) {
      const MeshContact mc("c", plane_shape(plane_cells), make_shape("ball", kBody, sphere),
                           hertz_laws());
      for (double delta : {2e-4, 1e-3, 4e-3})
        for (const Mat3& R : tilts) {
          const BodyKinematics plane, ball = body_at(Vec3(0.013, -0.021, r - delta), R);
          const ElementInput in{0.0, &plane, &ball, nullptr};
          const auto regions = mc.evaluate(in);
          // Shallower than the resolution, the sphere mesh may not reach the plane at all.
          ASSERT_EQ(regions.size(), delta > tol ? 1u : regions.size());
          ASSERT_LE(regions.size(), 1u);
          const double depth = regions.empty() ? 0.0 : regions[0].depth;
          const double err = delta - depth;
          EXPECT_GE(err, -1e-12);
          EXPECT_LE(err, tol) << "s = " << subdivisions << ", δ = " << delta;
          worst_depth = std::max(worst_depth, err);
          if (regions.empty()) continue;
          const double angle = std::acos(std::min(1.0, regions[0].normal_W.z()));
          EXPECT_LE(angle, std::sqrt(2.0 * delta / r) + 1e-9);  // the cap's half-angle
          worst_angle = std::max(worst_angle, angle);
        }
    }
    std::printf(
        "[ measured ] sphere r = %g, %d triangles: depth error ≤ %.3g m (bound %.3g), "
        "normal error ≤ %.3g rad\n",
        r, sphere.num_triangles(), worst_depth, tol, worst_angle);
  }
}

// A box has exact vertices: flat or tilted, its depth is the analytic lowest-corner depth to
// round-off and its normal is the plane's; flat, the point is under the centre.
TEST(MeshContact, BoxPressedIntoPlaneIsExact) {
  const Vec3 size(0.1, 0.06, 0.04);
  const MeshContact mc("c", plane_shape(8), make_shape("box", kBody, box_mesh(size)), hertz_laws());
  for (double tilt : {0.0, 0.05, 0.2}) {
    const Mat3 R = so3::exp(Vec3(tilt, 0.5 * tilt, 0.0));
    const double delta = 1e-3;
    double lowest = 0.0;  // lowest corner relative to the centre
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner((c & 1 ? 0.5 : -0.5) * size.x(), (c & 2 ? 0.5 : -0.5) * size.y(),
                        (c & 4 ? 0.5 : -0.5) * size.z());
      lowest = std::min(lowest, (R * corner).z());
    }
    const BodyKinematics plane, box = body_at(Vec3(0.1, 0.2, -lowest - delta), R);
    const auto regions = mc.evaluate({0.0, &plane, &box, nullptr});
    ASSERT_EQ(regions.size(), 1u) << "tilt " << tilt;
    EXPECT_NEAR(regions[0].depth, delta, 1e-12);
    EXPECT_NEAR(regions[0].normal_W.z(), 1.0, 1e-12);
    if (tilt == 0.0) {
      EXPECT_NEAR(regions[0].point_W.x(), 0.1, 1e-12);
      EXPECT_NEAR(regions[0].point_W.y(), 0.2, 1e-12);
      EXPECT_EQ(regions[0].vertices, 4);
    }
  }
}

// The order of the two bodies does not matter: the forces swap and change sign.
TEST(MeshContact, SwappingTheBodiesGivesEqualAndOppositeForces) {
  ContactLaws laws = hertz_laws();
  laws.normal.kind = NormalLawKind::kHuntCrossley;
  laws.normal.restitution = 0.8;
  laws.friction.kind = FrictionLawKind::kStribeck;
  laws.friction.mu_dynamic = 0.2;
  laws.friction.mu_static = 0.3;
  const Shape plane = plane_shape(32), ball = make_shape("ball", kBody, sphere_mesh(0.05, 3));
  const MeshContact ab("ab", plane, ball, laws), ba("ba", ball, plane, laws);
  BodyKinematics g, b = body_at(Vec3(0.01, 0.02, 0.048), so3::exp(Vec3(0.2, 0.1, -0.3)));
  b.v_W = Vec3(0.3, -0.1, -0.2);
  b.w_B = Vec3(1.0, 2.0, -0.5);
  ForceBlock f_ab, f_ba;
  ab.force({0.0, &g, &b, nullptr}, f_ab, false);
  ba.force({0.0, &b, &g, nullptr}, f_ba, false);
  EXPECT_GT(f_ab.f(8), 1.0);  // pushed up
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(f_ab.f(6 + k), f_ba.f(k), 1e-9 * f_ab.f.norm()) << k;  // on the ball
    EXPECT_NEAR(f_ab.f(k), f_ba.f(6 + k), 1e-9 * f_ab.f.norm()) << k;  // on the ground
  }
}

// With the vertex–face pairs fixed (small perturbations), ∂f/∂q and ∂f/∂v from AD match central
// differences on the group, both bodies moving. The contact must have a remembered region.
void expect_tangent_matches_finite_differences(const MeshContact& mc, const BodyKinematics& bi,
                                               const BodyKinematics& bj, double t = 0.0) {
  std::vector<double> memory(mc.num_memory(), 0.0);
  mc.update_memory({t, &bi, &bj, memory.data()}, memory.data());  // onset: δ̇⁻ remembered
  ASSERT_GT(memory[0], 0.0);
  auto f_at = [&](const BodyKinematics& i, const BodyKinematics& j) {
    ForceBlock out;
    mc.force({t, &i, &j, memory.data()}, out, false);
    return Vec12(out.f);
  };
  ForceBlock exact;
  mc.force({t, &bi, &bj, memory.data()}, exact, true);
  const double eps = 1e-7;
  Mat12 fd_q, fd_v;
  for (int c = 0; c < 12; ++c) {
    BodyKinematics ip = bi, im = bi, jp = bj, jm = bj;
    BodyKinematics& p = c < 6 ? ip : jp;
    BodyKinematics& m = c < 6 ? im : jm;
    const int k = c % 6;
    if (k < 3) {
      p.x_W(k) += eps;
      m.x_W(k) -= eps;
    } else {
      p.R_WB = p.R_WB * so3::exp(eps * Vec3::Unit(k - 3));
      m.R_WB = m.R_WB * so3::exp(-eps * Vec3::Unit(k - 3));
    }
    fd_q.col(c) = (f_at(ip, jp) - f_at(im, jm)) / (2 * eps);
    ip = bi, im = bi, jp = bj, jm = bj;
    Vec3& vp = k < 3 ? (c < 6 ? ip.v_W : jp.v_W) : (c < 6 ? ip.w_B : jp.w_B);
    Vec3& vm = k < 3 ? (c < 6 ? im.v_W : jm.v_W) : (c < 6 ? im.w_B : jm.w_B);
    vp(k % 3) += eps;
    vm(k % 3) -= eps;
    fd_v.col(c) = (f_at(ip, jp) - f_at(im, jm)) / (2 * eps);
  }
  const double scale_q = exact.df_dq.cwiseAbs().maxCoeff();
  const double scale_v = exact.df_dv.cwiseAbs().maxCoeff();
  EXPECT_GT(scale_q, 1e3);
  EXPECT_LT((exact.df_dq - fd_q).cwiseAbs().maxCoeff(), 1e-5 * scale_q);
  EXPECT_LT((exact.df_dv - fd_v).cwiseAbs().maxCoeff(), 1e-5 * scale_v);
}

ContactLaws tangent_laws() {
  ContactLaws laws = hertz_laws(1e8);
  laws.normal.kind = NormalLawKind::kHuntCrossley;
  laws.normal.restitution = 0.7;
  laws.friction.kind = FrictionLawKind::kStribeck;
  laws.friction.mu_dynamic = 0.2;
  laws.friction.mu_static = 0.3;
  return laws;
}

TEST(MeshContact, ForceTangentMatchesFiniteDifferences) {
  const MeshContact mc(
      "c",
      make_shape("slab", 1, grid_box_mesh(Vec3(1, 1, 0.1), {16, 16, 1}), Vec3(0.01, 0.0, -0.05)),
      make_shape("ball", 0, sphere_mesh(0.05, 3), Vec3(0.0, 0.003, 0.0)), tangent_laws());
  BodyKinematics bi = body_at(Vec3(0.0, 0.0, 0.0), so3::exp(Vec3(0.02, -0.03, 0.1)));
  BodyKinematics bj = body_at(Vec3(0.02, 0.01, 0.047), so3::exp(Vec3(0.4, 0.3, -0.2)));
  bi.v_W = Vec3(0.01, 0.02, 0.03);
  bi.w_B = Vec3(0.1, -0.2, 0.3);
  bj.v_W = Vec3(0.2, -0.1, -0.3);
  bj.w_B = Vec3(1.0, 0.5, -2.0);
  expect_tangent_matches_finite_differences(mc, bi, bj);
}

MeshContactOptions line_force(double reference_length) {
  MeshContactOptions o;
  o.region_force = RegionForce::kLine;
  o.reference_length = reference_length;
  return o;
}

// Line region force: a bar lying on the plane along its length L carries (L/L_ref) K δ^n, the
// law per reference length, at any heading; the point force (the default) is the law's K δ^n.
// The bar's four bottom corners are the region (the plane's vertices miss its footprint), so L
// is exact.
TEST(MeshContact, LineRegionForceIsTheLawPerReferenceLength) {
  const Vec3 size(0.1, 0.02, 0.04);
  const double K = 1e9, L_ref = 0.04, delta = 1e-3;
  const Shape plane = plane_shape(8), bar = make_shape("bar", kBody, box_mesh(size));
  const MeshContact line("line", plane, bar, hertz_laws(K), line_force(L_ref));
  const MeshContact point("point", plane, bar, hertz_laws(K));
  for (double heading : {0.0, 0.3, 1.2}) {
    const BodyKinematics g,
        b = body_at(Vec3(0.1, 0.2, 0.5 * size.z() - delta), so3::exp(Vec3(0, 0, heading)));
    const auto rl = line.evaluate({0.0, &g, &b, nullptr});
    const auto rp = point.evaluate({0.0, &g, &b, nullptr});
    ASSERT_EQ(rl.size(), 1u);
    ASSERT_EQ(rp.size(), 1u);
    EXPECT_NEAR(rl[0].weight, size.x() / L_ref, 1e-9) << heading;
    EXPECT_NEAR(rl[0].F_N, size.x() / L_ref * K * std::pow(delta, 1.5), 1e-9 * rl[0].F_N);
    EXPECT_EQ(rp[0].weight, 1.0);
    EXPECT_NEAR(rp[0].F_N, K * std::pow(delta, 1.5), 1e-9 * rp[0].F_N);
  }
  EXPECT_THROW(MeshContact("bad", plane, bar, hertz_laws(K), line_force(0.0)),
               std::invalid_argument);
}

// The line weight's tangent (the principal direction's derivative included) matches central
// differences: a subdivided bar lying on one edge, tilted so that its depth varies along it, on a
// slab, both bodies moving.
TEST(MeshContact, LineForceTangentMatchesFiniteDifferences) {
  const MeshContact mc(
      "c",
      make_shape("slab", 1, grid_box_mesh(Vec3(1, 1, 0.1), {16, 16, 1}), Vec3(0.01, 0.0, -0.05)),
      make_shape("bar", 0, grid_box_mesh(Vec3(0.2, 0.03, 0.03), {20, 3, 3})), tangent_laws(),
      line_force(0.05));
  BodyKinematics bi = body_at(Vec3(0.0, 0.0, 0.0), so3::exp(Vec3(0.02, -0.03, 0.1)));
  // Edge down (45° about x), tipped 0.01 rad about y: depth 0.3–2.3 mm along the edge.
  const double half_diagonal = 0.015 * std::sqrt(2.0);
  BodyKinematics bj =
      body_at(Vec3(0.02, 0.01, half_diagonal - 1.3e-3),
              so3::exp(Vec3(0, 0.01, 0.0)) * so3::exp(Vec3(0.25 * std::numbers::pi, 0, 0)));
  bi.v_W = Vec3(0.01, 0.02, 0.03);
  bi.w_B = Vec3(0.1, -0.2, 0.3);
  bj.v_W = Vec3(0.2, -0.1, -0.3);
  bj.w_B = Vec3(1.0, 0.5, -2.0);
  const auto regions = mc.evaluate({0.0, &bi, &bj, nullptr});
  ASSERT_GE(regions.size(), 1u);
  double weight = 0.0;
  for (const auto& r : regions) weight = std::max(weight, r.weight);
  EXPECT_GT(weight, 1.0);  // most of the 0.2 m edge over L_ref = 0.05 m
  expect_tangent_matches_finite_differences(mc, bi, bj);
}

// The contact set found at the first evaluation at a time t is held by the later evaluations at
// that t (an implicit step's Newton iterates) while they stay within hold_distance (here 2 mm): a
// ball pressed 1 mm deeper and moved 0.5 mm keeps the vertex–face pairs found at the first pose
// (new vertices would enter), and its tangent there is that of the held set (central differences).
// A new t, a move beyond hold_distance, or hold_contact_set = false detect the set again.
std::vector<std::array<int, 3>> pairs_of(const std::vector<Region>& regions) {
  std::vector<std::array<int, 3>> v;
  for (const Region& r : regions)
    for (const Penetration& e : r.points) v.push_back({e.side, e.vertex, e.face});
  std::sort(v.begin(), v.end());
  return v;
}

TEST(MeshContact, ContactSetIsHeldThroughAStep) {
  const Shape slab =
      make_shape("slab", 1, grid_box_mesh(Vec3(1, 1, 0.1), {16, 16, 1}), Vec3(0.01, 0.0, -0.05));
  const Shape ball = make_shape("ball", 0, sphere_mesh(0.05, 3), Vec3(0.0, 0.003, 0.0));
  MeshContactOptions hold_options, free_options;
  hold_options.hold_distance = 2e-3;
  free_options.hold_contact_set = false;
  const MeshContact held("held", slab, ball, tangent_laws(), hold_options);
  const MeshContact free("free", slab, ball, tangent_laws(), free_options);
  BodyKinematics bi = body_at(Vec3(0.0, 0.0, 0.0), so3::exp(Vec3(0.02, -0.03, 0.1)));
  bi.v_W = Vec3(0.01, 0.02, 0.03);
  bi.w_B = Vec3(0.1, -0.2, 0.3);
  BodyKinematics a = body_at(Vec3(0.02, 0.01, 0.047), so3::exp(Vec3(0.4, 0.3, -0.2)));
  a.v_W = Vec3(0.2, -0.1, -0.3);
  a.w_B = Vec3(1.0, 0.5, -2.0);
  BodyKinematics b = a;  // an iterate: 1 mm deeper, 0.5 mm aside
  b.x_W += Vec3(0.0005, 0.0, -0.001);
  const double t = 1.0;
  const auto at_a = pairs_of(held.detect({t, &bi, &a, nullptr}));
  ASSERT_FALSE(at_a.empty());
  const auto found_at_b = pairs_of(free.detect({t, &bi, &b, nullptr}));
  ASSERT_NE(found_at_b, at_a);  // the set does change between the two poses
  EXPECT_EQ(pairs_of(held.detect({t, &bi, &b, nullptr})), at_a);
  expect_tangent_matches_finite_differences(held, bi, b, t);  // the held set's tangent at b
  // The held set is only the vertex–face pairs: depths and forces are those at b.
  const auto rb = held.evaluate({t, &bi, &b, nullptr});
  const auto ra = held.evaluate({t, &bi, &a, nullptr});
  ASSERT_EQ(rb.size(), ra.size());
  EXPECT_NEAR(rb[0].depth - ra[0].depth, 1e-3, 1e-4);
  EXPECT_EQ(pairs_of(held.detect({2.0, &bi, &b, nullptr})), found_at_b);  // next step
  BodyKinematics far = a;  // beyond hold_distance at the same t
  far.x_W.x() += 0.01;
  EXPECT_EQ(pairs_of(held.detect({2.0, &bi, &far, nullptr})),
            pairs_of(free.detect({2.0, &bi, &far, nullptr})));
}

// Two spheres on one body touch the plane in two regions; each keeps its memory slot while it
// moves (less than the match distance per step) and a lifted one frees its slot.
TEST(MeshContact, RegionMemoryFollowsEachRegionBetweenSteps) {
  TriangleMesh pair = sphere_mesh(0.05, 2);
  TriangleMesh right = pair;
  for (Vec3& v : pair.vertices) v.x() -= 0.2;
  for (Vec3& v : right.vertices) v.x() += 0.2;
  append_mesh(pair, right);
  const MeshContact mc("c", plane_shape(8), make_shape("pair", kBody, pair), hertz_laws());
  std::vector<double> memory(mc.num_memory(), 0.0);
  const BodyKinematics plane;
  BodyKinematics body = body_at(Vec3(0, 0, 0.049));
  body.v_W = Vec3(0.5, 0, -0.01);
  auto step = [&] {
    mc.update_memory({0.0, &plane, &body, memory.data()}, memory.data());
    return mc.evaluate({0.0, &plane, &body, memory.data()});
  };
  auto regions = step();
  ASSERT_EQ(regions.size(), 2u);
  int slot_left = -1;
  for (const auto& r : regions)
    if (r.point_W.x() < 0.0) slot_left = r.slot;
  ASSERT_GE(slot_left, 0);
  const double approach = memory[MeshContact::kMemoryPerRegion * slot_left];
  EXPECT_NEAR(approach, 0.01, 1e-12);  // δ̇⁻ at onset
  for (int k = 0; k < 20; ++k) {       // slide 2 mm per step
    body.x_W.x() += 0.002;
    body.v_W.z() = -0.5;  // a later approach speed must not overwrite δ̇⁻
    regions = step();
    ASSERT_EQ(regions.size(), 2u);
    for (const auto& r : regions) {
      if (r.point_W.x() < 0.0) {
        EXPECT_EQ(r.slot, slot_left);
      }
    }
  }
  EXPECT_EQ(memory[MeshContact::kMemoryPerRegion * slot_left], approach);
  body.R_WB = so3::exp(Vec3(0, 0.1, 0));  // tilt: the left sphere lifts off
  body.x_W.z() = 0.049 + 0.2 * std::sin(0.1);
  regions = step();
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_GT(regions[0].point_W.x(), 0.0);
  EXPECT_NE(regions[0].slot, slot_left);
  EXPECT_EQ(memory[MeshContact::kMemoryPerRegion * slot_left], 0.0);  // freed
}

// Meshes a detector cannot use are refused with a message naming the shape and the problem.
TEST(MeshContact, OpenInwardOrDuplicatedMeshesAreRefused) {
  const Shape plane = plane_shape(4);
  TriangleMesh open = sphere_mesh(0.05, 1);
  open.triangles.pop_back();
  TriangleMesh inward = sphere_mesh(0.05, 1);
  for (auto& t : inward.triangles) std::swap(t[1], t[2]);
  TriangleMesh duplicated = sphere_mesh(0.05, 1);
  duplicated.triangles.push_back(duplicated.triangles.front());
  const std::pair<TriangleMesh, const char*> cases[] = {{open, "open"},
                                                        {inward, "inward"},
                                                        {duplicated, "duplicated"},
                                                        {TriangleMesh{}, "no triangles"}};
  for (const auto& [mesh, word] : cases) {
    try {
      const MeshContact mc("c", plane, make_shape("bad", kBody, mesh), hertz_laws());
      ADD_FAILURE() << word << ": accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'bad'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(MeshContact("c", plane, plane, hertz_laws()), std::invalid_argument);  // one body
}

}  // namespace
}  // namespace cs::contact
