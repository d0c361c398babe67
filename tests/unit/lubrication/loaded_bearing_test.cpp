// The friction torque of a steadily loaded bearing without clearance dynamics
// (bearing_losses.hpp, loaded_bearing_torque): Petroff's law, Ocvirk's short bearing in closed
// form, the long bearing against its steady_bearing, the finite bearing against Raimondi & Boyd,
// and ∂T/∂ω against central differences.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "clearsim/elements/lubrication/bearing_losses.hpp"
#include "support/journal_bearing.hpp"

namespace cs::lubrication {
namespace {

using testing::make_bearing;
constexpr double kPi = std::numbers::pi;
constexpr double kMu = 0.05, kR = 0.02, kL = 0.02, kC = 4e-5;

// Petroff: T = −2πμR³Lω/c exactly, and a vanishing load leaves the journal centred.
TEST(LoadedBearing, PetroffAndTheUnloadedJournal) {
  const double omega = 300.0;
  const double petroff = 2.0 * kPi * kMu * kR * kR * kR * kL * omega / kC;
  const JournalBearing b = make_bearing(BearingModel::kShort, kMu, kR, kL, kC, 0.99);
  const LoadedTorque p = petroff_torque(b, omega);
  EXPECT_NEAR(p.torque, -petroff, 1e-14 * petroff);
  EXPECT_NEAR(p.dtorque_drate, -petroff / omega, 1e-14 * petroff / omega);
  for (BearingModel model : {BearingModel::kShort, BearingModel::kLong}) {
    const JournalBearing m = make_bearing(model, kMu, kR, kL, kC, 0.99);
    // A load of 1 N on a bearing that carries kN at ε = 0.5: ε ≈ 1e-4, T within O(ε) of Petroff.
    const LoadedTorque t = loaded_bearing_torque(m, omega, 1.0);
    EXPECT_LT(t.eps, 1e-3);
    EXPECT_NEAR(t.torque, -petroff, 1e-3 * petroff) << int(model);
    EXPECT_EQ(loaded_bearing_torque(m, omega, 0.0).torque, p.torque);
  }
}

// Ocvirk's short bearing (half film): W = μωRL³ε/(4c²(1−ε²)²)·√(π²(1−ε²) + 16ε²) and, with
// tan φ = π√(1−ε²)/(4ε), T = 2πμR³Lω/(c√(1−ε²)) + (εc/2) W sin φ on the journal, against ω.
TEST(LoadedBearing, ShortBearingMatchesOcvirkClosedForm) {
  const JournalBearing b = make_bearing(BearingModel::kShort, kMu, kR, kL, kC, 0.99);  // half film
  const double omega = 250.0;
  for (double eps : {0.1, 0.3, 0.5, 0.7, 0.9}) {
    const double s = 1.0 - eps * eps;
    const double W = kMu * omega * kR * kL * kL * kL * eps / (4.0 * kC * kC * s * s) *
                     std::sqrt(kPi * kPi * s + 16.0 * eps * eps);
    const double phi = std::atan2(kPi * std::sqrt(s), 4.0 * eps);
    const double T = 2.0 * kPi * kMu * kR * kR * kR * kL * omega / (kC * std::sqrt(s)) +
                     0.5 * eps * kC * W * std::sin(phi);
    for (double sign : {1.0, -1.0}) {
      const LoadedTorque t = loaded_bearing_torque(b, sign * omega, W);
      EXPECT_NEAR(t.eps, eps, 1e-10) << eps;
      EXPECT_NEAR(t.torque, -sign * T, 1e-10 * T) << eps;  // resists the rotation
    }
  }
}

// Long bearing (half film): the load and friction variable of steady_bearing at ε give back ε
// and T = (R/c)f · W c.
TEST(LoadedBearing, LongBearingMatchesItsSteadyBearing) {
  const JournalBearing b = make_bearing(BearingModel::kLong, kMu, kR, kL, kC, 0.99);
  const double omega = 2.0 * kPi * 20.0;
  for (double eps : {0.2, 0.5, 0.8, 0.95}) {
    const SteadyBearing sb = steady_bearing(b, eps);
    const double N = omega / (2.0 * kPi);
    const double W = (kR / kC) * (kR / kC) * kMu * N * 2.0 * kR * kL / sb.sommerfeld;
    const LoadedTorque t = loaded_bearing_torque(b, omega, W);
    EXPECT_NEAR(t.eps, eps, 1e-10) << eps;
    EXPECT_NEAR(-t.torque, sb.friction_variable * W * kC, 1e-10 * W * kC) << eps;
  }
}

// Raimondi & Boyd, L/D = 1 (Shigley 10th ed., Table 12-4): S → ε and (R/c)f. The table used in
// dynamics is the groove-less Swift–Stieber film (docs/lubrication.md: its load is within ±1.3 %
// of R&B's), so ε within 0.02 and (R/c)f within 3 %.
TEST(LoadedBearing, FiniteBearingMatchesRaimondiBoyd) {
  JournalBearing b = make_bearing(BearingModel::kFinite, kMu, kR, 2.0 * kR, kC, 0.99);
  attach_finite_table(b);
  struct Row {
    double eps, sommerfeld, friction_variable;
  };
  const Row rows[] = {{0.2, 0.631, 12.8},
                      {0.4, 0.264, 5.79},
                      {0.6, 0.121, 3.22},
                      {0.8, 0.0446, 1.70},
                      {0.9, 0.0188, 1.05}};
  const double omega = 2.0 * kPi * 30.0, N = 30.0;
  for (const Row& r : rows) {
    const double W = (kR / kC) * (kR / kC) * kMu * N * 2.0 * kR * b.length / r.sommerfeld;
    const LoadedTorque t = loaded_bearing_torque(b, omega, W);
    EXPECT_NEAR(t.eps, r.eps, 0.02) << r.eps;
    EXPECT_NEAR(-t.torque / (W * kC), r.friction_variable, 0.03 * r.friction_variable) << r.eps;
  }
}

// ∂T/∂ω at fixed load against central differences (relative step 1e-6: truncation 1e-12,
// round-off of the ε solve 1e-13/1e-6): every model, both signs, and below the speed where the
// film carries the load (ε held at its cap).
TEST(LoadedBearing, RateDerivativeMatchesCentralDifferences) {
  JournalBearing finite = make_bearing(BearingModel::kFinite, kMu, kR, kL, kC, 0.99);
  attach_finite_table(finite);
  const JournalBearing bearings[] = {make_bearing(BearingModel::kShort, kMu, kR, kL, kC, 0.99),
                                     make_bearing(BearingModel::kLong, kMu, kR, kL, kC, 0.99),
                                     finite};
  for (const JournalBearing& b : bearings) {
    for (double omega : {-400.0, 30.0, 250.0}) {
      for (double W : {100.0, 2000.0, 2e7}) {
        const double h = 1e-6 * std::abs(omega);
        const LoadedTorque t = loaded_bearing_torque(b, omega, W);
        const double numeric = (loaded_bearing_torque(b, omega + h, W).torque -
                                loaded_bearing_torque(b, omega - h, W).torque) /
                               (2.0 * h);
        EXPECT_NEAR(t.dtorque_drate, numeric, 1e-5 * std::abs(numeric))
            << int(b.model) << " " << omega << " " << W;
      }
    }
  }
}

}  // namespace
}  // namespace cs::lubrication
