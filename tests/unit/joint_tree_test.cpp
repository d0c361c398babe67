// JointTree (solvers/joint_tree.hpp): the joint-coordinate kinematics of an open tree against
// finite differences and against the joints' own equations, and its products (Jᵀy, JᵀDJ,
// reactions) against the explicit J and the absolute-coordinate solve.
#include "clearsim/solvers/joint_tree.hpp"

#include <gtest/gtest.h>

#include <random>

#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

// A branched tree with every joint kind: ground –rev→ a –prism→ b, a –rev→ c –fixed→ d –rev→ e
// –sph→ g, random axes, poses and inertias; the joints are made at the bodies' reference poses.
Model branched_tree(unsigned seed) {
  std::mt19937 rng(seed);
  Model m;
  m.gravity_W = Vec3(0.3, -9.81, 0.5);
  auto body = [&](const std::string& name) {
    Body b;
    b.name = name;
    b.mass = 0.5 + std::uniform_real_distribution<double>(0.0, 2.0)(rng);
    const Vec3 d = testing::random_vec(rng, 0.1).cwiseAbs() + Vec3::Constant(0.02);
    const Mat3 R = so3::exp(testing::random_vec(rng, 2.0));
    b.inertia_B = R * d.asDiagonal() * R.transpose();
    b.R0_WB = so3::exp(testing::random_vec(rng, 2.0));
    b.x0_W = testing::random_vec(rng, 1.0);
    return add_body(m, b);
  };
  const int a = body("a"), b = body("b"), c = body("c"), d = body("d"), e = body("e"),
            g = body("g");
  using joints::JointType;
  auto axis = [&] { return testing::random_vec(rng, 1.0).normalized(); };
  add_joint(m, "ground_a", JointType::kRevolute, kGround, a, testing::random_vec(rng), axis());
  add_joint(m, "a_b", JointType::kPrismatic, a, b, testing::random_vec(rng), axis());
  // Marker i on the child: the tree takes the joint the other way round.
  add_joint(m, "c_a", JointType::kRevolute, c, a, testing::random_vec(rng), axis());
  add_joint(m, "c_d", JointType::kFixed, c, d, testing::random_vec(rng), axis());
  add_joint(m, "d_e", JointType::kRevolute, d, e, testing::random_vec(rng), axis());
  add_joint(m, "e_g", JointType::kSpherical, e, g, testing::random_vec(rng), axis());
  return m;
}

constexpr int kCoords = 7;  // 3 revolute + 1 prismatic + 3 for the spherical joint

VecX random_coords(std::mt19937& rng, int n, double scale) {
  VecX x(n);
  for (int k = 0; k < n; ++k) x(k) = std::uniform_real_distribution<double>(-scale, scale)(rng);
  return x;
}

struct Fixture {
  Model model = branched_tree(7);
  System sys{model};
  State ref = initial_state(sys);
  JointTree tree = *JointTree::build(sys, ref, nullptr);
  std::vector<BodyKinematics> kin = std::vector<BodyKinematics>(model.num_bodies());
  std::vector<Mat3> Q;  // the spherical joint's rotation

  // Kinematics at the configuration q ∘ dq (dq: velocity coordinates; rotations on the right).
  void at(const VecX& q, const VecX& dq, const VecX& qd, std::vector<BodyKinematics>& out) const {
    std::vector<Mat3> Qt = Q;
    const std::vector<int>& slots = tree.rotation_slots();
    for (std::size_t k = 0; k < slots.size(); ++k) Qt[k] = Q[k] * so3::exp(dq.segment<3>(slots[k]));
    tree.kinematics(q + dq, Qt, qd, out);
  }
  // A random configuration: coordinates and rotations.
  VecX random_configuration(std::mt19937& rng) {
    Q.assign(tree.rotation_slots().size(), Mat3::Identity());
    for (Mat3& R : Q) R = so3::exp(testing::random_vec(rng, 2.0));
    return random_coords(rng, kCoords, 3.0);
  }
};

TEST(JointTree, TreeOfEveryJointKindHasOneCoordinatePerMovingJoint) {
  Fixture f;
  EXPECT_EQ(f.tree.num_coordinates(), kCoords);  // fixed has none
  EXPECT_EQ(f.tree.rotation_slots().size(), 1u);
  EXPECT_TRUE(f.tree.loop_elements().empty());
}

