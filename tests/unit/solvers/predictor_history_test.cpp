// The generalized-α predictor's history (predictor_history.hpp): its polynomials are exact on
// polynomials of their degree at unequal steps, the quadratic is taken only where it predicted
// the last step better, and a history that does not continue is not used.
#include "clearsim/solvers/predictor_history.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

namespace cs {
namespace {

VecX value(const std::function<double(double)>& f, double t) {
  VecX y(2);
  y << f(t), -2.0 * f(t);
  return y;
}

// Accepts the steps between consecutive `times` of a quantity y = f(t), each extrapolated when
// the history continues (as the integrators do).
void accept_steps(PredictorHistory& hist, const std::vector<double>& times,
                  const std::function<double(double)>& f) {
  for (std::size_t k = 1; k < times.size(); ++k) {
    const double t0 = times[k - 1], t1 = times[k];
    const VecX start = value(f, t0), end = value(f, t1);
    const bool extrapolated = hist.continues(t0, t1 - t0, {&start});
    hist.accept(t1 - t0, t1, extrapolated, {&start}, end);
  }
}

// The prediction of y at times.back() + h after the steps between `times`.
VecX predict(PredictorHistory& hist, const std::vector<double>& times, double h,
             const std::function<double(double)>& f) {
  accept_steps(hist, times, f);
  const VecX now = value(f, times.back());
  EXPECT_TRUE(hist.continues(times.back(), h, {&now}));
  VecX out;
  hist.extrapolate(0, hist.weights(h), now, out);
  return out;
}

TEST(PredictorHistory, QuadraticExactOnAParabolaAtUnequalSteps) {
  // Points at 0, 0.3, 0.5, 1.1, 1.3 (steps 0.3, 0.2, 0.6, 0.2), predicted at 1.7: a parabola
  // is reproduced to round-off, where the linear predictor misses it by its curvature.
  const auto f = [](double t) { return 2.0 - 3.0 * t + 1.5 * t * t; };
  PredictorHistory hist;
  const VecX y = predict(hist, {0.0, 0.3, 0.5, 1.1, 1.3}, 0.4, f);
  EXPECT_NEAR(y(0), f(1.7), 1e-12);
  EXPECT_NEAR(y(1), -2.0 * f(1.7), 1e-12);
  // The same history with the linear weights: y₀ + (h/h₁)(y₀ − y₁), off by 1.5·h·(h + h₁).
  const PredictorHistory::Weights lin = hist.linear_weights(0.4);
  EXPECT_DOUBLE_EQ(lin.c01, 2.0);
  EXPECT_EQ(lin.c12, 0.0);
  VecX linear;
  hist.extrapolate(0, lin, value(f, 1.3), linear);
  EXPECT_NEAR(linear(0) - f(1.7), -1.5 * 0.4 * (0.4 + 0.2), 1e-12);
}

TEST(PredictorHistory, LinearUntilThreePointsShowTheQuadraticPays) {
  const auto f = [](double t) { return std::exp(t); };
  PredictorHistory hist;
  // Two steps: only y₀, y₁ known before the last; the prediction is the chord's.
  VecX y = predict(hist, {0.0, 0.1, 0.2}, 0.1, f);
  EXPECT_NEAR(y(0), f(0.2) + (f(0.2) - f(0.1)), 1e-14);
  // Further smooth steps: the quadratic predicted the last one by far better and is taken,
  // with an error O(h³) (e·h³ ≈ 3e-3 here) against the chord's O(h²) (3e-2).
  PredictorHistory smooth;
  y = predict(smooth, {0.0, 0.1, 0.2, 0.3, 0.4}, 0.1, f);
  EXPECT_LT(std::abs(y(0) - f(0.5)), 2.5e-3);
  EXPECT_GT(smooth.weights(0.1).c12, 0.0);
}

TEST(PredictorHistory, AKinkTurnsBackToTheLinear) {
  // Accelerations on a parabola that bends the other way at t = 0.3 (a contact's onset): the
  // quadratic is taken before the kink (exact there), and after the step across it, which it
  // predicted worse than the chord (0.06 off against 0.04), the next step is linear.
  const auto f = [](double t) {
    return t < 0.3 ? t * t : 0.09 + 0.6 * (t - 0.3) - 5.0 * (t - 0.3) * (t - 0.3);
  };
  PredictorHistory hist;
  accept_steps(hist, {0.0, 0.1, 0.2, 0.3}, f);
  EXPECT_GT(hist.weights(0.1).c12, 0.0);
  accept_steps(hist, {0.3, 0.4}, f);
  EXPECT_EQ(hist.weights(0.1).c12, 0.0);
}

TEST(PredictorHistory, NotAllowedStaysLinear) {
  const auto f = [](double t) { return t * t; };
  PredictorHistory hist;
  hist.allow_quadratic(false);
  const VecX y = predict(hist, {0.0, 0.1, 0.2, 0.3, 0.4}, 0.1, f);
  EXPECT_NEAR(y(0), 0.4 * 0.4 + (0.4 * 0.4 - 0.3 * 0.3), 1e-14);
}

TEST(PredictorHistory, OnlyAContinuingStepExtrapolates) {
  PredictorHistory hist;
  const VecX y(VecX::Ones(3));
  EXPECT_FALSE(hist.continues(0.0, 0.1, {&y}));  // nothing known
  hist.accept(0.1, 0.1, false, {&y}, y);
  EXPECT_TRUE(hist.ended_at(0.1));
  EXPECT_TRUE(hist.continues(0.1, 0.4, {&y}));
  EXPECT_FALSE(hist.continues(0.1, 0.41, {&y}));  // more than 4× the last step
  EXPECT_FALSE(hist.continues(0.2, 0.1, {&y}));   // not where the last step ended
  const VecX other(VecX::Ones(4));
  EXPECT_FALSE(hist.continues(0.1, 0.1, {&other}));  // rows changed size
  hist.clear();
  EXPECT_FALSE(hist.ended_at(0.1));
  EXPECT_FALSE(hist.continues(0.1, 0.1, {&y}));
}

}  // namespace
}  // namespace cs
