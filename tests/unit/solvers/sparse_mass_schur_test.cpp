// SparseMassSchur against a dense LU of the whole saddle-point matrix.
#include "clearsim/solvers/sparse_mass_schur.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <numeric>
#include <random>

#include "clearsim/assembly/matrix_sink.hpp"
#include "support/random_bodies.hpp"

namespace cs {
namespace {

Model bodies_with_full_inertia(int bodies) { return testing::bodies_with_full_inertia(bodies, 11); }

MatX saddle_matrix(const Model& m, const MatX& J) {
  const int n = 6 * m.num_bodies(), k = static_cast<int>(J.rows());
  MatX A = MatX::Zero(n + k, n + k);
  A.topLeftCorner(n, n) = testing::mass_matrix(m);
  A.topRightCorner(n, k) = J.transpose();
  A.bottomLeftCorner(k, n) = J;
  return A;
}

// Joint-like rows: rows 5j … 5j + 4 couple bodies j − 1 and j (the first ones ground to body 0),
// as a chain's revolute joints do; every body-block fully populated.
MatX chain_rows(int bodies) {
  const int n = 6 * bodies, k = 5 * bodies;
  MatX J = MatX::Zero(k, n);
  for (int j = 0; j < bodies; ++j) {
    J.block(5 * j, 6 * j, 5, 6) = MatX::Random(5, 6);
    if (j > 0) J.block(5 * j, 6 * (j - 1), 5, 6) = MatX::Random(5, 6);
  }
  return J;
}

std::vector<Eigen::Triplet<double>> triplets_of(const MatX& J) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < J.rows(); ++i)
    for (int c = 0; c < J.cols(); ++c)
      if (J(i, c) != 0.0) t.emplace_back(i, c, J(i, c));
  return t;
}

TEST(SparseMassSchur, SolvesAChainsSaddlePointSystemLikeADenseLU) {
  const int bodies = 12;
  const Model model = bodies_with_full_inertia(bodies);
  const MatX J = chain_rows(bodies);
  const MatX A = saddle_matrix(model, J);
  const VecX rhs = VecX::Random(A.rows());
  const VecX ref = A.partialPivLu().solve(rhs);
  SparseMassSchur schur(model);
  ASSERT_TRUE(schur.factor(triplets_of(J), static_cast<int>(J.rows()), static_cast<int>(J.cols())));
  VecX x = rhs;
  schur.solve(x);
  // Both are backward stable; cond(A) is about 1e5 here.
  EXPECT_LT((x - ref).lpNorm<Eigen::Infinity>(), 1e-9 * ref.lpNorm<Eigen::Infinity>());
  // The dense entry point gives the same factorization.
  SparseMassSchur from_dense(model);
  ASSERT_TRUE(from_dense.factor(J));
  VecX y = rhs;
  from_dense.solve(y);
  EXPECT_LT((y - x).lpNorm<Eigen::Infinity>(), 1e-12 * ref.lpNorm<Eigen::Infinity>());
}

