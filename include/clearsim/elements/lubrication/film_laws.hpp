// Hydrodynamic film forces on a journal (reference.md §5), as functions of the journal geometry
// of a clearance joint (contact_geometry.hpp): eccentricity e, its rate ė, the bearing axis and
// the two bodies' angular velocities about it. Templates over the scalar for exact tangents.
// Each returns the force on the journal (body j) [N], applied at the journal centre; the housing
// receives the opposite force at the same point (the resultant of the pressure passes through
// the journal centre: no moment about it).
//
//  SqueezeFilm       spherical joint (seed 000 eqs. 10–18, as resolved in reference.md §5.1):
//                    F = −C₀ f(ε_s) ė_n n, C₀ = 6πμr⁴/c³, ė_n = n·ė, ε_s = ±ε (approach/separation)
//                    f(ε) = ln(1−ε)/ε³ + 1/(ε²(1−ε)) − 1/(2ε) (series 2/3 + 3ε/4 + … below 0.1)
//  JournalBearing    long (Pinkus–Sternlicht full-Sommerfeld, §5.2; seed 003 eqs. 21–22) or
//                    short (Ocvirk, §5.3, with the film where the pressure is positive: the half
//                    circle turns with the squeeze-to-wedge ratio), radial along n and tangential
//                    along t = u × n, with ε̇ = n·ė/c and the wedge speed ω̄ = ω_J + ω_B − 2γ̇; or
//                    finite (Reynolds' equation solved numerically and tabulated,
//                    reynolds_bearing.hpp, with its cavitation condition).
// The eccentricity ratio is capped at ε_max = 1 − h_min/c (h_min: the film thickness where dry
// contact takes over, reference.md §5.4 option B), so the force stays finite in contact.
#pragma once

#include <cmath>
#include <memory>
#include <numbers>
#include <type_traits>

#include "clearsim/elements/contact/contact_geometry.hpp"
#include "clearsim/elements/lubrication/reynolds_bearing.hpp"

namespace cs::lubrication {

// f(ε) of the spherical squeeze film for ε ∈ (−1, 1) (reference.md §5.1).
template <class S>
S squeeze_factor(const S& eps) {
  using std::log;
  if (std::abs(value_of(eps)) < 0.1) {
    // Σ_{m≥0} (m+2)/(m+3) ε^m, Horner over m ≤ 16: the rest is < 1e-17 relative at |ε| < 0.1.
    S sum = S(18.0 / 19.0);
    for (int m = 15; m >= 0; --m) sum = S((m + 2.0) / (m + 3.0)) + eps * sum;
    return sum;
  }
  const S e2 = eps * eps;
  return log(1.0 - eps) / (e2 * eps) + 1.0 / (e2 * (1.0 - eps)) - 0.5 / eps;
}

// ε/ε_max capped: returns min(ε, ε_max) (constant beyond the cap).
template <class S>
S capped(const S& eps, double eps_max) {
  return value_of(eps) > eps_max ? S(eps_max) : eps;
}

struct SqueezeFilm {
  double viscosity = 0.0;  // μ [Pa·s]
  double radius = 0.0;     // ball radius r [m]
  double clearance = 0.0;  // c [m]
  double eps_max = 0.99;   // 1 − h_min/c

  double c0() const {
    return 6.0 * std::numbers::pi * viscosity * std::pow(radius, 4) / std::pow(clearance, 3);
  }

  template <class S>
  V3<S> force(const contact::Journal<S>& J) const {
    using std::sqrt;
    const S e = sqrt(J.e.squaredNorm());
    if (value_of(e) <= 1e-9 * clearance) {
      // Centred: every direction is equivalent, F = −C₀ f(0) ė (the ε → 0 limit of both forms).
      return (-c0() * (2.0 / 3.0)) * J.e_dot;
    }
    const V3<S> n = J.e / e;
    const S e_n = n.dot(J.e_dot);
    const S eps = capped(S(e / clearance), eps_max);
    const S eps_s = value_of(e_n) >= 0.0 ? eps : S(-eps);
    return (-c0() * squeeze_factor(eps_s) * e_n) * n;
  }
};

enum class BearingModel { kLong, kShort, kFinite };

// Short (Ocvirk) bearing with the film where the short-bearing pressure is positive (reference.md
// §5.3's fix of the fixed π film, after Daniel et al. 2016). Per unit length the pressure is
// P(θ) = (μL³/c²)(−g)/(1 + ε cos θ)³ where g(θ) = ε̇ cos θ − (εω̄/2) sin θ < 0, zero elsewhere; g
// changes sign at θ + φ = ±π/2 (tan φ = εω̄/(2ε̇)), so the film is a half circle that turns with
// the ratio of squeeze to wedge — continuously, where the fixed π film flips at ω̄ = 0 and stalls
// Newton. The Sommerfeld substitution 1 + ε cos θ = (1 − ε²)/(1 − ε cos γ) turns the integrands
// into trigonometric polynomials of degree 2 in γ, integrated here in closed form:
//   F_r = −k/(1−ε²)^{5/2} [ε̇ I₁ − a s I₂],   F_t = −k/(1−ε²)^{5/2} [ε̇ s I₂ − a s² I₃],
//   I₁ = ∫(cos γ − ε)², I₂ = ∫ sin γ (cos γ − ε), I₃ = ∫ sin² γ over the film,
// with a = εω̄/2, s = √(1 − ε²), k = μRL³/c². Pure wedge gives §5.3's π-film formulas exactly.
template <class S>
void short_film_forces(const S& eps, const S& eps_dot, const S& omega_bar, double k, S& F_r,
                       S& F_t) {
  using std::atan2;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const S a = 0.5 * eps * omega_bar;
  if (value_of(a) == 0.0 && value_of(eps_dot) == 0.0) {  // no motion, no film force
    F_r = F_t = S(0.0);
    return;
  }
  const double pi = std::numbers::pi;
  const S phi = atan2(a, eps_dot);
  const S s = sqrt(1.0 - eps * eps);
  // Film edges θ₁ = π/2 − φ, θ₂ = θ₁ + π, and their γ = atan2(s sin θ, cos θ + ε), unwrapped.
  const auto gamma_of = [&](const S& theta) { return atan2(s * sin(theta), cos(theta) + eps); };
  const S theta1 = 0.5 * pi - phi;
  const S g1 = gamma_of(theta1);
  S g2 = gamma_of(S(theta1 + pi));
  if (value_of(g2) <= value_of(g1)) g2 += 2.0 * pi;
  const auto I1 = [&](const S& g) {
    return 0.5 * g + 0.25 * sin(2.0 * g) - 2.0 * eps * sin(g) + eps * eps * g;
  };
  const auto I2 = [&](const S& g) { return 0.5 * sin(g) * sin(g) + eps * cos(g); };
  const auto I3 = [&](const S& g) { return 0.5 * g - 0.25 * sin(2.0 * g); };
  const S i1 = I1(g2) - I1(g1), i2 = I2(g2) - I2(g1), i3 = I3(g2) - I3(g1);
  const S scale = -k / (s * s * s * s * s);
  F_r = scale * (eps_dot * i1 - a * s * i2);
  F_t = scale * (eps_dot * s * i2 - a * s * s * i3);
}

struct JournalBearing {
  BearingModel model = BearingModel::kLong;
  double viscosity = 0.0;  // μ [Pa·s]
  double radius = 0.0;     // journal radius R [m]
  double length = 0.0;     // bearing length L [m]
  double clearance = 0.0;  // c [m]
  double eps_max = 0.99;   // 1 − h_min/c
  bool wedge = true;       // false: squeeze term only (seed 003 uses eq. 21 alone)
  Cavitation cavitation = Cavitation::kReynolds;  // finite bearing only
  // The finite bearing's force table for this L/D (built by the element that owns the bearing).
  std::shared_ptr<const FiniteBearingTable> table;

