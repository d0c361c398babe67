// Closed-form films of the long and short journal bearings (reference.md §5.2, §5.3), dynamic
// (squeeze ε̇ and wedge ω̄ at once), with the film either the full circle (Sommerfeld: negative
// pressures kept) or the half circle where the film converges (Gümbel / half-Sommerfeld, the
// default). Templates over the scalar for exact tangents.
//
// Geometry (as reynolds_bearing.hpp): θ from the thickest film towards t = u × n, H = h/c =
// 1 + ε cos θ, Π = p c²/(μR²). In the frame of the line of centres the film closes at the rate
//   g(θ) = ε̇ cos θ − a sin θ,   a = εω̄/2   (∂H/∂t + (ω̄/2)∂H/∂θ = g),
// and both bearings' Reynolds equations have the forcing 12 g: the short one κ∂Z(H³∂ZΠ) = 12 g
// (κ = (R/L)²), the long one ∂θ(H³∂θΠ) = 12 g. g < 0 on the half circle θ₁ < θ < θ₁ + π,
// θ₁ = π/2 − φ, tan φ = a/ε̇: the converging film, which turns with the ratio of squeeze to
// wedge (Daniel et al. 2016 for the short bearing). The half film puts p = 0 at both its edges.
//  short  Π = −6 g (1 − 4Z²)/(κH³) ≥ 0 on the half film: exactly the positive part of the full
//         solution (no gauge question).
//  long   H³Π' = 12 G + C with G = ε̇ sin θ + a cos θ (G' = g), and C from Π(θ₁ + π) = Π(θ₁) = 0:
//           Π' = 12 ε̇ sin θ/H³ + 6ω̄/H² + C'/H³,  C' = −(12 ε̇ J_s3 + 6ω̄ J₂)/J₃,
//         J₂ = ∫H⁻², J₃ = ∫H⁻³, J_s3 = ∫sin θ H⁻³ over the film. For a pure wedge this is the
//         classical half-Sommerfeld bearing (reference.md §5.2); with squeeze it is the
//         half-Sommerfeld film with its gauge stated: p = 0 where the film stops converging.
//         Over the full circle the same formulas give Sommerfeld's (reference.md §5.2).
// Forces on the journal (F̄_r along n, F̄_t along t), by parts with Π = 0 at the edges:
//   F̄_r = ∫Π cos θ dθ = −∫Π' sin θ dθ,   F̄_t = ∫Π sin θ dθ = ∫Π' cos θ dθ.
// The Sommerfeld substitution 1 + ε cos θ = (1 − ε²)/(1 − ε cos γ) (s = √(1 − ε²),
// dθ = s dγ/(1 − ε cos γ)) makes every integrand a trigonometric polynomial in γ, integrated here
// in closed form between the edges' γ.
#pragma once

#include <cmath>
#include <numbers>

#include "clearsim/math/autodiff.hpp"

