// Coulomb friction inside NSGA: a particle on an incline sticks below tan⁻¹μ and slides with
// acceleration g(sin θ − μ cos θ) above it.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

constexpr double kG = 9.81, kMu = 0.3;

// Plane through the origin tilted by θ about y; a particle (radius-0 contact) resting on it,
// optionally with a speed v0 down the slope.
Model incline(double theta, double v0) {
  Model m;
  m.gravity_W = Vec3(0, 0, -kG);
  const Mat3 R = so3::exp(Vec3(0, -theta, 0));  // plane frame: z = normal, x = up the slope
  const Vec3 down = -R.col(0);
  Body b;
  b.name = "block";
  b.mass = 2.0;
  b.inertia_B = 0.01 * Mat3::Identity();
  b.x0_W = Vec3::Zero();
  b.v0_W = v0 * down;
  b.v0_prescribed = true;
  add_body(m, b);
  add_element(m, std::make_unique<contact::SpherePlane>(
                     "slope", marker_at(m, kGround, Vec3::Zero(), R),
                     marker_at(m, 0, Vec3::Zero(), Mat3::Identity()), 0.0, 0.0, kMu));
  return m;
}

RunSettings nsga(double end) {
  RunSettings s;
  s.solver.integrator = IntegratorKind::kNsga;
  s.solver.rho_inf = 0.8;
  s.solver.step = 1e-3;
  s.solver.end = end;
  s.solver.newton_tol = 1e-12;
  return s;
}

// Speed down the slope.
double slope_speed(const State& s, double theta) {
  return -s.v.head<3>().dot(so3::exp(Vec3(0, -theta, 0)).col(0));
}

TEST(FrictionIncline, SticksBelowTheFrictionAngle) {
  const double theta = std::atan(kMu) - 0.05;
  const auto r = testing::run(incline(theta, 0.0), nsga(1.0));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  for (const State& s : r.states) {
    EXPECT_LT(s.x_W[0].norm(), 1e-10) << s.t;
    EXPECT_LT(s.v.head<3>().norm(), 1e-10) << s.t;
  }
}

TEST(FrictionIncline, SlidesWithCoulombAccelerationAbove) {
  const double theta = std::atan(kMu) + 0.1;
  const auto r = testing::run(incline(theta, 0.0), nsga(1.0));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  const double a = kG * (std::sin(theta) - kMu * std::cos(theta));
  // Time stepping applies gravity and the impulses each step exactly: v(t) = a t to round-off
  // after the first step.
  for (const State& s : r.states) {
    if (s.t > 0.01) {
      EXPECT_NEAR(slope_speed(s, theta), a * s.t, 1e-6 * (1 + a * s.t)) << s.t;
    }
  }
  // And it stays on the plane.
  const Vec3 n = so3::exp(Vec3(0, -theta, 0)).col(2);
  for (const State& s : r.states) EXPECT_NEAR(n.dot(s.x_W[0]), 0.0, 1e-10);
}

TEST(FrictionIncline, DeceleratesThenSticksBelowTheFrictionAngle) {
  const double theta = std::atan(kMu) - 0.1, v0 = 1.0;
  const auto r = testing::run(incline(theta, v0), nsga(2.0));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  const double d = kG * (kMu * std::cos(theta) - std::sin(theta));  // deceleration
  const double t_stop = v0 / d;
  Vec3 rest = Vec3::Constant(NAN);
  for (const State& s : r.states) {
    if (s.t > t_stop + 0.05 && rest.hasNaN()) rest = s.x_W[0];
    if (!rest.hasNaN()) {
      EXPECT_LT((s.x_W[0] - rest).norm(), 1e-9) << "creep at t = " << s.t;
    }
    const double expected = s.t < t_stop ? v0 - d * s.t : 0.0;
    EXPECT_NEAR(slope_speed(s, theta), expected, 2e-2 * v0) << s.t;  // O(h) at the stop
    if (s.t > t_stop + 0.01) {
      EXPECT_LT(s.v.head<3>().norm(), 1e-9) << s.t;
    }
  }
}

}  // namespace
}  // namespace cs
