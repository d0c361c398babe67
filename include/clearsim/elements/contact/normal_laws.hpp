// Compliant normal-contact laws (reference.md §3): the normal force F_N ≥ 0 as a function of the
// penetration δ = −g_N ≥ 0, its rate δ̇ = −ġ_N, and the approach speed δ̇⁻ > 0 remembered at the
// onset of contact (the Hunt–Crossley family's memory). Templates over the scalar so the
// treatments get exact tangents by automatic differentiation (math/autodiff.hpp).
//
//   hertz                 F = K δ^n                                   (n = 3/2, §3.1)
//   kelvin_voigt          F = max(0, K δ^n + c_d δ̇)                   (§3.3)
//   hunt_crossley         F = K δ^n (1 + χ δ̇/δ̇⁻), χ = 3(1 − e)/2      (seed 004 eq. 3-35)
//   lankarani_nikravesh   χ = 3(1 − e²)/4                            (seed 003 eqs. 12–13)
//   flores                χ = 8(1 − e)/(5e)                          (Flores et al. 2011)
//   gonthier              χ = (1 − e²)/e                             (Gonthier et al. 2004)
//   johnson_cylinder      F = F_J(δ) (1 + χ δ̇/δ̇⁻), χ of lankarani_nikravesh, with F_J Johnson's
//                         pin-in-bush line contact (§3.2), implicit in δ:
//                           δ = a F [ln(b/F) − 1],  a = (σ_i+σ_j)/(πL),  b = 4πLΔR/(σ_i+σ_j),
//                         σ = (1 − ν²)/E, solved by Newton for F; dF/dδ = 1/(a[ln(b/F) − 2]).
// The Hunt–Crossley-family force is clamped at F ≥ 0 (no adhesion when δ̇ < −δ̇⁻/χ).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "clearsim/math/autodiff.hpp"

namespace cs::contact {

enum class NormalLawKind {
  kHertz,
  kKelvinVoigt,
  kHuntCrossley,
  kLankaraniNikravesh,
  kFlores,
  kGonthier,
  kJohnsonCylinder,
};

// Johnson's internal-cylinder relation δ(F) (reference.md §3.2), solved for F. Its range of
// validity ends where dδ/dF = 0 (F = b/e²); past F_c = b/(2e²) the force goes on linearly with
// the slope it has there, far beyond any physical penetration (δ(F_c) ≈ 0.46 ΔR).
struct JohnsonCylinder {
  double a = 0.0;  // (σ_i + σ_j)/(πL) [m/N]
  double b = 0.0;  // 4πLΔR/(σ_i + σ_j) [N]

  JohnsonCylinder() = default;
  JohnsonCylinder(double compliance, double length, double clearance);
  double penetration(double F) const { return a * F * (std::log(b / F) - 1.0); }
  double compliance_at(double F) const { return a * (std::log(b / F) - 2.0); }  // dδ/dF
  double force_limit() const { return 0.5 * b * std::exp(-2.0); }               // F_c
  double force(double delta) const;                                             // F_J(δ), δ > 0
  double energy(double delta) const;                                            // ∫₀^δ F_J dδ
};

const std::vector<std::pair<std::string, NormalLawKind>>& normal_law_names();
std::string to_string(NormalLawKind kind);

struct NormalLaw {
  NormalLawKind kind = NormalLawKind::kLankaraniNikravesh;
  double stiffness = 0.0;    // K [N/m^n]
  double exponent = 1.5;     // n
  double damping = 0.0;      // c_d [N·s/m], Kelvin–Voigt only
  double restitution = 1.0;  // c_e ∈ (0, 1], Hunt–Crossley family only
  // Floor of the remembered approach speed δ̇⁻ [m/s]: a contact that starts almost at rest
  // would otherwise get unbounded damping (reference.md §3.4).
  double min_approach_speed = 1e-3;
  JohnsonCylinder johnson;  // johnson_cylinder only

  // The elastic part K δ^n (Johnson's F_J for johnson_cylinder), δ > 0, and its energy.
  template <class S>
  S elastic_force(const S& delta) const {
    using std::pow;
    if (kind != NormalLawKind::kJohnsonCylinder) return stiffness * pow(delta, exponent);
    // Solve in double, then carry the derivatives of δ by the implicit-function theorem.
    const double d = value_of(delta), F = johnson.force(d);
    const double dF_ddelta = 1.0 / johnson.compliance_at(std::min(F, johnson.force_limit()));
    return S(F) + (delta - d) * dF_ddelta;
  }
  double elastic_energy(double delta) const;
  // d(elastic force)/dδ [N/m] (0 for δ ≤ 0).
  double elastic_stiffness(double delta) const;
  // dF_N/dδ̇ [N·s/m] at penetration δ with remembered approach speed δ̇⁻ (0 for δ ≤ 0).
  double damping_rate(double delta, double approach_speed) const;

  // The dimensionless damping factor χ of the Hunt–Crossley family (0 for the others).
  double chi() const;
  bool needs_approach_speed() const { return chi() > 0.0; }

  // F_N for penetration δ (≤ 0: no contact, F = 0), rate δ̇ and approach speed δ̇⁻: a number
  // remembered since the onset, or (A = S) the current rate of a contact that starts within the
  // step, whose derivatives then count (χ δ̇/δ̇⁻ is χ there, whatever δ̇).
  template <class S, class A>
  S force(const S& delta, const S& delta_dot, const A& approach_speed) const {
    if (value_of(delta) <= 0.0) return S(0.0);
    const S elastic = elastic_force(delta);
    S F;
    if (kind == NormalLawKind::kKelvinVoigt) {
      F = elastic + damping * delta_dot;
    } else {
      const A v_minus =
          value_of(approach_speed) > min_approach_speed ? approach_speed : A(min_approach_speed);
      F = elastic * (1.0 + (chi() / v_minus) * delta_dot);
    }
    return value_of(F) > 0.0 ? F : S(0.0);
  }
};

// Hertz stiffness K = (4/3) E* √R* (reference.md §3.1), 1/E* = σ_i + σ_j, σ = (1 − ν²)/E, from
// the materials' compliance σ_i + σ_j [1/Pa] and the effective radius R* [m].
double hertz_stiffness(double compliance, double R_eff);
// Effective radius of a ball (or pin) of radius r in a conforming cup (or bush) of radius R > r:
// R* = R r/(R − r) (reference.md §3.1, seed 003 eq. 9 with |R − r|).
double conformal_radius(double r_inner, double R_outer);

}  // namespace cs::contact
