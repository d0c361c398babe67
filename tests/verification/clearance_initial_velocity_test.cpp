// A clearance joint starts moving as its ideal joint: the ball (journal) has no velocity
// relative to its housing at t = 0 unless the model prescribes one.
#include <gtest/gtest.h>

#include "clearsim/io/model_reader.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

TEST(ClearanceInitialVelocity, JournalStartsAtRestInItsHousing) {
  const char* yaml = R"(
bodies:
  crank:  {mass: 0.30, inertia: [1.0e-5, 1.0e-5, 1.0e-5], position: [0.025, 0, 0]}
  rod:    {mass: 0.21, inertia: [2.5e-4, 2.5e-4, 2.5e-4], position: [0.110, 0, 0]}
  slider: {mass: 0.14, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [0.170, 0, 0]}
joints:
  crank_pivot:  {type: revolute,  bodies: [ground, crank], at: [0, 0, 0], axis: [0, 0, 1]}
  crank_rod:    {type: spherical, bodies: [crank, rod], at: [0.05, 0, 0]}
  rod_slider:
    type: spherical
    bodies: [rod, slider]
    at: [0.17, 0, 0]
    clearance: {radial: 0.5e-3, restitution: 0.9}
  slider_guide: {type: prismatic, bodies: [ground, slider], axis: [1, 0, 0]}
drivers:
  crank_speed: {joint: crank_pivot, angular_velocity: 523.5987756}
solver: {integrator: nsga, rho_inf: 0.8, step: 1.0e-5, end: 1.0e-4}
)";
  LoadedModel lm = load_model_string(yaml, "inline.yaml");
  const auto r = testing::run(lm.model, lm.run);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  const State& s0 = r.states.front();
  // Housing centre on the rod, 0.06 m from its centre of mass along x.
  const Vec3 housing_v =
      s0.v.segment<3>(6) + s0.R_WB[1] * s0.v.segment<3>(9).cross(Vec3(0.06, 0, 0));
  EXPECT_LT((s0.v.segment<3>(12) - housing_v).norm(), 1e-9);
  // The rod turns at the ideal mechanism's −rω/l = −218.166 rad/s.
  EXPECT_NEAR(s0.v(11), -0.05 * 523.5987756 / 0.12, 1e-6);
  // Then the ball separates from the centre by ½ a t² (the housing accelerates at −rω²(1 + λ)
  // = −19 419 m/s² while the slider is free): after one step, e/c = ½·19 419·1e-10/5e-4.
  const State& s1 = r.states[1];
  const Vec3 housing_x = s1.x_W[1] + s1.R_WB[1] * Vec3(0.06, 0, 0);
  EXPECT_NEAR((s1.x_W[2] - housing_x).norm() / 0.5e-3, 0.5 * 19419.0 * 1e-10 / 0.5e-3, 2e-4);
}

}  // namespace
}  // namespace cs