namespace cs::lubrication {

// The film's extent in the substituted angle γ: from g1 to g2 (g2 − g1 = 2π for a full film).
template <class S>
struct FilmArc {
  S g1, g2;  // γ at the edges, unwrapped so that g1 < g2
  S s;       // √(1 − ε²)
};

// γ(θ) = atan2(s sin θ, cos θ + ε) at the edges of the converging half film (full: a whole
// turn from the same start).
template <class S>
FilmArc<S> film_arc(const S& eps, const S& eps_dot, const S& a, bool full) {
  using std::atan2;
  using std::cos;
  using std::sin;
  using std::sqrt;
  const double pi = std::numbers::pi;
  const S s = sqrt(1.0 - eps * eps);
  const auto gamma_of = [&](const S& theta) -> S {
    return atan2(s * sin(theta), cos(theta) + eps);
  };
  const S theta1 = 0.5 * pi - atan2(a, eps_dot);
  const S g1 = gamma_of(theta1);
  if (full) return {g1, S(g1 + 2.0 * pi), s};
  S g2 = gamma_of(S(theta1 + pi));
  if (value_of(g2) <= value_of(g1)) g2 += 2.0 * pi;
  return {g1, g2, s};
}

// Short (Ocvirk) bearing, k = μRL³/c²:
//   F_r = −k/s⁵ [ε̇ I₁ − a s I₂],   F_t = −k/s⁵ [ε̇ s I₂ − a s² I₃],
//   I₁ = ∫(cos γ − ε)², I₂ = ∫ sin γ (cos γ − ε), I₃ = ∫ sin² γ over the film.
// Pure wedge on the half film gives §5.3's π-film formulas; the full film doubles the squeeze
// radial term and has no squeeze tangential term (§5.3).
template <class S>
void short_film_forces(const S& eps, const S& eps_dot, const S& omega_bar, double k, bool full,
                       S& F_r, S& F_t) {
  using std::cos;
  using std::sin;
  const S a = 0.5 * eps * omega_bar;
  if (value_of(a) == 0.0 && value_of(eps_dot) == 0.0) {  // no motion, no film force
    F_r = F_t = S(0.0);
    return;
  }
  const FilmArc<S> arc = film_arc(eps, eps_dot, a, full);
  const auto I1 = [&](const S& g) -> S {
    return 0.5 * g + 0.25 * sin(2.0 * g) - 2.0 * eps * sin(g) + eps * eps * g;
  };
  const auto I2 = [&](const S& g) -> S { return 0.5 * sin(g) * sin(g) + eps * cos(g); };
  const auto I3 = [&](const S& g) -> S { return 0.5 * g - 0.25 * sin(2.0 * g); };
  const S i1 = I1(arc.g2) - I1(arc.g1), i2 = I2(arc.g2) - I2(arc.g1);
  const S i3 = I3(arc.g2) - I3(arc.g1);
  const S& s = arc.s;
  const S scale = -k / (s * s * s * s * s);
  F_r = scale * (eps_dot * i1 - a * s * i2);
  F_t = scale * (eps_dot * s * i2 - a * s * s * i3);
}

// Long (Pinkus–Sternlicht) bearing, k = μLR³/c² (see the header comment). The integrals over
// the film, with the substitution (antiderivatives in γ):
//   ∫H⁻² dθ = [γ − ε sin γ]/s³,            ∫H⁻³ dθ = [γ − 2ε sin γ + ε²(γ/2 + sin 2γ/4)]/s⁵,
//   ∫sin θ H⁻³ dθ = [−cos γ − ε sin²γ/2]/s⁴, ∫sin²θ H⁻³ dθ = [γ/2 − sin 2γ/4]/s³,
//   ∫sin θ H⁻² dθ = [−cos γ]/s²,           ∫sin θ cos θ H⁻³ dθ = [sin²γ/2 + ε cos γ]/s⁴,
//   ∫cos θ H⁻² dθ = [sin γ − εγ]/s³,       ∫cos θ H⁻³ dθ = [(1 + ε²) sin γ − 3εγ/2 − ε sin
//   2γ/4]/s⁵.
template <class S>
void long_film_forces(const S& eps, const S& eps_dot, const S& omega_bar, double k, bool full,
                      S& F_r, S& F_t) {
  using std::cos;
  using std::sin;
  const S a = 0.5 * eps * omega_bar;
  if (value_of(a) == 0.0 && value_of(eps_dot) == 0.0) {
    F_r = F_t = S(0.0);
    return;
  }
  const FilmArc<S> arc = film_arc(eps, eps_dot, a, full);
  // Explicit return types: Eigen AutoDiff expressions must not outlive their operands.
  const auto over = [&](auto antiderivative) -> S {
    return antiderivative(arc.g2) - antiderivative(arc.g1);
  };
  const S& s = arc.s;
  const S s2 = s * s, s3 = s2 * s, s4 = s2 * s2, s5 = s4 * s;
  const S e2 = eps * eps;
  const S J2 = over([&](const S& g) -> S { return g - eps * sin(g); }) / s3;
  const S J3 = over([&](const S& g) -> S {
                 return g - 2.0 * eps * sin(g) + e2 * (0.5 * g + 0.25 * sin(2.0 * g));
               }) /
               s5;
  const S Js3 = over([&](const S& g) -> S { return -cos(g) - 0.5 * eps * sin(g) * sin(g); }) / s4;
  const S Jss3 = over([&](const S& g) -> S { return 0.5 * g - 0.25 * sin(2.0 * g); }) / s3;
  const S Js2 = over([&](const S& g) -> S { return -cos(g); }) / s2;
  const S Jsc3 = over([&](const S& g) -> S { return 0.5 * sin(g) * sin(g) + eps * cos(g); }) / s4;
  const S Jc2 = over([&](const S& g) -> S { return sin(g) - eps * g; }) / s3;
  const S Jc3 = over([&](const S& g) -> S {
                  return (1.0 + e2) * sin(g) - 1.5 * eps * g - 0.25 * eps * sin(2.0 * g);
                }) /
                s5;
  const S C = -(12.0 * eps_dot * Js3 + 6.0 * omega_bar * J2) / J3;
  F_r = -k * (12.0 * eps_dot * Jss3 + 6.0 * omega_bar * Js2 + C * Js3);
  F_t = k * (12.0 * eps_dot * Jsc3 + 6.0 * omega_bar * Jc2 + C * Jc3);
}

}  // namespace cs::lubrication
