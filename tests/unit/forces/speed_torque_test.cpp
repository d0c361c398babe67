// SpeedTorque: tangents against finite differences on the group (both units, plain and
// oppose-motion, inside and outside the sign band, ground-attached), the seed-004 motor curve by
// hand, the rpm conversion, the sign of the applied torque and the brake law.
#include "clearsim/elements/forces/speed_torque.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "unit/forces/force_test_support.hpp"

namespace cs {
namespace {

using forces::SpeedTorque;
using forces::SpeedUnit;

// Seed 004's motor: T = 141193.58 − 4610.5236 n + 47.324143 n² [N·m], n in rad/s.
const std::vector<double> kMotor{141193.58, -4610.5236, 47.324143};
// A brake given by magnitude: |T| = 50 + 2|n| + 0.1 n².
const std::vector<double> kBrake{50.0, 2.0, 0.1};

Marker random_marker(std::mt19937& rng, int body) {
  Marker m;
  m.body = body;
  m.p_B = testing::random_vec(rng, 0.4);
  m.R_BM = so3::exp(testing::random_vec(rng, 2.0));
  return m;
}

Marker origin_marker(int body) {
  Marker m;
  m.body = body;
  return m;
}

// Body j spinning at θ̇ about the common z axis of two identity markers (i = ground).
BodyKinematics spinning(double angle, double theta_dot) {
  BodyKinematics b;
  b.R_WB = so3::exp(Vec3(0.0, 0.0, angle));
  b.w_B = Vec3(0.0, 0.0, theta_dot);
  return b;
}

TEST(SpeedTorque, TangentsMatchFiniteDifferences) {
  std::mt19937 rng(307);
  struct Variant {
    std::vector<double> a;
    SpeedUnit unit;
    bool oppose;
    std::string label;
  };
  const std::vector<Variant> variants{{kMotor, SpeedUnit::kRadPerSecond, false, "motor rad/s"},
                                      {{5.0, -3.0, 0.02, 1e-3}, SpeedUnit::kRpm, false, "rpm"},
                                      {kBrake, SpeedUnit::kRadPerSecond, true, "brake rad/s"},
                                      {kBrake, SpeedUnit::kRpm, true, "brake rpm"}};
  for (const auto& var : variants) {
    for (int trial = 0; trial < 4; ++trial) {
      const bool grounded = trial == 0;
      const int body_i = grounded ? kGround : 0;
      const Marker mj = random_marker(rng, 1), mi = random_marker(rng, body_i);  // j drawn first
      const SpeedTorque motor("m", mi, mj, var.a, var.unit, var.oppose);
      const BodyKinematics bi = grounded ? testing::ground() : testing::random_body(rng);
      const BodyKinematics bj = testing::random_body(rng);
      testing::expect_tangents_match_fd(motor, bi, bj, 0.0,
                                        var.label + " trial " + std::to_string(trial));
    }
  }
}

TEST(SpeedTorque, BrakeTangentsInsideSignBand) {
  // θ̇ = 0.4 ω_ε, where tanh is far from saturated: ∂T/∂θ̇ ≈ |T|/ω_ε ≈ 5e4 N·m·s/rad. A velocity
  // step of 1e-7 rad/s keeps the FD truncation (ε²/6·|T|/ω_ε³ ≈ 1e-4) well inside the tolerance.
  for (SpeedUnit unit : {SpeedUnit::kRadPerSecond, SpeedUnit::kRpm}) {
    const SpeedTorque brake("b", origin_marker(kGround), origin_marker(0), kBrake, unit, true);
    const BodyKinematics g = testing::ground();
    const BodyKinematics bj = spinning(0.3, 0.4 * SpeedTorque::kSignBand);
    testing::expect_tangents_match_fd(brake, g, bj, 0.0, "in band", 1e-7);
  }
}

TEST(SpeedTorque, Seed004MotorCurveAtRatedSpeed) {
  // T(75.39822 rad/s) = 62600.94 N·m (seed 004); 0.05 N·m covers the rounding of the quoted
  // coefficients and result (8 significant digits of terms of ~3e5 N·m).
  const double n = 75.39822;
  const double T_expected = 62600.94;
  const BodyKinematics g = testing::ground();
  {
    const SpeedTorque motor("m", origin_marker(kGround), origin_marker(0), kMotor,
                            SpeedUnit::kRadPerSecond, false);
    const BodyKinematics bj = spinning(1.0, n);
    const ElementInput in{0.0, &g, &bj};
    EXPECT_NEAR(motor.channel_value(0, in, nullptr), n, 1e-12);
    EXPECT_NEAR(motor.channel_value(1, in, nullptr), T_expected, 0.05);
    EXPECT_NEAR(motor.channel_value(2, in, nullptr), T_expected * n, 0.05 * n);
    // +T on body j about +z of its marker (drives the joint forward), −T on ground.
    const ForceBlock fb = testing::evaluate_force(motor, g, bj, 0.0, false);
    EXPECT_NEAR(fb.f(11), T_expected, 0.05);
    EXPECT_NEAR(fb.f(5), -T_expected, 0.05);
    EXPECT_LT(fb.f.head<5>().norm() + fb.f.segment<5>(6).norm(), 1e-9);
  }
  {
    // Same curve given in rpm: n = 75.39822 rpm is θ̇ = 75.39822·2π/60 rad/s.
    const SpeedTorque motor("m", origin_marker(kGround), origin_marker(0), kMotor, SpeedUnit::kRpm,
                            false);
    const double theta_dot = n * 2.0 * std::numbers::pi / 60.0;
    const BodyKinematics bj = spinning(-2.0, theta_dot);
    const ElementInput in{0.0, &g, &bj};
    EXPECT_NEAR(motor.channel_value(0, in, nullptr), theta_dot, 1e-12);  // speed is in rad/s
    EXPECT_NEAR(motor.channel_value(1, in, nullptr), T_expected, 0.05);
    EXPECT_NEAR(testing::evaluate_force(motor, g, bj, 0.0, false).f(11), T_expected, 0.05);
  }
}

TEST(SpeedTorque, TorqueActsAboutTheJointAxisOfTheMarkers) {
  // Markers with z along body +y (a rotation of −90° about x); both bodies free. T = 7 + 0·n
  // must appear as +7 about body j's y and −7 about body i's y, with no net force.
  const Mat3 R_BM = so3::exp(Vec3(-0.5 * std::numbers::pi, 0.0, 0.0));
  Marker mi = origin_marker(0), mj = origin_marker(1);
  mi.R_BM = R_BM;
  mj.R_BM = R_BM;
  const SpeedTorque motor("m", mi, mj, {7.0}, SpeedUnit::kRadPerSecond, false);
  BodyKinematics bi, bj;
  bi.x_W = Vec3(0.0, 0.0, 1.0);
  bj.x_W = Vec3(0.0, 0.5, 1.0);
  bj.R_WB = so3::exp(Vec3(0.0, 0.7, 0.0));  // turned about the common axis
  const ForceBlock fb = testing::evaluate_force(motor, bi, bj, 0.0, false);
  Vec12 expected = Vec12::Zero();
  expected.segment<3>(3) = Vec3(0.0, -7.0, 0.0);
  expected.segment<3>(9) = Vec3(0.0, 7.0, 0.0);
  EXPECT_LT((fb.f - expected).norm(), 1e-12);
}

TEST(SpeedTorque, OpposeMotionBrakesEitherWayAndVanishesAtRest) {
  const BodyKinematics g = testing::ground();
  const SpeedTorque brake("b", origin_marker(kGround), origin_marker(0), kBrake,
                          SpeedUnit::kRadPerSecond, true);
  auto torque_at = [&](double theta_dot) {
    const BodyKinematics bj = spinning(0.0, theta_dot);
    return brake.channel_value(1, {0.0, &g, &bj}, nullptr);
  };
  const double magnitude = 50.0 + 2.0 * 3.0 + 0.1 * 9.0;  // |T(3)|
  // Outside the band tanh(3/1e-3) = 1 to round-off.
  EXPECT_NEAR(torque_at(3.0), -magnitude, 1e-12);
  EXPECT_NEAR(torque_at(-3.0), magnitude, 1e-12);
  EXPECT_EQ(torque_at(0.0), 0.0);
  // Inside it the regularised sign is tanh(θ̇/ω_ε).
  const double w = SpeedTorque::kSignBand;
  EXPECT_NEAR(torque_at(w), -std::tanh(1.0) * (50.0 + 2.0 * w + 0.1 * w * w), 1e-12);
  // Power is dissipated: T·θ̇ ≤ 0 on either side.
  for (double theta_dot : {-5.0, -1e-4, 1e-4, 5.0}) {
    const BodyKinematics bj = spinning(0.0, theta_dot);
    EXPECT_LE(brake.channel_value(2, {0.0, &g, &bj}, nullptr), 0.0) << theta_dot;
  }
}

}  // namespace
}  // namespace cs