TEST(JointTree, PosesSatisfyEveryJointAtAnyCoordinates) {
  Fixture f;
  std::mt19937 rng(3);
  VecX phi(f.sys.num_constraints());
  for (int trial = 0; trial < 20; ++trial) {
    const VecX q = f.random_configuration(rng);
    f.at(q, VecX::Zero(kCoords), VecX::Zero(kCoords), f.kin);
    f.sys.constraints(f.kin, 0.0, &phi, MatrixSink(), nullptr, nullptr);
    // Positions of order 1 m after a few compositions of rotations: round-off is ~1e-15.
    EXPECT_LT(phi.lpNorm<Eigen::Infinity>(), 1e-13) << "trial " << trial;
  }
}

TEST(JointTree, VelocitiesAreTheDerivativeOfThePosesAndRatesInvertThem) {
  Fixture f;
  std::mt19937 rng(5);
  const double eps = 1e-6;
  for (int trial = 0; trial < 10; ++trial) {
    const VecX q = f.random_configuration(rng), qd = random_coords(rng, kCoords, 2.0);
    std::vector<BodyKinematics> plus(f.kin), minus(f.kin);
    f.at(q, eps * qd, qd, plus);
    f.at(q, -eps * qd, qd, minus);
    f.at(q, VecX::Zero(kCoords), qd, f.kin);
    for (int b = 0; b < f.tree.num_bodies(); ++b) {
      const Vec3 v_fd = (plus[b].x_W - minus[b].x_W) / (2 * eps);
      const Vec3 w_fd = so3::log(minus[b].R_WB.transpose() * plus[b].R_WB) / (2 * eps);
      // Central differences: truncation O(ε²‖q̇‖³) ≈ 1e-11, round-off 1e-16/ε = 1e-10.
      EXPECT_LT((v_fd - f.kin[b].v_W).norm(), 1e-8) << "body " << b;
      EXPECT_LT((w_fd - f.kin[b].w_B).norm(), 1e-8) << "body " << b;
    }
    VecX rates;
    f.tree.rates(f.kin, rates);
    EXPECT_LT((rates - qd).lpNorm<Eigen::Infinity>(), 1e-12);
  }
}

TEST(JointTree, AccelerationsAreTheDerivativeOfTheVelocities) {
  Fixture f;
  std::mt19937 rng(11);
  const double eps = 1e-6;
  for (int trial = 0; trial < 10; ++trial) {
    const VecX q = f.random_configuration(rng), qd = random_coords(rng, kCoords, 2.0);
    const VecX qdd = random_coords(rng, kCoords, 5.0);
    // Along the motion q(t) = q ∘ (t q̇ + ½t² q̈), rates q̇ + t q̈ (on a rotation the neglected
    // term of its rate, −½t² q̇ × q̈, is even in t: it cancels from the central difference).
    std::vector<BodyKinematics> plus(f.kin), minus(f.kin);
    f.at(q, eps * qd + 0.5 * eps * eps * qdd, qd + eps * qdd, plus);
    f.at(q, -eps * qd + 0.5 * eps * eps * qdd, qd - eps * qdd, minus);
    f.at(q, VecX::Zero(kCoords), qd, f.kin);
    VecX vdot;
    f.tree.accelerations(f.kin, qd, qdd, vdot);
    for (int b = 0; b < f.tree.num_bodies(); ++b) {
      const Vec3 a_fd = (plus[b].v_W - minus[b].v_W) / (2 * eps);
      const Vec3 wd_fd = (plus[b].w_B - minus[b].w_B) / (2 * eps);
      EXPECT_LT((a_fd - vdot.segment<3>(6 * b)).norm(), 1e-7) << "body " << b;
      EXPECT_LT((wd_fd - vdot.segment<3>(6 * b + 3)).norm(), 1e-7) << "body " << b;
    }
  }
}

