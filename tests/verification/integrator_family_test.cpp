// The generalized-α family on smooth problems: second-order convergence of every named parameter
// set on a linear oscillator, the ρ∞ mapping, adaptive stepping, and a torque-free rigid body
// (Lie-group update and gyroscopic tangent) conserving energy and angular momentum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "support/prismatic_oscillator.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

constexpr double kPi = std::numbers::pi;

// 1 kg on a prismatic guide along x, spring k = 4π² N/m to ground: period 1 s, amplitude 0.1 m.
Model oscillator() { return testing::prismatic_oscillator(4 * kPi * kPi); }

double oscillator_error(const SolverSettings& base, double h) {
  RunSettings s;
  s.solver = base;
  s.solver.step = h;
  s.solver.end = 2.0;
  s.solver.newton_tol = 1e-13;
  const auto r = testing::run(oscillator(), s);
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  double err = 0.0;
  for (const State& st : r.states)
    err = std::max(err, std::abs(st.x_W[0].x() - (1.0 + 0.1 * std::cos(2 * kPi * st.t))));
  return err;
}

TEST(IntegratorFamily, EveryParameterSetIsSecondOrder) {
  struct Named {
    const char* name;
    SolverSettings s;
  };
  std::vector<Named> sets;
  SolverSettings ga;
  ga.integrator = IntegratorKind::kGeneralizedAlpha;
  ga.rho_inf = 0.6;
  sets.push_back({"generalized-alpha 0.6", ga});
  SolverSettings hht;
  hht.integrator = IntegratorKind::kHht;
  hht.rho_inf = 0.8;
  sets.push_back({"hht", hht});
  SolverSettings tr;
  tr.integrator = IntegratorKind::kTrapezoidal;
  tr.formulation = ConstraintFormulation::kStabilized;
  sets.push_back({"trapezoidal", tr});
  SolverSettings nm;
  nm.integrator = IntegratorKind::kNewmark;
  nm.newmark_beta = 0.3025;  // γ = 0.6, β = (γ + ½)²/4: dissipative Newmark is first order
  nm.newmark_gamma = 0.6;
  // Both integrations: in joint coordinates (the default for the guide) and in body poses.
  for (const CoordinateChoice c : {CoordinateChoice::kAuto, CoordinateChoice::kAbsolute}) {
    for (auto [name, s] : sets) {
      s.coordinates = c;
      SCOPED_TRACE(c == CoordinateChoice::kAuto ? "joint coordinates" : "absolute");
      const double e1 = oscillator_error(s, 4e-3), e2 = oscillator_error(s, 2e-3),
                   e3 = oscillator_error(s, 1e-3);
      EXPECT_NEAR(std::log2(e1 / e2), 2.0, 0.15) << name << " " << e1 << " " << e2;
      EXPECT_NEAR(std::log2(e2 / e3), 2.0, 0.15) << name << " " << e2 << " " << e3;
    }
  }
  // Newmark with γ > ½ is only first order (a known property) — the test shows the family's
  // members are what they claim to be.
  const double n1 = oscillator_error(nm, 2e-3), n2 = oscillator_error(nm, 1e-3);
  EXPECT_NEAR(std::log2(n1 / n2), 1.0, 0.15) << n1 << " " << n2;
}

TEST(IntegratorFamily, RhoInfinityMappingMatchesTable) {
  // reference.md §1.7.
  const auto p = AlphaParameters::from_rho_inf(0.8);
  EXPECT_NEAR(p.alpha_m, 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(p.alpha_f, 4.0 / 9.0, 1e-15);
  EXPECT_NEAR(p.gamma, 0.611111111111111, 1e-14);
  EXPECT_NEAR(p.beta, 0.308641975308642, 1e-14);
  const auto q = AlphaParameters::from_rho_inf(0.0);
  EXPECT_NEAR(q.alpha_m, -1.0, 1e-15);
  EXPECT_NEAR(q.gamma, 1.5, 1e-15);
  EXPECT_NEAR(q.beta, 1.0, 1e-15);
}

TEST(IntegratorFamily, AdaptiveStepMeetsToleranceWithFewerSteps) {
  RunSettings s;
  s.solver.adaptive = true;
  s.solver.step = 1e-3;
  s.solver.end = 2.0;
  // The controller holds the global error at ≈ rtol (tolerance proportionality; 1.2–1.9× on
  // tests/verification/adaptive_error_test.cpp), so 2e-5 asks for the 1e-4 checked below.
  s.solver.rtol = 2e-5;
  s.solver.atol = 2e-5;
  const auto r = testing::run(oscillator(), s);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  double err = 0.0;
  for (const State& st : r.states)
    err = std::max(err, std::abs(st.x_W[0].x() - (1.0 + 0.1 * std::cos(2 * kPi * st.t))));
  std::printf("[ adaptive oscillator ] error %.3g m, %ld steps\n", err,
              static_cast<long>(r.stats.steps));
  EXPECT_LT(err, 1e-4);
  EXPECT_LT(r.stats.steps, 2000);  // fewer than the fixed-step run at the initial step
  EXPECT_NEAR(r.states.back().t, 2.0, 1e-12);
}

// A free rigid body with distinct principal inertias spinning near its intermediate axis
// (Dzhanibekov): the world angular momentum R J Ω and the kinetic energy are invariants.
TEST(IntegratorFamily, TorqueFreeBodyConservesMomentumAndEnergy) {
  Model m;
  Body b;
  b.name = "tumbler";
  b.mass = 1.0;
  b.inertia_B = Vec3(1.0, 2.0, 3.0).asDiagonal();
  b.w0_W = Vec3(0.01, 5.0, 0.02);
  b.w0_prescribed = true;
  add_body(m, b);
  RunSettings s;
  s.solver.rho_inf = 1.0;
  s.solver.step = 1e-3;
  s.solver.end = 10.0;
  s.solver.newton_tol = 1e-13;
  s.output.every = 100;
  const auto r = testing::run(m, s);
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  const Mat3 J = b.inertia_B;
  const auto momentum = [&](const State& st) { return Vec3(st.R_WB[0] * J * st.v.segment<3>(3)); };
  const auto energy = [&](const State& st) {
    return 0.5 * st.v.segment<3>(3).dot(J * st.v.segment<3>(3));
  };
  const Vec3 L0 = momentum(r.states.front());
  const double E0 = energy(r.states.front());
  bool flipped = false;
  for (const State& st : r.states) {
    // ρ∞ = 1 (midpoint-like) conserves both to a small O(h²) oscillation.
    EXPECT_LT((momentum(st) - L0).norm() / L0.norm(), 1e-4) << st.t;
    EXPECT_LT(std::abs(energy(st) - E0) / E0, 1e-4) << st.t;
    if ((st.R_WB[0].col(1)).dot(Vec3::UnitY()) < -0.5) flipped = true;
  }
  EXPECT_TRUE(flipped) << "the intermediate axis should flip within 10 s";
}

}  // namespace
}  // namespace cs
