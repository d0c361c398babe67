// JointTree::add_geometric_stiffness: the derivative of the joint-coordinate residual Jᵀy at fixed
// body forces y held by the tree joints' reactions, (∂Jᵀ/∂q)·y = Jᵀ K_c J, against central finite
// differences of JointTree::transpose_times at perturbed coordinates (right-multiplied rotations
// for spherical joints, as TreeAlpha moves them). Exact with its body-diagonal blocks on trees of
// spherical joints (the hanging chain); with revolute and prismatic joints the identity holds
// with the whole K_c, whose blocks between two bodies the iteration matrix leaves out.
#include <gtest/gtest.h>

#include <random>
#include <utility>

#include "bench/support/pendulum_chain_model.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/joint_tree.hpp"
#include "support/tree_models.hpp"

namespace cs {
namespace {

struct Case {
  Model model;  // System keeps a reference to it
  System sys;
  JointTree tree;
  VecX q;
  std::vector<Mat3> Q;
  std::vector<BodyKinematics> kin;
  MatX J;
  VecX y;  // body forces in the range of the tree rows' Bᵀ (Jᵀy = 0)

  Case(Model m, unsigned seed)
      : model(std::move(m)), sys(model), tree(*JointTree::build(sys, initial_state(sys), nullptr)) {
    std::mt19937 rng(seed);
    const int n = tree.num_coordinates();
    q = 0.5 * VecX::Random(n);
    Q.resize(tree.rotation_slots().size());
    for (Mat3& R : Q) R = so3::exp(testing::random_vec(rng, 1.0));
    kin.resize(model.num_bodies());
    tree.kinematics(q, Q, VecX::Zero(n), kin);
    tree.jacobian(kin, J);
    // Random forces with their joint-coordinate part removed: what the joints alone hold.
    const VecX y0 = VecX::Random(6 * model.num_bodies());
    y = y0 - J * (J.transpose() * J).ldlt().solve(J.transpose() * y0);
  }

  // Jᵀy at q + ε e_k (a spherical joint's coordinates rotate its Q on the right).
  VecX residual_at(int k, double eps) const {
    VecX qk = q;
    std::vector<Mat3> Qk = Q;
    const std::vector<int>& slots = tree.rotation_slots();
    bool rotation = false;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      if (k >= slots[s] && k < slots[s] + 3) {
        Qk[s] = Q[s] * so3::exp(eps * Vec3::Unit(k - slots[s]));
        rotation = true;
      }
    }
    if (!rotation) qk(k) += eps;
    std::vector<BodyKinematics> moved(kin.size());
    tree.kinematics(qk, Qk, VecX::Zero(q.size()), moved);
    VecX r;
    tree.transpose_times(moved, y, r);
    return r;
  }

  // Central differences of Jᵀy, column by column.
  MatX finite_differences() const {
    const int n = tree.num_coordinates();
    constexpr double eps = 1e-6;
    MatX G(n, n);
    for (int k = 0; k < n; ++k) G.col(k) = (residual_at(k, eps) - residual_at(k, -eps)) / (2 * eps);
    return G;
  }
};

TEST(TreeGeometricStiffness, SphericalChainMatchesFiniteDifferencesWithBodyDiagonalBlocks) {
  Case c(bench::pendulum_chain(12), 4);
  ASSERT_LT((c.J.transpose() * c.y).norm(), 1e-12 * c.y.norm());
  std::vector<Mat6> K(c.kin.size(), Mat6::Zero());
  VecX lambda;
  // M v̇ − f = y: no accelerations, forces −y.
  c.tree.add_geometric_stiffness(c.sys, c.kin, 0.0, VecX::Zero(c.y.size()), -c.y, lambda, 1.0, K);
  MatX Kd = MatX::Zero(c.y.size(), c.y.size());
  for (std::size_t b = 0; b < K.size(); ++b) Kd.block<6, 6>(6 * b, 6 * b) = K[b];
  const MatX analytic = c.J.transpose() * Kd * c.J;
  const MatX fd = c.finite_differences();
  const double err = (analytic - fd).lpNorm<Eigen::Infinity>() / fd.lpNorm<Eigen::Infinity>();
  std::printf("[ geometric ] spherical chain: |FD| %.3e, relative error %.2e\n",
              fd.lpNorm<Eigen::Infinity>(), err);
  // Central differences at ε = 1e-6 of a term of unit scale: truncation ~1e-12, round-off
  // ~1e-10 of the residual's scale.
  EXPECT_LT(err, 1e-7);
}

TEST(TreeGeometricStiffness, MixedTreesMatchFiniteDifferencesWithTheWholeConstraintTangent) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    Case c(testing::random_tree(testing::binary_parents(15), seed, testing::TreeJoints::kMixed),
           seed);
    ASSERT_LT((c.J.transpose() * c.y).norm(), 1e-12 * c.y.norm());
    std::vector<Mat6> K(c.kin.size(), Mat6::Zero());
    VecX lambda;
    c.tree.add_geometric_stiffness(c.sys, c.kin, 0.0, VecX::Zero(c.y.size()), -c.y, lambda, 1.0, K);
    // The same reactions' whole K_c (with the blocks between two bodies).
    MatX Kfull = MatX::Zero(c.y.size(), c.y.size());
    c.sys.constraint_tangent(c.kin, 0.0, lambda, MatrixSink(&Kfull));
    MatX Kd = MatX::Zero(c.y.size(), c.y.size());
    for (std::size_t b = 0; b < K.size(); ++b) {
      Kd.block<6, 6>(6 * b, 6 * b) = K[b];
      EXPECT_LT((K[b] - Kfull.block<6, 6>(6 * b, 6 * b)).norm(), 1e-12 * (1.0 + K[b].norm()));
    }
    const MatX fd = c.finite_differences();
    const double scale = fd.lpNorm<Eigen::Infinity>();
    const double err = (c.J.transpose() * Kfull * c.J - fd).lpNorm<Eigen::Infinity>() / scale;
    const double diag = (c.J.transpose() * Kd * c.J - fd).lpNorm<Eigen::Infinity>() / scale;
    std::printf("[ geometric ] mixed tree %u: relative error %.2e, body-diagonal blocks %.2e\n",
                seed, err, diag);
    EXPECT_LT(err, 1e-7);
  }
}

}  // namespace
}  // namespace cs
