// Where a journal bearing's power goes: the film's friction torque on journal and bush, the
// power it dissipates, its side (axial) flow and its minimum thickness — for the long, short and
// finite bearings of film_laws.hpp, from the same film state and forces (docs/lubrication.md,
// *Bearing losses*). Reported as channels; the torque is not applied to the bodies (the film
// models of reference.md §5.2–5.5 carry the pressure resultant only).
//
// Shear stress of the film (x = Rθ, y across the film from the journal, surface speeds
// U_J = Rω_J, U_B = Rω_B): τ = μ(U_B − U_J)/h ∓ (h/2)∂p/∂x on journal / bush. Integrated:
//   T_J = T_couette + T_poiseuille   (on the journal, about the axis u, about its centre)
//   T_couette    = −(μR³L/c)(ω_J − ω_B) ∫dθ/H = −2πμR³L(ω_J − ω_B)/(c√(1 − ε²))
//   T_poiseuille = −(R/2)∫∫h ∂p/∂θ dθ dz = (R/2)∫∫p ∂h/∂θ = −e F_t/2
//   T_B = −T_J − e F_t   (on the bush about ITS centre: the film is massless)
// The Couette shear acts over the whole circle, cavitated or not (Raimondi & Boyd's convention:
// their friction variable is (R/c)f = 2π²S/√(1 − ε²) + (ε/2) sin φ exactly); the Poiseuille part
// is exact for any pressure field that vanishes at the film's edges, so it holds for every model
// and cavitation condition, using the film's own F_t. With `wedge: false` the Couette shear is
// still that of the actual ω_J − ω_B (a film without wedge pressure still shears).
// Power dissipated (the rate of work of the bodies on the film, frame independent):
//   P = −[F_r c ε̇ + F_t e (γ̇ − ω_B) + T_J (ω_J − ω_B)] = −F_r c ε̇ + F_t e ω̄_k/2 + C_T (ω_J − ω_B)²
// with ω̄_k = ω_J + ω_B − 2γ̇ and C_T = 2πμR³L/(c√(1 − ε²)); each term is ≥ 0 for the films here.
// Side flow Q_s: the net volume flow out of the two bearing ends [m³/s]:
//   long   0 (no axial flow in an infinitely long bearing);
//   short  2RLc √(ε̇² + (εω̄/2)²) on the converging half film (its integral of −g), 0 on the full
//          film (what leaves one half enters the other);
//   finite from the Reynolds pressure field at the ends, tabulated with the forces
//          (reynolds_bearing.hpp).
// Minimum film thickness h_min = c − ‖e‖ (uncapped; ≤ e0 once dry contact has begun).
#pragma once

#include <cmath>
#include <numbers>

#include "clearsim/elements/lubrication/film_laws.hpp"

namespace cs::lubrication {

struct BearingLosses {
  double couette_torque = 0.0;     // T_couette on the journal about u [N·m]
  double poiseuille_torque = 0.0;  // T_poiseuille = −e F_t/2 on the journal about u [N·m]
  double journal_torque = 0.0;     // T_J = T_couette + T_poiseuille [N·m]
  double bush_torque = 0.0;        // T_B = −T_J − e F_t on the bush, about its centre [N·m]
  double power_loss = 0.0;         // P ≥ 0 dissipated in the film [W]
  double side_flow = 0.0;          // Q_s, net flow out of both ends [m³/s]
  double min_film = 0.0;           // h_min = c − ‖e‖ [m]
};

// Couette torque on the journal [N·m] at eccentricity ε for the relative rate ω_J − ω_B
// (templated: the loaded bearing below differentiates it in ε).
template <class S>
S couette_torque(const JournalBearing& b, const S& eps, const S& relative_rate) {
  using std::sqrt;
  const double R = b.radius;
  return -2.0 * std::numbers::pi * b.viscosity * R * R * R * b.length * relative_rate /
         (b.clearance * sqrt(1.0 - eps * eps));
}

// Poiseuille torque on the journal [N·m] at eccentricity e [m] under the film's F_t [N].
template <class S>
S poiseuille_torque(const S& e, const S& F_t) {
  return -0.5 * e * F_t;
}

// The losses of one journal, from the journal geometry and the two bodies' absolute rates about
// the axis (as JournalBearing::force takes them). A finite bearing needs its table.
BearingLosses bearing_losses(const JournalBearing& bearing, const contact::Journal<double>& J,
                             double omega_i, double omega_j);

// A statically loaded bearing (reference.md §5.5 conventions: bush fixed, journal turning at ω,
// steady at ε) in Raimondi & Boyd's dimensionless form. N = ω/2π, W the load, P = W/(2RL).
struct SteadyBearing {
  double sommerfeld = 0.0;         // S = (R/c)² μN/P [-]
  double attitude_deg = 0.0;       // φ between the load and the line of centres [deg]
  double friction_variable = 0.0;  // (R/c) f, f = |T_J|/(W R) [-]
  double flow_variable = 0.0;      // Q/(R c N L), Q the flow into the film at its thickest [-]
  double side_flow_ratio = 0.0;    // Q_s/Q [-]
};

// Long and short: the bearing's film law at (ε, ε̇ = 0, ω̄ = ω) and its losses; the flow into
// the film at θ = 0, Q = 2πRcNL(1 − ε²)/(2 + ε²) (long, either film) or πRcNL(1 + ε) (short,
// Couette only). Finite: Raimondi & Boyd's bearing, a direct Reynolds solve on the table's grid
// with the film fed at its thickest point (ReynoldsSetup::feed_at_thickest), its force, its
// flows (film_flows) and the same friction torque.
SteadyBearing steady_bearing(const JournalBearing& bearing, double eps);

// The friction torque of a bearing whose clearance dynamics are not modelled (a loss model on an
// ideal joint, docs/lubrication.md *A loss model on an ideal joint*): the journal turns at the
// relative rate ω = ω_J − ω_B under a steady load W [N] fixed in the bush's frame, so the film is
// the steady one of steady_bearing (ε̇ = 0, ω̄ = ω). Its force is ω F₁(ε) for ω > 0 (linear in
// the wedge speed at a fixed film), so ε solves |ω| ‖F₁(ε)‖ = W, and
//   T_J(ω) = couette_torque(ε, ω) + poiseuille_torque(εc, F_t) = ω τ(ε),
//   dT_J/dω = τ − τ'(ε) g(ε)/g'(ε),   g = ‖F₁‖   (ε' = −g/(ω g') from ω g(ε) = W),
// odd in ω. Where the film cannot carry W even at ε_max (slow turning, or W above its capacity)
// ε stays at ε_max and T_J = ω τ(ε_max): the rest of the load goes to asperity contact, whose
// friction is not part of this model. Petroff (`petroff`): ε = 0 whatever the load.
struct LoadedTorque {
  double torque = 0.0;         // T_J on the journal about the axis [N·m]
  double dtorque_drate = 0.0;  // ∂T_J/∂ω at fixed load [N·m·s/rad]
  double eps = 0.0;            // the steady eccentricity ratio it found [-]
};
// Builds the finite bearing's force table for its L/D, cavitation and ε_max (the largest
// tabulated ε is 0.995) if it has none; nothing for the long and short bearings.
void attach_finite_table(JournalBearing& bearing);

LoadedTorque loaded_bearing_torque(const JournalBearing& bearing, double omega, double load);
LoadedTorque petroff_torque(const JournalBearing& bearing, double omega);

}  // namespace cs::lubrication
