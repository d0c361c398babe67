// The exact tangent of one generalized-α step in body poses (index-3), written once for the
// direct sensitivities (direct_sensitivity.hpp) and the Kalman filters (estimation/).
//
// At the converged step R(X; S_n, p) = 0, with X = (v̇_{n+1}, λ_{n+1}) the unknowns and
// R = (M v̇ − f + Bᵀλ, Φ) at the state the step's formulas make of them (alpha_update), a tangent
// dS_n of the step's start and a derivative R_p of the residual in some input (a parameter, a
// force) give the tangent of the step's end through
//   R_X dX = −(R_S dS_n + R_p).
// R_X dX + R_S dS_n is exact: the elements' own tangents (∂f/∂q, ∂f/∂v, B, ∂(Bᵀλ)/∂q) at the
// step's end and the step's formulas differentiated (directional()). A filter's transition
// Jacobian is this map with R_p = 0 applied to state directions; its process noise is the map
// applied to a force with dS_n = 0.
//
// The penalty formulation keeps the same unknowns: its λ = α(Φ̈ + 2μωΦ̇ + ω²Φ) is a function of
// the step's state, written as the rows λ/α − (Φ̈ + 2μωΦ̇ + ω²Φ) = 0 in place of Φ = 0.
//
// The elements' memory (State::memory) is not differentiated here: direct_sensitivity.cpp adds
// its terms; the filters refuse models that have one.
#pragma once

#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/math/body_kinematics.hpp"
#include "clearsim/math/small_lu.hpp"
#include "clearsim/sensitivity/state_tangent.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/penalty_alpha.hpp"

namespace cs {

// The constraint rows of the step's residual R.
enum class StepRows {
  kPositions,   // Φ: index 3
  kVelocities,  // B v + Φ_t: the stabilized formulation's smooth step and NSGA's, whose
                // corrections then restore Φ = 0 (the direct sensitivities only: the transposes
                // below are of the other rows)
  kPenalty,     // λ/α − (Φ̈ + 2μωΦ̇ + ω²Φ): the penalty formulation
};

// The rows a run with these settings steps with.
StepRows step_rows(const SolverSettings& s);

class StepLinearization {
 public:
  // `sys` must outlive this object; `settings` give the step's generalized-α parameters and, for
  // the penalty rows, the penalty parameters (as PenaltyAlpha takes them, in every model the
  // residual is evaluated in).
  StepLinearization(const System& sys, const SolverSettings& settings,
                    StepRows rows = StepRows::kPositions);

  // R = (M v̇ − f + Bᵀλ, constraint rows) of the step of size h from `prev` at the unknowns
  // (vdot, lambda) in the system `sys` (the nominal one or a parameter's perturbed model); the
  // state the step makes of them into x. With `only` (a flag per element of `sys`), the
  // elements' parts of the flagged elements alone (the bodies' terms whole; the other elements'
  // rows zero): what the difference between a parameter's models needs when the parameter
  // reaches only those elements. The penalty rows, whose α follows every mass, are whole.
  void residual(const System& sys, const State& prev, double h, const VecX& vdot,
                const VecX& lambda, State& x, VecX& r,
                const std::vector<char>* only = nullptr) const;
  // The state the step of size h from `prev` makes of the unknowns (vdot, lambda), into x (the
  // first half of residual()); the same in every model.
  void step_state(const State& prev, double h, const VecX& vdot, const VecX& lambda,
                  State& x) const;
  // The second half: R at the state x that step_state made.
  void residual_at(const System& sys, const State& x, VecX& r,
                   const std::vector<char>* only = nullptr) const;
  // The exact Jacobians of the residual at the converged step from prev to s. Forgets the
  // factorization of R_X (factorize()).
  void linearize(const State& prev, const State& s);
  // The step's formulas and residual differentiated along (dS_n, dv̇, dλ): the new state's
  // tangent into next (memory excepted) and R_X dX + R_S dS into dR.
  void directional(const StateTangent& dS, const VecX& dvdot, const VecX& dlambda,
                   StateTangent& next, VecX& dR) const;
  // The step's formulas alone (directional() without the residual): the new state's tangent
  // for the start's tangent dS and the unknowns' (dv̇, dλ), memory excepted.
  void step_tangent(const StateTangent& dS, const VecX& dvdot, const VecX& dlambda,
                    StateTangent& next) const;
  // The same for many columns (next must not be dS).
  void step_tangent(const TangentColumns& dS, const MatX& dvdot, const MatX& dlambda,
                    TangentColumns& next) const;
  // The unknowns' response dX = −R_X⁻¹ R_p (rows n + m, a column per column of R_p) with the
  // step's start fixed, with the factorization of factorize(): several inputs in one solve.
  MatX respond(const MatX& R_p) const;
  // R_X dX = −(R_S dS + R_p) solved with the factorization of factorize() (made if it was not):
  // false if R_X is singular.
  bool solve_exactly(const StateTangent& dS, const VecX& R_p, VecX& dvdot, VecX& dlambda);

