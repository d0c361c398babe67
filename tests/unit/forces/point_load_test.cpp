// PointLoad: generalized force [F; R_WBᵀ(τ + (R_WB s̄) × F)] on body i, its tangent against
// finite differences on the group, hand cases for the moment arm and world torque, and channels.
#include "clearsim/elements/forces/point_load.hpp"

#include <gtest/gtest.h>

#include <numbers>

#include "unit/forces/force_test_support.hpp"

namespace cs {
namespace {

using forces::PointLoad;

std::array<TimeFunction, 3> constant_vector(const Vec3& a) {
  return {TimeFunction::constant(a.x()), TimeFunction::constant(a.y()),
          TimeFunction::constant(a.z())};
}

Marker marker_at(int body, const Vec3& p_B) {
  Marker m;
  m.body = body;
  m.p_B = p_B;
  return m;
}

TEST(PointLoadForce, TangentsMatchFiniteDifferences) {
  std::mt19937 rng(41);
  for (int trial = 0; trial < 6; ++trial) {
    const Marker at = marker_at(0, testing::random_vec(rng, 0.5));
    const PointLoad load("load", at,
                         {TimeFunction::harmonic(30.0, 1.5, 0.3, 5.0),
                          TimeFunction::ramp(-10.0, 4.0, 0.1), TimeFunction::constant(12.0)},
                         {TimeFunction::constant(-3.0), TimeFunction::harmonic(2.0, 0.5, 0.0, 1.0),
                          TimeFunction::polynomial({1.0, -2.0, 0.5})});
    const BodyKinematics bi = testing::random_body(rng);
    const double t = 0.1 * trial + 0.05;
    testing::expect_tangents_match_fd(load, bi, testing::ground(), t,
                                      "trial " + std::to_string(trial));
    // Nothing on the ground slot and no velocity dependence, exactly.
    const ForceBlock fb = testing::evaluate_force(load, bi, testing::ground(), t, true);
    EXPECT_EQ(fb.f.tail<6>().norm(), 0.0);
    EXPECT_EQ(fb.df_dv.norm(), 0.0);
  }
}

TEST(PointLoadForce, OffsetForceGivesMomentArmTorque) {
  // Body rotated +90° about world x: body y maps to world z. Offset s̄ = (0, 0.5, 0) is at world
  // (0, 0, 0.5); F = (0, 10, 0) world gives (R s̄) × F = (−5, 0, 0) world = (−5, 0, 0) body.
  BodyKinematics b;
  b.x_W = Vec3(1.0, 2.0, 3.0);
  b.R_WB = so3::exp(Vec3(0.5 * std::numbers::pi, 0.0, 0.0));
  const PointLoad load("load", marker_at(0, Vec3(0.0, 0.5, 0.0)), constant_vector({0, 10, 0}),
                       constant_vector(Vec3::Zero()));
  const ForceBlock fb = testing::evaluate_force(load, b, testing::ground(), 0.0, false);
  EXPECT_LT((fb.f.head<3>() - Vec3(0, 10, 0)).norm(), 1e-14);
  EXPECT_LT((fb.f.segment<3>(3) - Vec3(-5, 0, 0)).norm(), 1e-14);

  // A pure world torque τ = (0, 0, 5) is (0, 5, 0) in that body frame.
  const PointLoad couple("couple", marker_at(0, Vec3(0.3, -0.2, 0.1)),
                         constant_vector(Vec3::Zero()), constant_vector({0, 0, 5}));
  const ForceBlock fc = testing::evaluate_force(couple, b, testing::ground(), 0.0, false);
  EXPECT_EQ(fc.f.head<3>().norm(), 0.0);
  EXPECT_LT((fc.f.segment<3>(3) - Vec3(0, 5, 0)).norm(), 1e-14);

  // General pose: body torque = R_WBᵀ(τ + (R_WB s̄) × F), to round-off.
  std::mt19937 rng(43);
  const BodyKinematics r = testing::random_body(rng);
  const Vec3 s = testing::random_vec(rng), F = testing::random_vec(rng, 20.0),
             tau = testing::random_vec(rng, 3.0);
  const PointLoad general("general", marker_at(0, s), constant_vector(F), constant_vector(tau));
  const ForceBlock fg = testing::evaluate_force(general, r, testing::ground(), 0.0, false);
  const Vec3 expected = r.R_WB.transpose() * (tau + (r.R_WB * s).cross(F));
  EXPECT_LT((fg.f.segment<3>(3) - expected).norm(), 1e-12);
}

TEST(PointLoadForce, ChannelsAndPowerEqualGeneralizedWork) {
  std::mt19937 rng(47);
  const BodyKinematics b = testing::random_body(rng);
  const PointLoad load("load", marker_at(0, testing::random_vec(rng)),
                       {TimeFunction::constant(1.0), TimeFunction::ramp(0.0, 2.0, 0.0),
                        TimeFunction::constant(-4.0)},
                       constant_vector({0.5, -1.5, 2.5}));
  const double t = 0.75;
  const ElementInput in{t, &b, nullptr};
  ASSERT_EQ(load.channel_names().size(), 7u);
  EXPECT_DOUBLE_EQ(load.channel_value(1, in, nullptr), 1.5);
  EXPECT_DOUBLE_EQ(load.channel_value(2, in, nullptr), -4.0);
  EXPECT_DOUBLE_EQ(load.channel_value(5, in, nullptr), 2.5);
  // Power of the applied load = f · [v_W; Ω_B] (virtual work with the body velocity).
  const BodyKinematics g = testing::ground();
  const ForceBlock fb = testing::evaluate_force(load, b, g, t, false);
  const double power = fb.f.head<3>().dot(b.v_W) + fb.f.segment<3>(3).dot(b.w_B);
  EXPECT_NEAR(load.channel_value(6, {t, &b, &g}, nullptr), power, 1e-12 * (1.0 + std::abs(power)));
}

TEST(PointLoadForce, OnGroundIsFinite) {
  // A load on ground is legal (the assembly drops it); it must evaluate without NaN.
  const PointLoad load("load", marker_at(kGround, Vec3(1, 0, 0)), constant_vector({0, 0, -9}),
                       constant_vector({1, 0, 0}));
  EXPECT_EQ(load.body_i(), kGround);
  EXPECT_EQ(load.body_j(), kGround);
  const BodyKinematics g = testing::ground();
  const ForceBlock fb = testing::evaluate_force(load, g, g, 0.0, true);
  EXPECT_TRUE(testing::all_finite(fb));
  EXPECT_LT((fb.f.segment<3>(3) - Vec3(1, 9, 0)).norm(), 1e-14);
}

}  // namespace
}  // namespace cs
