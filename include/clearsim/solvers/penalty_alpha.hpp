// Lie-group generalized-α with the constraints in the dynamic equations as penalty forces, the
// two formulations of seed 004's MBSLIM library (reference.md §6f; González, Dopico, Lugrís and
// Cuadrado 2006; Bayo, García de Jalón and Serna 1988):
//
//   ali3p    index-3 augmented Lagrangian with projections (ALI3-P):
//              M v̇ − f + Bᵀ(λ* + α Φ) = 0,   λ* ← λ* + α Φ after each Newton iteration,
//            then mass-orthogonal projections of v onto B v + Φ_t = 0 and of v̇ onto
//            B v̇ + ζ = 0 with the factorised iteration matrix;
//   penalty  Bayo's penalty formulation, no multipliers as unknowns:
//              M v̇ − f + Bᵀ λ = 0,   λ = α (Φ̈ + 2μω Φ̇ + ω² Φ),   Φ̈ = B v̇ + ζ, Φ̇ = B v + Φ_t.
//
// The unknowns of Newton are the correction ξ of hΔq only (no λ): the iteration matrix, scaled
// by 1/β′ as in GeneralizedAlpha, is n × n,
//   A = M + (γ′/β′) C_t + (1/β′) K_t T + w_B BᵀB T,
//   w_B = α/β′ (ali3p),   α (1 + 2μω γ′/β′ + ω²/β′) (penalty),
// with K_t including ∂(Bᵀλ)/∂q at the current λ. It stays regular where B loses rank (redundant
// rows, singular positions): the reason MBSLIM's authors prefer these formulations.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/newton_driver.hpp"
#include "clearsim/solvers/predictor_history.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

// The penalty parameters a run uses at step h: α, and for `penalty` ω and μ (settings, or the
// automatic values, see settings.hpp).
struct PenaltyParameters {
  double alpha = 0.0;  // ali3p: [N/m]; penalty: [kg]
  double omega = 0.0;  // penalty: [rad/s]
  double mu = 0.0;     // penalty: damping ratio
  // α / (β′ m̄) (ali3p) or α / m̄ (penalty), m̄ the largest body mass: how stiff the penalty is
  // against the inertia; too small converges slowly or violates the joints, too large loses digits.
  double ratio = 0.0;
  static PenaltyParameters at_step(const System& sys, const SolverSettings& s, double h);
};

// A warning when the user's penalty parameters are absurd for the masses in the model, with the
// value that would work; empty if they are fine (or automatic).
std::string penalty_parameter_warning(const System& sys, const SolverSettings& s);
// The settings a run of `sys` uses: an absurd penalty_factor replaced by `auto`, as the warning
// says (PenaltyAlpha and the sensitivities' step linearization both read this).
SolverSettings with_usable_penalty(const System& sys, SolverSettings s);
// The penalty formulation's multipliers λ = α(Φ̈ + 2μωΦ̇ + ω²Φ) from B v̇ (`b_vdot`), ζ (Φ̈ =
// B v̇ + ζ), Φ̇ = B v + Φ_t and Φ, into `lambda`.
inline void penalty_multipliers(const PenaltyParameters& pen, const VecX& b_vdot, const VecX& zeta,
                                const VecX& phi_d, const VecX& phi, VecX& lambda) {
  lambda = pen.alpha *
           (b_vdot + zeta + (2.0 * pen.mu * pen.omega) * phi_d + (pen.omega * pen.omega) * phi);
}

class PenaltyAlpha final : public Integrator, private NewtonProblem {
 public:
  PenaltyAlpha(const System& sys, const SolverSettings& settings);

  StepResult step(State& s, double h) override;
  int order() const override { return 2; }
  std::string name() const override;
  // For tests of the tangent: the residual r_q at the state reached from s by the increment
  // hdq of hΔq (the generalized-α relations, λ* = s.lambda), and the iteration matrix A there,
  // which must equal (1/β′) ∂r_q/∂(hdq) (ali3p: exactly; penalty: up to the terms it leaves out).
  struct Linearization {
    VecX residual;
    MatX matrix;
  };
  Linearization linearize(const State& s, const VecX& hdq, double h);
  // ali3p: what its projections at the end of the step from `start` to `end` (reached by the
  // increment hdq of hΔq; end.lambda the multipliers of the last evaluation, end.memory the
  // start's) solve with: the iteration matrix there without its augmented block,
  // Â = A − (1/β′)Bᵀ diag(α) B T, each row's factor α_i (from `start`) and β′. The sensitivities
  // differentiate the projections through them (projection_tangent.hpp).
  struct Projection {
    MatX A_hat;
    VecX row_alpha;
    double beta_p = 0.0;
  };
  Projection projection_matrix(const State& start, const State& end, const VecX& hdq);

