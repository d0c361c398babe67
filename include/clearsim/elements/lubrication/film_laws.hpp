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
//  JournalBearing    long (Pinkus–Sternlicht, §5.2; seed 003 eqs. 21–22) or short (Ocvirk,
//                    §5.3) in closed form (journal_films.hpp), each with the converging half
//                    film (half-Sommerfeld / Gümbel: the half circle where the film closes, which
//                    turns with the squeeze-to-wedge ratio; the default) or the full film
//                    (Sommerfeld, `cavitation: sommerfeld`); radial along n and tangential along
//                    t = u × n, with ε̇ = n·ė/c and the wedge speed ω̄ = ω_J + ω_B − 2γ̇; or
//                    finite (Reynolds' equation solved numerically and tabulated,
//                    reynolds_bearing.hpp, with its cavitation condition). Its friction torque,
//                    power loss and flow: bearing_losses.hpp (reported, not applied).
// The eccentricity ratio is capped at ε_max = 1 − h_min/c (h_min: the film thickness where dry
// contact takes over, reference.md §5.4 option B), so the force stays finite in contact.
#pragma once

#include <cmath>
#include <memory>
#include <numbers>
#include <type_traits>

#include "clearsim/elements/contact/contact_geometry.hpp"
#include "clearsim/elements/lubrication/journal_films.hpp"
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

// Kinematics of a journal's film (reference.md §5.2), as the force uses them.
template <class S>
struct BearingFilmState {
  bool centred = true;   // ‖e‖ ≤ 1e-9 c: no line of centres (the rest is then unset)
  S e = S(0.0);          // ‖e‖ [m], uncapped
  V3<S> n, t;            // line of centres n = e/‖e‖ and t = u × n
  S eps = S(0.0);        // ε = ‖e‖/c capped at ε_max [-]
  S eps_dot = S(0.0);    // ε̇ = n·ė/c [1/s]
  S gamma_dot = S(0.0);  // γ̇, rate of the line of centres about u [rad/s]
  S omega_bar = S(0.0);  // wedge speed ω̄ = ω_J + ω_B − 2γ̇ (0 with wedge: false) [rad/s]
};

struct JournalBearing {
  BearingModel model = BearingModel::kLong;
  double viscosity = 0.0;  // μ [Pa·s]
  double radius = 0.0;     // journal radius R [m]
  double length = 0.0;     // bearing length L [m]
  double clearance = 0.0;  // c [m]
  double eps_max = 0.99;   // 1 − h_min/c
  bool wedge = true;       // false: squeeze term only (seed 003 uses eq. 21 alone)
  // Finite: the Reynolds-equation condition. Long and short: kSommerfeld is the full film,
  // anything else the converging half film (journal_films.hpp).
  Cavitation cavitation = Cavitation::kReynolds;
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

  // The film's kinematics from the journal and the two bodies' absolute rates about the axis.
  template <class S>
  BearingFilmState<S> film_state(const contact::Journal<S>& J, const S& omega_i,
                                 const S& omega_j) const {
    using std::sqrt;
    BearingFilmState<S> st;
    const V3<S>& u = J.axis;
    st.e = sqrt(J.e.squaredNorm());
    st.centred = value_of(st.e) <= 1e-9 * clearance;
    if (st.centred) return st;
    st.n = J.e / st.e;
    st.t = u.cross(st.n);
    st.eps = capped(S(st.e / clearance), eps_max);
    st.eps_dot = st.n.dot(J.e_dot) / clearance;
    // γ̇: rate of the line of centres about the axis; ω̄ = ω_J + ω_B − 2γ̇ (absolute rates).
    st.gamma_dot = u.dot(J.e.cross(J.e_dot)) / (st.e * st.e);
    st.omega_bar = wedge ? S(omega_i + omega_j - 2.0 * st.gamma_dot) : S(0.0);
    return st;
  }

  // Whether the closed-form film is the full circle (Sommerfeld) or the converging half
  // (half-Sommerfeld / Gümbel, the default; journal_films.hpp).
  bool full_film() const { return cavitation == Cavitation::kSommerfeld; }

  // Radial squeeze coefficient at ε = 0 [N·s/m]: F = −k0 ė (the same for every direction).
  double centred_squeeze_coefficient() const {
    const double pi = std::numbers::pi;
    const double mu = viscosity, R = radius, L = length, c = clearance;
    const double share = full_film() ? 1.0 : 0.5;  // the half film carries half
    return model == BearingModel::kLong ? share * 12.0 * pi * mu * L * R * R * R / (c * c * c)
                                        : share * pi * mu * R * L * L * L / (c * c * c);
  }

  // F_r (along n) and F_t (along t) on the journal for the film state.
  template <class S>
  void film_forces(const S& eps, const S& eps_dot, const S& omega_bar, S& F_r, S& F_t) const {
    const double mu = viscosity, R = radius, L = length, c = clearance;
    if (model == BearingModel::kFinite) {
      finite_forces(eps, eps_dot, omega_bar, F_r, F_t);
    } else if (model == BearingModel::kLong) {
      long_film_forces(eps, eps_dot, omega_bar, mu * L * R * R * R / (c * c), full_film(), F_r,
                       F_t);
    } else {
      short_film_forces(eps, eps_dot, omega_bar, mu * R * L * L * L / (c * c), full_film(), F_r,
                        F_t);
    }
  }

  template <class S>
  V3<S> force(const contact::Journal<S>& J, const S& omega_i, const S& omega_j) const {
    using std::sqrt;
    const BearingFilmState<S> st = film_state(J, omega_i, omega_j);
    if (st.centred) {
      // ε = 0: the radial squeeze coefficient (the same for every direction), no wedge force.
      const V3<S>& u = J.axis;
      const V3<S> e_dot_r = J.e_dot - u * u.dot(J.e_dot);
      if (model == BearingModel::kFinite) {
        const S speed = sqrt(e_dot_r.squaredNorm());
        if (value_of(speed) == 0.0) return V3<S>::Zero();
        S F_r, F_t;
        finite_forces(S(0.0), S(speed / clearance), S(0.0), F_r, F_t);
        return (F_r / speed) * e_dot_r;
      }
      // The full film's small-ε limit is linear: pure squeeze in the frame turning at the mean
      // speed ω_m = (ω_i + ω_j)/2, F = −k0 (ė − ω_m u × e) (its F_r = −k0 c ε̇ and F_t =
      // (k0 c/2) ε ω̄ at ε → 0). The wedge part is zero at e = 0 but its derivative is not: the
      // tangent of a journal started at the centre needs it. The half film is not linear there
      // (its arc turns with the ratio of squeeze to wedge): no derivative exists.
      if (wedge && full_film())
        return -centred_squeeze_coefficient() *
               (e_dot_r - (0.5 * (omega_i + omega_j)) * u.cross(J.e));
      return -centred_squeeze_coefficient() * e_dot_r;
    }
    S F_r, F_t;
    film_forces(st.eps, st.eps_dot, st.omega_bar, F_r, F_t);
    return F_r * st.n + F_t * st.t;
  }
};

}  // namespace cs::lubrication
