// Time functions (time_function.hpp, docs/model-format.md "<function>"): for every kind, d1 and d2
// against central differences of value and d1, and the integral from 0 against Simpson's rule;
// the Fourier series' closed forms (mean over a period, value at known phases).
#include "clearsim/math/time_function.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace cs {
namespace {

struct Named {
  std::string name;
  TimeFunction f;
};

std::vector<Named> every_kind() {
  return {{"constant", TimeFunction::constant(1.5)},
          {"ramp", TimeFunction::ramp(0.3, 2.0, 0.1)},
          {"polynomial", TimeFunction::polynomial({1.0, -2.0, 0.5, 3.0})},
          {"harmonic", TimeFunction::harmonic(0.7, 3.0, 0.4, 0.2)},
          {"smooth_step", TimeFunction::smooth_step(0.1, -1.0, 0.6, 2.0)},
          {"fourier", TimeFunction::fourier(2.0, 62.8, {1.5, -0.4, 0.25}, {-2.0, 0.3})}};
}

// Simpson's rule over [0, t] with n (even) panels.
double simpson(const TimeFunction& f, double t, int n) {
  const double h = t / n;
  double sum = f.value(0.0) + f.value(t);
  for (int k = 1; k < n; ++k) sum += (k % 2 ? 4.0 : 2.0) * f.value(k * h);
  return sum * h / 3.0;
}

// Away from the kinks of ramp (0.1) and smooth_step (0.1, 0.6), where the derivatives jump.
const std::vector<double> kTimes = {0.03, 0.27, 0.41, 0.83, 1.37};

TEST(TimeFunction, DerivativesMatchCentralDifferences) {
  const double h = 1e-5;
  for (const auto& [name, f] : every_kind())
    for (double t : kTimes) {
      // O(h²) truncation of values of order 1e2 (the fourier's third harmonic's d2 ~ 1e3): 1e-6
      // relative, with round-off 1e-16·|f|/h = 1e-9.
      const double d1 = (f.value(t + h) - f.value(t - h)) / (2 * h);
      const double d2 = (f.d1(t + h) - f.d1(t - h)) / (2 * h);
      EXPECT_NEAR(f.d1(t), d1, 1e-6 * (1.0 + std::abs(d1))) << name << " t = " << t;
      EXPECT_NEAR(f.d2(t), d2, 1e-6 * (1.0 + std::abs(d2))) << name << " t = " << t;
    }
}

TEST(TimeFunction, IntegralMatchesQuadrature) {
  for (const auto& [name, f] : every_kind())
    for (double t : kTimes) {
      // Simpson's error on smooth pieces ~ t h⁴ f⁗/180 with h = t/20000: below 1e-12; the
      // kinks of ramp and smooth_step inside a panel cost O(h²) = 1e-9.
      EXPECT_NEAR(f.integral(t), simpson(f, t, 20000), 1e-8 * (1.0 + std::abs(f.integral(t))))
          << name << " t = " << t;
    }
}

TEST(TimeFunction, FourierHasItsOffsetAsMeanAndItsHarmonicsAtKnownPhases) {
  const double f0 = 10.0, period = 1.0 / f0;
  const TimeFunction f = TimeFunction::fourier(f0, 62.8, {2.0, 0.0, -1.0}, {0.5});
  // Over whole periods the harmonics integrate to 0: the mean is the offset.
  EXPECT_NEAR(f.integral(3 * period), 62.8 * 3 * period, 1e-13);
  // t = 0: Σ cosines; a quarter period: cos(kπ/2) and sin(kπ/2).
  EXPECT_NEAR(f.value(0.0), 62.8 + 2.0 - 1.0, 1e-13);
  EXPECT_NEAR(f.value(period / 4), 62.8 + 0.5 + (-1.0) * std::cos(3 * std::numbers::pi / 2), 1e-12);
  EXPECT_THROW(TimeFunction::fourier(0.0, 1.0, {1.0}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace cs
