// rows_independent_on_a_forest (assembly/forest_rank.hpp): the structural rank test agrees with
// the dense rank-revealing QR on random trees of every joint kind, says nothing (false) where
// the structure alone cannot decide, and lets the redundant-row check of a large tree skip its
// factorizations without changing what it decides.
#include "clearsim/assembly/forest_rank.hpp"

#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <random>

#include "clearsim/assembly/system.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

using joints::JointType;

// prefix + index (written so, not as named("b", i): GCC 12 warns falsely on that
// concatenation under -O3, -Wrestrict).
std::string named(const char* prefix, int index) {
  std::string s(prefix);
  s += std::to_string(index);
  return s;
}

int random_body(Model& m, std::mt19937& rng, const std::string& name) {
  Body b;
  b.name = name;
  b.mass = 0.5 + std::uniform_real_distribution<double>(0.0, 2.0)(rng);
  b.inertia_B = Vec3(0.01, 0.02, 0.015).asDiagonal();
  b.R0_WB = so3::exp(testing::random_vec(rng, 2.0));
  b.x0_W = testing::random_vec(rng, 1.0);
  return add_body(m, b);
}

// A random tree of `n` bodies: each joined to ground or to an earlier body by a random joint.
Model random_tree(unsigned seed, int n) {
  std::mt19937 rng(seed);
  Model m;
  const JointType kinds[] = {JointType::kRevolute, JointType::kPrismatic, JointType::kSpherical,
                             JointType::kFixed,    JointType::kUniversal, JointType::kCylindrical};
  for (int b = 0; b < n; ++b) {
    const int body = random_body(m, rng, named("b", b));
    const int parent = std::uniform_int_distribution<int>(-1, b - 1)(rng);
    const JointType kind = kinds[std::uniform_int_distribution<int>(0, 5)(rng)];
    const Vec3 a = testing::random_vec(rng, 1.0).normalized();
    const Vec3 a2 = a.cross(testing::random_vec(rng, 1.0)).normalized();
    add_joint(m, named("j", b), kind, parent < 0 ? kGround : parent, body,
              testing::random_vec(rng, 1.0), a, a2);
  }
  return m;
}

// Every constraint row of the model with the bodies it joins, at the reference poses.
std::vector<BodyPairRow> rows_of(const System& sys) {
  const State s = initial_state(sys);
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  std::vector<BodyPairRow> rows;
  const Model& m = sys.model();
  for (int e = 0; e < static_cast<int>(m.elements.size()); ++e) {
    const Element& el = *m.elements[static_cast<std::size_t>(e)];
    if (el.num_constraints() == 0) continue;
    ConstraintBlock cb;
    el.constraint(sys.input(e, 0.0, kin), cb);
    for (int r = 0; r < cb.m; ++r)
      rows.push_back({el.body_i() == kGround ? -1 : el.body_i(),
                      el.body_j() == kGround ? -1 : el.body_j(), cb.B.row(r)});
  }
  return rows;
}

// The rank of B assembled from the rows, by the dense rank test of remove_redundant_rows.
Eigen::Index dense_rank(const std::vector<BodyPairRow>& rows, int num_bodies) {
  MatX B = MatX::Zero(static_cast<Eigen::Index>(rows.size()), 6 * num_bodies);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto k = static_cast<Eigen::Index>(r);
    if (rows[r].body_i >= 0) B.block<1, 6>(k, 6 * rows[r].body_i) = rows[r].B.head<6>();
    if (rows[r].body_j >= 0) B.block<1, 6>(k, 6 * rows[r].body_j) = rows[r].B.tail<6>();
    B.row(k).normalize();
  }
  Eigen::ColPivHouseholderQR<MatX> qr(B.transpose());
  qr.setThreshold(1e-9);
  return qr.rank();
}

TEST(ForestRank, RandomTreesOfEveryJointKindHaveFullRankAsTheDenseTestSays) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Model m = random_tree(seed, 12);
    const System sys(m);
    const auto rows = rows_of(sys);
    ASSERT_TRUE(rows_independent_on_a_forest(rows, m.num_bodies())) << "seed " << seed;
    EXPECT_EQ(dense_rank(rows, m.num_bodies()), static_cast<Eigen::Index>(rows.size()))
        << "seed " << seed;
  }
}

