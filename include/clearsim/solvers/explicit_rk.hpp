// Explicit Runge–Kutta integrators for the index-1 equations of motion with Baumgarte
// stabilisation (seed 003; reference.md §6d). At a point (q, v, t):
//   [ M  Bᵀ ] [ v̇ ]   [ f(q, v, t)                               ]
//   [ B  0  ] [ λ ] = [ −ζ − 2α (B v + Φ_t) − β² Φ                ]
// (M v̇ = f − Bᵀλ; ζ = Φ̈ − B v̇; α = baumgarte_alpha, β = baumgarte_beta [1/s]), so the
// constraint violation obeys Φ̈ + 2α Φ̇ + β² Φ = 0 and decays instead of drifting. Positions
// evolve on the group, ẋ_W = v_W and Ṙ = R Ω̃ (Ω in the body frame).
//
// Lie-group scheme: Runge–Kutta–Munthe-Kaas (RKMK; Munthe-Kaas 1998, Hairer–Lubich–Wanner,
// "Geometric Numerical Integration" §IV.8). Stage i moves the configuration of the step's start
// by one exponential, q_i = q_n ∘ exp(Θ_i) with Θ_i = h Σ_j a_ij K_j^q, and its velocity slope is
// pulled back to the algebra through the inverse tangent of exp, K_i^q = dexp⁻¹_{Θ_i}(v_i) (the
// translations are plain: K^q = v_W). RKMK and not Crouch–Grossman because it uses the Butcher
// tableau of the vector-space method unchanged — the classical RK4 and Dormand–Prince
// coefficients, the embedded error estimate and FSAL come as they are — with one exp per body
// per stage, where Crouch–Grossman needs its own order conditions and coefficients (no
// published embedded 5(4) pair is as established) and a product of exps per stage.
//
// dexp⁻¹ is truncated after the Θ̃² term. For the right-trivialised rotations used here
// (R⁺ = R exp(Θ̃), Ω = T(Θ) Θ̇ with so3::tangent) it reads
//   dexp⁻¹_Θ(Ω) = T(Θ)⁻¹ Ω ≈ Ω + ½ Θ × Ω + (1/12) Θ × (Θ × Ω)
// (the − ½ of the left-trivialised form becomes + ½). Munthe-Kaas shows that keeping the terms
// up to ad_Θ^k with k ≥ p − 2 preserves order p; the next term has a zero Bernoulli coefficient
// (B₃ = 0), so the same truncation serves both the 4th-order and the 5th-order solution.
//
// Cost per step: RK4 four evaluations, DOPRI5 six (the seventh is the first of the next step:
// FSAL). An evaluation is one force and constraint evaluation and one factorisation of the
// mass-saddle matrix: through the Schur complement of the constant block-diagonal M
// (MassSaddleSchur) for small models, by sparse LU above kDenseLimit unknowns. The evaluation at
// the end of a step sets s.vdot and s.lambda (the reactions are output channels) and is reused by
// the next step when that starts from the same point.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/mass_saddle_schur.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

// Coefficients of an explicit Runge–Kutta method with `stages` stages evaluated inside the step
// and, if it has an embedded estimate, error weights for those stages and for the evaluation at
// the end of the step (FSAL: for Dormand–Prince that evaluation is the seventh stage).
struct ButcherTableau {
  int stages = 0;
  int order = 0;                      // order of the solution the step advances with
  std::vector<double> c;              // stage times, c_i ∈ [0, 1] (stages entries)
  std::vector<double> a;              // a_ij, row-major stages × stages, zero for j ≥ i
  std::vector<double> b;              // weights of the solution (stages entries)
  std::vector<double> error_weights;  // b_i − b̂_i (stages + 1 entries, the last for the end
                                      // evaluation); empty: no estimate
  double coefficient(int i, int j) const { return a[static_cast<std::size_t>(i * stages + j)]; }
  bool has_error_estimate() const { return !error_weights.empty(); }

  static ButcherTableau classical_rk4();
  // Dormand & Prince (1980), DOPRI5(4): advances with the 5th-order solution; the embedded
  // 4th-order one gives the error estimate.
  static ButcherTableau dormand_prince();
};

class ExplicitRungeKutta final : public Integrator {
 public:
  // The scheme of settings.integrator (kRk4 or kDormandPrince; throws std::invalid_argument for
  // any other). Explicit steps know no unilateral contacts: sys.num_gaps() must be 0 (see
  // incompatible_settings).
  ExplicitRungeKutta(const System& sys, const SolverSettings& settings);

