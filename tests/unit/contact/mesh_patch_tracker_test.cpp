// Mesh contact's broad phase with temporal coherence (PatchTracker,
// elements/contact/mesh_patch_tracker.hpp): at every pose it must give exactly FCL's intersecting
// triangle pairs, hence the full detection's regions and forces, whatever poses came before.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numbers>
#include <random>

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/so3.hpp"
#include "support/example_runs.hpp"
#include "support/random_state.hpp"
#include "unit/geometry/seed004_gears.hpp"

namespace cs::contact {
namespace {

std::vector<std::array<int, 2>> sorted(std::vector<std::array<int, 2>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// A sphere pressed into a plane, moved about in steps up to 0.25 mm and jumps of 5 cm (far
// beyond any certificate), turning a little: the tracked pairs are FCL's at every pose.
TEST(PatchTracking, SpherePlanePairsEqualFclAlongARandomWalk) {
  const TriangleMesh plane = grid_box_mesh(Vec3(1, 1, 0.1), {32, 32, 1});
  const TriangleMesh ball = sphere_mesh(0.05, 3);
  const MeshBvh bvh_plane(plane), bvh_ball(ball);
  const auto nb_plane = vertex_neighbours(plane), nb_ball = vertex_neighbours(ball);
  MeshInstance m0{&plane, &bvh_plane, &nb_plane, {}};
  MeshInstance m1{&ball, &bvh_ball, &nb_ball, {}};
  m0.pose.p_WM = Vec3(0, 0, -0.05);
  PatchTracker tracker(m0, m1, 2e-3);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec3 centre(0.0123, -0.0071, 0.049);
  int skipped_somewhere = 0;
  for (int k = 0; k < 200; ++k) {
    centre += (k % 50 == 49)
                  ? Vec3(5e-2, 0, 0)
                  : Vec3(0.25e-3 * testing::draw_vec3(u, rng).cwiseProduct(Vec3(1, 1, 0.2)));
    centre.z() = std::clamp(centre.z(), 0.0485, 0.0499);
    m1.pose.p_WM = centre;
    m1.pose.R_WM = so3::exp(testing::draw_vec3(u, rng) * 2e-3) * m1.pose.R_WM;
    DetectionStats stats;
    const auto pairs = tracker.intersecting(m0, m1, &stats);
    EXPECT_EQ(pairs, sorted(MeshBvh::intersecting_triangles(bvh_plane, m0.pose, bvh_ball, m1.pose)))
        << "pose " << k;
    EXPECT_FALSE(pairs.empty());
    // Certified patches whose certificate outlasted the move (not measured again).
    if (k > 0 && stats.patches_refreshed - stats.patches_tested < 8) ++skipped_somewhere;
  }
  EXPECT_GT(skipped_somewhere, 100);  // the ball's far patches keep their certificates
}

Shape gear_shape(const std::string& name, int body, const GearParameters& p) {
  GearResolution resolution;
  resolution.profile.flank_points = 8;
  resolution.chord_tolerance = 20e-6;
  Shape s;
  s.name = name;
  s.body = body;
  s.mesh = std::make_shared<const TriangleMesh>(gear_mesh(p, resolution));
  return s;
}

ContactLaws seed004_laws() {
  ContactLaws laws;
  laws.normal.kind = NormalLawKind::kHuntCrossley;
  laws.normal.stiffness = 4.56e10;
  laws.normal.exponent = 1.5;
  laws.friction.kind = FrictionLawKind::kCoulomb;
  laws.friction.mu_dynamic = 0.05;
  laws.friction.v0 = 1e-3;
  laws.friction.v1 = 1e-2;
  return laws;
}

// Along the motion at 718 rpm with h = 5e-4 s, the pinion turned past its static deflection by
// 0–40 µrad: a predictor and two Newton-like iterates per step, over 1.5 mesh periods, the
// tracked element against one that runs FCL's collide at every evaluation.
TEST(PatchTracking, HerringbonePairMatchesFullDetectionAlongTheMotion) {
  const Shape pinion =
      gear_shape("pinion", 0, test::seed004_gear(27, 0.236, HelixHand::kRight, 0.15e-3));
  const Shape wheel =
      gear_shape("wheel", 1, test::seed004_gear(151, -0.2299, HelixHand::kLeft, 0.15e-3));
  MeshContactOptions tracked, full;
  tracked.region_force = full.region_force = RegionForce::kLine;
  tracked.reference_length = full.reference_length = 0.2;
  tracked.hold_contact_set = full.hold_contact_set = false;
  full.patch_tracking = false;
  tracked.patch_tracking = true;
  full.candidate_margin = -1.0;
  const MeshContact mc("mesh", pinion, wheel, seed004_laws(), tracked);
  const MeshContact full_mc("mesh", pinion, wheel, seed004_laws(), full);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> load(0.0, 40e-6);
  const double omega = 75.1887, ratio = 27.0 / 151.0, h = 5e-4;
  int with_contact = 0, pairs_total = 0, tested = 0, refreshed = 0;
  const int steps = 10;
  for (int k = 0; k < 3 * steps; ++k) {
    const double phi = omega * h * (k / 3) + load(rng);
    BodyKinematics p, w;
    p.R_WB = so3::exp(Vec3(0, 0, 2.173e-3 + phi));
    p.w_B = Vec3(0, 0, omega);
    w.x_W = Vec3(1.0000006, 0, 0);
    w.R_WB = so3::exp(Vec3(0, 0, 3.162397902951315 - ratio * omega * h * (k / 3)));
    w.w_B = Vec3(0, 0, -omega * ratio);
    const ElementInput in{h * k, &p, &w, nullptr};
    DetectionStats st, full_st;
    const auto regions = mc.detect(in, &st);
    const auto full_regions = full_mc.detect(in, &full_st);
    EXPECT_EQ(st.triangle_pairs, full_st.triangle_pairs) << "pose " << k;
    EXPECT_EQ(st.unresolved_pairs, full_st.unresolved_pairs) << "pose " << k;
    ASSERT_EQ(regions.size(), full_regions.size()) << "pose " << k;
    for (std::size_t r = 0; r < regions.size(); ++r) {
      ASSERT_EQ(regions[r].points.size(), full_regions[r].points.size()) << "pose " << k;
      for (std::size_t e = 0; e < regions[r].points.size(); ++e) {
        const Penetration &a = regions[r].points[e], &b = full_regions[r].points[e];
        EXPECT_EQ(a.side, b.side);
        EXPECT_EQ(a.vertex, b.vertex);
        EXPECT_EQ(a.face, b.face);
        EXPECT_EQ(a.depth, b.depth);
      }
    }
    ForceBlock f, f_full;
    const bool tangents = k % 6 == 0;  // the AD tangents are the dear part
    mc.force(in, f, tangents);
    full_mc.force(in, f_full, tangents);
    EXPECT_EQ(f.f, f_full.f) << "pose " << k;
    EXPECT_EQ(f.df_dq, f_full.df_dq) << "pose " << k;
    if (!regions.empty()) ++with_contact;
    pairs_total += st.triangle_pairs;
    tested += st.patches_tested;
    refreshed += st.patches_refreshed;
  }
  std::printf(
      "[ measured ] herringbone, %d evaluations: %.0f intersecting pairs, %.1f patches tested "
      "and %.1f refreshed per evaluation (of %d triangles)\n",
      3 * steps, static_cast<double>(pairs_total) / (3 * steps),
      static_cast<double>(tested) / (3 * steps), static_cast<double>(refreshed) / (3 * steps),
      pinion.mesh->num_triangles() + wheel.mesh->num_triangles());
  EXPECT_EQ(with_contact, 3 * steps);
}

}  // namespace
}  // namespace cs::contact

namespace cs::contact {
namespace {

// examples/ship_reducer/mesh.yaml at mesh_startup.yaml's resolution and step (the regression
// test's model), 10 ms from the steady point with FCL's collide and with patch tracking: the
// same trajectory and contact channels bit for bit.
testing::ExampleRun reducer_run(bool tracking) {
  const std::string resolution = "{flank_points: 8, chord_tolerance: 20.0e-6}";
  LoadedModel lm = load_model_file(testing::example_path("ship_reducer", "mesh.yaml"),
                                   {{"shapes.pinion_teeth.gear.resolution", resolution},
                                    {"shapes.wheel_teeth.gear.resolution", resolution},
                                    {"solver.step", "5.0e-4"},
                                    {"contacts.mesh.patch_tracking", tracking ? "true" : "false"}});
  lm.run.output.progress = false;
  return testing::run_loaded(
      std::move(lm), 0.01, 1,
      {"pinion.angular_velocity.z", "mesh.pinion_torque", "mesh.friction_power",
       "mesh.normal_force", "mesh.triangle_pairs", "mesh.regions"});
}

TEST(PatchTracking, ShipReducerRunIsTheSameAsWithCollide) {
  const testing::ExampleRun full = reducer_run(false), tracked = reducer_run(true);
  ASSERT_EQ(tracked.t.size(), full.t.size());
  for (std::size_t k = 0; k < full.columns.size(); ++k)
    EXPECT_EQ(tracked.columns[k], full.columns[k]) << "channel " << k;
  EXPECT_GT(testing::max_of(full.columns[4]), 100.0);  // the teeth are in contact
}

}  // namespace
}  // namespace cs::contact