TEST(ForestRank, LoopsAndDependentRowsAreLeftToTheFactorizations) {
  std::mt19937 rng(3);
  // A closed ring of revolutes: a loop.
  Model ring;
  for (int b = 0; b < 4; ++b) random_body(ring, rng, named("r", b));
  for (int b = 0; b < 4; ++b)
    add_joint(ring, named("j", b), JointType::kRevolute, b == 0 ? kGround : b - 1, b,
              testing::random_vec(rng), Vec3::UnitZ());
  add_joint(ring, "closing", JointType::kRevolute, 3, kGround, testing::random_vec(rng),
            Vec3::UnitZ());
  EXPECT_FALSE(rows_independent_on_a_forest(rows_of(System(ring)), ring.num_bodies()));
  // Two joints between the same bodies: 5 + 3 rows on six coordinates.
  Model twice;
  const int a = random_body(twice, rng, "a");
  add_joint(twice, "pin", JointType::kRevolute, kGround, a, Vec3::Zero(), Vec3::UnitZ());
  add_joint(twice, "ball", JointType::kSpherical, kGround, a, Vec3::Zero(), Vec3::UnitZ());
  EXPECT_FALSE(rows_independent_on_a_forest(rows_of(System(twice)), twice.num_bodies()));
  // A cylindrical and a prismatic joint along the same axis: 4 + 5 rows, the 4 repeated.
  Model slide;
  const int s = random_body(slide, rng, "s");
  add_joint(slide, "cyl", JointType::kCylindrical, kGround, s, Vec3::Zero(), Vec3::UnitX());
  add_joint(slide, "pri", JointType::kPrismatic, kGround, s, Vec3::Zero(), Vec3::UnitX());
  const auto rows = rows_of(System(slide));
  EXPECT_FALSE(rows_independent_on_a_forest(rows, slide.num_bodies()));
  EXPECT_LT(dense_rank(rows, slide.num_bodies()), static_cast<Eigen::Index>(rows.size()));
}

TEST(ForestRank, ADrivenJointIsOneGroupOfIndependentRows) {
  std::mt19937 rng(5);
  Model m;
  const int crank = random_body(m, rng, "crank");
  add_joint(m, "pivot", JointType::kRevolute, kGround, crank, Vec3::Zero(), Vec3::UnitZ());
  add_driver(m, "speed", "pivot", joints::JointDriver::Motion::kRotation,
             joints::JointDriver::Given::kVelocity, TimeFunction::constant(10.0));
  const auto rows = rows_of(System(m));
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_TRUE(rows_independent_on_a_forest(rows, m.num_bodies()));
  EXPECT_EQ(dense_rank(rows, m.num_bodies()), 6);
}

// A tree of 60 bodies has 360 coordinates, past the dense path of remove_redundant_rows: the
// structural test settles it (no row removed); a ring of as many bodies still has its redundant
// rows found by the factorizations.
TEST(ForestRank, TheRedundantRowCheckOfALargeModelDecidesAsBefore) {
  Model tree = random_tree(11, 60);
  System sys(tree);
  EXPECT_TRUE(sys.remove_redundant_rows(initial_state(sys)).empty());
  Model ring;
  std::mt19937 rng(13);
  const int n = 60;
  for (int b = 0; b < n; ++b) {
    Body body;
    body.name = named("r", b);
    body.mass = 1.0;
    body.inertia_B = Vec3(0.01, 0.02, 0.02).asDiagonal();
    const double angle = 2.0 * M_PI * (b + 0.5) / n;
    body.x0_W = Vec3(std::cos(angle), std::sin(angle), 0.0);
    add_body(ring, body);
  }
  for (int b = 0; b < n; ++b) {
    const double angle = 2.0 * M_PI * b / n;
    add_joint(ring, named("j", b), JointType::kRevolute, b == 0 ? n - 1 : b - 1, b,
              Vec3(std::cos(angle), std::sin(angle), 0.0), Vec3::UnitZ());
  }
  add_joint(ring, "anchor", JointType::kRevolute, kGround, 0, Vec3(1, 0, 0), Vec3::UnitZ());
  System ring_sys(ring);
  // A planar loop in 3D repeats three rows (the out-of-plane translation and two tilts).
  EXPECT_EQ(ring_sys.remove_redundant_rows(initial_state(ring_sys)).size(), 3u);
}

}  // namespace
}  // namespace cs
