// A bearing loss model on an ideal joint (joint_bearing_loss.hpp): the torque's tangents against
// central differences, Petroff's spin-down of a flywheel in closed form, and a rotor turned at a
// constant speed under its weight, whose torque is the short bearing's at the load its joint
// carries and whose power loss is what the driver puts in.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <string>

#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/finite_difference.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/channel_recorder.hpp"
#include "support/journal_bearing.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kMu = 0.1, kR = 0.1, kL = 0.1, kC = 1e-4;  // Petroff: 0.628 N·m·s

// A revolute joint between random markers carrying `loss` (a finite bearing's table is shared).
std::unique_ptr<joints::IdealJoint> loaded_joint(std::mt19937& rng,
                                                 const joints::JointBearingLoss& loss, int body_i) {
  Marker mi, mj;
  mi.body = body_i;
  mj.body = 1;
  mi.p_B = testing::random_vec(rng, 0.3);
  mj.p_B = testing::random_vec(rng, 0.3);
  mi.R_BM = mj.R_BM = so3::exp(testing::random_vec(rng, 2.0));
  auto joint =
      std::make_unique<joints::IdealJoint>("bearing", joints::JointType::kRevolute, mi, mj);
  joint->set_bearing_loss(loss);
  return joint;
}

// ∂f/∂q and ∂f/∂v of the applied torque (forces::add_axial_torque with ∂T/∂θ̇ of the loaded
// bearing), at a remembered load of 2 kN (ε ≈ 0.3–0.9 at the random rates) and without load
// (Petroff), against central differences (force_test_support.hpp's tolerance argument).
TEST(JointBearingLoss, TangentsMatchFiniteDifferences) {
  std::mt19937 rng(2929);
  for (auto model : {lubrication::BearingModel::kShort, lubrication::BearingModel::kLong,
                     lubrication::BearingModel::kFinite}) {
    joints::JointBearingLoss loss;
    loss.bearing = testing::make_bearing(model, kMu, kR, kL, kC, 0.99);
    lubrication::attach_finite_table(loss.bearing);
    for (double load : {0.0, 2000.0}) {
      for (int trial = 0; trial < 3; ++trial) {
        const int body_i = trial == 0 ? kGround : 0;
        const auto joint = loaded_joint(rng, loss, body_i);
        const BodyKinematics bi = trial == 0 ? BodyKinematics{} : testing::random_body(rng);
        const BodyKinematics bj = testing::random_body(rng);
        const double memory[3] = {-1.0, 0.0, load};  // updated before t = 0: W = load
        const auto f_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
          ForceBlock fb;
          joint->force({0.0, &a, &b, memory}, fb, false);
          return VecX(fb.f);
        };
        ForceBlock fb;
        joint->force({0.0, &bi, &bj, memory}, fb, true);
        const MatX dq = fd::jacobian_q(f_of, bi, bj), dv = fd::jacobian_v(f_of, bi, bj, 1e-6);
        const std::string label = "model " + std::to_string(int(model)) + " load " +
                                  std::to_string(load) + " trial " + std::to_string(trial);
        EXPECT_LT((dq - fb.df_dq).norm(), 1e-7 * (1.0 + fb.f.norm() + fb.df_dq.norm())) << label;
        EXPECT_LT((dv - fb.df_dv).norm(), 1e-7 * (1.0 + fb.f.norm() + fb.df_dv.norm())) << label;
      }
    }
  }
}

