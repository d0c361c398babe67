// ChannelSet::footprint: what a channel reads of a state. The adjoint differentiates a channel
// along its footprint only (AdjointGradient::channel_gradient), so a footprint that misses a
// coordinate the channel reads would drop part of a gradient silently. Every channel of several
// example models, at a state in motion, is differentiated along every coordinate and along its
// footprint: the two gradients must be equal bit for bit (the same differences on the
// footprint's coordinates, exactly zero elsewhere). Whole-state channels (system, power) are
// compared too, trivially; the test counts the footprinted ones so it cannot pass vacuously.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/adjoint_gradient.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

bool same_bits(const VecX& a, const VecX& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!(a(i) == b(i))) return false;
  return true;
}

// Runs examples/REL 2 ms in body poses and compares every channel's two gradients there.
void expect_footprints_hold(const std::string& rel, int min_footprinted) {
  const std::string text =
      testing::read_text(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + rel);
  LoadedModel lm =
      load_model_string(text, rel, {{"solver.coordinates", "absolute"}, {"solver.end", "0.002"}});
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes)) << sim.stats().message;
  ASSERT_TRUE(sim.run_to(0.002)) << sim.stats().message;
  const State& s = sim.state();
  int footprinted = 0, compared = 0;
  for (const std::string& name : ChannelSet::available(sys)) {
    const ChannelSet one(sys, {name});
    std::vector<double> v;
    one.evaluate(s, sim.stats(), v);
    if (!std::isfinite(v[0])) continue;  // an efficiency where no power enters
    const ChannelFootprint reads = one.footprint(0);
    const StateTangent all = AdjointGradient::channel_gradient(one, s, sim.stats(), {});
    const StateTangent along = AdjointGradient::channel_gradient(one, s, sim.stats(), reads);
    EXPECT_TRUE(same_bits(all.q, along.q)) << rel << ": " << name << " (poses)";
    EXPECT_TRUE(same_bits(all.v, along.v)) << rel << ": " << name << " (velocities)";
    EXPECT_TRUE(same_bits(all.a, along.a)) << rel << ": " << name << " (reads a)";
    EXPECT_TRUE(same_bits(all.vdot, along.vdot)) << rel << ": " << name << " (accelerations)";
    EXPECT_TRUE(same_bits(all.lambda, along.lambda)) << rel << ": " << name << " (multipliers)";
    footprinted += reads.whole ? 0 : 1;
    ++compared;
  }
  std::printf("%s: %d channels, %d footprinted\n", rel.c_str(), compared, footprinted);
  EXPECT_GE(footprinted, min_footprinted) << rel;
}

// Bodies, a driver's torque and ideal joints' reactions (their λ rows).
TEST(ChannelFootprint, IdealSliderCrank) {
  expect_footprints_hold("slider_crank_ideal/model.yaml", 40);
}

// Lubricated revolute clearance joints with memory (film forces read both bodies).
TEST(ChannelFootprint, LubricatedFourBar) {
  expect_footprints_hold("four_bar_clearance/lubricated_wedge.yaml", 40);
}

// A compliant dry clearance joint (Lankarani–Nikravesh) and markers.
TEST(ChannelFootprint, CompliantFloresSliderCrank) {
  expect_footprints_hold("flores_slider_crank/model.yaml", 40);
}

// Springs and dampers between bodies.
TEST(ChannelFootprint, FiveBarWithSprings) {
  expect_footprints_hold("five_bar_springs/model.yaml", 40);
}

}  // namespace
}  // namespace cs
