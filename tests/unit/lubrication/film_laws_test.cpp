// Film laws against their closed forms and numerical integration (reference.md §5.1–5.3).
#include "clearsim/elements/lubrication/film_laws.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "support/journal_bearing.hpp"

namespace cs::lubrication {
namespace {

using testing::make_bearing;

// A journal at rest at eccentricity ratio eps along x in a bearing of clearance c, axis z.
contact::Journal<double> steady_journal(double eps, double c) {
  contact::Journal<double> J;
  J.centre_i.setZero();
  J.axis = Vec3::UnitZ();
  J.e = Vec3(eps * c, 0.0, 0.0);
  J.centre_j = J.e;
  J.e_dot.setZero();
  return J;
}

// Seed 000 eq. 15 against numerical integration of eqs. 13–14: the force on the ball from the
// Gümbel pressure p(θ) = (3μr²ė/(c³ε))[(1 − ε cos θ)⁻² − 1] on 0 ≤ θ ≤ π/2 is
// F = 2πr² ∫ p sin θ cos θ dθ = C₀ f(ε) ė. Composite Simpson with 4000 intervals is exact to
// ~1e-13 for these smooth integrands, so 1e-9 relative checks f to well below any physics need.
TEST(SqueezeFilmLaw, ClosedFormMatchesQuadratureOfThePressure) {
  const double mu = 0.4, r = 0.01, c = 5e-4, e_dot = 1.0;
  const double C0 = 6.0 * std::numbers::pi * mu * std::pow(r, 4) / std::pow(c, 3);
  for (double eps : {0.01, 0.05, 0.1, 0.3, 0.5, 0.8, 0.95, 0.99}) {
    const int n = 4000;
    const double h = 0.5 * std::numbers::pi / n;
    double sum = 0.0;
    for (int k = 0; k <= n; ++k) {
      const double th = k * h;
      const double p = 3.0 * mu * r * r * e_dot / (c * c * c * eps) *
                       (1.0 / std::pow(1.0 - eps * std::cos(th), 2) - 1.0);
      const double w = (k == 0 || k == n) ? 1.0 : (k % 2 ? 4.0 : 2.0);
      sum += w * p * std::sin(th) * std::cos(th);
    }
    const double F = 2.0 * std::numbers::pi * r * r * sum * h / 3.0;
    EXPECT_NEAR(squeeze_factor(eps), F / (C0 * e_dot), 1e-9 * F / (C0 * e_dot)) << eps;
  }
}

// The series branch (|ε| < 0.1) and the closed form meet continuously, and f(0) = 2/3.
TEST(SqueezeFilmLaw, SeriesAndClosedFormAreContinuous) {
  EXPECT_DOUBLE_EQ(squeeze_factor(0.0), 2.0 / 3.0);
  for (double x : {0.1, -0.1}) {
    const double below = squeeze_factor(std::nextafter(x, 0.0));
    const double above = squeeze_factor(x);
    EXPECT_NEAR(below, above, 1e-12) << x;
  }
  // Near 1: f ≈ 1/(1 − ε) (reference.md §5.1).
  EXPECT_NEAR(squeeze_factor(0.9999) * (1.0 - 0.9999), 1.0, 2e-3);
}

// A centred ball (ε = 0) gets the isotropic force −C₀ (2/3) ė, continuous with a slightly
// eccentric one moving along its eccentricity.
TEST(SqueezeFilmLaw, CentredBranchIsContinuous) {
  const SqueezeFilm film{0.4, 0.01, 5e-4, 0.99};
  contact::Journal<double> J;
  J.centre_i.setZero();
  J.axis.setZero();
  J.e_dot = Vec3(0.3, 0.0, 0.0);
  J.e = Vec3::Zero();
  J.centre_j = J.e;
  const Vec3 F0 = film.force(J);
  J.e = Vec3(1e-11, 0.0, 0.0);
  const Vec3 F1 = film.force(J);
  EXPECT_NEAR((F0 - F1).norm(), 0.0, 1e-6 * F0.norm());
  EXPECT_NEAR(F0.x(), -film.c0() * (2.0 / 3.0) * 0.3, 1e-12 * F0.norm());
}

// Long bearing (full Sommerfeld, `cavitation: sommerfeld`): a steady journal at the Sommerfeld
// number's eccentricity carries the load at 90° (reference.md §5.2); short bearing (π-film): the
// load and attitude angle of S(L/D)² = (1−ε²)²/(πε√(16ε² + π²(1−ε²))), tan φ = π√(1−ε²)/(4ε)
// (§5.3).
TEST(JournalBearingLaw, SteadyLoadMatchesSommerfeldNumbers) {
  const double mu = 0.05, R = 0.02, L = 0.02, c = 4e-5, omega = 300.0, N = omega / (2 * M_PI);
  for (double eps : {0.3, 0.6, 0.85}) {
    const contact::Journal<double> J = steady_journal(eps, c);
    JournalBearing longb = make_bearing(BearingModel::kLong, mu, R, L, c, 0.99);
    longb.cavitation = Cavitation::kSommerfeld;
    const Vec3 F = longb.force(J, 0.0, omega);
    const double S_long = (2 + eps * eps) * std::sqrt(1 - eps * eps) / (12 * M_PI * M_PI * eps);
    const double W = F.norm(), P = W / (2 * R * L);
    EXPECT_NEAR((R / c) * (R / c) * mu * N / P, S_long, 1e-12 * S_long) << eps;
    EXPECT_NEAR(std::abs(F.x()), 0.0, 1e-12 * W);  // attitude 90°: no radial force
    const JournalBearing shortb = make_bearing(BearingModel::kShort, mu, R, L, c, 0.99);
    const Vec3 Fs = shortb.force(J, 0.0, omega);
    const double Ws = Fs.norm(), Ps = Ws / (2 * R * L), LD = L / (2 * R);
    const double S_short = std::pow(1 - eps * eps, 2) /
                           (M_PI * eps * std::sqrt(16 * eps * eps + M_PI * M_PI * (1 - eps * eps)));
    EXPECT_NEAR((R / c) * (R / c) * mu * N / Ps * LD * LD, S_short, 1e-12 * S_short) << eps;
    // The load line: the journal sits at attitude φ from the load, tan φ = F_t/|F_r|.
    EXPECT_NEAR(Fs.y() / -Fs.x(), M_PI * std::sqrt(1 - eps * eps) / (4 * eps), 1e-12) << eps;
  }
}

// The short bearing's moving film against the clipped short-bearing pressure integrated by the
// midpoint rule: (F_r, F_t) = k ∫ max(0, −g)(cos θ, sin θ)/(1 + ε cos θ)³ dθ over the whole
// circle, g = ε̇ cos θ − (εω̄/2) sin θ, k = 1 here. 200 000 intervals: the kink of max(0, ·) at
// the film edges and the peak of width ≈ 1 − ε leave < 1e-8 relative at ε ≤ 0.95.
TEST(ShortBearingLaw, MovingFilmMatchesTheClippedPressureIntegral) {
  for (double eps : {0.05, 0.4, 0.8, 0.95}) {
    for (double eps_dot : {-3.0, -0.2, 0.0, 0.5, 4.0}) {
      for (double omega_bar : {-50.0, -1.0, 0.0, 2.0, 80.0}) {
        if (eps_dot == 0.0 && omega_bar == 0.0) continue;
        double F_r = 0.0, F_t = 0.0;
        short_film_forces(eps, eps_dot, omega_bar, 1.0, false, F_r, F_t);
        double Q_r = 0.0, Q_t = 0.0;
        const int n = 200000;
        for (int i = 0; i < n; ++i) {
          const double th = 2 * M_PI * (i + 0.5) / n;
          const double g = eps_dot * std::cos(th) - 0.5 * eps * omega_bar * std::sin(th);
          const double P = std::max(0.0, -g) / std::pow(1 + eps * std::cos(th), 3);
          Q_r += P * std::cos(th) * 2 * M_PI / n;
          Q_t += P * std::sin(th) * 2 * M_PI / n;
        }
        const double scale = std::hypot(Q_r, Q_t);
        SCOPED_TRACE(::testing::Message()
                     << "eps " << eps << " eps_dot " << eps_dot << " omega_bar " << omega_bar);
        EXPECT_NEAR(F_r, Q_r, 1e-8 * scale);
        EXPECT_NEAR(F_t, Q_t, 1e-8 * scale);
      }
    }
  }
}

// Where the fixed π film flips (ω̄ through 0 with a squeeze rate), the moving film turns: the
// force changes by O(Δω̄), not by the π film's jump 2·2εε̇/(1 − ε²)² in F_t.
TEST(ShortBearingLaw, ForceIsContinuousWhereTheWedgeReverses) {
  for (double eps_dot : {-0.5, 0.5}) {
    double r_minus, t_minus, r_plus, t_plus, r0, t0;
    short_film_forces(0.6, eps_dot, -1e-9, 1.0, false, r_minus, t_minus);
    short_film_forces(0.6, eps_dot, 1e-9, 1.0, false, r_plus, t_plus);
    short_film_forces(0.6, eps_dot, 0.0, 1.0, false, r0, t0);
    EXPECT_NEAR(r_minus, r_plus, 1e-8);
    EXPECT_NEAR(t_minus, t_plus, 1e-8);
    EXPECT_NEAR(t0, 0.0, 1e-12);   // pure squeeze: the film is symmetric about the line of centres
    EXPECT_LT(r0 * eps_dot, 0.0);  // and pushes back against the approach (or pulls: separation)
  }
}

// The long bearing's films against the reference: the full film (Sommerfeld) is §5.2's closed
// form F_r = −12πkε̇/(1 − ε²)^{3/2}, F_t = 12πkεω̄/((2 + ε²)(1 − ε²)^{1/2}) exactly, squeeze and
// wedge at once; the half film is H³Π' = 12(ε̇ sin θ + (εω̄/2) cos θ) + C on the converging half
// θ₁ < θ < θ₁ + π with Π = 0 at both edges, integrated here numerically: Π by the trapezoidal
// rule from θ₁, C from Π(θ₁ + π) = 0, then (F_r, F_t) = k∫Π (cos θ, sin θ). 200 000 intervals:
// the closed form's antiderivatives are checked to < 1e-7 of the force.
TEST(LongBearingLaw, FullAndHalfFilmsMatchClosedFormAndQuadrature) {
  const double pi = std::numbers::pi;
  for (double eps : {0.05, 0.4, 0.8, 0.95}) {
    for (double eps_dot : {-3.0, -0.2, 0.0, 0.5, 4.0}) {
      for (double omega_bar : {-50.0, -1.0, 0.0, 2.0, 80.0}) {
        if (eps_dot == 0.0 && omega_bar == 0.0) continue;
        SCOPED_TRACE(::testing::Message()
                     << "eps " << eps << " eps_dot " << eps_dot << " omega_bar " << omega_bar);
        double F_r = 0.0, F_t = 0.0;
        long_film_forces(eps, eps_dot, omega_bar, 1.0, true, F_r, F_t);
        const double s2 = 1.0 - eps * eps;
        const double R_full = -12.0 * pi * eps_dot / (s2 * std::sqrt(s2));
        const double T_full = 12.0 * pi * eps * omega_bar / ((2.0 + eps * eps) * std::sqrt(s2));
        const double full_scale = std::hypot(R_full, T_full);
        EXPECT_NEAR(F_r, R_full, 1e-10 * full_scale);
        EXPECT_NEAR(F_t, T_full, 1e-10 * full_scale);

        long_film_forces(eps, eps_dot, omega_bar, 1.0, false, F_r, F_t);
        const double a = 0.5 * eps * omega_bar;
        const double theta1 = 0.5 * pi - std::atan2(a, eps_dot);
        const int n = 200000;
        const double h = pi / n;
        const auto G = [&](double th) { return eps_dot * std::sin(th) + a * std::cos(th); };
        const auto H3 = [&](double th) { return std::pow(1.0 + eps * std::cos(th), 3); };
        // Π(θ) = ∫(12G + C)/H³ = P_G(θ) + C P_1(θ), both by the trapezoidal rule.
        std::vector<double> PG(n + 1, 0.0), P1(n + 1, 0.0);
        for (int i = 1; i <= n; ++i) {
          const double t0 = theta1 + (i - 1) * h, t1 = theta1 + i * h;
          PG[i] = PG[i - 1] + 0.5 * h * (12.0 * G(t0) / H3(t0) + 12.0 * G(t1) / H3(t1));
          P1[i] = P1[i - 1] + 0.5 * h * (1.0 / H3(t0) + 1.0 / H3(t1));
        }
        const double C = -PG[n] / P1[n];
        double Q_r = 0.0, Q_t = 0.0;
        for (int i = 0; i <= n; ++i) {
          const double th = theta1 + i * h, w = (i == 0 || i == n) ? 0.5 * h : h;
          const double P = PG[i] + C * P1[i];
          Q_r += w * P * std::cos(th);
          Q_t += w * P * std::sin(th);
        }
        const double scale = std::hypot(Q_r, Q_t);
        EXPECT_NEAR(F_r, Q_r, 1e-7 * scale);
        EXPECT_NEAR(F_t, Q_t, 1e-7 * scale);
      }
    }
  }
}

// The half film of a steady wedge is the classical half-Sommerfeld long bearing (reference.md
// §5.2): S = (2 + ε²)(1 − ε²)/(6πε√(4ε² + π²(1 − ε²))), tan φ = π(1 − ε²)^{1/2}/(2ε).
TEST(LongBearingLaw, HalfFilmSteadyLoadMatchesHalfSommerfeldNumbers) {
  const double mu = 0.05, R = 0.02, L = 0.02, c = 4e-5, omega = 300.0, N = omega / (2 * M_PI);
  const JournalBearing b = make_bearing(BearingModel::kLong, mu, R, L, c, 0.99);
  for (double eps : {0.2, 0.6, 0.9}) {
    const contact::Journal<double> J = steady_journal(eps, c);
    const Vec3 F = b.force(J, 0.0, omega);
    const double P = F.norm() / (2 * R * L), s2 = 1 - eps * eps;
    const double S =
        (2 + eps * eps) * s2 / (6 * M_PI * eps * std::sqrt(4 * eps * eps + M_PI * M_PI * s2));
    EXPECT_NEAR((R / c) * (R / c) * mu * N / P, S, 1e-12 * S) << eps;
    EXPECT_NEAR(F.y() / -F.x(), M_PI * std::sqrt(s2) / (2 * eps), 1e-12) << eps;
  }
}

// Exact tangents of both closed-form films, both extents: the Dual24 derivatives of
// long_film_forces and short_film_forces against central differences in (ε, ε̇, ω̄), steps
// 1e-5 relative (the films are smooth away from ε̇ = εω̄ = 0; truncation ~1e-10, round-off
// ~1e-11 relative: measured agreement 1e-9 or better). 1e-6 of the derivatives' scale
// separates a wrong or missing term (O(1)) from the differences' own error.
TEST(JournalFilms, DualTangentsMatchCentralDifferences) {
  const double states[][3] = {{0.8, 3.0, 50.0},    {0.8, -30.0, 5.0}, {0.3, 0.5, 1.0},
                              {0.95, 100.0, -2.0}, {0.5, 0.0, 40.0},  {0.6, -4.0, 0.0}};
  for (bool full : {false, true}) {
    for (bool is_long : {false, true}) {
      const auto film = [&](const auto& e, const auto& ed, const auto& w, auto& Fr, auto& Ft) {
        if (is_long) {
          long_film_forces(e, ed, w, 1.0, full, Fr, Ft);
        } else {
          short_film_forces(e, ed, w, 1.0, full, Fr, Ft);
        }
      };
      for (const auto& x : states) {
        Dual24 arg[3];
        for (int k = 0; k < 3; ++k) {
          arg[k] = Dual24(x[k], Eigen::Matrix<double, 24, 1>::Unit(k));
        }
        Dual24 Fr, Ft;
        film(arg[0], arg[1], arg[2], Fr, Ft);
        const double scale = Fr.derivatives().head<3>().norm() + Ft.derivatives().head<3>().norm();
        for (int k = 0; k < 3; ++k) {
          const double h = 1e-5 * (k == 0 ? 1.0 : std::max(1.0, std::abs(x[k])));
          double p[3] = {x[0], x[1], x[2]}, m[3] = {x[0], x[1], x[2]};
          p[k] += h;
          m[k] -= h;
          double rp, tp, rm, tm;
          film(p[0], p[1], p[2], rp, tp);
          film(m[0], m[1], m[2], rm, tm);
          SCOPED_TRACE(::testing::Message()
                       << (is_long ? "long" : "short") << (full ? " full" : " half") << " state "
                       << x[0] << " " << x[1] << " " << x[2] << " d/dx" << k);
          EXPECT_NEAR(Fr.derivatives()(k), (rp - rm) / (2 * h), 1e-6 * scale);
          EXPECT_NEAR(Ft.derivatives()(k), (tp - tm) / (2 * h), 1e-6 * scale);
        }
      }
    }
  }
}

}  // namespace
}  // namespace cs::lubrication

