// Broad-phase reuse in mesh contact (ContactCandidates, elements/contact/mesh_penetration.hpp):
// while the relative pose stays within the margin's guarantee, the reused candidates must give
// exactly the triangle pairs, regions and forces of FCL's full detection; beyond it they must be
// rebuilt.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <random>
#include <sstream>

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/mesh_io.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/channel_recorder.hpp"
#include "support/random_state.hpp"
#include "support/temp_dir.hpp"

namespace cs::contact {
namespace {

Shape make_shape(const std::string& name, int body, TriangleMesh mesh,
                 const Vec3& p = Vec3::Zero()) {
  Shape s;
  s.name = name;
  s.body = body;
  s.p_BS = p;
  s.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return s;
}

GearParameters spur(int teeth) {
  GearParameters p;
  p.normal_module = 2e-3;
  p.teeth = teeth;
  p.normal_pressure_angle = 20.0 * std::numbers::pi / 180.0;
  p.face_width = 10e-3;
  p.thickness_allowance = 0.1e-3;
  return p;
}

Shape gear_shape(const std::string& name, int body, const GearParameters& p) {
  GearResolution resolution;
  resolution.slices = 8;  // vertices across the face (mesh_contact_gear_test.cpp says why)
  return make_shape(name, body, gear_mesh(p, resolution));
}

ContactLaws hertz() {
  ContactLaws laws;
  laws.normal.kind = NormalLawKind::kHertz;
  laws.normal.stiffness = 1e10;
  laws.friction.kind = FrictionLawKind::kCoulomb;
  laws.friction.mu_dynamic = 0.1;
  return laws;
}

std::vector<std::array<int, 2>> sorted(std::vector<std::array<int, 2>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Same regions, point for point (side, vertex, face, depth), as the full detection.
void expect_same_regions(const std::vector<Region>& reused, const std::vector<Region>& full,
                         int step) {
  ASSERT_EQ(reused.size(), full.size()) << "step " << step;
  for (std::size_t r = 0; r < full.size(); ++r) {
    ASSERT_EQ(reused[r].points.size(), full[r].points.size()) << "step " << step;
    for (std::size_t k = 0; k < full[r].points.size(); ++k) {
      const Penetration &a = reused[r].points[k], &b = full[r].points[k];
      EXPECT_EQ(a.side, b.side);
      EXPECT_EQ(a.vertex, b.vertex);
      EXPECT_EQ(a.face, b.face);
      EXPECT_EQ(a.depth, b.depth);
    }
  }
}

struct Pair {
  BodyKinematics pinion, wheel;
};

// The spur pair of mesh_contact_gear_test.cpp, the pinion at angle φ past the backlash and δ_n
// of approach, the wheel following at the ratio (and `jitter` [rad] off it).
Pair spur_pose(const GearParameters& p1, const GearParameters& p2, double phi, double jitter) {
  const GearPairGeometry pair = gear_pair_geometry(p1, p2, 0.0);
  const GearGeometry g1 = gear_geometry(p1);
  const double delta_n = 20e-6, r_b1 = 0.5 * g1.d_b;
  const double theta0 = (delta_n + 0.5 * pair.j_bn) / r_b1;
  Pair x;
  x.pinion.R_WB = so3::exp(Vec3(0, 0, theta0 + phi));
  x.pinion.w_B = Vec3(0, 0, 10.0);
  x.wheel.x_W = Vec3(pair.a, 0, 0);
  x.wheel.R_WB = so3::exp(Vec3(
      0, 0, std::numbers::pi + std::numbers::pi / p2.teeth - phi * p1.teeth / p2.teeth + jitter));
  x.wheel.w_B = Vec3(0, 0, -10.0 * p1.teeth / p2.teeth);
  return x;
}

// A meshing spur pair turned in small increments with Newton-like jitter: at every pose the
// reused candidates give FCL's pairs, the full detection's regions and its force bit for bit,
// and the candidates are rebuilt only when the pose has left the margin.
TEST(MeshCandidates, SpurPairMatchesFullDetectionAlongAMeshPeriod) {
  const GearParameters p1 = spur(20), p2 = spur(30);
  MeshContactOptions options, no_reuse;
  options.candidate_margin = 1e-3;
  no_reuse.candidate_margin = -1.0;
  const Shape pinion = gear_shape("pinion", 0, p1), wheel = gear_shape("wheel", 1, p2);
  const MeshContact mc("teeth", pinion, wheel, hertz(), options);
  const MeshContact full_mc("teeth", pinion, wheel, hertz(), no_reuse);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(-2e-6, 2e-6);
  const double pitch = 2.0 * std::numbers::pi / p1.teeth;
  const int steps = 40;
  int rebuilds = 0, with_contact = 0;
  for (int k = 0; k < steps; ++k) {
    const double phi = pitch * k / 40.0 + 0.3 * noise(rng);  // 1/40 pitch a step
    const Pair x = spur_pose(p1, p2, phi, noise(rng));
    const ElementInput in{static_cast<double>(k), &x.pinion, &x.wheel, nullptr};
    DetectionStats reused_stats, full_stats;
    const auto reused = mc.detect(in, &reused_stats);
    const auto full = mc.detect(in, &full_stats, true);
    EXPECT_EQ(reused_stats.triangle_pairs, full_stats.triangle_pairs) << "step " << k;
    EXPECT_EQ(reused_stats.unresolved_pairs, full_stats.unresolved_pairs) << "step " << k;
    expect_same_regions(reused, full, k);
    if (!full.empty()) ++with_contact;
    if (reused_stats.candidates_rebuilt) ++rebuilds;
    ForceBlock f, f_full;
    const bool tangents = k % 5 == 0;  // the AD tangents are the dear part: every 5th pose
    mc.force(in, f, tangents);
    full_mc.force(in, f_full, tangents);
    EXPECT_EQ(f.f, f_full.f) << "step " << k;
    EXPECT_EQ(f.df_dq, f_full.df_dq) << "step " << k;
  }
  std::printf(
      "[ measured ] spur 20/30 over a base pitch in %d poses: %d rebuilds of the "
      "candidates (margin 1 mm), %d poses in contact\n",
      steps, rebuilds, with_contact);
  EXPECT_EQ(with_contact, steps);
  EXPECT_GE(rebuilds, 2);          // the pose does leave the margin
  EXPECT_LE(rebuilds, steps / 2);  // and the candidates serve several poses
}

// The pairs themselves, on a sphere pressed into a plane and moved about within and beyond the
// margin: ContactCandidates returns FCL's intersecting pairs whenever it does not rebuild, and
// rebuilds after a jump larger than the margin.
TEST(MeshCandidates, SpherePlanePairsEqualFclWithinTheMargin) {
  const TriangleMesh plane = grid_box_mesh(Vec3(1, 1, 0.1), {32, 32, 1});
  const TriangleMesh ball = sphere_mesh(0.05, 3);
  const MeshBvh bvh_plane(plane), bvh_ball(ball);
  const auto nb_plane = vertex_neighbours(plane), nb_ball = vertex_neighbours(ball);
  const double margin = 2e-3;
  ContactCandidates cand(bvh_plane, bvh_ball, margin);
  MeshInstance m0{&plane, &bvh_plane, &nb_plane, {}};
  MeshInstance m1{&ball, &bvh_ball, &nb_ball, {}};
  m0.pose.p_WM = Vec3(0, 0, -0.05);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int reused = 0, rebuilt = 0;
  Vec3 centre(0.0123, -0.0071, 0.049);
  for (int k = 0; k < 200; ++k) {
    // A random walk of steps up to 0.25 mm with small rotations; every 50th a 5 mm jump.
    centre += (k % 50 == 49)
                  ? Vec3(5e-3, 0, 0)
                  : Vec3(0.25e-3 * testing::draw_vec3(u, rng).cwiseProduct(Vec3(1, 1, 0.2)));
    centre.z() = std::clamp(centre.z(), 0.0485, 0.0499);
    m1.pose.p_WM = centre;
    m1.pose.R_WM = so3::exp(testing::draw_vec3(u, rng) * 2e-3) * m1.pose.R_WM;
    DetectionStats stats;
    const auto pairs = cand.intersecting(m0, m1, &stats);
    EXPECT_EQ(sorted(pairs),
              sorted(MeshBvh::intersecting_triangles(bvh_plane, m0.pose, bvh_ball, m1.pose)))
        << "pose " << k;
    EXPECT_FALSE(pairs.empty());
    if (k % 50 == 49) {
      EXPECT_TRUE(stats.candidates_rebuilt) << "a 5 mm jump, pose " << k;
    }
    (stats.candidates_rebuilt ? rebuilt : reused)++;
  }
  std::printf("[ measured ] sphere on plane, 200 poses: %d reused, %d rebuilt (margin 2 mm)\n",
              reused, rebuilt);
  EXPECT_GT(reused, rebuilt);
}

// No reuse when asked for none: every evaluation runs FCL's collide.
TEST(MeshCandidates, NegativeMarginMeansFullDetection) {
  MeshContactOptions options;
  options.candidate_margin = -1.0;
  const MeshContact mc(
      "c",
      make_shape("plane", kGround, grid_box_mesh(Vec3(1, 1, 0.1), {8, 8, 1}), Vec3(0, 0, -0.05)),
      make_shape("ball", 0, sphere_mesh(0.05, 2)), hertz(), options);
  BodyKinematics g, b;
  b.x_W = Vec3(0.0123, -0.0071, 0.049);
  DetectionStats stats;
  mc.detect({0.0, &g, &b, nullptr}, &stats);
  EXPECT_EQ(stats.candidate_pairs, 0);
  EXPECT_GT(stats.triangle_pairs, 0);
}

// A whole run: a box mesh sliding down a plane mesh (Coulomb μ = 0.25, tan θ = 0.4, as
// tests/verification/mesh_contact_friction_test.cpp), with the default margin and with none.
// The trajectories agree bit for bit, and the friction_power channel averages μ N v.
struct SlideRun {
  std::vector<double> t, x, vx, power;
};

SlideRun run_slide(const std::string& dir, const std::string& margin) {
  const double th = std::atan(0.4), g = 9.81;
  const double z0 = 0.05 - g * std::cos(th) / 1e7;  // static penetration of K = 1e7 N/m
  std::ostringstream os;
  os.precision(17);
  os << "gravity: [" << g * std::sin(th) << ", 0, " << -g * std::cos(th) << "]\n"
     << "bodies:\n  block: {mass: 1.0, inertia: [0.00167, 0.00167, 0.00167], position: [0, 0, "
     << z0 << "]}\n"
     << "shapes:\n  floor_mesh: {body: ground, position: [0, 0, -0.05], mesh: {file: " << dir
     << "/plane.stl}}\n  block_mesh: {body: block, position: [0, 0, " << z0
     << "], mesh: {file: " << dir << "/box.stl}}\n"
     << "contacts:\n  slope:\n    type: mesh\n    shapes: [floor_mesh, block_mesh]\n"
     << "    contact: {law: kelvin_voigt, stiffness: 1.0e7, exponent: 1, damping: 6.0e3}\n"
     << "    friction: {law: coulomb, mu: 0.25, v0: 1.0e-4, v1: 1.0e-3}\n"
     << "    candidate_margin: " << margin << "\n"
     << "solver: {integrator: generalized_alpha, rho_inf: 0.8, step: 1.0e-4, end: 0.2}\n"
     << "output: {every: 10}\n";
  LoadedModel lm = load_model_string(os.str(), "test.yaml");
  lm.run.output.progress = false;
  System sys(lm.model);
  ChannelSet set(sys, {"block.position.x", "block.velocity.x", "slope.friction_power"});
  testing::ChannelRecorder rec(set);
  State st;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, st, notes);
  EXPECT_TRUE(stats.ok) << stats.message;
  return {rec.times, rec.column(0), rec.column(1), rec.column(2)};
}

TEST(MeshCandidates, SlidingBoxRunIsTheSameWithAndWithoutReuse) {
  const auto dir = testing::test_temp_dir("clearsim_mesh_candidates");
  std::filesystem::create_directories(dir);
  write_stl_binary(box_mesh(Vec3(0.1, 0.1, 0.1)), (dir / "box.stl").string());
  write_stl_binary(grid_box_mesh(Vec3(2, 2, 0.1), {4, 4, 1}), (dir / "plane.stl").string());
  const SlideRun reused = run_slide(dir.string(), "0"), full = run_slide(dir.string(), "-1");
  std::filesystem::remove_all(dir);
  ASSERT_EQ(reused.t.size(), full.t.size());
  EXPECT_EQ(reused.x, full.x);
  EXPECT_EQ(reused.vx, full.vx);
  const double N = 9.81 * std::cos(std::atan(0.4));
  // The box rocks on its region (F_N ripples), so the power is compared on average: over the
  // second half, against μ N v̄.
  double power = 0.0, v = 0.0;
  const std::size_t half = reused.t.size() / 2;
  for (std::size_t k = half; k < reused.t.size(); ++k) {
    power += reused.power[k];
    v += reused.vx[k];
  }
  std::printf("[ measured ] sliding box: mean friction power %.5f W, μ N v̄ = %.5f W\n",
              power / double(reused.t.size() - half),
              0.25 * N * v / double(reused.t.size() - half));
  EXPECT_NEAR(power, 0.25 * N * v, 0.02 * 0.25 * N * v);
  EXPECT_GT(reused.vx.back(), 0.1);
}

}  // namespace
}  // namespace cs::contact
