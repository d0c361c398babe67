// The extended Kalman filter on the IFToMM A01 pendulum (nonlinear, one constraint per
// direction it may not move): its Jacobians against finite differences, and a filter started
// away from the truth that follows the true run once exact measurements come in.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

// A01 with a tighter Newton tolerance (finite differences of the step divide its error by their
// step) and two sensors at different rates: the bob's x (an encoder's view) and its velocity y.
const char* kPendulum = R"(
gravity: [0, -9.81, 0]
bodies:
  bob: {mass: 1, inertia: [1.0e-9, 1.0e-9, 1.0e-9], position: [1, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, bob], at: [0, 0, 0], axis: [0, 0, 1]}
solver: {integrator: generalized_alpha, step: 1.0e-3, end: 5, newton_tol: 1.0e-13}
sensors:
  bob_x: {channel: bob.position.x, noise: 1.0e-6, rate: 100}
  bob_vy: {channel: bob.velocity.y, noise: 1.0e-5, rate: 50}
)";

FilterSettings pendulum_settings() {
  FilterSettings f;
  f.sigma_position = 0.05;
  f.sigma_rotation = 0.05;
  f.sigma_velocity = 0.05;
  f.sigma_angular_velocity = 0.05;
  f.acceleration_noise = 1e-3;
  return f;
}

TEST(PendulumFilter, TransitionJacobianMatchesFiniteDifferences) {
  ExtendedKalmanFilter ekf(kPendulum, "pendulum", {}, pendulum_settings());
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(ekf.predict()) << ekf.why();  // a moving state
  const State start = ekf.state();
  ASSERT_TRUE(ekf.predict());
  const MatX& F = ekf.transition_jacobian();
  // The same step from displaced starts, by an integrator of the same model.
  LoadedModel lm = load_model_string(kPendulum, "pendulum");
  lm.run.solver.coordinates = CoordinateChoice::kAbsolute;
  System sys(lm.model);
  auto integrator = make_integrator(sys, lm.run.solver);
  const auto& L = ekf.layout();
  // The step's Newton iteration stops at newton_tol (1e-13), which the difference divides by
  // eps and the accelerations multiply by β′ ≈ 1/(βh²): eps = 1e-4 keeps that share near
  // 1e-3·β′·1e-9 of a column of scale β′, and the O(eps²) truncation below it.
  const double eps = 1e-4;
  double worst = 0.0;
  for (int j = 0; j < L.lambda; ++j) {
    StateTangent d = StateTangent::zero(start);
    VecX z = VecX::Zero(L.size);
    z(j) = 1.0;
    const int n = L.v;
    d.q = z.segment(L.q, n);
    d.v = z.segment(L.v, n);
    d.a = z.segment(L.a, n);
    d.vdot = z.segment(L.vdot, n);
    State plus = displaced(start, d, eps), minus = displaced(start, d, -eps);
    ASSERT_TRUE(integrator->step(plus, lm.run.solver.step).converged);
    ASSERT_TRUE(integrator->step(minus, lm.run.solver.step).converged);
    const StateTangent fd = central_difference(plus, minus, eps);
    VecX col(L.p);
    col << fd.q, fd.v, fd.a, fd.vdot, fd.lambda;
    const double scale = std::max(1.0, F.col(j).head(L.p).lpNorm<Eigen::Infinity>());
    worst = std::max(worst, (F.col(j).head(L.p) - col).lpNorm<Eigen::Infinity>() / scale);
  }
  std::printf("transition Jacobian vs central differences (eps %g): %.2e\n", eps, worst);
  EXPECT_LT(worst, 1e-5);  // 5e-7 measured
}

TEST(PendulumFilter, MeasurementJacobianIsTheChannelsDerivative) {
  // bob.position.x moves with δx_W (body-frame rotations do not move the centre of mass);
  // bob.velocity.y with δv_y: exact entries, and nothing else.
  ExtendedKalmanFilter ekf(kPendulum, "pendulum", {}, pendulum_settings());
  for (int k = 0; k < 50; ++k) ASSERT_TRUE(ekf.predict());
  const MatX H = ekf.measurement_jacobian({0, 1});
  const auto& L = ekf.layout();
  MatX expected = MatX::Zero(2, L.size);
  expected(0, L.q + 0) = 1.0;
  expected(1, L.v + 1) = 1.0;
  EXPECT_LT((H - expected).lpNorm<Eigen::Infinity>(), 1e-9) << H;
}

