// A sphere mesh dropped on a plane mesh bounces with the restitution the normal law gives for the
// analytic sphere–plane contact (the same impact as compliant_contact_test.cpp's, reference.md
// §3.4): the whole engine from model text, meshes written as STL files and read back.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/mesh_io.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/channel_recorder.hpp"
#include "support/temp_dir.hpp"

namespace cs {
namespace {

// Ball velocity after the impact (1 kg, 1 m/s towards the plane, no gravity).
double rebound_speed(const std::string& yaml, const std::string& contact) {
  LoadedModel lm = load_model_string(yaml, "test.yaml");
  EXPECT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  lm.run.output.progress = false;
  System sys(lm.model);
  ChannelSet set(sys, {"ball.velocity.z", contact + ".normal_force"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  EXPECT_TRUE(stats.ok) << stats.message;
  EXPECT_EQ(rec.column(1).back(), 0.0) << "separated by the end";
  return rec.column(0).back();
}

const char* kSolver =
    "solver: {integrator: generalized_alpha, rho_inf: 1.0, step: 1.0e-6, end: 0.004}\n"
    "output: {every: 10}\n";

std::string analytic_model(double e) {
  std::ostringstream os;
  os << "gravity: [0, 0, 0]\nbodies:\n  ball: {mass: 1.0, inertia: [0.004, 0.004, 0.004], "
        "position: [0, 0, 0.1001], velocity: [0, 0, -1]}\n"
     << "contacts:\n  floor:\n    type: sphere_plane\n    treatment: compliant\n"
     << "    plane: {body: ground, point: [0, 0, 0], normal: [0, 0, 1]}\n"
     << "    sphere: {body: ball, center: [0, 0, 0.1001], radius: 0.1}\n"
     << "    restitution: " << e << "\n    contact: {law: hunt_crossley, stiffness: 1.0e8}\n"
     << kSolver;
  return os.str();
}

std::string mesh_model(double e, const std::string& dir, double z) {
  std::ostringstream os;
  os << "gravity: [0, 0, 0]\nbodies:\n  ball: {mass: 1.0, inertia: [0.004, 0.004, 0.004], "
        "position: [0, 0, "
     << z << "], velocity: [0, 0, -1]}\n"
     << "shapes:\n  floor_mesh: {body: ground, position: [0, 0, -0.05], mesh: {file: " << dir
     << "/plane.stl}}\n  ball_mesh: {body: ball, position: [0, 0, " << z
     << "], mesh: {file: " << dir << "/sphere.stl}}\n"
     << "contacts:\n  floor:\n    type: mesh\n    shapes: [floor_mesh, ball_mesh]\n    "
        "restitution: "
     << e << "\n    contact: {law: hunt_crossley, stiffness: 1.0e8}\n"
     << kSolver;
  return os.str();
}

TEST(MeshContactBounce, RestitutionMatchesTheAnalyticSpherePlane) {
  const auto dir = testing::test_temp_dir("clearsim_mesh_bounce");
  std::filesystem::create_directories(dir);
  const TriangleMesh sphere = sphere_mesh(0.1, 4);
  write_stl_binary(sphere, (dir / "sphere.stl").string());
  write_stl_binary(grid_box_mesh(Vec3(1, 1, 0.1), {8, 8, 1}), (dir / "plane.stl").string());
  double lowest = 0.0;
  for (const Vec3& v : sphere.vertices) lowest = std::min(lowest, v.z());
  for (double e : {0.5, 0.9}) {
    const double analytic = rebound_speed(analytic_model(e), "floor");
    const double mesh = rebound_speed(mesh_model(e, dir.string(), 1e-4 - lowest), "floor");
    std::printf(
        "[ measured ] Hunt–Crossley e = %.2f: rebound %.5f (mesh, %d triangles) vs %.5f "
        "(analytic sphere–plane)\n",
        e, mesh, sphere.num_triangles(), analytic);
    EXPECT_NEAR(mesh, analytic, 3e-3) << "e = " << e;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cs
