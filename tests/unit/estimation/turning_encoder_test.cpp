// An encoder on a turning shaft: its angle channel wraps to ±π once a revolution, and the filter
// takes angle differences modulo 2π (src/estimation/angle_channels.hpp). The samples near the
// wrap are given on the other branch (θ ∓ 2π, the same angle as an encoder may report it), so
// every crossing puts a 2π jump between sample and prediction: without the modulo the filter's
// correction is 2π / σ off and it loses the shaft.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>

#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

// A free rotor at 10 rad/s: 3.2 revolutions in 2 s, six wraps of its encoder.
const char* kRotor = R"(
gravity: [0, 0, 0]
bodies:
  rotor: {mass: 1, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0], angular_velocity: [0, 0, 10]}
joints:
  shaft: {type: revolute, bodies: [ground, rotor], at: [0, 0, 0], axis: [0, 0, 1]}
forces:
  bearing: {type: rotational_spring_damper, joint: shaft, stiffness: 0, damping: 0}
solver: {integrator: generalized_alpha, coordinates: absolute, step: 1.0e-3, end: 2}
sensors:
  encoder: {channel: bearing.angle, noise: 1.0e-3, rate: 1000}
)";

double wrapped(double angle) { return std::remainder(angle, 2.0 * std::numbers::pi); }

// The largest wrapped error of the filter's angle against the truth after 0.05 s.
void expect_follows_the_turning_shaft(FilterKind kind, const char* label) {
  const LoadedModel lm = load_model_string(kRotor, "truth");
  System sys(lm.model);
  Simulation truth(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(truth.initialize(notes));
  const ChannelSet encoder(sys, {"bearing.angle"});
  FilterSettings f;
  f.kind = kind;
  f.sigma_position = 1e-3;
  f.sigma_rotation = 1e-3;
  f.sigma_velocity = 1e-2;
  f.sigma_angular_velocity = 1e-2;
  ExtendedKalmanFilter filter(kRotor, "plant", {}, f);
  filter.set_outputs({"bearing.angle"});
  std::mt19937_64 rng(31);
  std::normal_distribution<double> normal;
  std::vector<double> value, est, sigma;
  double worst = 0.0, worst_sigma = 0.0;
  int other_branch = 0;
  for (int n = 0; n <= 2000; ++n) {
    if (n > 0) {
      ASSERT_TRUE(truth.step());
      ASSERT_TRUE(filter.predict()) << label << " at step " << n << ": " << filter.why();
    }
    encoder.evaluate(truth.state(), RunStats(), value);
    double y = value[0] + 1e-3 * normal(rng);
    if (std::abs(value[0]) > std::numbers::pi - 0.05) {  // the same angle on the other branch
      y -= std::copysign(2.0 * std::numbers::pi, value[0]);
      ++other_branch;
    }
    filter.update(filter.due(), VecX::Constant(1, y));
    filter.estimate_outputs(est, sigma);
    if (n >= 50) {
      worst = std::max(worst, std::abs(wrapped(est[0] - value[0])));
      worst_sigma = std::max(worst_sigma, sigma[0]);
    }
  }
  std::printf("%s: %d samples on the other branch; largest angle error %.3g rad (σ ≤ %.3g)\n",
              label, other_branch, worst, worst_sigma);
  EXPECT_GT(other_branch, 20);  // every wrap was exercised (about 10 samples each)
  EXPECT_LT(worst, 1e-3);       // below one sample's σ: the wraps did not disturb it
  EXPECT_LT(worst_sigma, 5e-4);
}

TEST(TurningEncoder, ExtendedFilterTakesAngleDifferencesModuloTwoPi) {
  expect_follows_the_turning_shaft(FilterKind::kExtended, "EKF");
}

TEST(TurningEncoder, UnscentedFilterTakesAngleDifferencesModuloTwoPi) {
  expect_follows_the_turning_shaft(FilterKind::kUnscented, "UKF");
}

}  // namespace
}  // namespace cs
