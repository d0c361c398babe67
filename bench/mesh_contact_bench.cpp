// Mesh contact (elements/contact/mesh_contact.hpp): the cost of one contact evaluation against
// the meshes' triangle counts. A sphere mesh (radius 5 cm) pressed 1 mm into a 1 m plane mesh:
//   PlaneCells — the plane refined, the sphere fixed: triangles near contact stay the same, so
//                the cost should stay nearly flat (BVH descent ~ log of the triangle count);
//   SphereLevel — the sphere refined: the triangles near contact grow with it (×4 per level).
// Counters: total triangles, intersecting triangle pairs, nearest-face queries (vertices tested),
// pairs with no vertex inside (unresolved).
#include <benchmark/benchmark.h>

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"

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

void run(benchmark::State& state, int plane_cells, int sphere_level, bool tangents) {
  contact::ContactLaws laws;
  laws.normal.kind = contact::NormalLawKind::kHertz;
  laws.normal.stiffness = 1e9;
  const Shape plane =
      shape("plane", kGround, grid_box_mesh(Vec3(1, 1, 0.1), {plane_cells, plane_cells, 1}),
            Vec3(0, 0, -0.05));
  const Shape ball = shape("ball", 0, sphere_mesh(0.05, sphere_level));
  const MeshContact mc("c", plane, ball, laws);
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

}  // namespace
}  // namespace cs::bench
