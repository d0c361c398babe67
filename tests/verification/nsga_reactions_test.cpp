// Under NSGA the reactions of ideal joints include the impulses of the velocity jump (their mean
// over the step, μ/h), as body accelerations include W/h: momentum balances at every step.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/channel_recorder.hpp"

namespace cs {
namespace {

// A 2 kg block on a prismatic guide along x, moving at 1 m/s into a wall inclined at 45°
// (normal (−1, 0, 1)/√2), e = 0.5, h = 1 ms. The impact impulse Λ has a z component Λ/√2 that
// the guide must cancel within the impact step.
constexpr const char* kModel = R"(
gravity: [0, 0, 0]
bodies:
  block: {mass: 2.0, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [0, 0, 0], velocity: [1.0, 0, 0]}
joints:
  guide: {type: prismatic, bodies: [ground, block], axis: [1, 0, 0]}
contacts:
  wall:
    type: sphere_plane
    plane: {body: ground, point: [0.5, 0, 0], normal: [-0.70710678118654752, 0, 0.70710678118654752]}
    sphere: {body: block, center: [0, 0, 0], radius: 0.05}
    restitution: 0.5
solver: {integrator: nsga, rho_inf: 0.8, step: 1.0e-3, end: 0.6}
)";

// In body poses the guide's rows take the impulse in the velocity jump; in joint coordinates (the
// block's slide is the tree's one coordinate) complete_outputs computes it from the jump.
class NsgaReactions : public ::testing::TestWithParam<CoordinateChoice> {};

TEST_P(NsgaReactions, JointReactionCarriesTheImpulseOfTheImpactStep) {
  LoadedModel lm = load_model_string(kModel, "reactions.yaml");
  ASSERT_TRUE(lm.warnings.empty());
  lm.run.solver.coordinates = GetParam();
  System sys(lm.model);
  const ChannelSet set(sys, {"guide.force.z", "wall.impulse", "block.velocity.x",
                             "block.acceleration.x", "wall.contact_state"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats st = run_analysis(sys, lm.run, rec, s, notes);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_TRUE(notes.empty()) << notes.front();
  EXPECT_EQ(st.integrator,
            GetParam() == CoordinateChoice::kJoint ? "nsga (joint coordinates)" : "nsga");
  const double h = 1e-3, m = 2.0, k = 1.0 / std::sqrt(2.0);
  int impacts = 0;
  for (std::size_t r = 1; r < rec.rows.size(); ++r) {
    const auto& row = rec.rows[r];
    if (row[4] != 2.0) {
      EXPECT_NEAR(row[0], 0.0, 1e-9);  // no load on the guide outside the impact
      continue;
    }
    ++impacts;
    // Newton's law on the normal speed k v_x (−e times it after) gives v_x⁺ = −e v_x⁻ here;
    // momentum along x: m Δv_x = −k Λ.
    const double dv = row[2] - rec.rows[r - 1][2];
    EXPECT_NEAR(row[2], -0.5, 1e-12);
    EXPECT_NEAR(m * dv, -k * row[1], 1e-9);
    // The mean acceleration over the step includes the jump: a_x = Δv_x/h.
    EXPECT_NEAR(row[3], dv / h, 1e-6);
    // The guide cancels the impulse's z component within the step: mean force −k Λ/h (on the
    // block), 3000 N here. Without the jump's impulse the channel would read 0.
    EXPECT_NEAR(row[0], -k * row[1] / h, 1e-6 * k * row[1] / h);
  }
  EXPECT_EQ(impacts, 1);
}

TEST(NsgaReactionsChannels, OnlyJointChannelsReadJointReactions) {
  // Outputs that read no joint reaction let joint coordinates skip computing them; the motion
  // does not depend on that.
  LoadedModel lm = load_model_string(kModel, "reactions.yaml");
  System sys(lm.model);
  EXPECT_TRUE(ChannelSet(sys, {"block.velocity.x", "guide.force.z"}).reads_joint_reactions());
  EXPECT_TRUE(ChannelSet(sys, {"guide"}).reads_joint_reactions());
  EXPECT_FALSE(ChannelSet(sys, {"block.velocity.x", "wall.impulse", "system.kinetic_energy"})
                   .reads_joint_reactions());
  lm.run.solver.coordinates = CoordinateChoice::kJoint;
  const ChannelSet motion(sys, {"block.position.x", "block.velocity.x"});
  const ChannelSet with_force(sys, {"block.position.x", "block.velocity.x", "guide.force.z"});
  testing::ChannelRecorder a(motion), b(with_force);
  State sa, sb;
  std::vector<std::string> notes;
  ASSERT_TRUE(run_analysis(sys, lm.run, a, sa, notes).ok);
  ASSERT_TRUE(run_analysis(sys, lm.run, b, sb, notes).ok);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (std::size_t r = 0; r < a.rows.size(); ++r) {
    EXPECT_EQ(a.rows[r][0], b.rows[r][0]);
    EXPECT_EQ(a.rows[r][1], b.rows[r][1]);
  }
}

INSTANTIATE_TEST_SUITE_P(Coordinates, NsgaReactions,
                         ::testing::Values(CoordinateChoice::kAbsolute, CoordinateChoice::kJoint),
                         [](const auto& p) {
                           return p.param == CoordinateChoice::kJoint ? "joint" : "absolute";
                         });

}  // namespace
}  // namespace cs
