// Mesh contact's broad phase (MeshBvh::intersecting_triangles, a traversal of FCL's hierarchies
// written here, plugins/fcl_collide.hpp): at every pose it must give exactly the triangle pairs of
// FCL's own collide (intersecting_triangles_fcl), with contact or without, in either argument
// order, and a run with it must be the same bit for bit as one with FCL's collide.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/mesh_bvh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/so3.hpp"
#include "support/example_runs.hpp"
#include "support/random_state.hpp"
#include "unit/geometry/seed004_gears.hpp"

namespace cs {
namespace {

std::vector<std::array<int, 2>> sorted(std::vector<std::array<int, 2>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

TriangleMesh seed004_mesh(int teeth, double shift, HelixHand hand) {
  GearResolution resolution;  // the shipped start-up's (examples/ship_reducer/mesh_startup.yaml)
  resolution.profile.flank_points = 8;
  resolution.chord_tolerance = 20e-6;
  return gear_mesh(test::seed004_gear(teeth, shift, hand, 0.15e-3), resolution);
}

// Seed 004's herringbone pair at the shipped resolution, along its motion at 718 rpm with
// h = 5e-4 s (the pinion turned past its static deflection by 0–40 µrad, three poses a step),
// then pulled apart radially until the teeth no longer touch and beyond.
TEST(MeshCollide, HerringbonePairEqualsFclCollide) {
  const TriangleMesh pinion = seed004_mesh(27, 0.236, HelixHand::kRight);
  const TriangleMesh wheel = seed004_mesh(151, -0.2299, HelixHand::kLeft);
  const MeshBvh bvh_p(pinion), bvh_w(wheel);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> load(0.0, 40e-6);
  const double omega = 75.1887, ratio = 27.0 / 151.0, h = 5e-4;
  int with_contact = 0, without = 0, total = 0;
  const double apart[] = {0.0, 0.0, 0.0, 0.3e-3, 2e-3, 0.03, 0.3};
  for (double away : apart)
    for (int k = 0; k < 15; ++k) {
      const double phi = omega * h * (k / 3) + load(rng);
      MeshPose p, w;
      p.R_WM = so3::exp(Vec3(0, 0, 2.173e-3 + phi));
      w.p_WM = Vec3(1.0000006 + away, 0, 0);
      w.R_WM = so3::exp(Vec3(0, 0, 3.162397902951315 - ratio * omega * h * (k / 3)));
      const auto pairs = MeshBvh::intersecting_triangles(bvh_p, p, bvh_w, w);
      EXPECT_EQ(pairs, sorted(MeshBvh::intersecting_triangles_fcl(bvh_p, p, bvh_w, w)))
          << "pose " << k << ", apart " << away;
      // Either argument order.
      EXPECT_EQ(MeshBvh::intersecting_triangles(bvh_w, w, bvh_p, p),
                sorted(MeshBvh::intersecting_triangles_fcl(bvh_w, w, bvh_p, p)))
          << "pose " << k << ", apart " << away;
      (pairs.empty() ? without : with_contact) += 1;
      total += static_cast<int>(pairs.size());
    }
  std::printf("[ measured ] herringbone: %d poses with contact (%.0f pairs each), %d without\n",
              with_contact, static_cast<double>(total) / std::max(with_contact, 1), without);
  EXPECT_GE(with_contact, 45);
  EXPECT_GE(without, 30);
}

// A sphere on a plane (a grid box of 8 192 top triangles), wandering and turning, pressed in up
// to 1.5 mm or lifted off.
TEST(MeshCollide, SphereOnPlaneEqualsFclCollide) {
  const TriangleMesh plane = grid_box_mesh(Vec3(1, 1, 0.1), {64, 64, 1});
  const TriangleMesh ball = sphere_mesh(0.05, 4);
  const MeshBvh bvh_plane(plane), bvh_ball(ball);
  MeshPose X_plane, X_ball;
  X_plane.p_WM = Vec3(0, 0, -0.05);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int with_contact = 0, without = 0;
  for (int k = 0; k < 60; ++k) {
    X_ball.p_WM =
        Vec3(0.45 * u(rng), 0.45 * u(rng), 0.0485 + (k % 3 == 2 ? 0.003 : 0.0013 * u(rng)));
    X_ball.R_WM = so3::exp(testing::draw_vec3(u, rng));
    const auto pairs = MeshBvh::intersecting_triangles(bvh_plane, X_plane, bvh_ball, X_ball);
    EXPECT_EQ(pairs,
              sorted(MeshBvh::intersecting_triangles_fcl(bvh_plane, X_plane, bvh_ball, X_ball)))
        << "pose " << k;
    (pairs.empty() ? without : with_contact) += 1;
  }
  EXPECT_GE(with_contact, 20);
  EXPECT_GE(without, 20);
}

// examples/ship_reducer/mesh.yaml at mesh_startup.yaml's resolution and step (the regression
// test's model), 10 ms from the steady point with the traversal written here and with FCL's
// collide: the same trajectory and contact channels bit for bit.
testing::ExampleRun reducer_run(bool fcl_collide) {
  const std::string resolution = "{flank_points: 8, chord_tolerance: 20.0e-6}";
  LoadedModel lm = load_model_file(testing::example_path("ship_reducer", "mesh.yaml"),
                                   {{"shapes.pinion_teeth.gear.resolution", resolution},
                                    {"shapes.wheel_teeth.gear.resolution", resolution},
                                    {"solver.step", "5.0e-4"},
                                    {"contacts.mesh.fcl_collide", fcl_collide ? "true" : "false"}});
  lm.run.output.progress = false;
  return testing::run_loaded(
      std::move(lm), 0.01, 1,
      {"pinion.angular_velocity.z", "mesh.pinion_torque", "mesh.friction_power",
       "mesh.normal_force", "mesh.triangle_pairs", "mesh.regions"});
}

TEST(MeshCollide, ShipReducerRunIsTheSameAsWithFclCollide) {
  const testing::ExampleRun fcl = reducer_run(true), own = reducer_run(false);
  ASSERT_EQ(own.t.size(), fcl.t.size());
  for (std::size_t k = 0; k < fcl.columns.size(); ++k)
    EXPECT_EQ(own.columns[k], fcl.columns[k]) << "channel " << k;
  EXPECT_GT(testing::max_of(fcl.columns[4]), 100.0);  // the teeth are in contact
}

}  // namespace
}  // namespace cs
