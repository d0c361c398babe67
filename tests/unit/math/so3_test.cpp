#include "clearsim/math/so3.hpp"

#include <gtest/gtest.h>

#include <random>

#include "support/random_state.hpp"

namespace cs {
namespace {

TEST(So3, ExpIsRotationAndLogInvertsIt) {
  std::mt19937 rng(1);
  for (int k = 0; k < 200; ++k) {
    Vec3 psi = testing::random_vec(rng, 3.0);
    if (psi.norm() > 3.1) psi *= 3.1 / psi.norm();  // log returns angles in [0, π]
    const Mat3 R = so3::exp(psi);
    EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
    EXPECT_LT((so3::log(R) - psi).norm(), 1e-12 * (1.0 + psi.norm()));
  }
}

TEST(So3, SmallAndNearPiAngles) {
  for (double phi : {0.0, 1e-12, 1e-8, 1e-4, 3.14159, 3.141592653589}) {
    const Vec3 psi = phi * Vec3(1, -2, 0.5).normalized();
    const Vec3 back = so3::log(so3::exp(psi));
    EXPECT_LT((so3::exp(back) - so3::exp(psi)).norm(), 1e-12) << phi;
    EXPECT_TRUE(back.allFinite());
  }
}

TEST(So3, TangentMatchesFiniteDifferenceOfExp) {
  // R(Ψ + δ) = R(Ψ) exp((T(Ψ) δ)~) to first order: compare log(R(Ψ)ᵀ R(Ψ+εe_k))/ε with T e_k.
  std::mt19937 rng(2);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec3 psi = testing::random_vec(rng, 2.0);
    const Mat3 T = so3::tangent(psi);
    const double eps = 1e-6;
    for (int k = 0; k < 3; ++k) {
      const Vec3 dp = so3::log(so3::exp(psi - eps * Vec3::Unit(k)).transpose() *
                               so3::exp(psi + eps * Vec3::Unit(k))) /
                      (2.0 * eps);
      EXPECT_LT((dp - T.col(k)).norm(), 1e-8);
    }
    EXPECT_LT((so3::tangent_inverse(psi) * T - Mat3::Identity()).norm(), 1e-12);
  }
  EXPECT_LT((so3::tangent(Vec3::Zero()) - Mat3::Identity()).norm(), 1e-15);
}

TEST(So3, SkewIsCrossProduct) {
  const Vec3 a(1, 2, 3), b(-2, 0.5, 4);
  EXPECT_LT((so3::skew(a) * b - a.cross(b)).norm(), 1e-15);
}

TEST(So3, FrameWithZAxis) {
  for (const Vec3& ax : {Vec3(0, 0, 1), Vec3(1, 0, 0), Vec3(0, -1, 0), Vec3(1, 2, 3)}) {
    const Mat3 R = so3::frame_with_z_axis(ax);
    EXPECT_LT((R.col(2) - ax.normalized()).norm(), 1e-15);
    EXPECT_LT((R.transpose() * R - Mat3::Identity()).norm(), 1e-14);
    EXPECT_NEAR(R.determinant(), 1.0, 1e-14);
  }
}

}  // namespace
}  // namespace cs
