// Adaptive generalized-α: the achieved global error follows the tolerance (issue 13 item 3).
// Two problems with a known solution, run at rtol = atol = tol for tol = 1e-4 … 1e-8:
//   A01 pendulum (IFToMM)    1 DOF, large swing; reference: the 1-DOF equation by fine RK4
//   ideal slider–crank       driven at 5000 rpm over one revolution; reference: closed form
// The controller holds the local error at tol·√(rtol/50) (tolerance proportionality), so that
// h ∝ tol^(1/2) and the global error, ∝ h², ∝ tol: achieved error / tol must stay in a band of
// one decade over the four decades, and log(error) must fall with log(tol) at a slope ≥ 0.8.
// Before (local error held at tol) the ratio went from 70 to 2000 and the slope was 0.64/0.59.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"
#include "support/pendulum_reference.hpp"
#include "support/recorder.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

constexpr double kG = 9.81;
const double kTols[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8};

struct Achieved {
  double tol = 0.0;
  double error = 0.0;  // max error over the run (see each problem)
  long steps = 0;
  long rejected = 0;
  double iterations_per_step = 0.0;
};

// θ(t) of θ̈ = −(g/L) cos θ from rest at θ = 0, at the (irregular) times `t`.
std::vector<double> pendulum_reference(const std::vector<double>& t) {
  return testing::one_dof_pendulum(kG, 0.0, 0.0, t);
}

void count(const RunStats& stats, double tol, Achieved& a) {
  a.tol = tol;
  a.steps = stats.steps;
  a.rejected = stats.rejected_steps;
  a.iterations_per_step =
      static_cast<double>(stats.newton_iterations) / static_cast<double>(stats.steps);
}

// A01 over one period and a bit (2.5 s): max |x − x_ref|, |y − y_ref| over every accepted step.
Achieved pendulum_in(double tol, ConstraintFormulation formulation,
                     CoordinateChoice coordinates = CoordinateChoice::kAuto) {
  LoadedModel lm = load_model_file(testing::example_path("iftomm_a01_pendulum"));
  lm.run.solver.formulation = formulation;
  lm.run.solver.coordinates = coordinates;
  lm.run.solver.adaptive = true;
  lm.run.solver.rtol = tol;
  lm.run.solver.atol = tol;
  const auto r = testing::run_loaded(std::move(lm), 2.5, 1, {"bob.position.x", "bob.position.y"});
  Achieved a;
  count(r.stats, tol, a);
  const std::vector<double> th = pendulum_reference(r.t);
  for (std::size_t k = 0; k < r.t.size(); ++k)
    a.error = std::max({a.error, std::abs(r.columns[0][k] - std::cos(th[k])),
                        std::abs(r.columns[1][k] - std::sin(th[k]))});
  return a;
}

Achieved pendulum(double tol) { return pendulum_in(tol, ConstraintFormulation::kIndex3); }

// The stiff closed-loop benchmark, IFToMM A05 (couplers of 8e5 N/m and 4e4 N·s/m), over 2 s
// (two periods of the slider): max |s − s_ref| over every accepted step, s_ref from
// dormand_prince at h = 1e-4 s (converged to 6e-13 m, examples/iftomm_a05_flyball_governor),
// interpolated linearly between its steps (≲ 6e-9 m).
const testing::ExampleRun& governor_reference() {
  static const testing::ExampleRun ref = [] {
    LoadedModel lm =
        load_model_file(testing::example_path("iftomm_a05_flyball_governor"),
                        {{"solver.integrator", "dormand_prince"}, {"solver.step", "1e-4"}});
    return testing::run_loaded(std::move(lm), 2.0, 1, {"slider.position.z"});
  }();
  return ref;
}

Achieved governor_in(double tol, CoordinateChoice coordinates) {
  LoadedModel lm = load_model_file(testing::example_path("iftomm_a05_flyball_governor"));
  lm.run.solver.coordinates = coordinates;
  lm.run.solver.adaptive = true;
  lm.run.solver.rtol = tol;
  lm.run.solver.atol = tol;
  const auto r = testing::run_loaded(std::move(lm), 2.0, 1, {"slider.position.z"});
  Achieved a;
  count(r.stats, tol, a);
  const testing::ExampleRun& ref = governor_reference();
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    const auto hi = std::lower_bound(ref.t.begin(), ref.t.end(), r.t[k]);
    const std::size_t j = std::clamp<std::size_t>(hi - ref.t.begin(), 1, ref.t.size() - 1);
    const double w = (r.t[k] - ref.t[j - 1]) / (ref.t[j] - ref.t[j - 1]);
    const double s_ref = (1.0 - w) * ref.columns[0][j - 1] + w * ref.columns[0][j];
    a.error = std::max(a.error, std::abs(r.columns[0][k] - s_ref));
  }
  return a;
}

