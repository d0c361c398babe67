// MassSaddleSchur against a dense LU of the whole saddle-point matrix.
#include "clearsim/solvers/mass_saddle_schur.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>

#include "support/random_bodies.hpp"

namespace cs {
namespace {

Model three_bodies() { return testing::bodies_with_full_inertia(3, 7); }
using testing::mass_matrix;

TEST(MassSaddleSchur, SolvesTheSaddlePointSystemLikeADenseLU) {
  const Model model = three_bodies();
  const int n = 18, k = 7;
  const MatX M = mass_matrix(model);
  const MatX J = MatX::Random(k, n);
  MatX A = MatX::Zero(n + k, n + k);
  A.topLeftCorner(n, n) = M;
  A.topRightCorner(n, k) = J.transpose();
  A.bottomLeftCorner(k, n) = J;
  const VecX rhs = VecX::Random(n + k);
  const VecX ref = A.partialPivLu().solve(rhs);
  MassSaddleSchur schur(model);
  ASSERT_TRUE(schur.factor(J));
  VecX a = rhs.head(n), b = rhs.tail(k);
  schur.solve(a, b);
  // Both are backward stable; the system's condition number is ~1e4 here.
  EXPECT_LT((a - ref.head(n)).lpNorm<Eigen::Infinity>(), 1e-10);
  EXPECT_LT((b - ref.tail(k)).lpNorm<Eigen::Infinity>(), 1e-10);
}

TEST(MassSaddleSchur, GapLayoutWithInactiveRowsMatchesTheFullMatrix) {
  // [M Bᵀ −Gᵀ; B 0 0; G_A 0 0] with identity rows for the inactive gaps (NonsmoothCorrection).
  const Model model = three_bodies();
  const int n = 18, m = 5, p = 3;
  const MatX B = MatX::Random(m, n), G = MatX::Random(p, n);
  const std::vector<char> active = {1, 0, 1};
  MatX A = MatX::Zero(n + m + p, n + m + p);
  A.topLeftCorner(n, n) = mass_matrix(model);
  A.block(0, n, n, m) = B.transpose();
  A.block(n, 0, m, n) = B;
  A.block(0, n + m, n, p) = -G.transpose();
  for (int j = 0; j < p; ++j) {
    if (active[j]) {
      A.block(n + m + j, 0, 1, n) = G.row(j);
    } else {
      A(n + m + j, n + m + j) = 1.0;
    }
  }
  const VecX rhs = VecX::Random(n + m + p);
  const VecX ref = A.partialPivLu().solve(rhs);
  MassSaddleSchur schur(model);
  ASSERT_TRUE(schur.factor_gaps(B, G, active));
  VecX x = rhs;
  schur.solve_gaps(x);
  EXPECT_LT((x - ref).lpNorm<Eigen::Infinity>(), 1e-10);
}

TEST(MassSaddleSchur, DependentRowsAreReportedNotSolved) {
  const Model model = three_bodies();
  MatX J = MatX::Random(4, 18);
  J.row(3) = 2.0 * J.row(0) - J.row(1);  // a joint row repeated by a combination of others
  MassSaddleSchur schur(model);
  EXPECT_FALSE(schur.factor(J));
  // No rows at all: the solve is M⁻¹ a.
  const MatX none(0, 18);
  ASSERT_TRUE(schur.factor(none));
  VecX a = VecX::Ones(18), b(0);
  schur.solve(a, b);
  EXPECT_NEAR(a(0), 1.0 / 0.3, 1e-14);
}

}  // namespace
}  // namespace cs