namespace cs::lubrication {
namespace {

// A journal started at the centre of a full-film bearing with the wedge term (seed 003's
// four-bar): the force's derivative with respect to e there (AD through the centred branch) is
// the polar law's, differenced between e = ±δ along x and y (δ = 1e-6 c: the law's O(ε²) terms
// leave 1e-6 relative). Sensitivities of such a run need it (direct_sensitivity.hpp).
TEST(JournalBearingLaw, CentredFullFilmHasThePolarLawsDerivative) {
  for (BearingModel model : {BearingModel::kLong, BearingModel::kShort}) {
    JournalBearing b = testing::make_bearing(model, 0.4, 9.95e-3, 0.04, 5e-5, 0.99);
    b.cavitation = Cavitation::kSommerfeld;
    const Vec3 e_dot(0.02, -0.01, 0.0);
    const double w_i = 62.8, w_j = 10.0;
    const auto force_at = [&](const Vec3& e) {
      contact::Journal<double> J;
      J.centre_i.setZero();
      J.axis = Vec3::UnitZ();
      J.e = e;
      J.centre_j = e;
      J.e_dot = e_dot;
      return b.force(J, w_i, w_j);
    };
    contact::Journal<Dual24> J;
    J.centre_i.setZero();
    J.axis = V3<Dual24>::UnitZ();
    for (int k = 0; k < 3; ++k) J.e(k) = Dual24(0.0, Eigen::Matrix<double, 24, 1>::Unit(k));
    J.centre_j = J.e;
    J.e_dot = e_dot.cast<Dual24>();
    const V3<Dual24> F = b.force(J, Dual24(w_i), Dual24(w_j));
    const double delta = 1e-6 * b.clearance;
    const double scale = b.centred_squeeze_coefficient() * 0.5 * (w_i + w_j);
    for (int k = 0; k < 2; ++k) {
      const Vec3 d = delta * Vec3::Unit(k);
      const Vec3 fd = (force_at(d) - force_at(-d)) / (2.0 * delta);
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(F(i).derivatives()(k), fd(i), 1e-6 * scale)
            << (model == BearingModel::kLong ? "long" : "short") << " dF" << i << "/de" << k;
    }
  }
}

}  // namespace
}  // namespace cs::lubrication
