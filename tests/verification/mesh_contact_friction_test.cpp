// Bristle friction through mesh contact: a box mesh on a plane mesh under gravity tilted by θ
// (an incline). Its four bottom corners form one region whose memory slot, and so its bristle
// anchor, must follow it from step to step: below μ_s (tan θ = 0.2) the box sticks without
// creep; above (tan θ = 0.4) it slides at a = g (sin θ − μ_d cos θ). Same law and numbers as the
// particle of compliant_contact_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
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

struct InclineRun {
  std::vector<double> t, x, vx, regions;
};

InclineRun run_incline(double tan_theta, double end, const std::string& dir) {
  const double th = std::atan(tan_theta), g = 9.81;
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
     << "    friction: {law: bristle, mu: 0.25, mu_static: 0.3, stiffness: 1.0e6, damping: "
        "2.0e3, stick_speed: 1.0e-3}\n"
     << "solver: {integrator: generalized_alpha, rho_inf: 0.8, step: 1.0e-4, end: " << end
     << "}\noutput: {every: 10}\n";
  LoadedModel lm = load_model_string(os.str(), "test.yaml");
  lm.run.output.progress = false;
  System sys(lm.model);
  ChannelSet set(sys, {"block.position.x", "block.velocity.x", "slope.regions"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  EXPECT_TRUE(stats.ok) << stats.message;
  return {rec.times, rec.column(0), rec.column(1), rec.column(2)};
}

class MeshFriction : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_);
    write_stl_binary(box_mesh(Vec3(0.1, 0.1, 0.1)), (dir_ / "box.stl").string());
    write_stl_binary(grid_box_mesh(Vec3(2, 2, 0.1), {4, 4, 1}), (dir_ / "plane.stl").string());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_ = testing::test_temp_dir("clearsim_mesh_friction");
};

TEST_F(MeshFriction, BoxSticksBelowStaticFrictionWithoutCreep) {
  const InclineRun r = run_incline(0.2, 1.0, dir_.string());
  const std::size_t half = r.t.size() / 2;
  for (double n : r.regions) EXPECT_EQ(n, 1.0);        // one region throughout
  EXPECT_LT(std::abs(r.x.back() - r.x[half]), 1e-10);  // no creep over the last half second
  EXPECT_LT(std::abs(r.x.back()), 1e-5);               // the initial settling only
  std::printf("[ measured ] box on tan θ = 0.2: settled at x = %.3g m, creep %.3g m over 0.5 s\n",
              r.x.back(), r.x.back() - r.x[half]);
}

TEST_F(MeshFriction, BoxSlidesAboveStaticFrictionAtTheDynamicRate) {
  const double end = 0.5, th = std::atan(0.4);
  const InclineRun r = run_incline(0.4, end, dir_.string());
  const double a = 9.81 * (std::sin(th) - 0.25 * std::cos(th));
  EXPECT_NEAR(r.vx.back(), a * end, 0.01 * a * end);
  std::printf("[ measured ] box on tan θ = 0.4: v = %.5f m/s after 0.5 s, a t = %.5f\n",
              r.vx.back(), a * end);
}

}  // namespace
}  // namespace cs
