// A wheel driven through backlash (docs/model-format.md, "Backlash"): the motor turns at a
// constant ω = 1 rad/s from t = 0 while the wheel (J = 0.01 kg·m², free of other loads) rests.
// Inside the play no torque passes: the lost motion grows as −ω t and the wheel stays at rest
// until the motor has taken up half the play, at t = (b/2)/ω = 10 ms. The stop (k = 1e3 N·m/rad,
// no damping) then closes at a relative speed ω: an elastic impact against a motor that cannot
// be slowed, a half sine of frequency ω_n = √(k/J) = 316 rad/s, peak torque √(kJ)·ω = 3.162 N·m,
// after which the wheel leaves at 2ω (the motor's speed reflected, as a ball off a moving wall).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/channel_recorder.hpp"

namespace cs {
namespace {

const char* const kWheel = R"(
bodies:
  wheel: {mass: 1, inertia: [0.005, 0.005, 0.01], position: [0, 0, 0]}
joints:
  hub: {type: revolute, bodies: [ground, wheel], at: [0, 0, 0], axis: [0, 0, 1],
        backlash: {play: 0.02, stiffness: 1.0e3}}
drivers:
  motor: {joint: hub, angular_velocity: 1.0}
solver: {integrator: generalized_alpha, rho_inf: 0.9, step: 1.0e-5, end: 0.025}
)";

TEST(BacklashDrive, NoTorqueInsideThePlayThenAnElasticImpactAtHalfThePlay) {
  LoadedModel lm = load_model_string(kWheel, "wheel.yaml");
  lm.run.output.every = 1;
  System sys(lm.model);
  ChannelSet set(sys, {"motor.torque", "motor.lost_motion", "wheel.angular_velocity.z"});
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  ASSERT_TRUE(run_analysis(sys, lm.run, rec, s, notes).ok);
  const auto torque = rec.column(0), lost = rec.column(1), speed = rec.column(2);
  const double t_contact = 0.01;  // (b/2)/ω
  double peak = 0.0, t_release = 0.0;
  for (std::size_t k = 0; k < rec.times.size(); ++k) {
    const double t = rec.times[k];
    if (t < t_contact - 1e-9) {
      EXPECT_EQ(torque[k], 0.0) << "t = " << t;
      EXPECT_NEAR(lost[k], -t, 1e-12) << "t = " << t;  // the wheel stays at rest
      EXPECT_EQ(speed[k], 0.0) << "t = " << t;
    }
    peak = std::max(peak, torque[k]);
    if (t > t_contact && torque[k] > 0.0) t_release = t;
  }
  // Peak √(kJ)·ω: 3.1623 N·m. The integrator's error at ω_n h = 3.2e-3 is O((ω_n h)²) ≈ 1e-5 and
  // contact starts within one step (1e-5 s, 0.3 % of the lost motion rate × k / peak): 1 %.
  EXPECT_NEAR(peak, std::sqrt(1.0e3 * 0.01), 0.01 * 3.1623);
  // Contact lasts half a period π/ω_n = 9.93 ms; the wheel then leaves at 2ω, which it keeps.
  EXPECT_NEAR(t_release - t_contact, std::acos(-1.0) / std::sqrt(1.0e5), 2e-4);
  EXPECT_NEAR(speed.back(), 2.0, 0.01);
  EXPECT_EQ(torque.back(), 0.0);
}

}  // namespace
}  // namespace cs