// A branched tree closed by one loop, its joints' rows in a random order: the fill-reducing
// ordering then permutes S far from the identity and L has long columns; the row blocks, the
// pairs' slots in S's pattern and the permuted solve must still reproduce the dense LU.
TEST(SparseMassSchur, SolvesARandomlyOrderedBranchedSystem) {
  const int bodies = 60;
  const Model model = bodies_with_full_inertia(bodies);
  std::mt19937 rng(5);
  // Each tree joint's 5 rows lean on its child's first five coordinates, as a joint's rows do
  // on the body it holds, so that the rows stay well conditioned; the loop adds 2 rows.
  struct Link {
    int body, parent, rows;
  };
  std::vector<Link> links;
  for (int b = 0; b < bodies; ++b)
    links.push_back({b, b == 0 ? -1 : std::uniform_int_distribution<int>(0, b - 1)(rng), 5});
  links.push_back({bodies - 1, 3, 2});
  std::vector<int> order(links.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> first(links.size());
  int k = 0;
  for (int l : order) {
    first[static_cast<std::size_t>(l)] = k;
    k += links[static_cast<std::size_t>(l)].rows;
  }
  const int n = 6 * bodies;
  MatX J = MatX::Zero(k, n);
  for (std::size_t l = 0; l < links.size(); ++l) {
    const Link& ln = links[l];
    MatX own = MatX::Random(ln.rows, 6);
    if (ln.rows == 5) own.leftCols(5) += 4.0 * MatX::Identity(5, 5);
    J.block(first[l], 6 * ln.body, ln.rows, 6) = own;
    if (ln.parent >= 0) J.block(first[l], 6 * ln.parent, ln.rows, 6) = MatX::Random(ln.rows, 6);
  }
  const MatX A = saddle_matrix(model, J);
  const VecX rhs = VecX::Random(A.rows());
  const VecX ref = A.partialPivLu().solve(rhs);
  SparseMassSchur schur(model);
  ASSERT_TRUE(schur.factor(triplets_of(J), k, n));
  VecX x = rhs;
  schur.solve(x);
  EXPECT_LT((A * x - rhs).lpNorm<Eigen::Infinity>(), 1e-10 * rhs.lpNorm<Eigen::Infinity>());
  EXPECT_LT((x - ref).lpNorm<Eigen::Infinity>(), 1e-8 * ref.lpNorm<Eigen::Infinity>());
}

TEST(SparseMassSchur, AddsDuplicateTripletsAndReusesItsAnalysisForNewValues) {
  const int bodies = 4;
  const Model model = bodies_with_full_inertia(bodies);
  const MatX J = chain_rows(bodies);
  // Every entry split into two halves: the same matrix.
  std::vector<Eigen::Triplet<double>> t;
  for (const auto& e : triplets_of(J)) {
    t.emplace_back(e.row(), e.col(), 0.5 * e.value());
    t.emplace_back(e.row(), e.col(), 0.5 * e.value());
  }
  SparseMassSchur schur(model);
  ASSERT_TRUE(schur.factor(t, static_cast<int>(J.rows()), static_cast<int>(J.cols())));
  const VecX rhs = VecX::Random(J.rows() + J.cols());
  VecX x = rhs;
  schur.solve(x);
  const VecX ref = saddle_matrix(model, J).partialPivLu().solve(rhs);
  EXPECT_LT((x - ref).lpNorm<Eigen::Infinity>(), 1e-9 * ref.lpNorm<Eigen::Infinity>());
  // New values on the same pattern (the step-to-step case).
  const MatX J2 = 1.5 * J + chain_rows(bodies);
  std::vector<Eigen::Triplet<double>> t2;
  for (const auto& e : t) t2.emplace_back(e.row(), e.col(), 0.5 * J2(e.row(), e.col()));
  ASSERT_TRUE(schur.factor(t2, static_cast<int>(J.rows()), static_cast<int>(J.cols())));
  x = rhs;
  schur.solve(x);
  const VecX ref2 = saddle_matrix(model, J2).partialPivLu().solve(rhs);
  EXPECT_LT((x - ref2).lpNorm<Eigen::Infinity>(), 1e-9 * ref2.lpNorm<Eigen::Infinity>());
}

TEST(SparseMassSchur, BodyTermsReplaceEachMassBlockByItsSum) {
  // [M + D, Jᵀ; J, 0] with D symmetric positive definite per body; an indefinite D_b keeps M_b.
  const int bodies = 5;
  const Model model = bodies_with_full_inertia(bodies);
  const MatX J = chain_rows(bodies);
  std::vector<Mat6> D(bodies);
  for (int b = 0; b < bodies; ++b) {
    const Mat6 R = Mat6::Random();
    D[b] = 0.1 * (R * R.transpose());
  }
  D[2] = -100.0 * Mat6::Identity();  // M_2 + D_2 is not positive definite
  MatX A = saddle_matrix(model, J);
  for (int b = 0; b < bodies; ++b)
    if (b != 2) A.block<6, 6>(6 * b, 6 * b) += D[b];
  SparseMassSchur schur(model);
  schur.set_body_terms(D);
  ASSERT_TRUE(schur.factor(J));
  const VecX rhs = VecX::Random(A.rows());
  VecX x = rhs;
  schur.solve(x);
  const VecX ref = A.partialPivLu().solve(rhs);
  EXPECT_LT((x - ref).lpNorm<Eigen::Infinity>(), 1e-9 * ref.lpNorm<Eigen::Infinity>());
  // Back to M alone.
  schur.set_body_terms({});
  ASSERT_TRUE(schur.factor(J));
  x = rhs;
  schur.solve(x);
  const VecX ref_m = saddle_matrix(model, J).partialPivLu().solve(rhs);
  EXPECT_LT((x - ref_m).lpNorm<Eigen::Infinity>(), 1e-9 * ref_m.lpNorm<Eigen::Infinity>());
}

TEST(MatrixSink, BodyBlockModeKeepsOnlyEntriesOfOneBody) {
  std::vector<Mat6> blocks(2, Mat6::Zero());
  MatrixSink sink(&blocks, 2.0);
  sink.add(1, 4, 1.0);                                        // body 0
  sink.add(7, 2, 5.0);                                        // bodies 1 and 0: dropped
  sink.add(11, 6, 3.0);                                       // body 1
  sink.add_block(6, 6, Mat6::Identity());                     // body 1, whole block
  sink.add_block(0, 6, Mat6::Ones());                         // bodies 0 and 1: dropped
  sink.add_block(3, 3, Eigen::Matrix<double, 6, 6>::Ones());  // straddles both bodies
  Mat6 expected0 = Mat6::Zero(), expected1 = 2.0 * Mat6::Identity();
  expected0(1, 4) = 2.0;
  expected1(5, 0) = 6.0;
  expected0.bottomRightCorner<3, 3>().array() += 2.0;
  expected1.topLeftCorner<3, 3>().array() += 2.0;
  EXPECT_TRUE(blocks[0].isApprox(expected0));
  EXPECT_TRUE(blocks[1].isApprox(expected1));
}

TEST(SparseMassSchur, ReportsDependentRows) {
  const int bodies = 3;
  const Model model = bodies_with_full_inertia(bodies);
  MatX J = chain_rows(bodies);
  J.row(7) = 2.0 * J.row(5) - J.row(6);  // rows of one joint: a dependent combination
  SparseMassSchur schur(model);
  EXPECT_FALSE(schur.factor(J));
  // A row that touches no body at all is dependent too.
  MatX K = chain_rows(bodies);
  K.row(4).setZero();
  EXPECT_FALSE(schur.factor(K));
}

}  // namespace
}  // namespace cs
