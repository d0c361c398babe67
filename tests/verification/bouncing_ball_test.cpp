// NSGA on the bouncing ball (reference.md §8.2) and a ball rattling in a spherical cavity.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/model/model_builder.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

constexpr double kG = 9.81;

// A ball of radius 0.1 m whose lowest point starts h0 = 1 m above the plane z = 0.
Model bouncing_ball(double e) {
  Model m;
  m.gravity_W = Vec3(0, 0, -kG);
  Body b;
  b.name = "ball";
  b.mass = 1.0;
  b.inertia_B = 0.004 * Mat3::Identity();
  b.x0_W = Vec3(0, 0, 1.1);
  add_body(m, b);
  add_element(m, std::make_unique<contact::SpherePlane>(
                     "floor", marker_at(m, kGround, Vec3::Zero(), Mat3::Identity()),
                     marker_at(m, 0, Vec3(0, 0, 1.1), Mat3::Identity()), 0.1, e));
  return m;
}

RunSettings nsga(double h, double end) {
  RunSettings s;
  s.solver.integrator = IntegratorKind::kNsga;
  s.solver.rho_inf = 0.8;
  s.solver.step = h;
  s.solver.end = end;
  s.solver.newton_tol = 1e-12;
  return s;
}

TEST(BouncingBall, ImpactLawApexRatioAndNoPenetration) {
  const double e = 0.9, h = 1e-4;
  const auto r = testing::run(bouncing_ball(e), nsga(h, 6.0));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  int impacts = 0;
  std::vector<double> apex;
  for (std::size_t k = 1; k < r.states.size(); ++k) {
    const State& a = r.states[k - 1];
    const State& b = r.states[k];
    // No penetration at any step: the position correction makes g ≥ 0 exactly.
    EXPECT_GE(b.x_W[0].z() - 0.1, -1e-10) << "t = " << b.t;
    if (b.contact[0] == ContactState::kImpact) {
      ++impacts;
      // Newton's law, discretely: post-impact normal velocity = −e × pre-impact (t_n).
      EXPECT_NEAR(b.v(2) / a.v(2), -e, 1e-8) << "impact at t = " << b.t;
    }
    if (a.v(2) > 0 && b.v(2) <= 0) apex.push_back(b.x_W[0].z() - 0.1);
  }
  EXPECT_GE(impacts, 6);
  ASSERT_GE(apex.size(), 4u);
  // Apex heights scale by e² (time-discretization error of the impact instant: O(h)).
  double expected = 1.0;
  for (std::size_t k = 0; k < 4; ++k) {
    expected *= e * e;
    EXPECT_NEAR(apex[k], expected, 2e-3) << "apex " << k;
  }
  // First impact at t₁ = √(2h₀/g).
  for (const State& s : r.states) {
    if (s.contact[0] == ContactState::kImpact) {
      EXPECT_NEAR(s.t, std::sqrt(2.0 / kG), 2 * h);
      break;
    }
  }
}

TEST(BouncingBall, ComesToRestAfterZenoTimeWithoutJitter) {
  // t∞ = t₁(1 + e)/(1 − e) = 8.579 s for h0 = 1 m and e = 0.9 (reference.md §8.2).
  const auto r = testing::run(bouncing_ball(0.9), nsga(1e-3, 10.0));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  for (const State& s : r.states) {
    if (s.t > 8.7) {
      EXPECT_NEAR(s.x_W[0].z(), 0.1, 1e-9) << s.t;
      EXPECT_NEAR(s.v(2), 0.0, 1e-9) << s.t;
    }
  }
}

// A 10 mm ball (1 kg) inside a spherical cavity with 0.5 mm clearance, no gravity, thrown
// sideways: it rattles from wall to wall.
Model cavity(double e, Vec3 v0) {
  Model m;
  Body b;
  b.name = "ball";
  b.mass = 1.0;
  b.inertia_B = 4e-5 * Mat3::Identity();
  b.v0_W = v0;
  b.v0_prescribed = true;
  add_body(m, b);
  add_element(m, std::make_unique<contact::SphericalClearance>(
                     "cavity", marker_at(m, kGround, Vec3::Zero(), Mat3::Identity()),
                     marker_at(m, 0, Vec3::Zero(), Mat3::Identity()), 0.5e-3, 0.0, e));
  return m;
}

TEST(BallInCavity, ElasticRattlingKeepsEnergyOverThousandImpacts) {
  const Vec3 v0(0.3, 0.11, -0.05);
  const auto r = testing::run(cavity(1.0, v0), nsga(1e-5, 3.3));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  int impacts = 0;
  const double E0 = 0.5 * v0.squaredNorm();
  for (const State& s : r.states) {
    if (s.contact[0] == ContactState::kImpact) ++impacts;
    EXPECT_LT(std::abs(0.5 * s.v.head<3>().squaredNorm() - E0) / E0, 1e-3) << s.t;
    EXPECT_GE(0.5e-3 - s.x_W[0].norm(), -1e-10);
  }
  EXPECT_GE(impacts, 1000);
}

TEST(BallInCavity, PlasticImpactStaysInContact) {
  // Thrown obliquely: after the plastic impact it slides round the wall, pressed against it by
  // the centripetal contact force — continuous contact, never free flight again.
  const auto r = testing::run(cavity(0.0, Vec3(0.3, 0.1, 0.0)), nsga(1e-5, 0.05));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  bool touched = false;
  for (const State& s : r.states) {
    if (touched) {
      EXPECT_NEAR(s.x_W[0].norm(), 0.5e-3, 1e-10) << s.t;
      EXPECT_NE(s.contact[0], ContactState::kOpen) << s.t;
    }
    touched = touched || s.contact[0] == ContactState::kImpact;
  }
  EXPECT_TRUE(touched);
}

}  // namespace
}  // namespace cs
