// Generalized-α in joint coordinates (solvers/tree_alpha.hpp), the default for open trees of
// revolute, prismatic and fixed joints: which models take it, its order down to h = 1e-6 on a
// closed form with the shipped settings, its agreement with the integration in body poses, and
// the joint reactions it hands to the outputs.
#include "clearsim/solvers/tree_alpha.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/prismatic_oscillator.hpp"
#include "support/recorder.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr const char* kJointName = "generalized-alpha (joint coordinates)";

// 1 kg on a prismatic guide along x with a spring k = 400π² N/m to ground: period 0.1 s,
// x(t) = 1 + 0.1 cos(20π t).
Model oscillator() { return testing::prismatic_oscillator(400 * kPi * kPi); }

// A spatial double pendulum on skew hinges, with full inertias, a spring from the lower link to
// ground and a damper: motion about every axis, gyroscopic terms, forces between two bodies.
Model double_pendulum() {
  Model m;
  m.gravity_W = Vec3(0, 0, -9.81);
  auto link = [&](const std::string& name, const Vec3& x) {
    Body b;
    b.name = name;
    b.mass = 1.5;
    const Mat3 R = so3::exp(Vec3(0.3, -0.2, 0.5));
    b.inertia_B = R * Vec3(0.02, 0.05, 0.06).asDiagonal() * R.transpose();
    b.x0_W = x;
    b.w0_W = Vec3(0.0, 0.0, 0.0);
    return add_body(m, b);
  };
  const int a = link("upper", Vec3(0.25, 0.0, 0.0)), b = link("lower", Vec3(0.5, 0.2, -0.1));
  add_joint(m, "shoulder", joints::JointType::kRevolute, kGround, a, Vec3::Zero(),
            Vec3(0.2, 1.0, 0.1).normalized());
  add_joint(m, "elbow", joints::JointType::kRevolute, a, b, Vec3(0.5, 0.0, 0.0),
            Vec3(1.0, 0.3, 0.4).normalized());
  forces::SpringDamperParams p;
  p.stiffness = 200.0;
  p.damping = 0.5;
  p.free_length = 0.3;
  add_element(m, std::make_unique<forces::TranslationalSpringDamper>(
                     "spring", marker_at(m, kGround, Vec3(0.6, 0.6, 0.0), Mat3::Identity()),
                     marker_at(m, b, Vec3(0.6, 0.25, -0.1), Mat3::Identity()), p));
  return m;
}

// Seed 000's slider–crank without its driver: the crank starts at 60 rad/s and the mechanism
// runs free under gravity (−y) with a spring pulling the slider back; the rod–slider joint
// closes the loop (3 rows), the rest is a tree with a spherical joint.
Model free_slider_crank() {
  Model m = testing::slider_crank();
  m.elements.pop_back();  // the driver
  m.gravity_W = Vec3(0, -9.81, 0);
  m.bodies[0].w0_W = Vec3(0, 0, 60.0);
  forces::SpringDamperParams p;
  p.stiffness = 2000.0;
  p.free_length = 0.15;
  add_element(m, std::make_unique<forces::TranslationalSpringDamper>(
                     "spring", marker_at(m, kGround, Vec3::Zero(), Mat3::Identity()),
                     marker_at(m, 2, Vec3(0.17, 0, 0), Mat3::Identity()), p));
  return m;
}

RunSettings run_settings(double h, double end, CoordinateChoice c = CoordinateChoice::kAuto) {
  RunSettings s;  // shipped settings otherwise
  s.solver.step = h;
  s.solver.end = end;
  s.solver.coordinates = c;
  return s;
}

