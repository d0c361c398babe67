// The tangent of NSGA's contact corrections at one step (solvers/nonsmooth_correction.hpp), for
// the direct sensitivities: the position correction and the velocity jump differentiated with
// their active sets frozen (issue 26, item 2).
//
// With the contacts' decisions of the step fixed — which gaps the position correction closes
// (A), which contacts are candidates of the jump and which take an impulse (A′), which law each
// follows (e or plastic) — both corrections are smooth systems of equations:
//
//   F(U, ν_B, ν_A; q̃, p) = (M U + Bᵀν_B − G_Aᵀν_A,  Φ(q),  g_A(q)) = 0,      q = q̃ ∘ exp(U)
//   H(W, μ, Λ_A′; q, ṽ, S_n, p) = (M W + Bᵀμ − G_A′ᵀΛ,  B v + Φ_t,
//                                  G_j v + e_j G_j(q_n) v_n  (j ∈ A′)) = 0,    v = ṽ + W
//
// and their tangents follow from F_Y dY = −(F_q̃ dq̃ + F_p), H_Z dZ = −(H_x dx + H_p): F_Y and H_Z
// by columns at the step, the right-hand sides as the derivative of F and H (unknowns fixed)
// along the parameter's models with the states displaced along their tangents — no decision is
// taken there, so no finite step can cross one. The jump of the sensitivity at an impact thus
// follows the impact law: dv⁺ along the normal is −e dġ⁻ − ġ⁻ de.
//
// A derivative exists while every contact is strictly on one side of its decisions. One that is
// not (a closed gap with no multiplier, an open one touching, a candidate grazing at q̃, an
// impulse that vanishes, an impact speed at the restitution threshold) is reported instead.
// What this does not give: the shift of an impact from one step to the next as the parameter
// moves (the time-stepped solution jumps there); see docs/sensitivity.md.
#pragma once

#include <memory>
#include <string>

#include "clearsim/sensitivity/perturbed_models.hpp"
#include "clearsim/solvers/nonsmooth_correction.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class CorrectionTangent {
 public:
  CorrectionTangent(const System& sys, const SolverSettings& settings);

  // Solves the corrections of the step from `prev` again, from its smooth end `smooth` (q̃, ṽ),
  // to round-off, and factorizes F_Y and H_Z. false with `why` (naming the contact and the time)
  // where a contact sits on the boundary of a decision or the correction fails.
  bool linearize(const State& prev, const State& smooth, std::string& why);

  // d: on entry the tangent of the smooth end (StepLinearization::directional), on return that
  // of the corrected state — its q and v, and v_jump, lambda_jump, Lambda. dprev: the tangent of
  // the step's start. par: the parameter's models.
  void apply(const StateTangent& dprev, StateTangent& d, const PerturbedModels& par) const;

  // The position correction's Jacobian F_Y at the unknowns Y = (U, ν_B, ν_A) of the active set
  // linearize() found (its solution: solution_unknowns()), and the same by Richardson's central
  // differences of the position residual (tests).
  MatX position_jacobian(const VecX& Y) const;
  MatX position_jacobian_by_differences(const VecX& Y) const;
  const VecX& solution_unknowns() const { return Y_; }

 private:
  // F of `sys` at the smooth configuration `smooth` and the unknowns Y = (U, ν_B, ν_A).
  VecX position_residual(const System& sys, const State& smooth, const VecX& Y) const;
  // H of `sys` at the corrected configuration with smooth velocities `at` (q, ṽ), the start
  // `prev` and the unknowns Z = (W, μ, Λ_A′).
  VecX jump_residual(const System& sys, const State& at, const State& prev, const VecX& Z) const;
  // The first contact on the boundary of a decision, described, or empty.
  std::string boundary_contact() const;

  const System& sys_;
  NonsmoothCorrection correction_;  // solved to round-off, keeping its record
  double tol_;
  State prev_, at_;  // the start (ġ⁻ evaluated afresh) and (q, ṽ) after the position correction
  std::vector<int> A_, Aj_;  // the active gaps of each correction
  // Per gap: the jump applied Newton's law with e (its approach was above the restitution
  // threshold and no plastic pass replaced it); otherwise the law is G v = 0 in every model.
  std::vector<char> restituting_;
  VecX Y_, Z_;
  Eigen::PartialPivLU<MatX> F_Y_, H_Z_;
};

}  // namespace cs
