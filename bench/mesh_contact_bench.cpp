// Mesh contact (elements/contact/mesh_contact.hpp): the cost of one contact evaluation against
// the meshes' triangle counts. A sphere mesh (radius 5 cm) pressed 1 mm into a 1 m plane mesh:
//   PlaneCells — the plane refined, the sphere fixed: triangles near contact stay the same, so
//                the cost should stay nearly flat (BVH descent ~ log of the triangle count);
//   SphereLevel — the sphere refined: the triangles near contact grow with it (×4 per level).
// Counters: total triangles, intersecting triangle pairs, nearest-face queries (vertices tested),
// pairs with no vertex inside (unresolved). The `Full` cases run FCL's collide at every
// evaluation (candidate_margin < 0), the others reuse the candidates (ContactCandidates). All
// detect at every evaluation (hold_contact_set = false: the detection is what is measured).
//   Herringbone* — seed 004's pair (examples/ship_reducer) at the static mesh deflection:
//                  at one pose (what a Newton iteration costs once the candidates are built),
//                  and along the motion at 718 rpm with h = 1e-4 s, four evaluations per step
//                  (a predictor and three Newton-like iterates 0.1 µrad apart), per margin [µm].
#include <benchmark/benchmark.h>

#include <numbers>

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/math/so3.hpp"
#include "tests/unit/geometry/seed004_gears.hpp"