TEST(TreeAlpha, OpenTreesTakeJointCoordinatesAndEverythingElseBodyPoses) {
  {
    const auto r = testing::run(double_pendulum(), run_settings(1e-3, 0.01));
    ASSERT_TRUE(r.stats.ok) << r.stats.message;
    EXPECT_EQ(r.stats.integrator, kJointName);  // 10 steps: not yet judged
  }
  {
    const auto r =
        testing::run(double_pendulum(), run_settings(1e-3, 0.01, CoordinateChoice::kAbsolute));
    EXPECT_EQ(r.stats.integrator, "generalized-alpha");
  }
  {
    RunSettings s = run_settings(1e-3, 0.01);
    s.solver.newton = NewtonMode::kFull;
    EXPECT_EQ(testing::run(double_pendulum(), s).stats.integrator, "generalized-alpha");
  }
  // A closed loop with a driver (seed 000's slider–crank): its rows stay, the rest is a tree.
  {
    const Model crank = testing::slider_crank();
    System sys(crank);
    EXPECT_EQ(make_integrator(sys, SolverSettings{})->name(), kJointName);
  }
  // A planar four-bar: in joint coordinates its loop's out-of-plane rows are redundant.
  {
    Model m;
    auto bar = [&](const char* name, const Vec3& x) {
      Body b;
      b.name = name;
      b.mass = 1.0;
      b.inertia_B = Mat3::Identity() * 1e-2;
      b.x0_W = x;
      return add_body(m, b);
    };
    const int crank = bar("crank", Vec3(0.0, 0.1, 0.0)),
              coupler = bar("coupler", Vec3(0.2, 0.2, 0));
    const int rocker = bar("rocker", Vec3(0.4, 0.1, 0.0));
    using joints::JointType;
    add_joint(m, "A", JointType::kRevolute, kGround, crank, Vec3::Zero(), Vec3::UnitZ());
    add_joint(m, "B", JointType::kRevolute, crank, coupler, Vec3(0, 0.2, 0), Vec3::UnitZ());
    add_joint(m, "C", JointType::kRevolute, coupler, rocker, Vec3(0.4, 0.2, 0), Vec3::UnitZ());
    add_joint(m, "D", JointType::kRevolute, rocker, kGround, Vec3(0.4, 0, 0), Vec3::UnitZ());
    System sys(m);
    std::string why;
    EXPECT_FALSE(TreeAlpha::applies(sys, SolverSettings{}, &why));
    EXPECT_NE(why.find("redundant"), std::string::npos) << why;
    EXPECT_EQ(make_integrator(sys, SolverSettings{})->name(), "generalized-alpha");
  }
}

// Max |x − x_exact| over a quarter of a second of the oscillator at step h, shipped settings.
double oscillator_error(double h) {
  const auto r = testing::run(oscillator(), run_settings(h, 0.25));
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_EQ(r.stats.integrator, kJointName);
  double err = 0.0;
  for (const State& st : r.states)
    err = std::max(err, std::abs(st.x_W[0].x() - (1.0 + 0.1 * std::cos(20 * kPi * st.t))));
  return err;
}

TEST(TreeAlpha, ShippedSettingsAreSecondOrderDownToAMicrosecond) {
  // The Newton stop is tied to the step's own error (as in body poses), so the order must hold
  // where an absolute tolerance would have spoilt it: at h = 1e-6 the error is ~5e-10 m, far
  // above the round-off of 250 000 steps (~1e-13 m).
  double last = oscillator_error(1e-3);
  for (const double h : {1e-4, 1e-5, 1e-6}) {
    const double e = oscillator_error(h);
    std::printf("[ tree ] oscillator h = %g: error %.3e m, order %.3f\n", h, e,
                std::log10(last / e));
    EXPECT_GE(std::log10(last / e), 1.9) << "h = " << h;
    last = e;
  }
}