  // F_r, F_t of the finite bearing from its table, with the table's exact derivatives carried
  // into the scalar's derivatives.
  template <class S>
  void finite_forces(const S& eps, const S& eps_dot, const S& omega_bar, S& F_r, S& F_t) const {
    const BearingForce bf = table->evaluate({value_of(eps), value_of(eps_dot), value_of(omega_bar)},
                                            {viscosity, radius, length, clearance});
    if constexpr (std::is_same_v<S, double>) {
      F_r = bf.force(0);
      F_t = bf.force(1);
    } else {
      const auto& J = bf.jacobian;
      F_r = S(bf.force(0), J(0, 0) * eps.derivatives() + J(0, 1) * eps_dot.derivatives() +
                               J(0, 2) * omega_bar.derivatives());
      F_t = S(bf.force(1), J(1, 0) * eps.derivatives() + J(1, 1) * eps_dot.derivatives() +
                               J(1, 2) * omega_bar.derivatives());
    }
  }

  template <class S>
  V3<S> force(const contact::Journal<S>& J, const S& omega_i, const S& omega_j) const {
    using std::sqrt;
    const double pi = std::numbers::pi;
    const double mu = viscosity, R = radius, L = length, c = clearance;
    const S e = sqrt(J.e.squaredNorm());
    const V3<S>& u = J.axis;
    if (value_of(e) <= 1e-9 * c) {
      // ε = 0: the radial squeeze coefficient (the same for every direction), no wedge force.
      const V3<S> e_dot_r = J.e_dot - u * u.dot(J.e_dot);
      if (model == BearingModel::kFinite) {
        const S speed = sqrt(e_dot_r.squaredNorm());
        if (value_of(speed) == 0.0) return V3<S>::Zero();
        S F_r, F_t;
        finite_forces(S(0.0), S(speed / c), S(0.0), F_r, F_t);
        return (F_r / speed) * e_dot_r;
      }
      const double k0 = model == BearingModel::kLong ? 12.0 * pi * mu * L * R * R * R / (c * c * c)
                                                     : 0.5 * pi * mu * R * L * L * L / (c * c * c);
      const V3<S> e_dot_radial = J.e_dot - u * u.dot(J.e_dot);
      return -k0 * e_dot_radial;
    }
    const V3<S> n = J.e / e;
    const V3<S> t = u.cross(n);
    const S eps = capped(S(e / c), eps_max);
    const S eps_dot = n.dot(J.e_dot) / c;
    // γ̇: rate of the line of centres about the axis; ω̄ = ω_J + ω_B − 2γ̇ (absolute rates).
    const S gamma_dot = u.dot(J.e.cross(J.e_dot)) / (e * e);
    const S omega_bar = wedge ? S(omega_i + omega_j - 2.0 * gamma_dot) : S(0.0);
    const S one_m = 1.0 - eps * eps;
    S F_r, F_t;
    if (model == BearingModel::kFinite) {
      finite_forces(eps, eps_dot, omega_bar, F_r, F_t);
    } else if (model == BearingModel::kLong) {
      const double k = 12.0 * pi * mu * L * R * R * R / (c * c);
      F_r = -k * eps_dot / (one_m * sqrt(one_m));
      F_t = k * eps * omega_bar / ((2.0 + eps * eps) * sqrt(one_m));
    } else {
      short_film_forces(eps, eps_dot, omega_bar, mu * R * L * L * L / (c * c), F_r, F_t);
    }
    return F_r * n + F_t * t;
  }
};

}  // namespace cs::lubrication
