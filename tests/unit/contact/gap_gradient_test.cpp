// Gap gradients of every contact element against central differences on the group, in open,
// closed, misaligned and two-point-contact states (issue: "Gap gradients of every clearance
// joint against finite differences, including misaligned and two-point-contact states").
#include <gtest/gtest.h>

#include <random>

#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/math/finite_difference.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

VecX gaps_of(const Element& e, const BodyKinematics& a, const BodyKinematics& b) {
  GapBlock gb;
  e.gaps({0.0, &a, &b}, gb);
  return gb.g.head(gb.p);
}

void expect_gradient_matches(const Element& e, const BodyKinematics& bi, const BodyKinematics& bj,
                             const std::string& label) {
  GapBlock gb;
  e.gaps({0.0, &bi, &bj}, gb);
  const MatX fd = fd::jacobian_q(
      [&](const BodyKinematics& a, const BodyKinematics& b) { return gaps_of(e, a, b); }, bi, bj);
  // Central differences with ε = 1e-6 on unit-size poses: truncation ~1e-12·|g'''|, round-off
  // ~1e-10; 1e-7 leaves margin yet catches any wrong term (they are O(1)).
  EXPECT_LT((fd - gb.G.topRows(gb.p)).norm(), 1e-7) << label << "\nFD\n"
                                                    << fd << "\nG\n"
                                                    << gb.G.topRows(gb.p);
}

Marker marker(std::mt19937& rng, int body) {
  return {body, testing::random_vec(rng, 0.2), so3::exp(testing::random_vec(rng, 2.0))};
}

TEST(GapGradient, SpherePlane) {
  std::mt19937 rng(3);
  for (int k = 0; k < 5; ++k) {
    // Drawn in the order GCC evaluated these calls' arguments (last first).
    const Marker mj = marker(rng, 1), mi = marker(rng, 0);
    contact::SpherePlane e("b", mi, mj, 0.1, 0.9);
    const BodyKinematics bj = testing::random_body(rng), bi = testing::random_body(rng);
    expect_gradient_matches(e, bi, bj, "sphere");
  }
}

TEST(GapGradient, SphericalClearanceOpenAndClosed) {
  std::mt19937 rng(4);
  for (int k = 0; k < 5; ++k) {
    const BodyKinematics bi = testing::random_body(rng), bj = testing::random_body(rng);
    const Marker h = marker(rng, 0);
    // Put the ball centre at a chosen eccentricity from the housing centre: 0.3c … 2c.
    const double c = 0.05, ecc = c * (0.3 + 0.4 * k);
    const Vec3 x_A = bi.x_W + bi.R_WB * h.p_B;
    const Vec3 dir = testing::random_vec(rng).normalized();
    const Marker b{1, bj.R_WB.transpose() * (x_A + ecc * dir - bj.x_W), Mat3::Identity()};
    contact::SphericalClearance e("s", h, b, c, 0.0, 0.9);
    expect_gradient_matches(e, bi, bj, "spherical e/c = " + std::to_string(ecc / c));
    EXPECT_NEAR(gaps_of(e, bi, bj)(0), c - ecc, 1e-12);
  }
}

TEST(GapGradient, SphericalClearanceCentredBallIsFinite) {
  BodyKinematics a, b;
  contact::SphericalClearance e("s", {0, Vec3::Zero(), Mat3::Identity()},
                                {1, Vec3::Zero(), Mat3::Identity()}, 1e-3, 2e-6, 0.9);
  GapBlock gb;
  e.gaps({0.0, &a, &b}, gb);
  EXPECT_NEAR(gb.g(0), 1e-3 - 2e-6, 1e-18);
  EXPECT_TRUE(gb.G.allFinite());
}

TEST(GapGradient, RevoluteClearanceMisalignedAndBothEnds) {
  std::mt19937 rng(5);
  using Axial = contact::RevoluteClearance::Axial;
  for (int k = 0; k < 6; ++k) {
    const BodyKinematics bi = testing::random_body(rng), bj = testing::random_body(rng);
    // Random markers: the pin axis is misaligned with the bearing axis; both ends off-axis.
    const Axial ax = k % 3 == 0 ? Axial::kFree : (k % 3 == 1 ? Axial::kIdeal : Axial::kClearance);
    const Marker mj = marker(rng, 1), mi = marker(rng, 0);  // j drawn first (as GCC did)
    contact::RevoluteClearance e("r", mi, mj, 0.5e-3, k < 4 ? 0.01 : 0.0, 0.9, ax, 1e-3);
    expect_gradient_matches(e, bi, bj, "revolute k = " + std::to_string(k));
  }
}

TEST(GapGradient, RevoluteClearanceTwoPointContactGeometry) {
  // Pin tilted in its bearing so both ends touch opposite walls: gaps both zero, normals
  // opposite; the gradient still matches differences.
  const double c = 0.5e-3, d = 0.01;
  BodyKinematics bearing, pin;
  const double tilt = std::asin(c / d);  // each end displaced by c in opposite directions
  pin.R_WB = so3::exp(Vec3(tilt, 0, 0));
  contact::RevoluteClearance e("r", {0, Vec3::Zero(), Mat3::Identity()},
                               {1, Vec3::Zero(), Mat3::Identity()}, c, d, 0.9,
                               contact::RevoluteClearance::Axial::kFree, 0.0);
  const VecX g = gaps_of(e, bearing, pin);
  EXPECT_NEAR(g(0), 0.0, 1e-15);
  EXPECT_NEAR(g(1), 0.0, 1e-15);
  expect_gradient_matches(e, bearing, pin, "two-point contact");
}

}  // namespace
}  // namespace cs
