// Translational and rotational spring–dampers: tangents against finite differences on the group
// (generic and ground-attached), f = −∂V/∂q at zero damping, closed-form hand cases for the sign
// of the force and torque, unwrapping, the zero-length guard and the output channels.
#include "clearsim/elements/forces/spring_damper.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "unit/forces/force_test_support.hpp"

namespace cs {
namespace {

using forces::RotationalSpringDamper;
using forces::SpringDamperParams;
using forces::TranslationalSpringDamper;

Marker random_marker(std::mt19937& rng, int body) {
  Marker m;
  m.body = body;
  m.p_B = testing::random_vec(rng, 0.4);
  m.R_BM = so3::exp(testing::random_vec(rng, 2.0));
  return m;
}

using testing::marker_at;

// Markers of a revolute joint between bi and bj at relative angle `angle`: marker j's z axis is
// aligned with marker i's, its x axis turned by `angle` about it.
std::pair<Marker, Marker> joint_markers(std::mt19937& rng, const BodyKinematics& bi,
                                        const BodyKinematics& bj, double angle, int body_i,
                                        int body_j) {
  Marker mi = random_marker(rng, body_i);
  const Mat3 R_WM = bi.R_WB * mi.R_BM * so3::exp(Vec3(0.0, 0.0, angle));
  Marker mj = marker_at(body_j, testing::random_vec(rng, 0.4), bj.R_WB.transpose() * R_WM);
  return {mi, mj};
}

const SpringDamperParams kLinear{250.0, 12.0, 0.7, 15.0};  // k, c, ℓ0, F0
const SpringDamperParams kAngular{40.0, 3.0, 0.4, -2.0};   // k, c, θ0, T0

// --- translational --------------------------------------------------------------------------

TEST(TranslationalSpringDamper, TangentsMatchFiniteDifferences) {
  std::mt19937 rng(101);
  for (int trial = 0; trial < 8; ++trial) {
    // Trials 0–1 attach end i to ground (identity pose, zero velocity).
    const bool grounded = trial < 2;
    const int body_i = grounded ? kGround : 0;
    const Marker mj = random_marker(rng, 1), mi = random_marker(rng, body_i);  // j drawn first
    const TranslationalSpringDamper spring("s", mi, mj, kLinear);
    const BodyKinematics bi = grounded ? testing::ground() : testing::random_body(rng);
    const BodyKinematics bj = testing::random_body(rng);
    testing::expect_tangents_match_fd(spring, bi, bj, 0.0, "trial " + std::to_string(trial));
  }
}

TEST(TranslationalSpringDamper, ForceIsMinusGradientOfPotentialWithoutDamping) {
  std::mt19937 rng(103);
  SpringDamperParams p = kLinear;
  p.damping = 0.0;
  for (int trial = 0; trial < 6; ++trial) {
    const bool grounded = trial % 3 == 0;
    const TranslationalSpringDamper spring("s", random_marker(rng, 0),
                                           random_marker(rng, grounded ? kGround : 1), p);
    const BodyKinematics bi = testing::random_body(rng);
    const BodyKinematics bj = grounded ? testing::ground() : testing::random_body(rng);
    testing::expect_force_is_minus_gradient(spring, bi, bj, 0.0, "trial " + std::to_string(trial));
  }
}

TEST(TranslationalSpringDamper, StretchedAlongXPullsTheEndsTogether) {
  // Ground point at the origin, body j's centre at (2, 0, 0) moving at +0.3 m/s along x:
  // ℓ = 2, ℓ̇ = 0.3, F = 100·(2 − 1.5) + 10·0.3 + 4 = 57 N of tension, so body j is pulled
  // towards −x and ground towards +x.
  const TranslationalSpringDamper spring("s", marker_at(kGround, Vec3::Zero()),
                                         marker_at(0, Vec3::Zero()), {100.0, 10.0, 1.5, 4.0});
  const BodyKinematics g = testing::ground();
  BodyKinematics bj;
  bj.x_W = Vec3(2.0, 0.0, 0.0);
  bj.v_W = Vec3(0.3, 0.0, 0.0);
  const ForceBlock fb = testing::evaluate_force(spring, g, bj, 0.0, false);
  Vec12 expected = Vec12::Zero();
  expected.segment<3>(0) = Vec3(57.0, 0.0, 0.0);
  expected.segment<3>(6) = Vec3(-57.0, 0.0, 0.0);
  EXPECT_LT((fb.f - expected).norm(), 1e-12);
  const ElementInput in{0.0, &g, &bj};
  EXPECT_DOUBLE_EQ(spring.channel_value(0, in, nullptr), 2.0);
  EXPECT_DOUBLE_EQ(spring.channel_value(1, in, nullptr), 0.3);
  EXPECT_NEAR(spring.channel_value(2, in, nullptr), 57.0, 1e-12);
  EXPECT_NEAR(spring.channel_value(3, in, nullptr), 10.0 * 0.3 * 0.3, 1e-12);  // c ℓ̇²
  EXPECT_NEAR(spring.potential_energy(in), 0.5 * 100.0 * 0.25 + 4.0 * 0.5, 1e-12);

  // Compressed (ℓ = 1 < ℓ0, at rest, no preload): F = −50 N pushes body j towards +x.
  const TranslationalSpringDamper push("p", marker_at(kGround, Vec3::Zero()),
                                       marker_at(0, Vec3::Zero()), {100.0, 0.0, 1.5, 0.0});
  BodyKinematics near;
  near.x_W = Vec3(1.0, 0.0, 0.0);
  EXPECT_LT(
      (testing::evaluate_force(push, g, near, 0.0, false).f.segment<3>(6) - Vec3(50.0, 0.0, 0.0))
          .norm(),
      1e-12);
}

TEST(TranslationalSpringDamper, OffsetAttachmentGivesBodyFrameMoment) {
  // Body j at the origin turned +90° about z, so its attachment s̄ = (1, 0, 0) sits at world
  // (0, 1, 0); the ground point is (2, 1, 0). ℓ = 2, ℓ0 = 1, k = 10: 10 N of tension pulls body j
  // towards +x and ground towards −x. Moment on j: (0, 1, 0) × (10, 0, 0) = (0, 0, −10) in the
  // world, also (0, 0, −10) in body j's frame (a rotation about z).
  const TranslationalSpringDamper spring("s", marker_at(kGround, Vec3(2.0, 1.0, 0.0)),
                                         marker_at(0, Vec3(1.0, 0.0, 0.0)), {10.0, 0.0, 1.0, 0.0});
  const BodyKinematics g = testing::ground();
  BodyKinematics bj;
  bj.R_WB = so3::exp(Vec3(0.0, 0.0, 0.5 * std::numbers::pi));
  const ForceBlock fb = testing::evaluate_force(spring, g, bj, 0.0, false);
  EXPECT_LT((fb.f.segment<3>(6) - Vec3(10.0, 0.0, 0.0)).norm(), 1e-12);
  EXPECT_LT((fb.f.segment<3>(9) - Vec3(0.0, 0.0, -10.0)).norm(), 1e-12);
  EXPECT_LT((fb.f.segment<3>(0) - Vec3(-10.0, 0.0, 0.0)).norm(), 1e-12);
}

TEST(TranslationalSpringDamper, ZeroLengthIsFiniteAndForceFree) {
  // Both attachment points at the same place: direction undefined → no force, no tangent.
  const TranslationalSpringDamper spring("s", marker_at(kGround, Vec3(0.5, 0.0, 0.0)),
                                         marker_at(0, Vec3(0.0, 0.0, 0.0)), kLinear);
  const BodyKinematics g = testing::ground();
  BodyKinematics bj;
  bj.x_W = Vec3(0.5, 0.0, 0.0);
  bj.v_W = Vec3(1.0, -2.0, 0.5);
  const ForceBlock fb = testing::evaluate_force(spring, g, bj, 0.0, true);
  EXPECT_TRUE(testing::all_finite(fb));
  EXPECT_EQ(fb.f.norm(), 0.0);
  EXPECT_EQ(fb.df_dq.norm(), 0.0);
  EXPECT_EQ(fb.df_dv.norm(), 0.0);
  const ElementInput in{0.0, &g, &bj};
  const double l0 = kLinear.free_length;
  EXPECT_DOUBLE_EQ(spring.potential_energy(in),
                   0.5 * kLinear.stiffness * l0 * l0 - kLinear.preload * l0);
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(std::isfinite(spring.channel_value(k, in, nullptr)));
}

TEST(TranslationalSpringDamper, LengthRateAndPowerChannels) {
  // ℓ̇ against a Richardson-extrapolated difference of ℓ along the motion; power = c ℓ̇² ≥ 0.
  std::mt19937 rng(107);
  const Marker mj = random_marker(rng, 1), mi = random_marker(rng, 0);  // j drawn first
  const TranslationalSpringDamper spring("s", mi, mj, kLinear);
  const BodyKinematics bi = testing::random_body(rng), bj = testing::random_body(rng);
  auto length_at = [&](double s) {
    BodyKinematics a = bi, b = bj;
    fd::advance(a, s);
    fd::advance(b, s);
    return spring.channel_value(0, {0.0, &a, &b}, nullptr);
  };
  const double h = 1e-4;
  const double d1 = (4.0 * (length_at(h / 2) - length_at(-h / 2)) / h -
                     (length_at(h) - length_at(-h)) / (2 * h)) /
                    3.0;
  const ElementInput in{0.0, &bi, &bj};
  const double rate = spring.channel_value(1, in, nullptr);
  EXPECT_NEAR(rate, d1, 1e-8);
  EXPECT_NEAR(spring.channel_value(3, in, nullptr), kLinear.damping * rate * rate, 1e-12);
  ASSERT_EQ(spring.channel_names().size(), 4u);
}

// --- rotational -----------------------------------------------------------------------------

TEST(RotationalSpringDamper, TangentsMatchFiniteDifferences) {
  std::mt19937 rng(211);
  for (int trial = 0; trial < 8; ++trial) {
    const bool grounded = trial < 3;
    const bool aligned = trial % 2 == 0;  // a proper joint (z axes aligned) or arbitrary markers
    const BodyKinematics bi = grounded ? testing::ground() : testing::random_body(rng);
    const BodyKinematics bj = testing::random_body(rng);
    const int body_i = grounded ? kGround : 0;
    std::pair<Marker, Marker> m;
    if (aligned) {
      std::uniform_real_distribution<double> angle(-2.5, 2.5);
      m = joint_markers(rng, bi, bj, angle(rng), body_i, 1);
    } else {
      m = {random_marker(rng, body_i), random_marker(rng, 1)};
    }
    const RotationalSpringDamper spring("r", m.first, m.second, kAngular);
    testing::expect_tangents_match_fd(spring, bi, bj, 0.0, "trial " + std::to_string(trial));
  }
}

TEST(RotationalSpringDamper, ForceIsMinusGradientOfPotentialWithoutDamping) {
  std::mt19937 rng(213);
  SpringDamperParams p = kAngular;
  p.damping = 0.0;
  for (int trial = 0; trial < 6; ++trial) {
    const bool grounded = trial % 3 == 0;
    const BodyKinematics bi = testing::random_body(rng);
    const BodyKinematics bj = grounded ? testing::ground() : testing::random_body(rng);
    const auto m = joint_markers(rng, bi, bj, 0.3 * trial - 0.8, 0, grounded ? kGround : 1);
    const RotationalSpringDamper spring("r", m.first, m.second, p);
    testing::expect_force_is_minus_gradient(spring, bi, bj, 0.0, "trial " + std::to_string(trial));
  }
}

TEST(RotationalSpringDamper, TwistedJointTorqueOpposesTwist) {
  // Ground marker i and marker j both have z along body +x (R_BM = Ry(90°)). Body j is turned by
  // α = 0.5 rad about world x and spins at +2 rad/s about it: θ = 0.5, θ̇ = 2,
  // T = 40(0.5 − 0.4) + 3·2 − 2 = 8 N·m, so −8 N·m on body j about its x and +8 on ground.
  const Mat3 R_BM = so3::exp(Vec3(0.0, 0.5 * std::numbers::pi, 0.0));
  const RotationalSpringDamper spring("r", marker_at(kGround, Vec3::Zero(), R_BM),
                                      marker_at(0, Vec3(0.1, 0.2, 0.3), R_BM), kAngular);
  const BodyKinematics g = testing::ground();
  BodyKinematics bj;
  bj.x_W = Vec3(1.0, -1.0, 0.5);
  bj.R_WB = so3::exp(Vec3(0.5, 0.0, 0.0));
  bj.w_B = Vec3(2.0, 0.0, 0.0);
  const ForceBlock fb = testing::evaluate_force(spring, g, bj, 0.0, false);
  Vec12 expected = Vec12::Zero();
  expected.segment<3>(3) = Vec3(8.0, 0.0, 0.0);
  expected.segment<3>(9) = Vec3(-8.0, 0.0, 0.0);
  EXPECT_LT((fb.f - expected).norm(), 1e-12);
  const ElementInput in{0.0, &g, &bj};
  EXPECT_NEAR(spring.channel_value(0, in, nullptr), 0.5, 1e-14);
  EXPECT_NEAR(spring.channel_value(1, in, nullptr), 2.0, 1e-14);
  EXPECT_NEAR(spring.channel_value(2, in, nullptr), 8.0, 1e-12);
  EXPECT_NEAR(spring.channel_value(3, in, nullptr), 3.0 * 4.0, 1e-12);  // c θ̇²
  EXPECT_NEAR(spring.potential_energy(in), 0.5 * 40.0 * 0.01 - 2.0 * 0.1, 1e-12);
}

TEST(RotationalSpringDamper, AngleIsUnwrappedNearFreeAngle) {
  // θ0 = 3 rad and the joint at −3 rad (raw atan2): the element reads 2π − 3 ≈ 3.283 rad, a
  // twist of +0.283 rad, not −6 rad.
  const RotationalSpringDamper spring("r", marker_at(kGround, Vec3::Zero()),
                                      marker_at(0, Vec3::Zero()), {10.0, 0.0, 3.0, 0.0});
  const BodyKinematics g = testing::ground();
  BodyKinematics bj;
  bj.R_WB = so3::exp(Vec3(0.0, 0.0, -3.0));
  const ElementInput in{0.0, &g, &bj};
  const double theta = 2.0 * std::numbers::pi - 3.0;
  EXPECT_NEAR(spring.channel_value(0, in, nullptr), theta, 1e-14);
  const ForceBlock fb = testing::evaluate_force(spring, g, bj, 0.0, false);
  EXPECT_NEAR(fb.f(11), -10.0 * (theta - 3.0), 1e-12);
}

}  // namespace
}  // namespace cs
