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

  // The dimensionless damping factor χ of the Hunt–Crossley family (0 for the others).
  double chi() const;
  bool needs_approach_speed() const { return chi() > 0.0; }

  // F_N for penetration δ (≤ 0: no contact, F = 0), rate δ̇ and remembered approach speed δ̇⁻.
  template <class S>
  S force(const S& delta, const S& delta_dot, double approach_speed) const {
    using std::pow;
    if (value_of(delta) <= 0.0) return S(0.0);
    const S elastic = stiffness * pow(delta, exponent);
    S F;
    if (kind == NormalLawKind::kKelvinVoigt) {
      F = elastic + damping * delta_dot;
    } else {
      const double v_minus = std::max(approach_speed, min_approach_speed);
      F = elastic * (1.0 + (chi() / v_minus) * delta_dot);
    }
    return value_of(F) > 0.0 ? F : S(0.0);
  }
};

// Hertz stiffness K = (4/3) E* √R* (reference.md §3.1) from the two materials' Young's moduli
// E [Pa] and Poisson ratios ν, and the effective radius R* [m].
double hertz_stiffness(double E1, double nu1, double E2, double nu2, double R_eff);
// Effective radius of a ball (or pin) of radius r in a conforming cup (or bush) of radius R > r:
// R* = R r/(R − r) (reference.md §3.1, seed 003 eq. 9 with |R − r|).
double conformal_radius(double r_inner, double R_outer);

}  // namespace cs::contact