  void rows_changed() override {
    factored_h_ = -1.0;
    hist_.clear();  // the λ history belongs to the old rows
  }

 private:
  bool ali3p() const { return settings_.formulation == ConstraintFormulation::kAli3p; }
  // Gathers x and evaluates f, Φ, B, Φ_t (and ζ for penalty), the multipliers λ the residual
  // uses, and r_q = M v̇ − f + Bᵀλ; with the force tangents if need_matrix.
  void evaluate(const State& x, bool need_matrix);
  // Φ, B, Φ_t (and ζ for the penalty) at x, whose kinematics kin_ holds, and λ from them.
  void evaluate_rows(const State& x);
  bool build_and_factor(const State& x);  // build(x, true), factorized
  // The iteration matrix A at x into ls_; ali3p's without its (1/β′)Bᵀ diag(α) B T block unless
  // `augmented`.
  void build(const State& x, bool augmented);
  // ali3p: the factor α_i of each row for the step from s (automatic: per row's mass).
  void row_factors(const State& s);
  // The step's predictor and Newton iteration (newton_solve over the hooks below).
  void newton(const State& s, double h, StepResult& res);
  // NewtonProblem: the penalty family's iteration in body poses. It does not watch for
  // divergence: its increments are regularized by the penalty term.
  NewtonCheck evaluate_iterate(int it, const NewtonTrace& tr) override;
  bool prepare_matrix(int it, NewtonTrace& tr, StepResult& res) override;
  double solve() override;
  bool watches_divergence() const override { return false; }
  bool drop_stale_matrix(int, const NewtonTrace&) override { return false; }
  void apply() override;
  bool accept(int it, NewtonTrace& tr, const NewtonCheck& check) override;
  // ali3p: one more increment with the factorization at hand, so that λ ends where the dynamic
  // rows put it (see penalty_alpha.cpp).
  void converged_at_evaluation() override;
  // ali3p: v onto B v + Φ_t = 0, then v̇ onto B v̇ + ζ = 0, with the factored A.
  bool project(State& x, std::string& why);
  // Repeats δy = −A⁻¹ (α/β′) Bᵀ (B y + c) until B y + c is below rel_tol relative to its
  // largest term (ali3p's projections); adds the corrections' force to *lambda if given.
  bool project_onto(VecX& y, const VecX& c, double rel_tol, VecX* lambda);
  void b_times(const VecX& y, VecX& out) const;   // B y
  void bt_times(const VecX& y, VecX& out) const;  // Bᵀ y

  const System& sys_;
  SolverSettings settings_;
  AlphaParameters p_;
  PenaltyParameters pen_;
  double beta_p_ = 0.0, gamma_p_ = 0.0;
  // The Newton solve in progress: its start, step and tolerances.
  struct NewtonSolve {
    const State* s = nullptr;
    double h = 0.0, newton_tol = 0.0, floor = 0.0;
    double prev_phi = INFINITY;  // ali3p: ‖Φ‖ at the last evaluation
    bool modified = false;
  } solve_;
  LinearSystem ls_;
  double factored_h_ = -1.0;
  // Predictor history: v̇ and λ (quantities 0, 1) at the starts of the last accepted steps.
  PredictorHistory hist_;
  bool extrapolate_ = false;  // this step's predictor used hist_
  State trial_;
  std::vector<BodyKinematics> kin_;
  VecX m_diag_;             // diagonal of M
  VecX row_alpha_, row_w_;  // ali3p: α per row; β′ × the weight of each row's BᵀB in A
  VecX row_bb_, row_bbm_;   // row_factors' workspace
  VecX f_, phi_, phi_t_, phi_d_, zeta_, lambda_, r_q_, rhs_, hdq_, Mvdot_, By_, Bty_, turned_;
  MatX B_, dfdq_, dfdv_, Kc_, WB_;
  std::vector<Eigen::Triplet<double>> tB_, tK_, tC_;
  Eigen::SparseMatrix<double> Bs_;
};

}  // namespace cs