TEST(TreeAlpha, AgreesWithTheIntegrationInBodyPoses) {
  // Two second-order discretizations of the same motion: their difference is O(h²) (ratio 4 when
  // h halves) and far below the motion (links of 0.5 m swinging through ~1 rad).
  // Joint coordinates throughout (auto goes over to body poses here: the damped spring makes the
  // matrix move at every step).
  auto lower_end = [](double h, CoordinateChoice c) {
    const auto r = testing::run(double_pendulum(), run_settings(h, 0.5, c));
    EXPECT_TRUE(r.stats.ok) << r.stats.message;
    return r.states.back().x_W[1];
  };
  const double d1 =
      (lower_end(2e-3, CoordinateChoice::kJoint) - lower_end(2e-3, CoordinateChoice::kAbsolute))
          .norm();
  const double d2 =
      (lower_end(1e-3, CoordinateChoice::kJoint) - lower_end(1e-3, CoordinateChoice::kAbsolute))
          .norm();
  std::printf(
      "[ tree ] double pendulum at 0.5 s: joint vs body poses %.3e m (h = 2e-3), %.3e m "
      "(h = 1e-3)\n",
      d1, d2);
  EXPECT_LT(d2, 1e-5);  // measured 1.9e-6 m
  EXPECT_NEAR(d1 / d2, 4.0, 0.6);
}

TEST(TreeAlpha, ClosedLoopsKeepTheirRowsAndAgreeWithBodyPoses) {
  // Joint coordinates with the loop's rows (index 3) against body poses: the same motion to
  // O(h²), the loop closed to round-off, and the reactions of every row, tree and loop, those
  // of the absolute equations at each output.
  auto run = [](double h, CoordinateChoice c) {
    RunSettings rs = run_settings(h, 0.1, c);
    rs.output.every = static_cast<int>(std::lround(0.01 / h));
    return testing::run(free_slider_crank(), rs);
  };
  const auto j1 = run(2e-4, CoordinateChoice::kJoint), j2 = run(1e-4, CoordinateChoice::kJoint);
  const auto b1 = run(2e-4, CoordinateChoice::kAbsolute),
             b2 = run(1e-4, CoordinateChoice::kAbsolute);
  ASSERT_TRUE(j1.stats.ok && j2.stats.ok && b1.stats.ok && b2.stats.ok) << j1.stats.message;
  EXPECT_EQ(j1.stats.integrator, kJointName);
  EXPECT_EQ(b1.stats.integrator, "generalized-alpha");
  // Positions of 0.05–0.17 m, velocities of ~3 m/s: Φ at round-off.
  EXPECT_LT(j1.stats.max_constraint_violation, 1e-13);
  const double d1 = (j1.states.back().x_W[2] - b1.states.back().x_W[2]).norm();
  const double d2 = (j2.states.back().x_W[2] - b2.states.back().x_W[2]).norm();
  std::printf(
      "[ tree ] free slider-crank at 0.1 s: joint vs body poses %.3e m (h = 2e-4), "
      "%.3e m (h = 1e-4), %.2f / %.2f it/step\n",
      d1, d2, static_cast<double>(j2.stats.newton_iterations) / static_cast<double>(j2.stats.steps),
      static_cast<double>(b2.stats.newton_iterations) / static_cast<double>(b2.stats.steps));
  EXPECT_LT(d2, 1e-5);
  EXPECT_NEAR(d1 / d2, 4.0, 0.6);
  // Every row's multiplier balances the bodies with the step's own accelerations,
  // M v̇ − f + Bᵀλ = 0 body by body (index 3 leaves B v = O(h²) at the step's end, so the
  // instantaneous consistent v̇, λ of that state differ from them by the integration error), and
  // they agree with the multipliers of body poses to that error.
  const Model model = free_slider_crank();
  System sys(model);
  std::vector<BodyKinematics> kin;
  VecX Mv, f, phi, Btl;
  double worst_balance = 0.0, worst_vs_body = 0.0;
  for (std::size_t k = 0; k < j2.states.size(); ++k) {
    const State& out = j2.states[k];
    sys.gather(out, kin);
    sys.mass_times(out.vdot, Mv);
    sys.forces(kin, out.t, f, MatrixSink(), MatrixSink());
    Btl.setZero(sys.num_dofs());
    phi.setZero(sys.num_constraints());
    sys.constraint_products(kin, out.t, out.lambda, nullptr, phi, Btl, nullptr);
    const double scale = Mv.lpNorm<Eigen::Infinity>() + f.lpNorm<Eigen::Infinity>();
    worst_balance = std::max(worst_balance, (Mv - f + Btl).lpNorm<Eigen::Infinity>() / scale);
    const VecX& lb = b2.states[k].lambda;
    worst_vs_body = std::max(
        worst_vs_body, (out.lambda - lb).lpNorm<Eigen::Infinity>() / lb.lpNorm<Eigen::Infinity>());
  }
  std::printf("[ tree ] free slider-crank reactions: balance %.2e, against body poses %.2e\n",
              worst_balance, worst_vs_body);
  // The balance holds to the Newton stop's bound on the accelerations, kAccelFraction = 1e-8 of
  // ‖v̇‖ (measured 1.7e-11); the multipliers of the two schemes agree to 1.3e-5.
  EXPECT_LT(worst_balance, 1e-8);
  EXPECT_LT(worst_vs_body, 1e-3);
}

