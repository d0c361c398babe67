#include "clearsim/math/small_lu.hpp"

#include <gtest/gtest.h>

#include <random>

namespace cs {
namespace {

// A random matrix with a dominant diagonal scaled per row, as R_X's rows are (newtons against
// row-scaled metres): condition numbers of 10–100, so that 1e-12 relative is far above the
// round-off of either factorization and far below any error of the algorithm.
MatX random_matrix(Eigen::Index n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  MatX A(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) A(i, j) = u(rng);
  A.diagonal().array() += 0.5 * static_cast<double>(n);
  // A zero diagonal block forces row exchanges, as the constraint rows of R_X do.
  if (n > 4) A.bottomRightCorner(n / 3, n / 3).setZero();
  return A;
}

TEST(SmallLU, SolvesAsEigensPartialPivotingDoesForEverySize) {
  std::mt19937 rng(7);
  for (Eigen::Index n : {1, 2, 3, 8, 16, 17, 35, 64}) {
    const MatX A = random_matrix(n, rng);
    const MatX B = MatX::Random(n, 5);
    SmallLU lu;
    ASSERT_TRUE(lu.compute(A)) << n;
    MatX X = B;
    lu.solve_in_place(X);
    const MatX reference = Eigen::PartialPivLU<MatX>(A).solve(B);
    EXPECT_LE((X - reference).norm(), 1e-12 * reference.norm()) << n;
    EXPECT_LE((A * X - B).norm(), 1e-12 * A.norm() * X.norm()) << n;
    VecX x = B.col(0);
    lu.solve_transposed_in_place(x);
    EXPECT_LE((A.transpose() * x - B.col(0)).norm(), 1e-12 * A.norm() * x.norm()) << n;
  }
}

TEST(SmallLU, SaysASingularMatrixIsSingular) {
  MatX A = MatX::Identity(6, 6);
  A.col(3).setZero();
  SmallLU lu;
  EXPECT_FALSE(lu.compute(A));
  MatX B(3, 3);
  B << 1, 2, 3, 2, 4, 6, 0, 1, 1;  // row 2 = 2 × row 1, column 3 = 1 + 2: the last pivot is 0
  EXPECT_FALSE(lu.compute(B));
}

}  // namespace
}  // namespace cs
