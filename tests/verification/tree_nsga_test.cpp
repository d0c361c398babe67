// NSGA in joint coordinates (TreeAlpha with contacts; solvers/tree_nsga.cpp): which models take
// it, its agreement with NSGA in body poses through an impact at second order in h, exact
// non-penetration, and persistent contacts that carry a static load.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "clearsim/solvers/tree_alpha.hpp"
#include "support/example_runs.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

constexpr const char* kJointNsga = "nsga (joint coordinates)";

LoadedModel flores() { return load_model_file(testing::example_path("flores_slider_crank_nsga")); }

// The Flores slider–crank up to `end` at step h in the given coordinates; the slider velocity at
// the end.
double flores_slider_velocity(double h, double end, CoordinateChoice coordinates, RunStats* st) {
  LoadedModel lm = flores();
  lm.run.solver.step = h;
  lm.run.solver.end = end;
  lm.run.solver.coordinates = coordinates;
  lm.run.output.every = 1000000;
  const auto r = testing::run(lm.model, lm.run);
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  if (st != nullptr) *st = r.stats;
  return r.states.back().v(6 * 2);  // slider: body 2
}

TEST(TreeNsga, FloresRunsInJointCoordinates) {
  LoadedModel lm = flores();
  System sys(lm.model);
  std::string why;
  EXPECT_TRUE(TreeAlpha::applies(sys, lm.run.solver, &why)) << why;
  EXPECT_EQ(make_integrator(sys, lm.run.solver)->name(), kJointNsga);
}

TEST(TreeNsga, AgreesWithBodyPosesAtSecondOrderThroughAnImpact) {
  // Up to 0.5 ms the journal crosses the clearance once and impacts at 0.23 ms (e = 0.9). The two
  // coordinate choices are two discretizations of the same motion: their slider velocities after
  // the impact differ by O(h²) (the corrections' metrics M and JᵀMJ, and the smooth step's
  // driver row, index 3 here and stabilized there, differ at that order), while each differs
  // from the exact motion by O(h) (the impact instant is resolved to a step). Measured
  // differences: 2.5e-5, 6.5e-6, 1.7e-6 m/s at h = 1e-5, 5e-6, 2.5e-6 s (ratios 3.95, 3.70);
  // the bound 3 on the ratio is second order with margin, first order would give 2.
  const double end = 5e-4;
  double last = 0.0;
  for (const double h : {1e-5, 5e-6, 2.5e-6}) {
    RunStats joint, body;
    const double vj = flores_slider_velocity(h, end, CoordinateChoice::kJoint, &joint);
    const double vb = flores_slider_velocity(h, end, CoordinateChoice::kAbsolute, &body);
    EXPECT_EQ(joint.integrator, kJointNsga);
    EXPECT_EQ(body.integrator, "nsga");
    EXPECT_EQ(joint.contact_onsets, 1);
    EXPECT_EQ(body.contact_onsets, 1);
    EXPECT_LE(joint.max_penetration, 1e-9);
    const double diff = std::abs(vj - vb);
    EXPECT_LT(diff, 1e-4) << "h = " << h;  // of a slider speed of 8.3 m/s
    if (last > 0.0) {
      EXPECT_GT(last / diff, 3.0) << "h = " << h;
    }
    last = diff;
  }
}

TEST(TreeNsga, FloresKeepsTheGapsClosedThroughEveryRegime) {
  // A quarter of the example (0.03 s, 3000 steps): free flights, impacts and persistent contact
  // all occur; no gap is ever below −1e-9 m (the correction's tolerance is 1e-10 m).
  LoadedModel lm = flores();
  lm.run.solver.end = 0.03;
  const auto r = testing::run_loaded(std::move(lm), 0.0, 1, {"rod_slider.gap1"});
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_EQ(r.stats.integrator, kJointNsga);
  EXPECT_LE(r.stats.max_penetration, 1e-9);
  EXPECT_GE(testing::min_of(r.columns[0]), -1e-9);
  EXPECT_GT(r.stats.open_steps, 0);
  EXPECT_GT(r.stats.contact_steps, 0);
  EXPECT_GT(r.stats.impact_steps, 0);
}

// A 2 kg block on a prismatic guide along x, gravity along −x, dropped 0.1 m onto a wall
// (e = 0.5): it bounces, settles and rests on the wall.
constexpr const char* kResting = R"(
gravity: [-9.81, 0, 0]
bodies:
  block: {mass: 2.0, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [0, 0, 0]}
joints:
  guide: {type: prismatic, bodies: [ground, block], axis: [1, 0, 0]}
contacts:
  wall:
    type: sphere_plane
    plane: {body: ground, point: [-0.15, 0, 0], normal: [1, 0, 0]}
    sphere: {body: block, center: [0, 0, 0], radius: 0.05}
    restitution: 0.5
solver: {integrator: nsga, rho_inf: 0.8, step: 1.0e-3, end: 1.0}
)";