// A free flywheel (J = 0.5 kg·m²) in a Petroff bearing: J ω̇ = −C ω, C = 2πμR³L/c, so
// ω(t) = ω₀ exp(−C t/J). Generalized-α is second-order accurate: at h = 1e-3 s over 1 s the
// error is measured at 2e-7 relative; 1e-5 bounds it.
TEST(JointBearingLoss, PetroffSpinDownMatchesClosedForm) {
  const std::string text = R"(
gravity: [0, 0, 0]
bodies:
  wheel: {mass: 10, inertia: [0.3, 0.3, 0.5], position: [0, 0, 0], angular_velocity: [0, 0, 100]}
joints:
  shaft:
    type: revolute
    bodies: [ground, wheel]
    at: [0, 0, 0]
    axis: [0, 0, 1]
    bearing_loss: {model: petroff, viscosity: 0.1, radius: 0.1, length: 0.1, clearance: 1.0e-4}
solver: {integrator: generalized_alpha, step: 1.0e-3, end: 1.0}
output: {every: 100}
)";
  LoadedModel lm = load_model_string(text, "flywheel");
  ASSERT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  System sys(lm.model);
  ChannelSet set(sys, {"wheel.angular_velocity.z", "shaft.friction_torque", "shaft.power_loss",
                       "power.residual", "power.shaft.loss", "power.kinetic_rate"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  ASSERT_TRUE(stats.ok) << stats.message;
  const double C = 2.0 * kPi * kMu * kR * kR * kR * kL / kC, J = 0.5;
  for (std::size_t k = 0; k < rec.times.size(); ++k) {
    const double t = rec.times[k], w = rec.column(0)[k];
    EXPECT_NEAR(w, 100.0 * std::exp(-C * t / J), 1e-5 * 100.0) << t;
    EXPECT_NEAR(rec.column(1)[k], -C * w, 1e-12 * C * 100.0) << t;
    EXPECT_NEAR(rec.column(2)[k], C * w * w, 1e-12 * C * 1e4) << t;
    // The loss is what the wheel's kinetic energy gives up.
    EXPECT_NEAR(rec.column(4)[k], rec.column(2)[k], 1e-9 * C * 1e4) << t;
    EXPECT_NEAR(rec.column(3)[k], 0.0, 1e-6 * C * 1e4) << t;
    EXPECT_NEAR(rec.column(5)[k], -rec.column(2)[k], 1e-6 * C * 1e4) << t;
  }
}

// A 100 kg rotor turned at 50 rad/s by a driver, its weight on a short bearing: the joint's
// reaction is the weight (its centre of mass on the axis), so after the start the torque is
// loaded_bearing_torque(50 rad/s, 981 N) (Ocvirk's closed form, loaded_bearing_test.cpp), and the
// driver puts in exactly the bearing's power loss: the power balance closes (to the Newton
// tolerance of the step's solution).
TEST(JointBearingLoss, DrivenRotorUnderItsWeight) {
  const std::string text = R"(
gravity: [0, -9.81, 0]
bodies:
  rotor: {mass: 100, inertia: [2, 2, 4], position: [0, 0, 0]}
joints:
  shaft:
    type: revolute
    bodies: [ground, rotor]
    at: [0, 0, 0]
    axis: [0, 0, 1]
    bearing_loss: {model: short, viscosity: 0.01, radius: 0.1, length: 0.1, clearance: 1.0e-4}
drivers:
  spin: {joint: shaft, angular_velocity: 50}
solver: {integrator: generalized_alpha, step: 1.0e-3, end: 0.05}
output: {every: 10}
)";
  LoadedModel lm = load_model_string(text, "rotor");
  ASSERT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  System sys(lm.model);
  ChannelSet set(sys, {"shaft.bearing_load", "shaft.friction_torque", "shaft.power_loss",
                       "shaft.eccentricity_ratio", "spin.power", "power.input", "power.residual"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  ASSERT_TRUE(stats.ok) << stats.message;
  lubrication::JournalBearing b =
      testing::make_bearing(lubrication::BearingModel::kShort, 0.01, kR, kL, kC, 0.99);
  b.cavitation = lubrication::Cavitation::kHalfSommerfeld;
  const lubrication::LoadedTorque expected = lubrication::loaded_bearing_torque(b, 50.0, 981.0);
  EXPECT_GT(expected.eps, 0.2);  // a loaded film, not Petroff's
  // The start was solved before any reaction was known: Petroff's torque, no load.
  EXPECT_EQ(rec.column(0)[0], 0.0);
  EXPECT_EQ(rec.column(1)[0], lubrication::petroff_torque(b, 50.0).torque);
  for (std::size_t k = 0; k < rec.times.size(); ++k) {
    const double t = rec.times[k];
    if (k > 0) {
      EXPECT_NEAR(rec.column(0)[k], 981.0, 1e-6 * 981.0) << t;
      EXPECT_NEAR(rec.column(1)[k], expected.torque, 1e-6 * std::abs(expected.torque)) << t;
      EXPECT_NEAR(rec.column(2)[k], -expected.torque * 50.0, 1e-6 * std::abs(expected.torque) * 50)
          << t;
      EXPECT_NEAR(rec.column(3)[k], expected.eps, 1e-6) << t;
    }
    EXPECT_NEAR(rec.column(4)[k], rec.column(2)[k], 1e-6 * rec.column(2)[k]) << t;
    EXPECT_NEAR(rec.column(5)[k], rec.column(2)[k], 1e-6 * rec.column(2)[k]) << t;
    EXPECT_NEAR(rec.column(6)[k], 0.0, 1e-6 * rec.column(5)[k]) << t;
  }
}

}  // namespace
}  // namespace cs
