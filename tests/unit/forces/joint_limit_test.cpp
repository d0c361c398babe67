// The joint-limit element (joint_limit.hpp) on both coordinates, the angle of a revolute joint and
// the slide of a prismatic one: no force inside the range, the stop law past either end, exact
// tangents against central differences past both stops, f = −∂V/∂q, bad parameters refused.
#include "clearsim/elements/forces/joint_limit.hpp"

#include <gtest/gtest.h>

#include <random>

#include "clearsim/math/so3.hpp"
#include "unit/forces/force_test_support.hpp"

namespace cs {
namespace {

using forces::JointCoordinate;
using forces::JointLimit;
using forces::JointLimitParams;
using testing::marker_at;
using Kind = JointCoordinate::Kind;

// Body j displaced from the ground along world z by `slide` and turned about z by `angle`, with
// the rates given: either coordinate of markers at the origin with z along world z.
BodyKinematics placed(double slide, double angle, double rate) {
  BodyKinematics b;
  b.x_W = Vec3(0.0, 0.0, slide);
  b.R_WB = so3::exp(Vec3(0.0, 0.0, angle));
  b.v_W = Vec3(0.0, 0.0, rate);
  b.w_B = Vec3(0.0, 0.0, rate);
  return b;
}

JointLimit limit(Kind kind, JointLimitParams p) {
  return JointLimit(
      "l", JointCoordinate(kind, marker_at(kGround, Vec3::Zero()), marker_at(0, Vec3::Zero())), p);
}

// The generalized force along the coordinate on body j: f_z for a slide, the torque about z for
// an angle.
double force_along(const JointLimit& e, Kind kind, const BodyKinematics& bj) {
  const ForceBlock fb = testing::evaluate_force(e, testing::ground(), bj, 0.0, false);
  return fb.f(kind == Kind::kAngle ? 11 : 8);
}

BodyKinematics at(Kind kind, double x, double rate) {
  return kind == Kind::kAngle ? placed(0.0, x, rate) : placed(x, 0.0, rate);
}

TEST(JointLimit, NoForceInsideTheRange) {
  for (Kind kind : {Kind::kAngle, Kind::kSlide}) {
    const JointLimit e = limit(kind, {-0.2, 0.3, 1.0e4, 50.0});
    for (double x : {-0.2, -0.1, 0.0, 0.25, 0.3})
      for (double rate : {-2.0, 0.0, 3.0}) EXPECT_EQ(force_along(e, kind, at(kind, x, rate)), 0.0);
  }
}

TEST(JointLimit, StopsPushBackPastEitherEnd) {
  for (Kind kind : {Kind::kAngle, Kind::kSlide}) {
    const JointLimit e = limit(kind, {-0.2, 0.3, 1.0e4, 50.0});
    // Past the upper end by 1e-3, moving on at 0.1: F = 1e4·1e-3 + 50·0.1 = 15, along −x.
    EXPECT_NEAR(force_along(e, kind, at(kind, 0.301, 0.1)), -15.0, 1e-9);
    // Past the lower end by 2e-3, moving on at −0.1: F = 20 + 5 = 25, along +x.
    EXPECT_NEAR(force_along(e, kind, at(kind, -0.202, -0.1)), 25.0, 1e-9);
    // Leaving the stop fast: k p + c ṗ = 10 − 25 < 0, the stop does not pull.
    EXPECT_EQ(force_along(e, kind, at(kind, 0.301, -0.5)), 0.0);
    const BodyKinematics g = testing::ground();
    const BodyKinematics bj = at(kind, 0.301, 0.1);
    const ElementInput in{0.0, &g, &bj};
    EXPECT_NEAR(e.channel_value(0, in, nullptr), 0.301, 1e-15);  // coordinate
    EXPECT_NEAR(e.channel_value(1, in, nullptr), 0.1, 1e-15);    // its rate
    EXPECT_NEAR(e.channel_value(2, in, nullptr), -15.0, 1e-9);   // force along it
    EXPECT_NEAR(e.channel_value(3, in, nullptr), 1e-3, 1e-15);   // overtravel
    EXPECT_NEAR(e.potential_energy(in), 0.5 * 1.0e4 * 1e-6, 1e-12);
  }
}

// Random bodies and markers (z axes aligned for an angle, as a revolute joint holds them); the
// range placed so that the coordinate is past one end by 0.02–0.3.
TEST(JointLimit, TangentsMatchFiniteDifferencesPastBothStops) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> past(0.02, 0.3);
  for (Kind kind : {Kind::kAngle, Kind::kSlide})
    for (int trial = 0; trial < 8; ++trial) {
      const bool grounded = trial < 2;
      const BodyKinematics bi = grounded ? testing::ground() : testing::random_body(rng);
      BodyKinematics bj = testing::random_body(rng);
      bj.w_B *= 0.01;  // slow enough that the stop keeps pushing at every perturbation
      bj.v_W *= 0.01;
      const Marker mi = marker_at(grounded ? kGround : 0, testing::random_vec(rng, 0.4),
                                  so3::exp(testing::random_vec(rng, 2.0)));
      const Mat3 R_WM = bi.R_WB * mi.R_BM * so3::exp(Vec3(0.0, 0.0, 0.7));
      const Marker mj = marker_at(1, testing::random_vec(rng, 0.4), bj.R_WB.transpose() * R_WM);
      const JointCoordinate c(kind, mi, mj);
      const BodyKinematics& b0 = bi;
      const double x = c.evaluate({0.0, &b0, &bj}, 0.0).x;
      const double p = past(rng);
      const JointLimitParams params = trial % 2 == 0
                                          ? JointLimitParams{x - p - 0.5, x - p, 2e3, 0.5}
                                          : JointLimitParams{x + p, x + p + 0.5, 2e3, 0.5};
      const JointLimit e("l", c, params);
      const std::string label = (kind == Kind::kAngle ? "angle" : "slide") +
                                std::string(" trial ") + std::to_string(trial);
      ASSERT_GT(testing::evaluate_force(e, bi, bj, 0.0, true).f.norm(), 0.0) << label;
      testing::expect_tangents_match_fd(e, bi, bj, 0.0, label);
    }
}

TEST(JointLimit, ForceIsMinusGradientOfPotentialWithoutDamping) {
  for (Kind kind : {Kind::kAngle, Kind::kSlide}) {
    const JointLimit e = limit(kind, {-0.2, 0.3, 2.0e3, 0.0});
    for (double x : {-0.5, -0.21, 0.0, 0.31, 0.6})
      testing::expect_force_is_minus_gradient(e, testing::ground(), at(kind, x, 0.0), 0.0,
                                              "x " + std::to_string(x));
  }
}

TEST(JointLimit, RefusesBadParameters) {
  EXPECT_THROW(limit(Kind::kAngle, {0.3, 0.2, 1.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(limit(Kind::kSlide, {0.0, 0.2, 0.0, 0.0}), std::invalid_argument);
  EXPECT_THROW(limit(Kind::kSlide, {0.0, 0.2, 1.0, -1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace cs
