// SpeedTorque's options for seed 004's reducer (reference.md §6e): the pinion-referred brake on
// the wheel by power equivalence, the low-speed continuations (hold, propeller law), the ramp,
// and the tangent with all of them.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/elements/forces/speed_torque.hpp"
#include "unit/forces/force_test_support.hpp"

namespace cs {
namespace {

using forces::BelowMinSpeed;
using forces::SpeedTorque;
using forces::SpeedTorqueOptions;
using forces::SpeedUnit;

const std::vector<double> kMotor{141193.58, -4610.5236, 47.324143};  // T_m(n), n in rad/s
const std::vector<double> kBrake{229469.87, -8601.2241, 84.724227};  // T_b(n), pinion-referred
constexpr double kU = 151.0 / 27.0;
constexpr double kNmin = 49.74188;  // 475 rpm

BodyKinematics spinning(double theta_dot) {
  BodyKinematics b;
  b.w_B = Vec3(0.0, 0.0, theta_dot);
  return b;
}

double torque(const SpeedTorque& e, double theta_dot, double t = 0.0) {
  const BodyKinematics g = testing::ground(), b = spinning(theta_dot);
  return e.channel_value(1, ElementInput{t, &g, &b}, nullptr);
}

SpeedTorque brake_on_wheel() {
  SpeedTorqueOptions o;
  o.ratio = kU;
  o.min_speed = kNmin;
  o.below = BelowMinSpeed::kPropeller;
  return SpeedTorque("b", Marker{}, Marker{0, Vec3::Zero(), Mat3::Identity()}, kBrake,
                     SpeedUnit::kRadPerSecond, true, o);
}

TEST(SpeedTorqueOptions, PinionReferredBrakeOnTheWheel) {
  const SpeedTorque brake = brake_on_wheel();
  // At 720 rpm of the pinion the wheel turns at 13.4818 rad/s and takes 350 101.6 N·m (§6e).
  const double w = 75.39822 / kU;
  EXPECT_NEAR(torque(brake, -w), 350101.6, 2.0);  // opposes the (negative) wheel rotation
  EXPECT_NEAR(torque(brake, w), -350101.6, 2.0);
  // Below 475 rpm (pinion-referred) the propeller law: T_b(n_min)(n/n_min)², 11 258.12 at n_min.
  EXPECT_NEAR(torque(brake, 0.5 * kNmin / kU), -kU * 11258.12 * 0.25, 0.5);
  EXPECT_NEAR(torque(brake, 0.0), 0.0, 1e-9);
}

TEST(SpeedTorqueOptions, MotorHeldBelowTheFitAndRamped) {
  SpeedTorqueOptions o;
  o.min_speed = kNmin;
  o.ramp = TimeFunction::smooth_step(0.0, 0.0, 2.0, 1.0);
  const SpeedTorque motor("m", Marker{}, Marker{0, Vec3::Zero(), Mat3::Identity()}, kMotor,
                          SpeedUnit::kRadPerSecond, false, o);
  EXPECT_NEAR(torque(motor, 10.0, 3.0), 28949.45, 0.1);  // T_m(475 rpm) held below it
  EXPECT_NEAR(torque(motor, 75.39822, 3.0), 62600.94, 0.1);
  EXPECT_NEAR(torque(motor, 75.39822, 1.0), 0.5 * 62600.94, 0.1);  // half-way up the ramp
  EXPECT_EQ(torque(motor, 75.39822, 0.0), 0.0);
}

// dT/dθ̇ (through the ratio and the propeller branch) against central differences.
TEST(SpeedTorqueOptions, RateTangentMatchesDifferences) {
  const SpeedTorque brake = brake_on_wheel();
  const BodyKinematics g = testing::ground();
  for (const double w : {-12.0, -5.0, 3.0, 13.0}) {
    const BodyKinematics b = spinning(w);
    const ForceBlock fb = testing::evaluate_force(brake, g, b, 0.0, true);
    const double eps = 1e-6;
    const double fd = (torque(brake, w + eps) - torque(brake, w - eps)) / (2 * eps);
    EXPECT_NEAR(fb.df_dv(11, 11), fd, 1e-6 * std::abs(fd)) << "w = " << w;
  }
}

}  // namespace
}  // namespace cs
