// The tangent of the ALI3-P formulation's projections at one step (solvers/penalty_alpha.hpp),
// for the direct sensitivities (direct_sensitivity.hpp).
//
// ali3p's step is index 3's (its augmented-Lagrangian iteration converges to Φ = 0 and
// M ṽ̇ − f + Bᵀλ̃ = 0, which StepLinearization differentiates), followed by two projections
// with the step's own iteration matrix A = M − (γ′/β′)∂f/∂v + (1/β′)(−∂f/∂q + K + Bᵀ diag(α) B) T
// (penalty_alpha.cpp): each repeats δy = −A⁻¹ Bᵀ W (B y + c), W = α/β′ per row, until
// B y + c = 0. Those repetitions are linear: the point they reach has B y* + c = 0 and
// A (y* − ỹ) ∈ range(Bᵀ), and as A = Â + (1/β′)Bᵀ diag(α) B T, so has Â (y* − ỹ). It solves
//
//   H(y*, μ; x, p) = (Â (y* − ỹ) + Bᵀ μ,  B y* + c) = 0,
//
// velocities first (ỹ = ṽ, c = Φ_t), then accelerations (ỹ = ṽ̇, c = ζ(q, v*)). The run's
// multipliers add each repetition's W (B y_k + c) after the first:
// λ* = λ̃ + μ − W B (T − I)(v̇* − ṽ̇), T the step's rotation tangent (I where a body does not turn).
// Written with A, H's rows carry the augmented block's 1e5 times the masses, which their
// derivative must cancel against μ's: the parameters' differences lost five digits there (the
// A01 pendulum's positions 4e-5 off whole runs after 0.5 s). Â still moves with the state
// (∂f/∂q, K and T scaled by 1/β′), and T and α with the step's rotation, its start and the
// masses: H_Z dZ = −dH with dH the derivative of H, unknowns fixed, along the parameter's models
// with the states displaced along their tangents — as correction_tangent.hpp does for NSGA's
// corrections.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "clearsim/math/small_lu.hpp"
#include "clearsim/sensitivity/perturbed_models.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/penalty_alpha.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class ProjectionTangent {
 public:
  ProjectionTangent(const System& sys, const SolverSettings& settings);
  ~ProjectionTangent();

  // From the projected end `s` of the step from `prev`: the smooth end the projections started
  // from (the index-3 step's q, ṽ, ṽ̇ from s.a, which they leave alone, and λ̃ from its dynamic
  // rows) into `smooth`; the projections solved again exactly and H_Z factorized. false with
  // `why` when λ̃ is not unique (dependent rows) or H_Z is singular.
  bool linearize(const State& prev, const State& s, State& smooth, std::string& why);

  // d: on entry the tangent of the smooth end (StepLinearization::step_tangent), on return that
  // of the projected state (v, v̇, λ). dprev: the tangent of the step's start.
  void apply(const StateTangent& dprev, StateTangent& d, const PerturbedModels& par) const;

 private:
  // What the projections of one model solve with at the smooth end x of the step from start.
  struct End {
    PenaltyAlpha::Projection P;  // Â, α, β′
    MatX B;
    VecX phi_t, hdq;
  };
  End end_of(const System& sys, const State& start, const State& x) const;
  // H of the velocity projection at e and x, unknowns Z = (v*, μ_v).
  static VecX velocity_residual(const End& e, const State& x, const VecX& Z);
  // H of the acceleration projection at e and x with the projected velocities v_star in `sys`,
  // unknowns Z = (v̇*, μ_a).
  static VecX acceleration_residual(const System& sys, const End& e, const State& x,
                                    const VecX& v_star, const VecX& Z);
  // W B (T − I)(v̇* − ṽ̇): what the run's multipliers take less than μ_a.
  static VecX lambda_shift(const End& e, const State& x, const VecX& vdot_star);

  const System& sys_;
  SolverSettings settings_;
  AlphaParameters p_;
  // One integrator per model the projections are evaluated in (the nominal and the parameters'
  // perturbed ones), for its iteration matrix.
  mutable std::map<const System*, std::unique_ptr<PenaltyAlpha>> integrators_;
  State prev_, smooth_;
  VecX Zv_, Za_;  // (v*, μ_v), (v̇*, μ_a) at the nominal step
  SmallLU H_Z_;
};

}  // namespace cs
