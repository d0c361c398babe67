// TreeAlpha's recursive iteration matrix (ArticulatedSolver) in whole runs: the same steps as the
// dense iteration matrix (the same scheme and matrix, so the same motion to the Newton stop) and
// the same motion as body poses to the integration error, on a planar chain, a binary tree of
// mixed joints, a spatial chain closed by a joint to ground and a long falling spatial chain (whose
// matrix needs the joints' geometric stiffness); and a massless driven leaf, which the recursion
// cannot invert, handed to body poses with the body named.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <optional>

#include "bench/support/pendulum_chain_model.hpp"
#include "bench/support/planar_chain_model.hpp"
#include "bench/support/spherical_tree_model.hpp"
#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/tree_alpha.hpp"
#include "support/tree_models.hpp"

namespace cs {
namespace {

using Matrix = TreeAlpha::IterationMatrix;

struct Run {
  State end;
  double iterations_per_step = 0.0, factorizations_per_step = 0.0;
  std::string name;
  bool recursive = false;
};

// `steps` steps of h from the consistent initial state, in joint coordinates with the iteration
// matrix `matrix`, or in body poses without one.
Run run(const Model& model, double h, int steps, std::optional<Matrix> matrix) {
  System sys(model);
  SolverSettings st;
  st.analysis = Analysis::kDynamic;
  st.step = h;
  st.end = h * steps;
  st.coordinates = matrix ? CoordinateChoice::kJoint : CoordinateChoice::kAbsolute;
  State s = initial_state(sys, 0.0);
  std::vector<std::string> notes;
  EXPECT_TRUE(make_consistent(sys, s, st.newton_tol, notes).ok);
  std::unique_ptr<Integrator> integrator;
  TreeAlpha* tree = nullptr;
  if (matrix) {
    EXPECT_TRUE(TreeAlpha::applies(sys, st, nullptr));
    auto t = std::make_unique<TreeAlpha>(sys, st);
    t->set_iteration_matrix(*matrix);
    tree = t.get();
    integrator = std::move(t);
  } else {
    integrator = std::make_unique<GeneralizedAlpha>(sys, st);
  }
  Run r;
  long iterations = 0, factorizations = 0;
  for (int k = 0; k < steps; ++k) {
    const StepResult res = integrator->step(s, h);
    EXPECT_TRUE(res.converged) << res.message;
    if (!res.converged) break;
    iterations += res.iterations;
    factorizations += res.factorizations;
  }
  r.end = s;
  r.iterations_per_step = static_cast<double>(iterations) / steps;
  r.factorizations_per_step = static_cast<double>(factorizations) / steps;
  r.name = integrator->name();
  r.recursive = tree != nullptr && tree->recursive();
  return r;
}

std::string numbered_spring(int k) {
  std::string name("spring");
  name.append(std::to_string(k));
  return name;
}

// max over bodies of |x_a − x_b| [m].
double position_difference(const State& a, const State& b) {
  double d = 0.0;
  for (std::size_t k = 0; k < a.x_W.size(); ++k) d = std::max(d, (a.x_W[k] - b.x_W[k]).norm());
  return d;
}

// Recursive vs dense: the same to well within the Newton stop (both stop on the same test at
// nearly the same iterates); vs body poses: the integration error.
void expect_paths_agree(const char* what, const Model& model, double h, int steps,
                        double body_pose_tol, double extra_iterations = 0.05) {
  const Run rec = run(model, h, steps, Matrix::kRecursive);
  const Run dense = run(model, h, steps, Matrix::kDense);
  const Run body = run(model, h, steps, std::nullopt);
  EXPECT_TRUE(rec.recursive);
  EXPECT_FALSE(dense.recursive);
  const double d_dense = position_difference(rec.end, dense.end);
  const double d_body = position_difference(rec.end, body.end);
  std::printf(
      "[ tree ] %s: recursive vs dense %.2e m, vs body poses %.2e m; it/step %.2f / %.2f / %.2f, "
      "factorizations/step %.3f / %.3f\n",
      what, d_dense, d_body, rec.iterations_per_step, dense.iterations_per_step,
      body.iterations_per_step, rec.factorizations_per_step, dense.factorizations_per_step);
  EXPECT_LT(d_dense, 1e-9);
  EXPECT_LT(d_body, body_pose_tol);
  // The same matrix without force couplings: the same iterations, give or take a stop decided
  // at round-off; with couplings, which the recursive matrix leaves out, a few more.
  EXPECT_LE(rec.iterations_per_step, dense.iterations_per_step + extra_iterations);
}

TEST(TreeRecursive, PlanarChainAgreesWithDenseAndBodyPoses) {
  expect_paths_agree("planar chain, 40 links", bench::planar_pendulum_chain(40), 1e-4, 500, 1e-6);
}

TEST(TreeRecursive, BinaryTreeOfMixedJointsAgreesWithDenseAndBodyPoses) {
  expect_paths_agree(
      "binary tree, 31 bodies",
      testing::random_tree(testing::binary_parents(31), 5, testing::TreeJoints::kMixed), 1e-4, 500,
      1e-6);
}

TEST(TreeRecursive, ChainClosedByAJointAgreesWithDenseAndBodyPoses) {
  expect_paths_agree("closed spherical chain, 20 links", testing::closed_spherical_chain(20), 1e-4,
                     500, 1e-6);
}

TEST(TreeRecursive, ForcesCouplingBodiesAreLeftOutOfTheMatrixAtAFewIterations) {
  // Stiff damped springs between links two apart couple bodies in K_t and C_t: the dense matrix
  // keeps those blocks through J, the recursive one only the body-diagonal ones. Modified Newton
  // converges to the same residual either way; it costs iterations, bounded here.
  Model m = bench::planar_pendulum_chain(30);
  forces::SpringDamperParams p;
  p.stiffness = 2e4;
  p.damping = 20.0;
  for (int k = 0; k + 2 < 30; k += 3) {
    const Vec3 a = m.bodies[k].x0_W, b = m.bodies[k + 2].x0_W;
    p.free_length = 0.9 * (b - a).norm();
    add_element(m, std::make_unique<forces::TranslationalSpringDamper>(
                       numbered_spring(k), marker_at(m, k, a, Mat3::Identity()),
                       marker_at(m, k + 2, b, Mat3::Identity()), p));
  }
  expect_paths_agree("planar chain, 30 links, springs between links", m, 1e-4, 500, 1e-5, 1.0);
}

// The spatial chain of chain_scaling_bench.cpp: 100 spherical links of 0.05 m and 0.1 kg released
// at 0.3 rad below horizontal, ρ∞ = 0.8, h = 1e-3 s. With the iteration matrix JᵀDJ alone Newton
// stopped contracting after 38 steps in joint coordinates; with the joints' geometric stiffness
// and Krylov iterations on the exact tangent (joint coordinates forced) it goes on to 0.147 s,
// then stalls at an increment of 3e-10, above newton_tol. As shipped (`auto`) the run goes on in
// body poses where the Krylov iterations would start.
SolverSettings falling_chain_settings(double h, CoordinateChoice coordinates) {
  SolverSettings st;
  st.analysis = Analysis::kDynamic;
  st.rho_inf = 0.8;
  st.step = h;
  st.coordinates = coordinates;
  return st;
}

// `steps` steps of h from the consistent start, in joint coordinates (`auto` or forced) or in
// body poses; the integrator's name in `name`.
State falling_chain(System& sys, double h, int steps, bool joint, std::string* name,
                    CoordinateChoice coordinates = CoordinateChoice::kJoint) {
  const SolverSettings st = falling_chain_settings(h, coordinates);
  State s = initial_state(sys, 0.0);
  std::vector<std::string> notes;
  EXPECT_TRUE(make_consistent(sys, s, st.newton_tol, notes).ok);
  std::unique_ptr<Integrator> integrator;
  if (joint) {
    EXPECT_TRUE(TreeAlpha::applies(sys, st, nullptr));
    integrator = std::make_unique<TreeAlpha>(sys, st);  // `auto` may go over to body poses
  } else {
    SolverSettings absolute = st;
    absolute.coordinates = CoordinateChoice::kAbsolute;
    integrator = std::make_unique<GeneralizedAlpha>(sys, absolute);
  }
  for (int k = 0; k < steps; ++k) {
    const StepResult res = integrator->step(s, h);
    EXPECT_TRUE(res.converged) << k << ": " << res.message;
    if (!res.converged) break;
  }
  if (name) *name = integrator->name();
  if (joint) {
    EXPECT_TRUE(dynamic_cast<const TreeAlpha&>(*integrator).recursive());
  }
  return s;
}

TEST(TreeRecursive, ALongSpatialChainStaysInJointCoordinatesWithTheTensionInTheMatrix) {
  const Model m = bench::pendulum_chain(100);
  System sys(m);
  // 0.06 s at h and at h/2, in joint coordinates (recursive, forced) and in body poses: the two
  // discretizations differ by their integration errors, second order, so the difference falls
  // about 4× with h. Without the joints' tension in the matrix the run went over to body poses
  // at 0.038 s; with it, Newton stalls later, at a time that depends on round-off (0.147 s with
  // GCC on AVX2 and FMA, 0.088 s with Clang without FMA), so the window ends before either.
  std::string name;
  const State joint = falling_chain(sys, 1e-3, 60, true, &name);
  const State body = falling_chain(sys, 1e-3, 60, false, nullptr);
  const State joint2 = falling_chain(sys, 5e-4, 120, true, nullptr);
  const State body2 = falling_chain(sys, 5e-4, 120, false, nullptr);
  EXPECT_EQ(name, "generalized-alpha (joint coordinates)");  // no fall-back to body poses
  const double d = position_difference(joint, body), d2 = position_difference(joint2, body2);
  std::printf(
      "[ tree ] spatial chain, 100 links, 0.06 s: joint coordinates vs body poses %.2e m "
      "at h = 1e-3 s, %.2e m at 5e-4 s (ratio %.2f)\n",
      d, d2, d / d2);
  // The chain's free end falls about 0.02 m in 0.06 s; second-order errors of 1e-3 s steps.
  EXPECT_LT(d, 1e-4);
  EXPECT_GT(d / d2, 3.0);
}

TEST(TreeRecursive, AsShippedAChainThatContractsSlowlyGoesOnInBodyPoses) {
  // `auto`: where a fresh matrix with the joints' tension still contracts slowly the run goes on
  // in body poses (cheaper than Krylov iterations, tree_alpha.cpp escalate()), saying when and
  // why. The same chain with 1000 links does so within its first steps (at the first with GCC,
  // the second with Clang without FMA: round-off decides), then runs as body poses do.
  const Model m = bench::pendulum_chain(1000);
  System sys(m);
  std::string name;
  const State shipped = falling_chain(sys, 1e-3, 5, true, &name, CoordinateChoice::kAuto);
  const State body = falling_chain(sys, 1e-3, 5, false, nullptr);
  EXPECT_NE(name.find("generalized-alpha (joint coordinates, body poses from t = 0"),
            std::string::npos)
      << name;
  EXPECT_NE(name.find("Newton contracts slowly in joint coordinates at t = 0.00"),
            std::string::npos)
      << name;
  EXPECT_NE(name.find("even with the joints' geometric stiffness)"), std::string::npos) << name;
  const double d = position_difference(shipped, body);
  std::printf("[ tree ] spatial chain, 1000 links, 5 steps as shipped: %s; vs body poses %.2e m\n",
              name.c_str(), d);
  // A step in joint coordinates differs from one in body poses by their integration errors, of
  // second order (the 100-link chain above: 2.6e-8 m after 60 steps); at most one was taken.
  EXPECT_LT(d, 1e-7);
}

TEST(TreeRecursive, ALongSpatialChainAgreesWithDenseAndBodyPoses) {
  // The same chain, joint coordinates forced (recursive and dense: one matrix, the same motion).
  // Their iteration counts are not compared here: the matrix is ill-conditioned (each slender
  // link's spin about its own axis, with its children counter-rotating, moves only its axial
  // inertia; tree_alpha.cpp, plan_refresh()), so the LU and the articulated recursion solve it
  // with different round-off, each path takes the geometric stiffness and the Krylov iterations
  // in at its own steps, and over 80 steps the recursive path takes 4.5 iterations per step, the
  // dense 3.5, with or without refreshing ahead. 0.03 s: the Krylov iterations stall at a floor
  // of the residual from a time that depends on round-off (docs/PERFORMANCE.md, *Pendulum
  // chain*): with GCC none before 0.2 s; in the Clang build without FMA the dense path at
  // 0.040 s and the recursive one at 0.092 s, the earliest measured, so the window ends before.
  expect_paths_agree("spatial chain, 100 links, h = 1e-3 s", bench::pendulum_chain(100), 1e-3, 30,
                     1e-6, std::numeric_limits<double>::infinity());
}

// A planar 10-link chain over 1 s at h = 2e-4 s, as shipped (dense below 20 coordinates): its
// matrix ages as the chain whips (0.24 factorizations per step over the second; at h = 1e-4 s,
// with the quadratic predictor, only 0.04), and once more than a fifth of its steps have
// refactorized it, the run goes on on the recursive path (tree_alpha.cpp, kRecursiveRate),
// which factorizes for about one residual instead of five. The same matrix: the motion is the
// dense path's to round-off; over 0.2 s the run stays dense.
TEST(TreeRecursive, AnOpenChainWhoseMatrixAgesFastGoesOverToTheRecursivePath) {
  const Model model = bench::planar_pendulum_chain(10);
  System sys(model);
  SolverSettings st;
  st.analysis = Analysis::kDynamic;
  constexpr double kStep = 2e-4;
  st.step = kStep;
  State start = initial_state(sys, 0.0);
  std::vector<std::string> notes;
  ASSERT_TRUE(make_consistent(sys, start, st.newton_tol, notes).ok);
  TreeAlpha shipped(sys, st), dense(sys, st);
  dense.set_iteration_matrix(Matrix::kDense);
  State a = start, b = start;
  long switched_at = -1, factorizations = 0;
  double apart_at_switch = 0.0;
  constexpr long kSteps = 5000;
  for (long k = 0; k < kSteps; ++k) {
    const StepResult ra = shipped.step(a, kStep);
    ASSERT_TRUE(ra.converged) << ra.message;
    ASSERT_TRUE(dense.step(b, kStep).converged);
    factorizations += ra.factorizations;
    if (switched_at < 0 && shipped.recursive()) {
      switched_at = k;
      apart_at_switch = position_difference(a, b);
      EXPECT_GT(static_cast<double>(factorizations) / static_cast<double>(k + 1), 0.2);
    }
    if (k == 999) {
      EXPECT_FALSE(shipped.recursive()) << "0.2 s";
    }
  }
  const double apart = position_difference(a, b);
  std::printf(
      "[ tree ] planar chain, 10 links, 1 s: recursive from step %ld (t = %.4f s), %.2e m from "
      "the dense run there, %.2e m at the end\n",
      switched_at, kStep * static_cast<double>(switched_at + 1), apart_at_switch, apart);
  ASSERT_GE(switched_at, 0);
  EXPECT_EQ(apart_at_switch, 0.0);  // the same path until the switch
  EXPECT_LT(apart, 1e-9);           // measured 1.1e-12 m (the switch at t = 0.634 s)
}

TEST(TreeRecursive, ASpatialTreeWhoseKeptMatricesFailFactorizesAtThePredictor) {
  // The binary tree of spherical joints of the Simbody benchmark (bench/support/
  // spherical_tree_model.hpp), 127 links, released from rest, h = 1e-4 s: a matrix kept from the
  // step before contracts slowly from the first steps, so refreshing it at the third iteration
  // costs an iteration more than factorizing at the predictor. Both reach the same Newton stop.
  const bench::SphericalTree tree = bench::binary_spherical_tree(127);
  const Model m = bench::spherical_tree_model(tree, "binary_tree");
  System sys(m);
  SolverSettings st;
  st.analysis = Analysis::kDynamic;
  st.coordinates = CoordinateChoice::kJoint;
  State start = initial_state(sys, 0.0);
  std::vector<std::string> notes;
  ASSERT_TRUE(make_consistent(sys, start, st.newton_tol, notes).ok);
  double cost[2] = {0.0, 0.0};
  State end[2];
  for (int ahead = 0; ahead < 2; ++ahead) {
    TreeAlpha integrator(sys, st);
    integrator.set_iteration_matrix(Matrix::kRecursive);
    integrator.set_refresh_ahead(ahead == 1);
    State s = start;
    long work = 0;
    constexpr int kSteps = 300;
    for (int k = 0; k < kSteps; ++k) {
      const StepResult res = integrator.step(s, 1e-4);
      ASSERT_TRUE(res.converged) << res.message;
      work += res.iterations + res.factorizations;
    }
    cost[ahead] = static_cast<double>(work) / kSteps;
    end[ahead] = s;
  }
  const double d = position_difference(end[0], end[1]);
  std::printf(
      "[ tree ] spatial binary tree, 127 links, 0.03 s: iterations and factorizations per step "
      "%.2f kept, %.2f refreshed ahead; positions %.2e m apart\n",
      cost[0], cost[1], d);
  EXPECT_LT(cost[1], cost[0] - 0.5);  // at least half an iteration per step saved
  EXPECT_LT(d, 1e-9);
}

TEST(TreeRecursive, AMasslessLeafGoesOverToBodyPosesNamingIt) {
  Model m = testing::random_tree(testing::chain_parents(25), 6, testing::TreeJoints::kRevolute);
  m.bodies[24].mass = 0.0;
  m.bodies[24].inertia_B.setZero();
  System sys(m);
  SolverSettings st;
  st.coordinates = CoordinateChoice::kJoint;
  TreeAlpha integrator(sys, st);
  integrator.set_iteration_matrix(Matrix::kRecursive);
  State s = initial_state(sys, 0.0);
  integrator.step(s, 1e-4);  // body poses may not manage a massless body either
  EXPECT_NE(integrator.name().find(
                "body poses from t = 0 s: the articulated inertia of body 'b24' is singular"),
            std::string::npos)
      << integrator.name();
}

}  // namespace
}  // namespace cs