  // Advances s by h. s.vdot = s.a and s.lambda are those of the end point. Not converged (and s
  // unchanged) if the mass-saddle matrix is singular at a stage or the step produced non-finite
  // values. error_estimate: rk4 0 (fixed step; the adaptive loop would only grow h); dormand_prince
  // the max norm over positions and velocities of the embedded error, component by component
  // over atol + rtol·|value| (rotations: atol + rtol·1 rad; velocities read atol in m/s, rad/s).
  StepResult step(State& s, double h) override;
  // 4 for both: for dormand_prince this is the order of the embedded solution whose error the
  // estimate measures (local error ∝ h⁵), which is what the step-size controller needs.
  int order() const override { return 4; }
  void rows_changed() override { start_.valid = end_.valid = false; }
  std::string name() const override { return name_; }

 private:
  // The point of one evaluation and what it gave (the start and the end of the last step).
  struct Evaluation {
    bool valid = false;
    State at;  // t, configuration, v (and element memory) the evaluation saw
    VecX vdot, lambda;
  };

  // Sizes the constraint workspace for the System's current rows (it may drop redundant rows
  // after this integrator was made).
  void size_for_constraints();
  // v̇ and λ at the configuration and velocity of `at` (time at.t). False if the mass-saddle
  // matrix is singular there or the point is not finite (nonfinite_point_ says which).
  bool evaluate(const State& at, VecX& vdot, VecX& lambda);
  bool evaluate_dense(double t, const VecX& v, VecX& vdot, VecX& lambda);
  bool evaluate_sparse(double t, const VecX& v, VecX& vdot, VecX& lambda);
  // The right-hand side of the constraint rows, −ζ − 2α(B v + Φ_t) − β²Φ, from Bv_ and phi_*.
  void constraint_rhs(VecX& out) const;
  // K₁ of a step from s: a remembered evaluation at the same point, or a new one.
  bool start_slope(const State& s);
  // Stages 2..stages: stage points and slopes K_i. On failure, failed_stage is the 1-based stage.
  bool run_stages(const State& s, double h, int& failed_stage);
  // The end point q_n ∘ exp(h Σ b_i K_i^q), v_n + h Σ b_i K_i^v into end_.at.
  void advance_end_point(const State& s, double h);
  // Max norm of the embedded error over positions and velocities, scaled by the tolerances.
  double error_norm(const State& s, double h);
  std::string failure(const State& s, double h, const std::string& why) const;
  // Fixed-step schemes: the fastest closed contact at a stage or end point of the step.
  void track_fastest_contact(const State& at);
  // A fixed step with a closed contact (at a stage or its end) oscillating or damped faster than
  // the scheme can follow (h c/m above kDampingLimit), or:
  // ω h above kOscillationLimit, the reach of RK4's stability region along the imaginary axis
  // (2√2). The fixed-step driver then cuts the step until the contact is resolved.
  bool too_stiff(const State& next, double h, std::string& why);
  static constexpr double kOscillationLimit = 2.8284271247461903;
  // The reach of RK4's stability region along the negative real axis, for a damped contact
  // (h c/m): 2.785.
  static constexpr double kDampingLimit = 2.785;
  // A step past the scheme's stability limit: the kinetic energy multiplied by more than
  // kEnergyBlowUp in one step, against the largest start-of-step energy so far or, from rest,
  // what the start accelerations give in one step (smooth motion stays far below: a start from
  // rest under a force growing as t³, a quintic smooth step, gains 2⁸ in its second step).
  // Explains it with the stiffest force on the body that gained the most.
  bool blew_up(const State& s, const State& next, double h, std::string& why);
  static constexpr double kEnergyBlowUp = 1e3;

  const System& sys_;
  SolverSettings settings_;
  ButcherTableau tableau_;
  std::string name_;
  double alpha_, beta_;  // Baumgarte coefficients [1/s]
  bool sparse_ = false;
  MassSaddleSchur schur_;  // dense path
  LinearSystem ls_;        // sparse path
  Evaluation start_, end_;
  int sized_rows_ = -1;             // constraint rows the workspace is sized for
  int evaluations_ = 0;             // in the current step (each one factorisation)
  bool nonfinite_point_ = false;    // the last failed evaluation met non-finite values
  double ke_max_ = 0.0;             // largest kinetic energy at the start of a step so far
  System::FastestContact fastest_;  // over the current step's stage and end points
  // Workspace (sized once; no allocation in the step loop).
  State stage_;  // stage point: configuration, velocity, time
  std::vector<BodyKinematics> kin_;
  std::vector<VecX> slope_q_, slope_v_;  // K_i^q (algebra: [v_W; dexp⁻¹Ω]) and K_i^v = v̇_i
  VecX dq_, v_end_, slope_q_end_, err_q_, err_v_;
  VecX f_, phi_, phi_t_, zeta_, Bv_, rhs_, lambda_stage_;
  MatX B_;
  std::vector<Eigen::Triplet<double>> tB_;
};

}  // namespace cs
