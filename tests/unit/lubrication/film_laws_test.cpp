// Film laws against their closed forms and numerical integration (reference.md §5.1–5.3).
#include "clearsim/elements/lubrication/film_laws.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace cs::lubrication {
namespace {

// A journal bearing with the wedge term (the finite model's table is built by its element).
inline lubrication::JournalBearing make_bearing(lubrication::BearingModel model, double mu,
                                                double R, double L, double c, double eps_max) {
  lubrication::JournalBearing b;
  b.model = model;
  b.viscosity = mu;
  b.radius = R;
  b.length = L;
  b.clearance = c;
  b.eps_max = eps_max;
  return b;
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

// Long bearing (full Sommerfeld): a steady journal at the Sommerfeld number's eccentricity
// carries the load at 90° (reference.md §5.2); short bearing (π-film): the load and attitude
// angle of S(L/D)² = (1−ε²)²/(πε√(16ε² + π²(1−ε²))), tan φ = π√(1−ε²)/(4ε) (§5.3).
TEST(JournalBearingLaw, SteadyLoadMatchesSommerfeldNumbers) {
  const double mu = 0.05, R = 0.02, L = 0.02, c = 4e-5, omega = 300.0, N = omega / (2 * M_PI);
  for (double eps : {0.3, 0.6, 0.85}) {
    contact::Journal<double> J;
    J.centre_i.setZero();
    J.axis = Vec3::UnitZ();
    J.e = Vec3(eps * c, 0.0, 0.0);
    J.centre_j = J.e;
    J.e_dot.setZero();
    const JournalBearing longb = make_bearing(BearingModel::kLong, mu, R, L, c, 0.99);
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

}  // namespace
}  // namespace cs::lubrication