TEST(PendulumFilter, ExactMeasurementsBringTheFilterOntoTheTrueRun) {
  // The truth starts at the file's pose; the filter's plant 0.02 rad further down the circle.
  const LoadedModel lm = load_model_string(kPendulum, "pendulum");
  System sys(lm.model);
  Simulation truth(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(truth.initialize(notes));
  const double a = -0.02;
  char start[64];
  std::snprintf(start, sizeof start, "[%.17g, %.17g, 0]", std::cos(a), std::sin(a));
  ExtendedKalmanFilter ekf(kPendulum, "pendulum", {{"bodies.bob.position", start}},
                           pendulum_settings());
  ChannelSet channels(sys, {"bob.position.x", "bob.velocity.y"});
  std::vector<double> y;
  double error_at_1s = 0.0, worst_after_1s = 0.0;
  for (int n = 0; n <= 5000; ++n) {
    if (n > 0) {
      ASSERT_TRUE(truth.step());
      ASSERT_TRUE(ekf.predict()) << ekf.why();
    }
    const std::vector<int> due = ekf.due();
    if (!due.empty()) {
      channels.evaluate(truth.state(), truth.stats(), y);
      VecX samples(static_cast<Eigen::Index>(due.size()));
      for (std::size_t r = 0; r < due.size(); ++r)
        samples(static_cast<Eigen::Index>(r)) = y[static_cast<std::size_t>(due[r])];
      ekf.update(due, samples);
    }
    const double error = (ekf.state().x_W[0] - truth.state().x_W[0]).norm();
    if (n == 1000) error_at_1s = error;
    if (n >= 1000) worst_after_1s = std::max(worst_after_1s, error);
  }
  std::printf("bob position error: %.2e m at t = 1 s, at most %.2e m over 1..5 s\n", error_at_1s,
              worst_after_1s);
  // The measurements' σ is 1e-6 m; the plant steps as the truth does, so once on the run the
  // filter's error is the measurement noise's share, not an integration error.
  EXPECT_LT(worst_after_1s, 1e-5);
}

// A step the plant's Newton iteration cannot make whole (two iterations allowed, 1e-12 asked:
// the run itself splits it, rejected_steps > 0) is retried in parts by the filter too, each part
// linearized, and the filter with exact measurements still follows the true run.
// The transition Jacobian is the index-3 step's: a plant in the stabilized formulation, whose
// steps end in projections, is refused rather than linearized without them.
TEST(PendulumFilter, RefusesTheStabilizedFormulation) {
  std::string stabilized = kPendulum;
  stabilized.replace(stabilized.find("newton_tol:"), 11, "formulation: stabilized, newton_tol:");
  try {
    ExtendedKalmanFilter ekf(stabilized, "pendulum", {}, pendulum_settings());
    ADD_FAILURE() << "the stabilized formulation accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("linearizes the index-3 step only"), std::string::npos)
        << e.what();
  }
}

TEST(PendulumFilter, AFailedStepIsRetriedInParts) {
  const char* kHard = R"(
gravity: [0, -9.81, 0]
bodies:
  bob: {mass: 1, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [1, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, bob], at: [0, 0, 0], axis: [0, 0, 1]}
solver: {integrator: generalized_alpha, step: 2.0e-2, end: 2, newton: full, newton_tol: 1.0e-12,
         max_newton_iterations: 2}
sensors:
  bob_x: {channel: bob.position.x, noise: 1.0e-6, rate: 50}
)";
  const LoadedModel lm = load_model_string(kHard, "pendulum");
  System sys(lm.model);
  Simulation truth(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(truth.initialize(notes));
  ExtendedKalmanFilter ekf(kHard, "pendulum", {}, pendulum_settings());
  ChannelSet channels(sys, {"bob.position.x"});
  std::vector<double> y;
  double worst = 0.0;
  for (int n = 1; n <= 100; ++n) {
    ASSERT_TRUE(truth.step());
    ASSERT_TRUE(ekf.predict()) << ekf.why();
    channels.evaluate(truth.state(), truth.stats(), y);
    ekf.update(ekf.due(), VecX::Constant(1, y[0]));
    worst = std::max(worst, (ekf.state().x_W[0] - truth.state().x_W[0]).norm());
  }
  EXPECT_GT(truth.stats().rejected_steps, 0);  // whole steps do fail here
  std::printf("largest bob position error over 2 s of split steps: %.2e m\n", worst);
  // Both split the same steps the same way: the error is the measurements' (1e-6 m) share.
  EXPECT_LT(worst, 1e-5);
}

}  // namespace
}  // namespace cs