TEST(TreeAlpha, DriversOfTreeJointsHoldTheirJointExactly) {
  // Seed 000's crank driven at 5000 rpm about its tree pivot: the driver's row is the crank angle
  // itself, so the angle follows ωt to round-off, and its torque (−λ) agrees with the run in body
  // poses to the integration error once the start's transient has decayed (index-3 multipliers
  // start off the consistent ones and ring down as ρ∞ per step: 0.2–0.7 N·m from a fine reference
  // over the first 0.1 ms in both coordinates, 1e-3 N·m after 1 ms).
  RunSettings rs = run_settings(1e-5, 0.01, CoordinateChoice::kJoint);
  const auto j = testing::run(testing::slider_crank(), rs);
  rs.solver.coordinates = CoordinateChoice::kAbsolute;
  const auto b = testing::run(testing::slider_crank(), rs);
  ASSERT_TRUE(j.stats.ok && b.stats.ok);
  double angle_error = 0.0, torque_difference = 0.0, torque_scale = 0.0;
  for (std::size_t k = 0; k < j.states.size(); ++k) {
    const State& s = j.states[k];
    const double angle = std::atan2(s.R_WB[0](1, 0), s.R_WB[0](0, 0));
    const double want = std::remainder(testing::kOmega * s.t, 2 * kPi);
    angle_error = std::max(angle_error, std::abs(std::remainder(angle - want, 2 * kPi)));
    if (s.t < 1e-3) continue;
    // The driver is the model's last element, so its row is the last multiplier.
    const double tj = s.lambda.tail<1>()(0), tb = b.states[k].lambda.tail<1>()(0);
    torque_difference = std::max(torque_difference, std::abs(tj - tb));
    torque_scale = std::max(torque_scale, std::abs(tb));
  }
  std::printf("[ tree ] driven crank: angle error %.2e rad, torque difference %.2e of %.1f N·m\n",
              angle_error, torque_difference, torque_scale);
  // ωt reaches 5.2 rad: its round-off is ~1e-15; the angle is read back through atan2.
  EXPECT_LT(angle_error, 1e-12);
  EXPECT_LT(torque_difference, 1e-4 * torque_scale);
}