Achieved governor(double tol) { return governor_in(tol, CoordinateChoice::kAuto); }

// The slider–crank over one revolution (0.012 s). The crank angle is imposed, so the positions
// are exact up to the Newton tolerance; what the integrator gets wrong is the velocity. Its
// error is measured relative to the slider's peak speed rω ≈ 26 m/s.
Achieved slider_crank(double tol) {
  RunSettings s;
  s.solver.step = 1e-5;  // the initial step
  s.solver.end = 0.012;
  s.solver.adaptive = true;
  s.solver.rtol = tol;
  s.solver.atol = tol;
  s.output.progress = false;
  const auto r = testing::run(testing::slider_crank(), s);
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  Achieved a;
  count(r.stats, tol, a);
  const double v_peak = testing::kCrank * testing::kOmega;
  for (const State& st : r.states)
    a.error = std::max(a.error, std::abs(st.v(12) - testing::slider_closed_form(st.t).v) / v_peak);
  return a;
}

std::vector<Achieved> sweep(Achieved (*problem)(double), const char* name,
                            const std::vector<double>& tols = {std::begin(kTols),
                                                               std::end(kTols)}) {
  std::vector<Achieved> out;
  for (double tol : tols) {
    out.push_back(problem(tol));
    const Achieved& a = out.back();
    std::printf(
        "[ %s ] tol %.0e: error %.3g (error/tol %.3g), %ld steps (%ld rejected), %.2f "
        "Newton iterations/step\n",
        name, a.tol, a.error, a.error / a.tol, a.steps, a.rejected, a.iterations_per_step);
  }
  return out;
}

// The band: error/tol within one decade over the sweep, and the least-squares slope of
// log(error) against log(tol) ≥ 0.8 (the old per-step control gave 2/3 at best).
void expect_follows_tolerance(const std::vector<Achieved>& runs) {
  double lo = 1e300, hi = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  for (const Achieved& a : runs) {
    const double ratio = a.error / a.tol;
    lo = std::min(lo, ratio);
    hi = std::max(hi, ratio);
    const double x = std::log10(a.tol), y = std::log10(a.error);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(runs.size());
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  std::printf("error/tol in [%.3g, %.3g], slope %.3f\n", lo, hi, slope);
  EXPECT_LT(hi / lo, 10.0);
  EXPECT_GE(slope, 0.8);
  EXPECT_LT(hi, 10.0);  // the error is the tolerance's order, not far above it
}

// As shipped (joint coordinates: A01 and A05 are open trees) and in body poses.
TEST(AdaptiveError, PendulumFollowsTolerance) {
  expect_follows_tolerance(sweep(pendulum, "A01"));
  expect_follows_tolerance(sweep(
      [](double tol) {
        return pendulum_in(tol, ConstraintFormulation::kIndex3, CoordinateChoice::kAbsolute);
      },
      "A01 absolute"));
}

// seed 004's formulations share the error estimate and its tolerance proportionality. The
// penalty formulation's joints give by about (F/m)/(1e3 ω²) with ω = 1/h of the initial step
// (1e-3 s): a floor near 1e-7 m (measured 1.5e-7 at tol 1e-8, 3.0e-7 at 1e-7) that no
// tolerance removes, so it is swept over the three decades above it.
TEST(AdaptiveError, PendulumFollowsToleranceWithAli3pAndPenalty) {
  expect_follows_tolerance(sweep(
      [](double tol) { return pendulum_in(tol, ConstraintFormulation::kAli3p); }, "A01 ali3p"));
  expect_follows_tolerance(
      sweep([](double tol) { return pendulum_in(tol, ConstraintFormulation::kPenalty); },
            "A01 penalty", {1e-3, 1e-4, 1e-5, 1e-6}));
}

// A stiff closed loop with a reference solution (issue 13: tightening the tolerance once gained
// nothing there). Four decades cost 160 000 steps at 1e-7 over 10 s, so 2 s and 1e-4..1e-7.
TEST(AdaptiveError, StiffGovernorFollowsTolerance) {
  expect_follows_tolerance(sweep(governor, "A05", {1e-4, 1e-5, 1e-6, 1e-7}));
  expect_follows_tolerance(
      sweep([](double tol) { return governor_in(tol, CoordinateChoice::kAbsolute); },
            "A05 absolute", {1e-4, 1e-5, 1e-6, 1e-7}));
}

TEST(AdaptiveError, SliderCrankFollowsTolerance) {
  expect_follows_tolerance(sweep(slider_crank, "slider-crank"));
}

}  // namespace
}  // namespace cs
