// examples/urdf_arm (README, "What it shows"): before the move the gravity-loaded joints rest on
// their lower stops, each sagging by half the play plus the stop's deflection under the weight it
// carries, b/2 + T/k; the turret, which carries no gravity torque, stays where it started.
#include <gtest/gtest.h>

#include <numbers>
#include <numeric>

#include "support/example_runs.hpp"

namespace cs {
namespace {

double mean_over(const std::vector<double>& t, const std::vector<double>& x, double a, double b) {
  double sum = 0.0;
  int n = 0;
  for (std::size_t k = 0; k < t.size(); ++k)
    if (t[k] >= a && t[k] <= b) {
      sum += x[k];
      ++n;
    }
  return sum / n;
}

TEST(UrdfArm, JointsSagByHalfThePlayPlusTheStopDeflectionBeforeTheMove) {
  LoadedModel lm = load_model_file(testing::example_path("urdf_arm", "model.yaml"));
  lm.warnings.clear();  // the URDF's joint limits are not enforced (said, and expected)
  const auto r = testing::run_loaded(
      std::move(lm), 0.2, 1, {"yaw.lost_motion", "pitch.lost_motion", "elbow_motor.lost_motion"});
  const double g = 9.81, k = 5.0e4, half_play = 0.05 * std::numbers::pi / 180.0;
  // Weight moments about the shoulder and the elbow (arm.urdf: masses at their centres).
  const double T_shoulder = g * (3.0 * 0.25 + 1.5 * 0.6875 + 0.5 * 0.90625);  // 21.92 N·m
  const double T_elbow = g * (1.5 * 0.1875 + 0.5 * 0.40625);                  // 4.752 N·m
  // The links dropped onto their stops at t = 0 and ring (damping ratio ≈ 0.1) with ±5 % of the
  // sag left at 0.1 s; the mean over 0.1–0.2 s (several periods of 27–60 Hz) is within 0.2 % of
  // the rest value, and a link off its stop or a stop law wrong by its damping term would be far
  // outside 3 %.
  EXPECT_NEAR(mean_over(r.t, r.columns[1], 0.1, 0.2), half_play + T_shoulder / k,
              0.03 * (half_play + T_shoulder / k));
  EXPECT_NEAR(mean_over(r.t, r.columns[2], 0.1, 0.2), half_play + T_elbow / k,
              0.03 * (half_play + T_elbow / k));
  for (double yaw : r.columns[0]) EXPECT_EQ(yaw, 0.0);  // no torque about the vertical
}

}  // namespace
}  // namespace cs