  // R_X assembled densely (its blocks written from M, ∂f/∂q, ∂f/∂v, B, K) with its constraint
  // rows scaled to the size of the dynamic rows, and factorized once for the linearization:
  // false if it is singular. Serves propagate(), solve_exactly() and solve_transposed().
  bool factorize();
  // The tangent of the step's end for the tangent dS of its start and the residual's derivative
  // R_p in an input (empty: none), with the factorization of factorize().
  void propagate(const StateTangent& dS, const VecX& R_p, StateTangent& next) const;
  // The same for many columns (R_p: a column per column of dS, or empty; next must not be dS).
  void propagate(const TangentColumns& dS, const MatX& R_p, TangentColumns& next) const;

  // The transposes, for the adjoint (adjoint_gradient.hpp), each checked by a dot-product test
  // against directional() (tests/verification/adjoint_gradient_test.cpp):
  // the step's formulas (next = G_S dS + G_X dX) transposed: a covector w on the step's end
  // into G_Sᵀ w (wS: its q, v, a, vdot; lambda and memory zero) and G_Xᵀ w (wvdot, wlambda).
  void transposed_step(const StateTangent& w, StateTangent& wS, VecX& wvdot, VecX& wlambda) const;
  // The residual's derivative in the end state (dR = J_R next) transposed: J_Rᵀ μ as a covector
  // on the step's end (its a and memory zero).
  void transposed_residual(const VecX& mu, StateTangent& w) const;
  // R_X⁻ᵀ w with the factorization of factorize().
  VecX solve_transposed(const VecX& w) const;
  // The matrix factorize() factorized: diag(1, s) R_X, and s (tests).
  const MatX& scaled_R_X() const { return scaled_R_X_; }
  double row_scale() const { return row_scale_; }

  double step_size() const { return h_; }
  int rows() const;  // n + m: the size of R and X

 private:
  const System& sys_;
  SolverSettings settings_;  // with a usable penalty factor (with_usable_penalty)
  AlphaParameters p_;
  double h_ = 0.0;
  MatX dfdq_, dfdv_, B_, K_;  // at the step's end: ∂f/∂q, ∂f/∂v, B, ∂(Bᵀλ)/∂q
  StepRows rows_ = StepRows::kPositions;
  MatX D_;   // velocity rows: ∂(B v + Φ_t)/∂q at the step's end, v fixed; penalty rows:
             // ∂(Φ̈ + 2μωΦ̇ + ω²Φ)/∂q at v and v̇ fixed
  MatX Dv_;  // penalty rows: ∂(Φ̈ + 2μωΦ̇ + ω²Φ)/∂v at q and v̇ fixed
  double alpha_ = 1.0;  // penalty rows: the nominal model's α
  // The penalty parameters of `sys` (α follows its masses).
  PenaltyParameters penalty_of(const System& sys) const;
  VecX hdq_step_;  // the step's increment hΔq
  // The residual's derivative R_X dX + R_S dS along the end tangents `next` the step's formulas
  // made of (dS, dv̇, dλ): dR of directional(), a column per column.
  MatX residual_tangent(const TangentColumns& next, const MatX& dvdot, const MatX& dlambda) const;
  // R_X x = b solved as (S R_X) x = S b with factorize()'s matrix, S = diag(1, row_scale_).
  VecX solve(const VecX& b) const;
  void factorize_if_needed();
  MatX scaled_R_X_;  // diag(1, row_scale_) R_X
  SmallLU lu_;
  double row_scale_ = 1.0;  // β′ (index-3 rows), 1/(hγ c) (velocity rows) or α (penalty rows)
  bool factorize_tried_ = false;
  bool factorized_ = false;
  mutable std::vector<BodyKinematics> kin_;
  mutable VecX f_, hdq_, r_q_, phi_, bv_;
};

}  // namespace cs
