// Joint limits in whole runs (docs/model-format.md, "Joint limits"):
// - a slider on a vertical prismatic joint falls onto its lower stop and, critically damped,
//   comes to rest where the stop carries its weight: x = lower − m g / k;
// - without damping or gravity, a slider that meets the upper stop at v₀ leaves at −v₀ after half
//   a period π √(m/k), the peak force v₀ √(k m) (an elastic impact on a spring);
// - a pendulum falls onto its upper angle and rests where k (θ − upper) = m g l cos θ, the same in
//   body poses and in joint coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/channel_recorder.hpp"

namespace cs {
namespace {

testing::ChannelRecorder run(const std::string& text, const std::vector<std::string>& channels,
                             CoordinateChoice coordinates = CoordinateChoice::kAuto) {
  LoadedModel lm = load_model_string(text, "limits.yaml");
  lm.run.output.every = 1;
  lm.run.solver.coordinates = coordinates;
  System sys(lm.model);
  ChannelSet set(sys, channels);
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  EXPECT_TRUE(run_analysis(sys, lm.run, rec, s, notes).ok);
  return rec;
}

// m = 2 kg, k = 1e5 N/m, c = 2√(k m) = 894.4 N·s/m (critical).
const char* const kFallingSlider = R"(
gravity: [0, 0, -9.81]
bodies:
  slider: {mass: 2, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0]}
joints:
  guide: {type: prismatic, bodies: [ground, slider], axis: [0, 0, 1],
          limits: {lower: -0.1, upper: 0.1, stiffness: 1.0e5, damping: 894.427191}}
solver: {integrator: generalized_alpha, rho_inf: 0.9, step: 1.0e-4, end: 0.6}
)";

TEST(JointLimitRun, SliderRestsOnItsLowerStopUnderItsWeight) {
  const auto rec = run(kFallingSlider, {"guide_limits.displacement", "guide_limits.force"});
  const double weight = 2 * 9.81;
  // The free fall reaches the stop at √(2 g 0.1) = 1.4 m/s; ω_n = 224 rad/s critically damped
  // leaves e^(−224·0.45) of it after 0.45 s: at rest to round-off.
  EXPECT_NEAR(rec.column(0).back(), -0.1 - weight / 1.0e5, 1e-12);
  EXPECT_NEAR(rec.column(1).back(), weight, 1e-9 * weight);
  // Before it reaches the stop (t < √(2·0.1/g) = 0.1428 s) nothing holds it.
  for (std::size_t k = 0; rec.times[k] < 0.14; ++k) EXPECT_EQ(rec.column(1)[k], 0.0);
}

// m = 1 kg, k = 1e4 N/m: ω_n = 100 rad/s; the slider starts 0.01 m below the stop at 0.5 m/s.
const char* const kBouncingSlider = R"(
bodies:
  slider: {mass: 1, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0], velocity: [0, 0, 0.5]}
joints:
  guide: {type: prismatic, bodies: [ground, slider], axis: [0, 0, 1],
          limits: {lower: -1, upper: 0.01, stiffness: 1.0e4}}
solver: {integrator: generalized_alpha, rho_inf: 0.98, step: 2.0e-5, end: 0.06}
)";

TEST(JointLimitRun, UndampedStopReflectsTheSliderAfterHalfAPeriod) {
  const auto rec = run(kBouncingSlider, {"guide_limits.force", "slider.velocity.z"});
  const auto force = rec.column(0), speed = rec.column(1);
  double t_on = -1, t_off = -1, peak = 0;
  for (std::size_t k = 0; k < rec.times.size(); ++k) {
    if (force[k] != 0.0 && t_on < 0) t_on = rec.times[k];
    if (force[k] != 0.0) t_off = rec.times[k];
    peak = std::max(peak, -force[k]);
  }
  // Contact starts at 0.01/0.5 = 20 ms and lasts π/ω_n = 31.4 ms, each within a step (2e-5 s)
  // and the trapezoidal rule's period error (ω_n h)²/12 = 3e-7; the peak v₀√(k m) = 50 N within
  // the step's sampling of the top of the half sine (1 − cos(ω_n h) = 2e-7) and that error: 1e-5.
  EXPECT_NEAR(t_on, 0.02, 2.0e-5);
  EXPECT_NEAR(t_off - t_on, std::numbers::pi / 100.0, 4.0e-5);
  EXPECT_NEAR(peak, 50.0, 1e-5 * 50.0);
  EXPECT_NEAR(speed.back(), -0.5, 1e-4);
}

// A rod pendulum (point-like: m = 1 kg at l = 0.5 m from a horizontal axis along y), released
// horizontal, falls onto its upper limit 0.4 rad below the horizontal.
const char* const kPendulum = R"(
gravity: [0, 0, -9.81]
bodies:
  rod: {mass: 1, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [0.5, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, rod], at: [0, 0, 0], axis: [0, 1, 0],
          limits: {lower: -30, upper: 22.918311805232928, angle_unit: deg,
                   stiffness: 2.0e3, damping: 10}}
solver: {integrator: generalized_alpha, rho_inf: 0.9, step: 1.0e-4, end: 1.5}
)";

TEST(JointLimitRun, PendulumRestsOnItsUpperLimitInEitherCoordinates) {
  // k (θ − 0.4) = m g l cos θ, by Newton: θ* = 0.40225...
  const double k = 2.0e3, mgl = 9.81 * 0.5, upper = 0.4;
  double theta = upper;
  for (int it = 0; it < 20; ++it)
    theta -= (k * (theta - upper) - mgl * std::cos(theta)) / (k + mgl * std::sin(theta));
  for (CoordinateChoice c : {CoordinateChoice::kAbsolute, CoordinateChoice::kJoint}) {
    const auto rec = run(kPendulum, {"pivot_limits.angle", "pivot_limits.torque"}, c);
    // ω_n ≈ √(k/(m l²)) = 89 rad/s with ζ = c/(2√(k m l²)) = 0.22: e^(−20·1.3) left.
    EXPECT_NEAR(rec.column(0).back(), theta, 1e-10);
    EXPECT_NEAR(rec.column(1).back(), -mgl * std::cos(theta), 1e-7);
  }
}

}  // namespace
}  // namespace cs
