// The unscented Kalman filter (FilterKind::kUnscented): exact on a linear spring–mass (the
// unscented transform of a linear map is exact), consistent on the pendulum (NEES against its
// χ² interval), on the true run with exact measurements, and what it refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "spring_mass_kf.hpp"
#include "src/estimation/unscented_weights.hpp"

namespace cs {
namespace {

using testing::chi2_quantile;
using testing::spring_mass_yaml;
using testing::SpringMassKf;

// The largest relative differences of the unscented filter with spread `alpha` from the exact
// Kalman filter over 2000 steps and 200 updates of the spring–mass: {state, covariance}.
std::pair<double, double> spring_mass_against_exact_kalman(double alpha) {
  FilterSettings f;
  f.kind = FilterKind::kUnscented;
  f.ukf_alpha = alpha;
  f.sigma_position = 0.05;
  f.sigma_velocity = 0.1;
  f.acceleration_noise = 0.5;
  ExtendedKalmanFilter ukf(spring_mass_yaml(), "spring_mass", {}, f);
  const LoadedModel lm = load_model_string(spring_mass_yaml(), "spring_mass");
  const double h = lm.run.solver.step;
  SpringMassKf kf(AlphaParameters::from_settings(lm.run.solver), h);
  kf.start(0.1, 0.0, f.sigma_position, f.sigma_velocity);
  std::mt19937_64 rng(31);
  std::normal_distribution<double> normal;
  const auto& L = ukf.layout();
  const int idx[4] = {L.q, L.v, L.a, L.vdot};
  double worst_x = 0.0, worst_p = 0.0;
  for (int n = 0; n <= 2000; ++n) {
    if (n > 0) {
      EXPECT_TRUE(ukf.predict()) << ukf.why();
      kf.predict(f.acceleration_noise, h);
    }
    const std::vector<int> due = ukf.due();
    if (!due.empty()) {
      const double y = 0.1 * std::cos(5.0 * n * h) + 0.01 * normal(rng);
      ukf.update(due, VecX::Constant(1, y));
      kf.update(y, 0.01);
    }
    const State& s = ukf.state();
    const Eigen::Vector4d X(s.x_W[0].x(), s.v(0), s.a(0), s.vdot(0));
    const MatX P = ukf.covariance();
    Eigen::Matrix4d P4;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) P4(i, j) = P(idx[i], idx[j]);
    worst_x = std::max(worst_x, (X - kf.X).cwiseAbs().maxCoeff() / kf.X.cwiseAbs().maxCoeff());
    worst_p = std::max(worst_p, (P4 - kf.P).cwiseAbs().maxCoeff() / kf.P.cwiseAbs().maxCoeff());
  }
  std::printf(
      "UKF (alpha %g) vs exact KF over 2000 steps: state %.2e, covariance %.2e (relative)\n", alpha,
      worst_x, worst_p);
  return {worst_x, worst_p};
}

TEST(UnscentedFilter, EqualsTheExactKalmanFilterOnALinearSpringMass) {
  // As LinearKalman.ExtendedFilterEqualsHandWrittenFilter, with sigma points: the step is linear
  // in the state and in the process noise's force, so the transform's mean and covariance are
  // the Kalman filter's.
  const auto [worst_x, worst_p] = spring_mass_against_exact_kalman(1.0);
  // The state: as the extended filter's, the plant's Newton solution (newton_tol 1e-12 m, times
  // β′ ≈ 4e6 s⁻² in the accelerations, on a scale of 2 m/s²). The covariance: differences of
  // stepped sigma points γσ ≈ 0.1 m apart and of steps under ±31.6 N (a response of 4e-6 m),
  // each exact to the round-off of the states they subtract (1e-16 × 0.1 m / 4e-6 m ≈ 3e-12)
  // accumulated over the run; a wrong weight shows at 1e-2, a missed term at 1e-3.
  EXPECT_LT(worst_x, 1e-8);
  EXPECT_LT(worst_p, 1e-8);
}

TEST(UnscentedFilter, AnySpreadEqualsTheExactKalmanFilterOnALinearSpringMass) {
  // The unscented transform is exact for a linear map whatever its spread α: the covariance of
  // x ⊕ ±α√c L_i with weights w = 1/(2α²c) is Σ w (α√c)² F L_i L_iᵀ Fᵀ = F P Fᵀ. α = 0.7:
  // W₀ᶜ = +1.47 (the centre's own root column, W₀ᵐ = −1.04); α = 0.3: W₀ᶜ = −7.2 (the closed-form
  // downdate, its root's 2c columns about κ m). A spread and weights that do not match (w s² ≠
  // 1/2) show at 1e-2 in the covariance. For a linear step the pairs' mean deviation m is zero,
  // so the centre's term W₀ᶜ m mᵀ is checked by UnscentedWeights.* below.
  // The covariance's bound is the α = 1 test's: the sigma points are α times closer (0.03 m for
  // α = 0.3), so the round-off of their differences grows by 1/α, to 1e-11, inside 1e-8. The
  // state's is not: its mean x₀ + Σ w d extrapolates (W₀ᵐ = 1 − 1/α² on the centre), so each
  // stepped sigma point's Newton error (within newton_tol) enters it weighted by w, the weights
  // summing to 1/α²: the α = 1 bound times 1/α² (measured: 4.9e-10, 2.4e-9, 2.0e-8 for α = 1,
  // 0.7, 0.3, against 1e-8, 2e-8, 1.1e-7).
  for (double alpha : {0.7, 0.3}) {
    const auto [worst_x, worst_p] = spring_mass_against_exact_kalman(alpha);
    EXPECT_LT(worst_x, 1e-8 / (alpha * alpha)) << "alpha " << alpha;
    EXPECT_LT(worst_p, 1e-8) << "alpha " << alpha;
  }
}

TEST(UnscentedWeights, DowndateAboutKappaMEqualsTheNegativeCentreWeight) {
  // The identity the negative W₀ᶜ rests on: with m = Σ wᵢ dᵢ,
  //   Σ wᵢ (dᵢ − κ m)(·)ᵀ = Σ wᵢ (dᵢ − m)(·)ᵀ + W₀ᶜ m mᵀ,
  // for κ = downdated_centre(Σ w, α), W₀ᶜ = centre_covariance_weight(Σ w, α); κ = α² + α√β for
  // the equal weights 1/(2α²c). Deviations of a nonlinear map (m ≠ 0: random, fixed seed), 2c =
  // 12 points in 5 dimensions; equal weights and weights of unequal spreads s± ∈ [γ/2, 2γ] (the
  // parameters' sigma plants, w± = 1/(s±(s₊ + s₋))). Both sides are sums of 12 products of O(1)
  // numbers, with W₀ᶜ up to −96 (α = 0.1): round-off 1e-16 × 100 × 12 ≈ 1e-13, bound 1e-12.
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> spread(0.5, 2.0);
  const int c = 6;
  for (double alpha : {0.5, 0.3, 0.1})
    for (bool equal : {true, false}) {
      const double gamma = alpha * std::sqrt(double(c));
      MatX D(5, 2 * c);
      VecX w(2 * c);
      for (int i = 0; i < c; ++i) {
        const double sp = equal ? gamma : gamma * spread(rng);
        const double sm = equal ? gamma : gamma * spread(rng);
        w(2 * i) = 1.0 / (sp * (sp + sm));
        w(2 * i + 1) = 1.0 / (sm * (sp + sm));
      }
      for (Eigen::Index k = 0; k < D.size(); ++k) D(k) = normal(rng) + 0.5;  // a mean ≠ 0
      const double S = w.sum(), w0c = estimation::centre_covariance_weight(S, alpha);
      const double kappa = estimation::downdated_centre(S, alpha);
      if (equal) {  // W₀ᶜ = 4 − α² − 1/α² < 0 below α = 0.52 (unequal spreads: either sign)
        EXPECT_NEAR(S, 1.0 / (alpha * alpha), 1e-12);
        EXPECT_NEAR(kappa, alpha * alpha + alpha * std::sqrt(2.0), 1e-12);
        EXPECT_LT(w0c, 0.0) << "alpha " << alpha;
      }
      const VecX m = D * w;
      const MatX about_kappa = (D.colwise() - kappa * m) * w.cwiseSqrt().asDiagonal();
      const MatX about_m = (D.colwise() - m) * w.cwiseSqrt().asDiagonal();
      const MatX lhs = about_kappa * about_kappa.transpose();
      const MatX rhs = MatX(about_m * about_m.transpose()) + w0c * m * m.transpose();
      EXPECT_LT((lhs - rhs).cwiseAbs().maxCoeff(), 1e-12 * rhs.cwiseAbs().maxCoeff())
          << "alpha " << alpha << (equal ? " equal" : " unequal") << " weights";
    }
}

TEST(UnscentedWeights, DowndatedSpreadIsTheChannelsTransform) {
  // The channels' transform for a negative W₀ᶜ (α = 0.3: −7.2), from c = 4 sigma pairs'
  // midpoints of a nonlinear map (random, fixed seed) in 3 channels: its mean is the scaled
  // transform's W₀ᵐ y₀ + Σ 2w mid_i (W₀ᵐ = 1 − 1/α²) and E Eᵀ its even part
  // Σ 2w (mid_i − ȳ)(·)ᵀ + W₀ᶜ (y₀ − ȳ)(·)ᵀ, as written in unscented_update.cpp's comment. Sums of
  // 4 products of O(1) numbers with weights up to 11: round-off 1e-14, bound 1e-12.
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  const double alpha = 0.3;
  const int c = 4;
  const double w = 0.5 / (alpha * alpha * c), w0m = 1.0 - 1.0 / (alpha * alpha);
  const double w0c = estimation::centre_covariance_weight(2.0 * w * c, alpha);
  MatX mid(3, c);
  VecX y0(3);
  for (Eigen::Index k = 0; k < mid.size(); ++k) mid(k) = normal(rng) + 1.0;
  for (Eigen::Index k = 0; k < y0.size(); ++k) y0(k) = normal(rng);
  VecX mean;
  MatX E;
  estimation::downdated_spread(mid, y0, 2.0 * w, alpha, mean, E);
  const VecX expected = w0m * y0 + 2.0 * w * mid.rowwise().sum();
  EXPECT_LT((mean - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff());
  MatX even = w0c * (y0 - expected) * (y0 - expected).transpose();
  for (int i = 0; i < c; ++i)
    even += 2.0 * w * (mid.col(i) - expected) * (mid.col(i) - expected).transpose();
  EXPECT_EQ(E.cols(), c);  // no column for the centre
  EXPECT_LT((E * E.transpose() - even).cwiseAbs().maxCoeff(), 1e-12 * even.cwiseAbs().maxCoeff());
}

// A01's pendulum at a 2 ms step, its bob measured in x and y (1 mm) at 100 Hz.
const char* kPendulum = R"(
gravity: [0, -9.81, 0]
bodies:
  bob: {mass: 1, inertia: [1.0e-9, 1.0e-9, 1.0e-9], position: [1, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, bob], at: [0, 0, 0], axis: [0, 0, 1]}
solver: {integrator: generalized_alpha, step: 2.0e-3, end: 1, newton_tol: 1.0e-12}
sensors:
  bob_x: {channel: bob.position.x, noise: 1.0e-3, rate: 100}
  bob_y: {channel: bob.position.y, noise: 1.0e-3, rate: 100}
)";

FilterSettings pendulum_settings() {
  FilterSettings f;
  f.kind = FilterKind::kUnscented;
  f.sigma_position = 0.05;
  f.sigma_rotation = 0.05;
  f.sigma_velocity = 0.05;
  f.sigma_angular_velocity = 0.05;
  f.acceleration_noise = 0.1;
  return f;
}

double angle_of(const Mat3& R) { return std::atan2(R(1, 0), R(0, 0)); }

// The truth's start: the filter's, displaced along its prior by L₀ ξ (ξ standard normal): the
// pendulum's angle and angular velocity, a state of the revolute joint.
State drawn_start(const ExtendedKalmanFilter& ukf, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  const MatX& L0 = ukf.covariance_root();
  VecX xi(L0.cols());
  for (Eigen::Index k = 0; k < xi.size(); ++k) xi(k) = normal(rng);
  const VecX dz = L0 * xi;
  State s = ukf.state();
  const double th = angle_of(s.R_WB[0]) + dz(ukf.layout().q + 5);
  const double w = s.v(5) + dz(ukf.layout().v + 5);
  s.x_W[0] = Vec3(std::cos(th), std::sin(th), 0.0);
  s.R_WB[0] = Eigen::AngleAxisd(th, Vec3::UnitZ()).toRotationMatrix();
  s.v.setZero();
  s.v.head<3>() = w * Vec3(-std::sin(th), std::cos(th), 0.0);
  s.v(5) = w;
  return s;
}

TEST(UnscentedFilter, NeesPassesChiSquareOnThePendulum) {
  // As LinearKalman.NeesPassesChiSquareOverMonteCarloRuns, on the nonlinear pendulum: M runs of
  // 1 s from starts drawn from the prior, the truth driven by the process noise the filter
  // assumes (a force held over each step). At five times 0.2 s apart the NEES of (angle,
  // angular velocity) summed over the runs is χ²(2M) if the filter is consistent; each sum must
  // lie in its two-sided 99.9 % interval (a consistent filter fails one with probability 0.5 %).
  constexpr int kRuns = 30;
  const LoadedModel lm = load_model_string(kPendulum, "pendulum");
  const double h = lm.run.solver.step, q = pendulum_settings().acceleration_noise;
  std::vector<double> nees_sum(5, 0.0);
  double total = 0.0;
  long count = 0;
  for (int run = 0; run < kRuns; ++run) {
    std::mt19937_64 rng(3100 + static_cast<unsigned>(run));
    std::normal_distribution<double> normal;
    ExtendedKalmanFilter ukf(kPendulum, "pendulum", {}, pendulum_settings());
    System sys(lm.model);
    Simulation truth(sys, lm.run);
    std::vector<std::string> notes;
    ASSERT_TRUE(truth.initialize(notes));
    truth.set_state(drawn_start(ukf, rng), notes);
    ChannelSet channels(sys, {"bob.position.x", "bob.position.y"});
    std::vector<double> y;
    const auto& L = ukf.layout();
    for (int n = 0; n <= 500; ++n) {
      if (n > 0) {
        const Vec3 force = q / std::sqrt(h) * Vec3(normal(rng), normal(rng), normal(rng));
        truth.apply_load("bob", Vec3::Zero(), force, Vec3::Zero());
        ASSERT_TRUE(truth.step());
        ASSERT_TRUE(ukf.predict()) << ukf.why();
      }
      const std::vector<int> due = ukf.due();
      if (due.empty()) continue;
      channels.evaluate(truth.state(), truth.stats(), y);
      ukf.update(due, Eigen::Vector2d(y[0] + 1e-3 * normal(rng), y[1] + 1e-3 * normal(rng)));
      const MatX P = ukf.covariance();
      Eigen::Matrix2d P2;
      P2 << P(L.q + 5, L.q + 5), P(L.q + 5, L.v + 5), P(L.v + 5, L.q + 5), P(L.v + 5, L.v + 5);
      const double de = std::remainder(
          angle_of(ukf.state().R_WB[0]) - angle_of(truth.state().R_WB[0]), 2.0 * M_PI);
      const Eigen::Vector2d e(de, ukf.state().v(5) - truth.state().v(5));
      const double nees = e.dot(P2.ldlt().solve(e));
      total += nees;
      ++count;
      if (n % 100 == 0 && n > 0) nees_sum[static_cast<std::size_t>(n / 100 - 1)] += nees;
    }
  }
  const double lo = chi2_quantile(2 * kRuns, -3.29), hi = chi2_quantile(2 * kRuns, 3.29);
  for (std::size_t k = 0; k < nees_sum.size(); ++k) {
    std::printf("t = %.1f s: NEES summed over %d runs %.1f (99.9 %% interval [%.1f, %.1f])\n",
                0.2 * static_cast<double>(k + 1), kRuns, nees_sum[k], lo, hi);
    EXPECT_GT(nees_sum[k], lo);
    EXPECT_LT(nees_sum[k], hi);
  }
  std::printf("mean NEES over every update of every run: %.3f (expected 2)\n",
              total / static_cast<double>(count));
}

TEST(UnscentedFilter, ExactMeasurementsBringTheFilterOntoTheTrueRun) {
  // The truth starts at the file's pose; the filter's plant 0.02 rad further down the circle;
  // the measurements are the truth's channels without noise (their σ stays the file's, 1 mm).
  const LoadedModel lm = load_model_string(kPendulum, "pendulum");
  System sys(lm.model);
  Simulation truth(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(truth.initialize(notes));
  const double a = -0.02;
  char start[64];
  std::snprintf(start, sizeof start, "[%.17g, %.17g, 0]", std::cos(a), std::sin(a));
  FilterSettings f = pendulum_settings();
  f.acceleration_noise = 1e-3;
  ExtendedKalmanFilter ukf(kPendulum, "pendulum", {{"bodies.bob.position", start}}, f);
  ChannelSet channels(sys, {"bob.position.x", "bob.position.y"});
  std::vector<double> y;
  double error_at_half = 0.0, worst_after = 0.0;
  for (int n = 0; n <= 500; ++n) {
    if (n > 0) {
      ASSERT_TRUE(truth.step());
      ASSERT_TRUE(ukf.predict()) << ukf.why();
    }
    const std::vector<int> due = ukf.due();
    if (!due.empty()) {
      channels.evaluate(truth.state(), truth.stats(), y);
      ukf.update(due, Eigen::Vector2d(y[0], y[1]));
    }
    const double error = (ukf.state().x_W[0] - truth.state().x_W[0]).norm();
    if (n == 250) error_at_half = error;
    if (n >= 250) worst_after = std::max(worst_after, error);
  }
  std::printf("bob position error: %.2e m at t = 0.5 s, at most %.2e m over 0.5..1 s\n",
              error_at_half, worst_after);
  // The plant steps as the truth does (the same integrator and step), so once on the run the
  // error is what the covariance still lets the exact samples move (the filter assumes 1 mm
  // noise, and 1e-3 m/s²/√Hz of process noise keeps it listening): 1e-5 m measured, 2000 times
  // below the 20 mm it started off; a filter that does not converge stays at millimetres.
  EXPECT_LT(worst_after, 5e-5);
}

TEST(UnscentedFilter, RefusesWhatItCannotStepAndBadKinds) {
  EXPECT_EQ(parse_filter_kind("ukf"), FilterKind::kUnscented);
  EXPECT_EQ(parse_filter_kind("ekf"), FilterKind::kExtended);
  try {
    parse_filter_kind("pkf");
    ADD_FAILURE() << "pkf accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'pkf': expected one of ekf, ukf"), std::string::npos)
        << e.what();
  }
  FilterSettings f = pendulum_settings();
  std::string adaptive = kPendulum;
  adaptive.replace(adaptive.find("end: 1,"), 7, "end: 1, adaptive: true,");
  try {
    ExtendedKalmanFilter ukf(adaptive, "adaptive", {}, f);
    ADD_FAILURE() << "adaptive steps accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sigma points share the plant's fixed steps"),
              std::string::npos)
        << e.what();
  }
  ExtendedKalmanFilter ukf(kPendulum, "pendulum", {}, f);
  ASSERT_TRUE(ukf.predict());
  EXPECT_THROW((void)ukf.transition_jacobian(), std::logic_error);
}

}  // namespace
}  // namespace cs
