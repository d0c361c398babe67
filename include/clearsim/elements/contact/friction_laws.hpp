// Friction laws for compliant contact (reference.md §4): the tangential force on body j at a
// contact point, from the tangential relative velocity v_T, the normal force F_N ≥ 0 and — for the
// bristle model — the bristle deflection d and its rate. Templates over the scalar for exact
// tangents (math/autodiff.hpp). Every law adds the viscous term −σ_v v_T.
//
//   none       F_T = −σ_v v_T
//   coulomb    Ambrósio's modified Coulomb law (seed 003 eqs. 15–16):
//              F_T = −μ_d c_d F_N v_T/‖v_T‖, c_d = 0 below v_0, linear up to 1 at v_1 (§4.2)
//   stribeck   μ(v) = μ_d + (μ_s − μ_d) exp(−(‖v_T‖/v_s)²), F_T = −μ(v) F_N v_T/√(‖v_T‖² + v_ε²)
//   bristle    Dopico et al. 2011 after Gonthier et al. 2004 (seed 004 eqs. 3-40…3-49 as corrected
//              in reference.md §4.4): F_T = k F_stick + (1 − k) F_slide, k = exp(−‖v_T‖²/v_stick²),
//              F_stick = −k_stick d − c_stick ḋ capped at μ_s F_N, F_slide = −μ_d F_N v_T/‖v_T‖.
//              The anchor of d moves (when the step is accepted) so that a saturated bristle sits
//              at η μ_s F_N/k_stick behind the contact: true stiction below μ_s, no creep.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/math/autodiff.hpp"

namespace cs::contact {

enum class FrictionLawKind { kNone, kCoulomb, kStribeck, kBristle };

const std::vector<std::pair<std::string, FrictionLawKind>>& friction_law_names();
std::string to_string(FrictionLawKind kind);

struct FrictionLaw {
  FrictionLawKind kind = FrictionLawKind::kNone;
  double mu_dynamic = 0.0;         // μ_d (c_f of seed 003)
  double mu_static = 0.0;          // μ_s ≥ μ_d (stribeck, bristle)
  double v0 = 1e-4;                // coulomb: no friction below v_0 [m/s]
  double v1 = 1e-3;                // coulomb: full friction above v_1 [m/s]
  double stribeck_speed = 1e-3;    // v_s [m/s]
  double regularization = 1e-4;    // stribeck: v_ε [m/s]
  double viscous = 0.0;            // σ_v [N·s/m], every law
  double bristle_stiffness = 0.0;  // k_stick [N/m]
  double bristle_damping = 0.0;    // c_stick [N·s/m]
  double stick_speed = 1e-3;       // v_stick [m/s]
  double anchor_ratio = 1.0;       // η ∈ (0, 1]

  bool has_bristle() const { return kind == FrictionLawKind::kBristle; }

  // Tangential force on body j. v_T: tangential relative velocity; F_N ≥ 0; d, d_dot: bristle
  // deflection (tangential) and its rate (bristle law only; ignored otherwise).
  template <class S>
  V3<S> force(const V3<S>& v_T, const S& F_N, const V3<S>& d, const V3<S>& d_dot) const {
    using std::exp;
    using std::sqrt;
    V3<S> F = -viscous * v_T;
    const S speed2 = v_T.squaredNorm();
    const double speed = std::sqrt(value_of(speed2));
    switch (kind) {
      case FrictionLawKind::kNone:
        return F;
      case FrictionLawKind::kCoulomb: {
        if (speed <= v0) return F;
        const S s = sqrt(speed2);
        const S c_d = speed >= v1 ? S(1.0) : (s - v0) / (v1 - v0);
        return F - (mu_dynamic * c_d * F_N / s) * v_T;
      }
      case FrictionLawKind::kStribeck: {
        const S s2 = speed2 / (stribeck_speed * stribeck_speed);
        const S mu = mu_dynamic + (mu_static - mu_dynamic) * exp(-s2);
        return F - (mu * F_N / sqrt(speed2 + regularization * regularization)) * v_T;
      }
      case FrictionLawKind::kBristle:
        return F + bristle_force(v_T, F_N, d, d_dot);
    }
    return F;
  }

  // The bristle part k F_stick + (1 − k) F_slide.
  template <class S>
  V3<S> bristle_force(const V3<S>& v_T, const S& F_N, const V3<S>& d, const V3<S>& d_dot) const {
    using std::exp;
    using std::sqrt;
    const S speed2 = v_T.squaredNorm();
    const S k = exp(-speed2 / (stick_speed * stick_speed));
    V3<S> F_stick = -bristle_stiffness * d - bristle_damping * d_dot;
    const S cap = mu_static * F_N;
    const S stick_norm = sqrt(F_stick.squaredNorm());
    if (value_of(stick_norm) > value_of(cap)) F_stick *= cap / stick_norm;  // saturated
    V3<S> F_slide = V3<S>::Zero();
    if (value_of(speed2) > 0.0) F_slide = (-mu_dynamic * F_N / sqrt(speed2)) * v_T;
    return k * F_stick + (1.0 - k) * F_slide;
  }

  // Where the bristle anchor must sit after an accepted step, as a deflection d (tangential)
  // of the contact from its anchor: unchanged below saturation; at η μ_s F_N/k_stick along v_T
  // (or along d when not sliding) when ‖F_stick‖ exceeds μ_s F_N (reference.md §4.4, eq. 3-49).
  Vec3 settled_deflection(const Vec3& v_T, double F_N, const Vec3& d, const Vec3& d_dot) const;
};

}  // namespace cs::contact