TEST(JointTree, ProductsAgreeWithTheExplicitJacobian) {
  Fixture f;
  std::mt19937 rng(13);
  const VecX q = f.random_configuration(rng), qd = random_coords(rng, kCoords, 2.0);
  f.at(q, VecX::Zero(kCoords), qd, f.kin);
  MatX J;
  f.tree.jacobian(f.kin, J);
  // J q̇ is the velocity of kinematics().
  const VecX v = J * qd;
  for (int b = 0; b < f.tree.num_bodies(); ++b) {
    EXPECT_LT((v.segment<3>(6 * b) - f.kin[b].v_W).norm(), 1e-13);
    EXPECT_LT((v.segment<3>(6 * b + 3) - f.kin[b].w_B).norm(), 1e-13);
  }
  // Jᵀ y.
  const VecX y = random_coords(rng, 6 * f.tree.num_bodies(), 10.0);
  VecX y_red;
  f.tree.transpose_times(f.kin, y, y_red);
  EXPECT_LT((y_red - J.transpose() * y).lpNorm<Eigen::Infinity>(), 1e-12);
  // Jᵀ D J with blocks that are neither symmetric nor definite.
  std::vector<Mat6> D(f.tree.num_bodies());
  MatX Dfull = MatX::Zero(6 * D.size(), 6 * D.size());
  for (std::size_t b = 0; b < D.size(); ++b) {
    D[b] = Mat6::Random();
    Dfull.block<6, 6>(6 * b, 6 * b) = D[b];
  }
  MatX A;
  f.tree.project_blocks(f.kin, D, A);
  const MatX A_ref = J.transpose() * Dfull * J;
  EXPECT_LT((A - A_ref).lpNorm<Eigen::Infinity>(), 1e-12 * A_ref.lpNorm<Eigen::Infinity>());
}

TEST(JointTree, ReactionsAreThoseOfTheAbsoluteCoordinateSolve) {
  // At a state moving along the joints, the absolute equations [M Bᵀ; B 0][v̇; λ] = [f; −ζ] give
  // λ; the tree's backward pass must give the same from the same v̇.
  Fixture f;
  std::mt19937 rng(17);
  const VecX q = f.random_configuration(rng), qd = random_coords(rng, kCoords, 2.0);
  f.at(q, VecX::Zero(kCoords), qd, f.kin);
  State s = f.ref;
  for (int b = 0; b < f.tree.num_bodies(); ++b) {
    s.x_W[b] = f.kin[b].x_W;
    s.R_WB[b] = f.kin[b].R_WB;
    s.v.segment<3>(6 * b) = f.kin[b].v_W;
    s.v.segment<3>(6 * b + 3) = f.kin[b].w_B;
  }
  LinearSystem ls;
  ASSERT_TRUE(solve_accelerations(f.sys, s, ls).ok);
  VecX force, lambda;
  f.sys.forces(f.kin, s.t, force, MatrixSink(), MatrixSink());
  f.tree.reactions(f.sys, f.kin, s.t, s.vdot, force, lambda);
  ASSERT_EQ(lambda.size(), s.lambda.size());
  // Forces of order 10–100 N; the two solves differ by round-off in their factorizations.
  EXPECT_LT((lambda - s.lambda).lpNorm<Eigen::Infinity>(),
            1e-10 * (1.0 + s.lambda.lpNorm<Eigen::Infinity>()));
}

TEST(JointTree, JointsClosingLoopsKeepTheirRows) {
  // A joint between b and c, which the walk from ground reaches through a, closes a loop: the
  // tree is unchanged and the joint's rows stay.
  Model m = branched_tree(7);
  const int loop =
      add_joint(m, "loop", joints::JointType::kRevolute, 1, 2, Vec3(1, 2, 3), Vec3::UnitZ());
  System sys(m);
  const auto tree = JointTree::build(sys, initial_state(sys), nullptr);
  ASSERT_TRUE(tree);
  EXPECT_EQ(tree->num_coordinates(), kCoords);
  ASSERT_EQ(tree->loop_elements().size(), 1u);
  EXPECT_EQ(tree->loop_elements()[0], loop);
  EXPECT_EQ(tree->num_loop_rows(), 5);
}

TEST(JointTree, RefusesWhatIsNotATree) {
  std::string why;
  {  // a free body
    Model m = branched_tree(7);
    Body free;
    free.name = "free";
    free.mass = 1.0;
    free.inertia_B = Mat3::Identity();
    add_body(m, free);
    System sys(m);
    EXPECT_FALSE(JointTree::build(sys, initial_state(sys), &why));
    EXPECT_NE(why.find("'free' is not joined to ground"), std::string::npos) << why;
  }
  {  // a body reached only through a universal joint
    Model m;
    Body b;
    b.name = "cross";
    b.mass = 1.0;
    b.inertia_B = Mat3::Identity();
    add_body(m, b);
    add_joint(m, "hooke", joints::JointType::kUniversal, kGround, 0, Vec3::Zero(), Vec3::UnitZ(),
              Vec3::UnitX());
    System sys(m);
    EXPECT_FALSE(JointTree::build(sys, initial_state(sys), &why));
    EXPECT_NE(why.find("'cross' is not joined to ground"), std::string::npos) << why;
  }
}

}  // namespace
}  // namespace cs