TEST(TreeNsga, RestingBlockCarriesItsWeightWithoutImpulses) {
  // As PersistentContact.RestingBallCarriesItsWeightWithoutImpulses in body poses: once the
  // bounces have died out (by 0.6 s) the contact is persistent, its smooth force is the weight
  // m g to round-off from its first step (the accelerations are restarted at the onset; without
  // the restart generalized-α's (−ρ∞)ᵏ mode shows in λ_N), no impulse acts, the block stays on
  // the wall and at rest.
  LoadedModel lm = load_model_string(kResting, "resting.yaml");
  ASSERT_TRUE(lm.warnings.empty());
  const auto r = testing::run(lm.model, lm.run);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_EQ(r.stats.integrator, kJointNsga);
  EXPECT_LE(r.stats.impact_steps, 12);
  // From the step after the last impact on, at every step: the force is the weight at once.
  std::size_t last_impact = 0;
  for (std::size_t k = 0; k < r.states.size(); ++k)
    if (r.states[k].contact.size() == 1 && r.states[k].contact[0] == ContactState::kImpact)
      last_impact = k;
  ASSERT_GT(last_impact, 0u);
  ASSERT_LT(r.states[last_impact].t, 0.6);
  int checked = 0;
  for (std::size_t k = last_impact + 1; k < r.states.size(); ++k) {
    const State& s = r.states[k];
    ++checked;
    EXPECT_EQ(s.contact[0], ContactState::kContact) << s.t;
    EXPECT_NEAR(s.lambda_N(0), 2.0 * 9.81, 1e-9 * 2.0 * 9.81) << s.t;
    EXPECT_EQ(s.Lambda(0), 0.0) << s.t;
    EXPECT_NEAR(s.x_W[0].x(), -0.1, 1e-10) << s.t;
    EXPECT_NEAR(s.v(0), 0.0, 1e-12) << s.t;
  }
  EXPECT_GT(checked, 300);
}

// A planar two-link arm, no gravity, whose tip (a spherical clearance joint with ground, c = 1 mm,
// e = 0) is pushed against the cavity wall for 4 ms and then slides round it, carried by the
// smooth step as a persistent contact (0.5 kg lower link spinning at −10 rad/s about the elbow).
constexpr const char* kSlidingTip = R"(
gravity: [0, 0, 0]
bodies:
  upper: {mass: 1.0, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [0.05, 0, 0]}
  lower: {mass: 0.5, inertia: [5.0e-4, 5.0e-4, 5.0e-4], position: [0.1, 0.05, 0],
          velocity: [0.5, 0, 0], angular_velocity: [0, 0, -10]}
joints:
  shoulder: {type: revolute, bodies: [ground, upper], at: [0, 0, 0], axis: [0, 0, 1]}
  elbow: {type: revolute, bodies: [upper, lower], at: [0.1, 0, 0], axis: [0, 0, 1]}
  cavity:
    type: spherical
    bodies: [ground, lower]
    at: [0.1, 0.1, 0]
    clearance: {radial: 1.0e-3, restitution: 0.0}
forces:
  push:
    type: point_load
    body: lower
    force:
      - 0
      - {type: smooth_step, t0: 0, v0: -60, t1: 0.004, v1: 0}
      - 0
solver: {integrator: nsga, rho_inf: 0.8, step: 1.0e-5, end: 0.03}
)";

// Kinetic energy change from 5 ms (sliding, the push over) to the end, at step h.
double sliding_energy_drift(double h, CoordinateChoice coordinates) {
  LoadedModel lm = load_model_string(kSlidingTip, "sliding_tip.yaml");
  EXPECT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  lm.run.solver.step = h;
  lm.run.solver.coordinates = coordinates;
  const auto r =
      testing::run_loaded(std::move(lm), 0.0, 1, {"system.kinetic_energy", "cavity.contact_state"});
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_EQ(r.stats.contact_onsets, 1);
  EXPECT_LE(r.stats.max_penetration, 1e-9);
  std::size_t k0 = 0;
  while (r.t[k0] < 0.005) ++k0;
  for (std::size_t k = k0; k < r.t.size(); ++k)
    EXPECT_EQ(r.columns[1][k], 1.0) << "not in persistent contact at t = " << r.t[k];
  return r.columns[0].back() - r.columns[0][k0];
}

TEST(TreeNsga, SlidingTipKeepsItsEnergyAtSecondOrder) {
  // 25 ms of frictionless sliding at 7.5e-3 J: the energy error of the smooth step shrinks as h²
  // in joint coordinates (index-3 contact rows) as in body poses (velocity rows). Measured drifts
  // at h = 1e-5, 5e-6, 2.5e-6 s: joint −1.75e-8, −3.6e-9, −8.0e-10 J (ratios 4.9, 4.5); body
  // poses −8.6e-9, −2.1e-9, −5.4e-10 J (4.0, 4.0). The bound 3 on the ratio is second order with
  // margin; the drifts must also stay within 1e-7 of 7.5e-3 J.
  for (const CoordinateChoice c : {CoordinateChoice::kJoint, CoordinateChoice::kAbsolute}) {
    double last = 0.0;
    for (const double h : {1e-5, 5e-6, 2.5e-6}) {
      const double drift = std::abs(sliding_energy_drift(h, c));
      EXPECT_LT(drift, 1e-7) << "h = " << h;
      if (last > 0.0) {
        EXPECT_GT(last / drift, 3.0) << "h = " << h;
      }
      last = drift;
    }
  }
}

TEST(TreeNsga, FrictionKeepsBodyPoses) {
  // The frictional velocity jump works on body poses: auto keeps them, joint is refused.
  const std::string yaml =
      testing::replace_once(kResting, "restitution: 0.5", "restitution: 0.5\n    friction: 0.3");
  LoadedModel lm = load_model_string(yaml, "friction.yaml");
  ASSERT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  System sys(lm.model);
  std::string why;
  EXPECT_FALSE(TreeAlpha::applies(sys, lm.run.solver, &why));
  EXPECT_NE(why.find("friction"), std::string::npos) << why;
  EXPECT_EQ(make_integrator(sys, lm.run.solver)->name(), "nsga");
  lm.run.solver.coordinates = CoordinateChoice::kJoint;
  State s;
  std::vector<std::string> notes;
  testing::Recorder rec;
  const RunStats st = run_analysis(sys, lm.run, rec, s, notes);
  EXPECT_FALSE(st.ok);
  EXPECT_NE(st.message.find("friction"), std::string::npos) << st.message;
}

}  // namespace
}  // namespace cs