TEST(TreeAlpha, GoesOverToBodyPosesWhereJointCoordinatesAreDearer) {
  // The free slider–crank at h = 1e-4 s turns by hω ≈ 6e-3 per step: the dense matrix of joint
  // coordinates would be refactorized at every step. auto judges that after 32 steps and goes on
  // in body poses from the state reached; joint keeps joint coordinates.
  const auto a = testing::run(free_slider_crank(), run_settings(1e-4, 0.02));
  ASSERT_TRUE(a.stats.ok) << a.stats.message;
  EXPECT_NE(a.stats.integrator.find("body poses from t = 0.0032 s"), std::string::npos)
      << a.stats.integrator;
  const auto j =
      testing::run(free_slider_crank(), run_settings(1e-4, 0.02, CoordinateChoice::kJoint));
  const auto b =
      testing::run(free_slider_crank(), run_settings(1e-4, 0.02, CoordinateChoice::kAbsolute));
  ASSERT_TRUE(j.stats.ok && b.stats.ok);
  EXPECT_EQ(j.stats.integrator, kJointName);
  // The three histories agree to the integration error (joint vs body poses: 2e-10 m at 0.1 s).
  EXPECT_LT((a.states.back().x_W[2] - b.states.back().x_W[2]).norm(), 1e-9);
  EXPECT_LT((j.states.back().x_W[2] - b.states.back().x_W[2]).norm(), 1e-9);
  // The switch keeps the loop closed and every multiplier balancing the bodies.
  EXPECT_LT(a.stats.max_constraint_violation, 1e-13);
  EXPECT_LT((a.states.back().lambda - b.states.back().lambda).lpNorm<Eigen::Infinity>(),
            1e-4 * b.states.back().lambda.lpNorm<Eigen::Infinity>());
}

TEST(TreeAlpha, JointCoordinatesAreRefusedWhereTheModelDoesNotAllowThem) {
  Model m = testing::slider_crank();
  add_joint(m, "extra", joints::JointType::kUniversal, 1, 2, Vec3(0.17, 0, 0), Vec3::UnitZ(),
            Vec3::UnitY());
  System sys(m);
  SolverSettings st;
  st.coordinates = CoordinateChoice::kJoint;
  const std::string why = incompatible_settings(sys, st);
  EXPECT_NE(why.find("solver.coordinates: joint is not possible here"), std::string::npos) << why;
}

TEST(TreeAlpha, OutputsCarryTheJointReactions) {
  // At every output the multipliers are those of the absolute equations at the output's state,
  // [M Bᵀ; B 0][v̇; λ] = [f; −ζ], to the Newton tolerance's share in v̇ (β′δq, kAccelFraction of
  // ‖v̇‖): 1e-7 relative leaves a hundredfold margin.
  const Model model = double_pendulum();
  System sys(model);
  testing::Recorder rec;
  State s;
  std::vector<std::string> notes;
  RunSettings rs = run_settings(1e-3, 0.3, CoordinateChoice::kJoint);
  rs.output.every = 7;
  const RunStats stats = run_analysis(sys, rs, rec, s, notes);
  ASSERT_TRUE(stats.ok) << stats.message;
  ASSERT_EQ(stats.integrator, kJointName);
  LinearSystem ls;
  double worst = 0.0;
  for (const State& out : rec.states) {
    State exact = out;
    ASSERT_TRUE(solve_accelerations(sys, exact, ls).ok);
    const double scale = 1.0 + exact.lambda.lpNorm<Eigen::Infinity>();
    worst = std::max(worst, (out.lambda - exact.lambda).lpNorm<Eigen::Infinity>() / scale);
    EXPECT_LT((out.vdot - exact.vdot).lpNorm<Eigen::Infinity>(),
              1e-7 * (1.0 + exact.vdot.lpNorm<Eigen::Infinity>()));
  }
  std::printf("[ tree ] reactions at %zu outputs: worst relative difference %.2e\n",
              rec.states.size(), worst);
  EXPECT_LT(worst, 1e-7);
  // The stepping API hands out complete states after every step.
  Simulation sim(sys, rs);
  ASSERT_TRUE(sim.initialize(notes));
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(sim.step());
  State exact = sim.state();
  ASSERT_TRUE(solve_accelerations(sys, exact, ls).ok);
  EXPECT_LT((sim.state().lambda - exact.lambda).lpNorm<Eigen::Infinity>(),
            1e-7 * (1.0 + exact.lambda.lpNorm<Eigen::Infinity>()));
}

}  // namespace
}  // namespace cs
