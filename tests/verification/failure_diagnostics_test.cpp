// A run that cannot continue stops with a diagnostic that names the time, the step, the largest
// residual and the element involved, and keeps every output computed before.
#include <gtest/gtest.h>

#include <cmath>

#include "support/recorder.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

// A slider–crank driven by its slider, assembled with the crank at 90° (x_slider = 0.10909 m),
// and pulled outwards at 1 m/s: at t ≈ 0.0609 s it reaches full extension x = r + l = 0.17 m,
// beyond which no configuration satisfies the joints.
Model slider_driven_crank() {
  Model m;
  auto body = [&](const char* name, double mass, Vec3 x) {
    Body b;
    b.name = name;
    b.mass = mass;
    b.inertia_B = 1e-4 * Mat3::Identity();
    b.x0_W = x;
    return add_body(m, b);
  };
  const double xs = std::sqrt(0.12 * 0.12 - 0.05 * 0.05);
  const int crank = body("crank", 0.3, Vec3(0, 0.025, 0));
  const int rod = body("rod", 0.21, Vec3(0.5 * xs, 0.025, 0));
  const int slider = body("slider", 0.14, Vec3(xs, 0, 0));
  using joints::JointType;
  add_joint(m, "pivot", JointType::kRevolute, kGround, crank, Vec3::Zero(), Vec3::UnitZ());
  add_joint(m, "crank_rod", JointType::kSpherical, crank, rod, Vec3(0, 0.05, 0), Vec3::Zero());
  add_joint(m, "rod_slider", JointType::kUniversal, rod, slider, Vec3(xs, 0, 0), Vec3::UnitZ(),
            Vec3(-0.05, xs, 0).normalized());
  add_joint(m, "guide", JointType::kPrismatic, kGround, slider, Vec3(xs, 0, 0), Vec3::UnitX());
  add_driver(m, "pull", "guide", joints::JointDriver::Motion::kTranslation,
             joints::JointDriver::Given::kVelocity, TimeFunction::constant(1.0));
  return m;
}

TEST(FailureDiagnostics, UnreachableDriverStopsWithDiagnostic) {
  RunSettings s;
  s.solver.step = 1e-4;
  s.solver.end = 0.1;
  const auto r = testing::run(slider_driven_crank(), s);
  EXPECT_FALSE(r.stats.ok);
  // Output kept up to the failure near full extension.
  ASSERT_FALSE(r.states.empty());
  EXPECT_GT(r.states.back().t, 0.05);
  EXPECT_LT(r.states.back().t, 0.0612);
  const std::string& msg = r.stats.message;
  EXPECT_NE(msg.find("t = "), std::string::npos) << msg;
  EXPECT_NE(msg.find("step h = "), std::string::npos) << msg;
  EXPECT_NE(msg.find("'"), std::string::npos) << msg;  // names an element or body
}

// Started exactly at full extension the slider drive is singular: the assembly must refuse,
// naming the dependent rows, instead of dropping one of them as "redundant".
TEST(FailureDiagnostics, SingularStartIsReportedNotHidden) {
  Model m = testing::slider_crank();
  m.elements.pop_back();  // the crank drive
  add_driver(m, "pull", "guide", joints::JointDriver::Motion::kTranslation,
             joints::JointDriver::Given::kPosition, TimeFunction::ramp(-0.02, 1.0, 0.0));
  RunSettings s;
  s.solver.step = 1e-4;
  s.solver.end = 0.01;
  const auto r = testing::run(m, s);
  EXPECT_FALSE(r.stats.ok);
  EXPECT_NE(r.stats.message.find("singular"), std::string::npos) << r.stats.message;
}

}  // namespace
}  // namespace cs
