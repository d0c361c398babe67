// Ideal slider–crank at 5000 rpm against its closed form (reference.md §8.1).
#include "testing/slider_crank.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "support/recorder.hpp"

namespace cs {
namespace {

TEST(SliderCrank, KinematicAnalysisMatchesClosedForm) {
  RunSettings s;
  s.solver.analysis = Analysis::kKinematic;
  s.solver.end = 0.012;  // one revolution
  s.solver.kinematic_steps = 240;
  s.solver.newton_tol = 1e-13;
  const auto r = testing::run(testing::slider_crank(), s);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  ASSERT_EQ(r.states.size(), 241u);
  // Scales: stroke 0.17 m, peak speed 28.4 m/s, peak acceleration 19 419 m/s².
  for (const State& st : r.states) {
    const auto ref = testing::slider_closed_form(st.t);
    EXPECT_NEAR(st.x_W[2].x(), ref.x, 1e-9 * 0.17) << st.t;
    EXPECT_NEAR(st.v(12), ref.v, 1e-9 * 28.4) << st.t;
    EXPECT_NEAR(st.vdot(12), ref.a, 1e-9 * 19419.0) << st.t;
  }
}

double max_velocity_error(double h) {
  RunSettings s;
  s.solver.step = h;
  s.solver.end = 0.012;
  s.solver.rho_inf = 0.8;
  s.solver.newton_tol = 1e-12;
  const auto r = testing::run(testing::slider_crank(), s);
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  double err = 0.0;
  for (const State& st : r.states) {
    const auto ref = testing::slider_closed_form(st.t);
    // Positions are fixed by the constraints, exactly (to Newton tolerance).
    EXPECT_NEAR(st.x_W[2].x(), ref.x, 1e-10);
    err = std::max(err, std::abs(st.v(12) - ref.v));
  }
  return err;
}

TEST(SliderCrank, DynamicVelocityErrorFallsAtSecondOrder) {
  const double e1 = max_velocity_error(2e-5);
  const double e2 = max_velocity_error(1e-5);
  const double e3 = max_velocity_error(5e-6);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  EXPECT_NEAR(p1, 2.0, 0.2) << e1 << " " << e2;
  EXPECT_NEAR(p2, 2.0, 0.2) << e2 << " " << e3;
  EXPECT_LT(e2, 1e-3 * 28.4);
}

}  // namespace
}  // namespace cs