namespace cs::bench {
namespace {

using contact::MeshContact;

Shape shape(const std::string& name, int body, TriangleMesh mesh, const Vec3& p = Vec3::Zero()) {
  Shape s;
  s.name = name;
  s.body = body;
  s.p_BS = p;
  s.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return s;
}

void run(benchmark::State& state, int plane_cells, int sphere_level, bool tangents,
         bool full = false) {
  contact::ContactLaws laws;
  laws.normal.kind = contact::NormalLawKind::kHertz;
  laws.normal.stiffness = 1e9;
  const Shape plane =
      shape("plane", kGround, grid_box_mesh(Vec3(1, 1, 0.1), {plane_cells, plane_cells, 1}),
            Vec3(0, 0, -0.05));
  const Shape ball = shape("ball", 0, sphere_mesh(0.05, sphere_level));
  contact::MeshContactOptions options;
  options.hold_contact_set = false;  // the detection's cost at every evaluation
  if (full) options.candidate_margin = -1.0;
  const MeshContact mc("c", plane, ball, laws, options);
  BodyKinematics g, b;
  b.x_W = Vec3(0.0123, -0.0071, 0.049);
  b.v_W = Vec3(0.1, 0.0, -0.1);
  const ElementInput in{0.0, &g, &b, nullptr};
  contact::DetectionStats stats;
  mc.detect(in, &stats);
  for (auto _ : state) {
    ForceBlock f;
    mc.force(in, f, tangents);
    benchmark::DoNotOptimize(f.f);
  }
  state.counters["triangles"] = plane.mesh->num_triangles() + ball.mesh->num_triangles();
  state.counters["pairs"] = stats.triangle_pairs;
  state.counters["tested"] = stats.vertices_tested;
  state.counters["unresolved"] = stats.unresolved_pairs;
}

void BM_MeshContactPlaneCells(benchmark::State& state) {
  run(state, static_cast<int>(state.range(0)), 3, false);
}
BENCHMARK(BM_MeshContactPlaneCells)
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->Arg(256)
    ->Arg(512)
    ->Unit(benchmark::kMicrosecond);

void BM_MeshContactSphereLevel(benchmark::State& state) {
  run(state, 64, static_cast<int>(state.range(0)), false);
}
BENCHMARK(BM_MeshContactSphereLevel)->DenseRange(2, 6)->Unit(benchmark::kMicrosecond);

// The same with the AD tangents (what each Newton iteration of an implicit step pays).
void BM_MeshContactTangentSphereLevel(benchmark::State& state) {
  run(state, 64, static_cast<int>(state.range(0)), true);
}
BENCHMARK(BM_MeshContactTangentSphereLevel)->DenseRange(2, 6)->Unit(benchmark::kMicrosecond);

void BM_MeshContactFullPlaneCells(benchmark::State& state) {
  run(state, static_cast<int>(state.range(0)), 3, false, true);
}
BENCHMARK(BM_MeshContactFullPlaneCells)->Arg(4)->Arg(64)->Arg(512)->Unit(benchmark::kMicrosecond);

void BM_MeshContactFullSphereLevel(benchmark::State& state) {
  run(state, 64, static_cast<int>(state.range(0)), false, true);
}
BENCHMARK(BM_MeshContactFullSphereLevel)->DenseRange(2, 6, 2)->Unit(benchmark::kMicrosecond);

const Shape& herringbone(int side) {
  static const Shape shapes[2] = {
      shape("pinion", 0, gear_mesh(test::seed004_gear(27, 0.236, HelixHand::kRight, 0.15e-3))),
      shape("wheel", 1, gear_mesh(test::seed004_gear(151, -0.2299, HelixHand::kLeft, 0.15e-3)))};
  return shapes[side];
}

// The steady pose of examples/ship_reducer/steady.yaml turned on by `phi` [rad] of the pinion.
void herringbone_pose(double phi, BodyKinematics& pinion, BodyKinematics& wheel) {
  const double omega = 75.1887, ratio = 27.0 / 151.0;
  pinion.R_WB = so3::exp(Vec3(0, 0, 2.173e-3 + phi));
  pinion.w_B = Vec3(0, 0, omega);
  wheel.x_W = Vec3(1.0000006, 0, 0);
  wheel.R_WB = so3::exp(Vec3(0, 0, 3.162397902951315 - ratio * phi));
  wheel.w_B = Vec3(0, 0, -omega * ratio);
}

contact::ContactLaws seed004_laws() {
  contact::ContactLaws laws;
  laws.normal.kind = contact::NormalLawKind::kHuntCrossley;
  laws.normal.stiffness = 4.56e10;
  laws.normal.exponent = 1.5;
  laws.friction.kind = contact::FrictionLawKind::kCoulomb;
  laws.friction.mu_dynamic = 0.05;
  laws.friction.v0 = 1e-3;
  laws.friction.v1 = 1e-2;
  return laws;
}

void herringbone_counters(benchmark::State& state, const MeshContact& mc, const ElementInput& in) {
  contact::DetectionStats stats;
  const auto regions = mc.detect(in, &stats, true);
  state.counters["triangles"] =
      herringbone(0).mesh->num_triangles() + herringbone(1).mesh->num_triangles();
  state.counters["pairs"] = stats.triangle_pairs;
  state.counters["tested"] = stats.vertices_tested;
  state.counters["regions"] = static_cast<double>(regions.size());
}

// One pose, evaluated again and again: FCL's collide each time (margin < 0) or the reused
// candidates (margin in µm; built once, then only re-tested).
void BM_MeshContactHerringbonePose(benchmark::State& state) {
  contact::MeshContactOptions options;
  options.hold_contact_set = false;  // the detection's cost at every evaluation
  options.candidate_margin = state.range(0) < 0 ? -1.0 : 1e-6 * static_cast<double>(state.range(0));
  const MeshContact mc("mesh", herringbone(0), herringbone(1), seed004_laws(), options);
  BodyKinematics pinion, wheel;
  herringbone_pose(0.0, pinion, wheel);
  const ElementInput in{0.0, &pinion, &wheel, nullptr};
  for (auto _ : state) {
    ForceBlock f;
    mc.force(in, f, false);
    benchmark::DoNotOptimize(f.f);
  }
  herringbone_counters(state, mc, in);
}
BENCHMARK(BM_MeshContactHerringbonePose)->Arg(-1)->Arg(1000)->Unit(benchmark::kMillisecond);

// Along the motion: per step of h = 1e-4 s at 718 rpm (7.52 mrad of the pinion), a predictor
// evaluation and three iterates; the time is per evaluation, `rebuilds` per step. Argument −2:
// patch tracking (mesh_patch_tracker.hpp) at its default margin.
void BM_MeshContactHerringboneMotion(benchmark::State& state) {
  contact::MeshContactOptions options;
  options.hold_contact_set = false;  // the detection's cost at every evaluation
  options.candidate_margin = state.range(0) < 0 ? -1.0 : 1e-6 * static_cast<double>(state.range(0));
  options.patch_tracking = state.range(0) == -2;
  const MeshContact mc("mesh", herringbone(0), herringbone(1), seed004_laws(), options);
  BodyKinematics pinion, wheel;
  const double step = 75.1887e-4;
  long evaluations = 0, rebuilds = 0;
  for (auto _ : state) {
    const double phi =
        step * static_cast<double>(evaluations / 4) + 1e-7 * static_cast<double>(evaluations % 4);
    herringbone_pose(phi, pinion, wheel);
    contact::DetectionStats stats;  // evaluate(): detection and force, as force() without AD
    benchmark::DoNotOptimize(mc.evaluate({0.0, &pinion, &wheel, nullptr}, &stats));
    if (stats.candidates_rebuilt) ++rebuilds;
    ++evaluations;
  }
  state.counters["rebuilds_per_step"] =
      4.0 * static_cast<double>(rebuilds) / static_cast<double>(std::max(evaluations, 1L));
}
BENCHMARK(BM_MeshContactHerringboneMotion)
    ->Arg(-2)
    ->Arg(-1)
    ->Arg(50)
    ->Arg(200)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cs::bench
