// Static equilibrium against closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/model/model_builder.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

// Pendulum (bob 1 kg at L = 1 m, horizontal in the reference configuration) held by a torsion
// spring k at the pivot with free angle 0, gravity −y. Equilibrium: k θ + m g L cos θ = 0.
TEST(StaticEquilibrium, SpringLoadedPendulumMatchesClosedForm) {
  for (double k : {5.0, 20.0, 200.0}) {
    Model m;
    m.gravity_W = Vec3(0, -9.81, 0);
    Body bob;
    bob.name = "bob";
    bob.mass = 1.0;
    bob.inertia_B = 1e-3 * Mat3::Identity();
    bob.x0_W = Vec3(1, 0, 0);
    add_body(m, bob);
    const int j = add_joint(m, "pivot", joints::JointType::kRevolute, kGround, 0, Vec3::Zero(),
                            Vec3::UnitZ());
    const auto* joint = static_cast<const joints::IdealJoint*>(m.elements[j].get());
    forces::SpringDamperParams p;
    p.stiffness = k;
    add_element(m, std::make_unique<forces::RotationalSpringDamper>("torsion", joint->marker_i(),
                                                                    joint->marker_j(), p));
    RunSettings s;
    s.solver.analysis = Analysis::kStatic;
    s.solver.newton_tol = 1e-12;
    const auto r = testing::run(m, s);
    ASSERT_TRUE(r.stats.ok) << r.stats.message;
    ASSERT_EQ(r.states.size(), 1u);
    // Closed form by Newton on g(θ) = kθ + mgL cos θ (monotone for k > mgL; bracketed start).
    double th = -0.5;
    for (int it = 0; it < 100; ++it)
      th -= (k * th + 9.81 * std::cos(th)) / (k - 9.81 * std::sin(th));
    const Vec3 x = r.states[0].x_W[0];
    EXPECT_NEAR(std::atan2(x.y(), x.x()), th, 1e-10) << "k = " << k;
    EXPECT_NEAR(x.norm(), 1.0, 1e-12);
  }
}

// A block on a vertical prismatic guide hanging from a linear spring: x = ℓ0 − m g/k.
TEST(StaticEquilibrium, HangingMassOnSpring) {
  Model m;
  m.gravity_W = Vec3(0, 0, -9.81);
  Body b;
  b.name = "block";
  b.mass = 2.0;
  b.inertia_B = 0.01 * Mat3::Identity();
  b.x0_W = Vec3(0, 0, -1);
  add_body(m, b);
  add_joint(m, "guide", joints::JointType::kPrismatic, kGround, 0, Vec3(0, 0, -1), Vec3::UnitZ());
  forces::SpringDamperParams p;
  p.stiffness = 400.0;
  p.free_length = 1.0;
  add_element(m, std::make_unique<forces::TranslationalSpringDamper>(
                     "spring", marker_at(m, kGround, Vec3::Zero(), Mat3::Identity()),
                     marker_at(m, 0, Vec3(0, 0, -1), Mat3::Identity()), p));
  RunSettings s;
  s.solver.analysis = Analysis::kStatic;
  s.solver.newton_tol = 1e-12;
  const auto r = testing::run(m, s);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_NEAR(r.states[0].x_W[0].z(), -1.0 - 2.0 * 9.81 / 400.0, 1e-12);
}

// Without a spring the only stable equilibrium is hanging straight down; from 37° off it the
// geometric stiffness m g L cos(..) > 0 carries Newton there.
TEST(StaticEquilibrium, FreePendulumHangsDown) {
  Model m;
  m.gravity_W = Vec3(0, -9.81, 0);
  Body bob;
  bob.name = "bob";
  bob.mass = 1.0;
  bob.inertia_B = 1e-3 * Mat3::Identity();
  bob.x0_W = Vec3(0.6, -0.8, 0);
  add_body(m, bob);
  add_joint(m, "pivot", joints::JointType::kRevolute, kGround, 0, Vec3::Zero(), Vec3::UnitZ());
  RunSettings s;
  s.solver.analysis = Analysis::kStatic;
  const auto r = testing::run(m, s);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_NEAR(r.states[0].x_W[0].x(), 0.0, 1e-9);
  EXPECT_NEAR(r.states[0].x_W[0].y(), -1.0, 1e-9);
}

// A free body under gravity has no equilibrium: the run must stop with a diagnostic.
TEST(StaticEquilibrium, FreeBodyReportsSingularStiffness) {
  Model m;
  m.gravity_W = Vec3(0, 0, -9.81);
  Body b;
  b.name = "stone";
  b.mass = 1.0;
  b.inertia_B = Mat3::Identity();
  add_body(m, b);
  RunSettings s;
  s.solver.analysis = Analysis::kStatic;
  const auto r = testing::run(m, s);
  EXPECT_FALSE(r.stats.ok);
  EXPECT_NE(r.stats.message.find("singular"), std::string::npos) << r.stats.message;
}

}  // namespace
}  // namespace cs
