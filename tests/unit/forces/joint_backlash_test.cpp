// The backlash element (joint_backlash.hpp): exact tangents against central differences where a
// stop is closed, no torque inside the play, the stop's law at ±b/2, f = −∂V/∂q, and the motor
// angle taken from a driver's function.
#include "clearsim/elements/forces/joint_backlash.hpp"

#include <gtest/gtest.h>

#include <numbers>
#include <random>

#include "clearsim/math/so3.hpp"
#include "unit/forces/force_test_support.hpp"

namespace cs {
namespace {

using forces::BacklashParams;
using forces::JointBacklash;
using forces::MotorMotion;

constexpr double kPlay = 0.01;  // b [rad]
const BacklashParams kParams{kPlay, 2.0e3, 5.0};

using testing::marker_at;

// Body j turned by `angle` about world z from the ground, spinning at `rate` about z.
BodyKinematics turned(double angle, double rate) {
  BodyKinematics b;
  b.x_W = Vec3(0.1, -0.2, 0.3);
  b.R_WB = so3::exp(Vec3(0.0, 0.0, angle));
  b.w_B = Vec3(0.0, 0.0, rate);
  return b;
}

JointBacklash held(const BacklashParams& p = kParams) {
  return JointBacklash("b", marker_at(kGround, Vec3::Zero()), marker_at(0, Vec3(-0.1, 0.2, -0.3)),
                       p, MotorMotion{});
}

double torque_on_j(const JointBacklash& e, const BodyKinematics& bj, double t = 0.0) {
  const BodyKinematics g = testing::ground();
  return testing::evaluate_force(e, g, bj, t, false).f(11);  // about world z = body z
}

TEST(JointBacklash, NoTorqueInsideThePlay) {
  const JointBacklash e = held();
  for (double angle : {-0.0049, -0.002, 0.0, 0.003, 0.0049})
    for (double rate : {-3.0, 0.0, 2.0}) EXPECT_EQ(torque_on_j(e, turned(angle, rate)), 0.0);
}

TEST(JointBacklash, StopPushesBackBeyondHalfThePlay) {
  const JointBacklash e = held();
  // δ = 0.006 > b/2 = 0.005: p = 1e-3, ṗ = 0.5 → F = 2e3·1e-3 + 5·0.5 = 4.5 N·m, against δ.
  EXPECT_NEAR(torque_on_j(e, turned(0.006, 0.5)), -4.5, 1e-9);
  EXPECT_NEAR(torque_on_j(e, turned(-0.006, -0.5)), 4.5, 1e-9);
  // Separating fast: k p + c ṗ = 2 − 5 < 0, the stop does not pull.
  EXPECT_EQ(torque_on_j(e, turned(0.006, -1.0)), 0.0);
  const BodyKinematics g = testing::ground();
  const BodyKinematics bj = turned(0.006, 0.5);
  const ElementInput in{0.0, &g, &bj};
  EXPECT_NEAR(e.channel_value(2, in, nullptr), -4.5, 1e-9);    // torque
  EXPECT_NEAR(e.channel_value(4, in, nullptr), 0.006, 1e-15);  // lost motion
  EXPECT_NEAR(e.potential_energy(in), 0.5 * 2.0e3 * 1e-6, 1e-12);
}

TEST(JointBacklash, MotorAngleFromDriverFunction) {
  // θ_m(t) = 0.2 t (given as an angular velocity 0.2 rad/s): at t = 1 the motor is at 0.2 rad;
  // the link at 0.194 lags by 0.006 > b/2, so the motor pushes it forward: +2 N·m at rest.
  const JointBacklash e("b", marker_at(kGround, Vec3::Zero()), marker_at(0, Vec3::Zero()),
                        {kPlay, 2.0e3, 0.0}, MotorMotion{TimeFunction::constant(0.2), true});
  EXPECT_NEAR(torque_on_j(e, turned(0.194, 0.0), 1.0), 2.0, 1e-9);
  EXPECT_EQ(torque_on_j(e, turned(0.197, 0.0), 1.0), 0.0);
}

TEST(JointBacklash, TangentsMatchFiniteDifferencesWhereTheStopIsClosed) {
  std::mt19937 rng(307);
  std::uniform_real_distribution<double> lost(0.02, 0.3);
  for (int trial = 0; trial < 8; ++trial) {
    const bool grounded = trial < 3;
    const BodyKinematics bi = grounded ? testing::ground() : testing::random_body(rng);
    BodyKinematics bj = testing::random_body(rng);
    bj.w_B *= 0.01;  // slow enough that the stop keeps pushing (F > 0) at every perturbation
    bj.v_W *= 0.01;
    const int body_i = grounded ? kGround : 0;
    const Marker mi =
        marker_at(body_i, testing::random_vec(rng, 0.4), so3::exp(testing::random_vec(rng, 2.0)));
    const double delta = (trial % 2 == 0 ? 1.0 : -1.0) * lost(rng);
    const Mat3 R_WM = bi.R_WB * mi.R_BM * so3::exp(Vec3(0.0, 0.0, delta));
    const Marker mj = marker_at(1, testing::random_vec(rng, 0.4), bj.R_WB.transpose() * R_WM);
    const JointBacklash e("b", mi, mj, {kPlay, 2.0e3, 0.5}, MotorMotion{});
    const ForceBlock fb = testing::evaluate_force(e, bi, bj, 0.0, true);
    ASSERT_GT(fb.f.norm(), 0.0) << "trial " << trial;
    testing::expect_tangents_match_fd(e, bi, bj, 0.0, "trial " + std::to_string(trial));
  }
}

TEST(JointBacklash, ForceIsMinusGradientOfPotentialWithoutDamping) {
  const JointBacklash e = held({kPlay, 2.0e3, 0.0});
  for (double angle : {-0.3, -0.01, 0.002, 0.02, 0.4})
    testing::expect_force_is_minus_gradient(e, testing::ground(), turned(angle, 0.0), 0.0,
                                            "angle " + std::to_string(angle));
}

TEST(JointBacklash, RefusesBadParameters) {
  EXPECT_THROW(held({-1e-3, 1.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(held({1e-3, 0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(held({1e-3, 1.0, -1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace cs
