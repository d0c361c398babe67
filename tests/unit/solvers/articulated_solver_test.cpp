// ArticulatedSolver (solvers/articulated_solver.hpp): the recursive solve of A = Jᵀ D J against
// the dense matrix assembled as TreeAlpha's dense path does (JointTree::project_blocks) on random
// chains and branched trees of every joint kind, with non-symmetric blocks, with rows (Schur
// complement), and its refusal of a massless leaf.
#include "clearsim/solvers/articulated_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "clearsim/solvers/initial_conditions.hpp"
#include "support/tree_models.hpp"

namespace cs {
namespace {

// A tree at a random configuration with random body blocks: mass plus a non-symmetric
// perturbation (as damping and stiffness tangents are), and the dense A = Jᵀ D J.
struct Case {
  System sys;
  JointTree tree;
  std::vector<BodyKinematics> kin;
  std::vector<Mat6> D;
  MatX A;

  Case(const Model& model, unsigned seed)
      : sys(model), tree(*JointTree::build(sys, initial_state(sys), nullptr)) {
    std::mt19937 rng(seed);
    const int n = tree.num_coordinates();
    VecX q = VecX::Random(n), qd = VecX::Random(n);
    std::vector<Mat3> Q(tree.rotation_slots().size());
    for (Mat3& R : Q) R = so3::exp(testing::random_vec(rng, 2.0));
    kin.resize(model.num_bodies());
    tree.kinematics(q, Q, qd, kin);
    D.assign(model.num_bodies(), Mat6::Zero());
    sys.mass(MatrixSink(&D));
    for (Mat6& Db : D) Db += 0.05 * Db.norm() * Mat6::Random();
    tree.project_blocks(kin, D, A);
  }
};

// max |x − x_dense| / max |x_dense|.
double relative_difference(const VecX& x, const VecX& dense) {
  return (x - dense).lpNorm<Eigen::Infinity>() / dense.lpNorm<Eigen::Infinity>();
}

void expect_solve_matches_dense(const Model& model, unsigned seed) {
  Case c(model, seed);
  ArticulatedSolver solver;
  ASSERT_TRUE(solver.factor(c.tree, c.kin, c.D));
  const VecX b = VecX::Random(c.tree.num_coordinates());
  VecX x;
  solver.solve(b, x);
  EXPECT_LT(relative_difference(x, c.A.partialPivLu().solve(b)), 1e-10);
}

TEST(ArticulatedSolver, SolvesRandomChainsAsTheDenseMatrix) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    expect_solve_matches_dense(
        testing::random_tree(testing::chain_parents(12), seed, testing::TreeJoints::kMixed), seed);
  }
}

TEST(ArticulatedSolver, SolvesBranchedTreesOfEveryJointKindAsTheDenseMatrix) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    expect_solve_matches_dense(
        testing::random_tree(testing::binary_parents(31), seed, testing::TreeJoints::kMixed), seed);
  }
}

TEST(ArticulatedSolver, SolvesTheSaddleWithRowsThroughTheSchurComplement) {
  const Model model =
      testing::random_tree(testing::binary_parents(15), 3, testing::TreeJoints::kMixed);
  Case c(model, 3);
  const int n = c.tree.num_coordinates(), m = 4;
  const MatX B = MatX::Random(m, n);
  MatX saddle = MatX::Zero(n + m, n + m);
  saddle.topLeftCorner(n, n) = c.A;
  saddle.topRightCorner(n, m) = B.transpose();
  saddle.bottomLeftCorner(m, n) = B;
  const VecX rhs = VecX::Random(n + m);
  ArticulatedSolver solver;
  ASSERT_TRUE(solver.factor(c.tree, c.kin, c.D));
  ASSERT_TRUE(solver.factor_rows(B));
  VecX x = rhs;
  solver.solve_saddle(x);
  EXPECT_LT(relative_difference(x, saddle.partialPivLu().solve(rhs)), 1e-10);
}

TEST(ArticulatedSolver, DependentRowsAreSingular) {
  Case c(testing::random_tree(testing::chain_parents(6), 2, testing::TreeJoints::kRevolute), 2);
  MatX B = MatX::Random(2, c.tree.num_coordinates());
  B.row(1) = 2.0 * B.row(0);
  ArticulatedSolver solver;
  ASSERT_TRUE(solver.factor(c.tree, c.kin, c.D));
  EXPECT_FALSE(solver.factor_rows(B));
}

TEST(ArticulatedSolver, NamesTheMasslessLeafItCannotInvert) {
  Model model = testing::random_tree(testing::chain_parents(5), 4, testing::TreeJoints::kRevolute);
  model.bodies[4].mass = 0.0;
  model.bodies[4].inertia_B.setZero();
  const System sys(model);
  const JointTree tree = *JointTree::build(sys, initial_state(sys), nullptr);
  std::vector<BodyKinematics> kin(model.num_bodies());
  tree.kinematics(VecX::Zero(5), {}, VecX::Zero(5), kin);
  std::vector<Mat6> D(model.num_bodies(), Mat6::Zero());
  sys.mass(MatrixSink(&D));
  ArticulatedSolver solver;
  EXPECT_FALSE(solver.factor(tree, kin, D));
  EXPECT_EQ(solver.singular_body(), 4);
}

}  // namespace
}  // namespace cs
