// Index-3 Lie-group generalized-α (Arnold & Brüls 2007; Brüls, Cardona & Arnold 2012;
// reference.md §1.9). Per step, with q on R³ × SO(3) per body:
//   q_{n+1} = q_n ∘ exp(h Δq),   Δq = v_n + h(½ − β) a_n + hβ a_{n+1}
//   v_{n+1} = v_n + h(1 − γ) a_n + hγ a_{n+1}
//   (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) v̇_{n+1} + α_f v̇_n
//   M v̇_{n+1} − f(q_{n+1}, v_{n+1}, t_{n+1}) + Bᵀλ_{n+1} = 0,   Φ(q_{n+1}, t_{n+1}) = 0.
// Newton unknowns: ξ = correction of hΔq and λ. Iteration matrix, rows scaled by 1/β′:
//   [ M + (γ′/β′) C_t + (1/β′) K_t T(hΔq) ,  Bᵀ ] [ ξ      ]   [ −r_q/β′ ]
//   [ B T(hΔq)                            ,  0  ] [ δλ/β′  ] = [ −Φ      ]
// with β′ = (1 − α_m)/((1 − α_f) h² β), γ′ = γ/(hβ), C_t = −∂f/∂v, K_t = −∂f/∂q + ∂(Bᵀλ)/∂q.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/alpha_step.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/mass_saddle_schur.hpp"
#include "clearsim/solvers/newton_driver.hpp"
#include "clearsim/solvers/nonsmooth_correction.hpp"
#include "clearsim/solvers/predictor_history.hpp"
#include "clearsim/solvers/settings.hpp"
#include "clearsim/solvers/sparse_mass_schur.hpp"

namespace cs {

struct AlphaParameters {
  double alpha_m = 0.0, alpha_f = 0.0, beta = 0.25, gamma = 0.5;
  // Chung–Hulbert from ρ∞ ∈ [0, 1] (reference.md §1.7).
  static AlphaParameters from_rho_inf(double rho_inf);
  // From the solver settings' integrator choice.
  static AlphaParameters from_settings(const SolverSettings& s);
  // What a position increment ξ of a step of size h adds to the accelerations, β′ξ, and to the
  // velocities, γ′ξ: β′ = (1 − α_m)/((1 − α_f) h² β), γ′ = γ/(hβ).
  double beta_prime(double h) const { return (1.0 - alpha_m) / ((1.0 - alpha_f) * h * h * beta); }
  double gamma_prime(double h) const { return gamma / (h * beta); }
};

// The explicit part of a step of size h from s, given the unknown v̇_{n+1} in x.vdot: a_{n+1},
// the increment hΔq, v_{n+1} and q_{n+1} = q_n ∘ exp(hΔq) into x and hdq (the formulas at the
// top of this file; the predictor and the step's tangent use it).
void alpha_update(const AlphaParameters& p, const State& s, double h, State& x, VecX& hdq);

// The local position error of a generalized-α step from `start` to `x` (Zienkiewicz–Xie,
// h²|β − 1/6|‖a_{n+1} − a_n‖) over its tolerance, ≤ 1 acceptable: the step control of every
// formulation of the family (see GeneralizedAlpha::scaled_local_error).
double alpha_local_error(const System& sys, const SolverSettings& settings,
                         const AlphaParameters& p, const State& start, const State& x, double h);

// The Newton tolerance of a step: newton_tol, or in adaptive runs at most 1 % of the smallest
// local error the controller allows (never below `floor`, the round-off Φ cannot beat).
double alpha_newton_cap(const SolverSettings& settings, double floor);

// The body-pose space of the family's step (alpha_step): the smooth step and its Newton
// iteration in body poses, the stabilized projections, and NSGA's persistent contact rows and
// corrections there (body_nsga.cpp).
class GeneralizedAlpha final : public Integrator, private NewtonProblem, private AlphaStepper {
 public:
  GeneralizedAlpha(const System& sys, const SolverSettings& settings);

  // Advances `s` by h (alpha_step). On failure `s` is left unchanged.
  StepResult step(State& s, double h) override;
  // 2 (second order for every ρ∞ with the Chung–Hulbert parameters; 1 across impacts).
  int order() const override { return 2; }
  std::string name() const override;
  void rows_changed() override;
  const AlphaParameters& parameters() const { return p_; }
  bool solve_step_matrix(VecX& rhs) override;

 private:
  void evaluate(const State& s, bool need_matrix);
  // AlphaStepper: the phases of the step in body poses (alpha_step.hpp).
  void keep_start(const State& s) override;
  void restore_start(State& s) override;
  bool choose_persistent(const State& s) override;
  bool restart_accelerations(State& s) override;
  void plan_predictor(const State& s, double h, bool restarted) override;
  // One smooth generalized-α solve from s (predictor and Newton, newton_solve over the hooks
  // below) into trial_.
  void smooth_solve(const State& s, double h, StepResult& res) override;
  bool retry_full_newton(const State& s, double h, StepResult& res) override;
  bool release_pulling() override;
  bool apply_corrections(const State& s, double h, StepResult& res) override;
  const char* correction_name() const override;
  void discard_matrix() override;
  void accept_step(State& s, double h, StepResult& res) override;
  // The predictor of the step from s into trial_ and hdq_.
  void predict(const State& s, double h);
  // Whether this step's matrix is kept, refactorized, or the mass iteration's (see smooth_solve).
  void choose_matrix(double h);
  // The Newton stop's position bound at the iterate `it` (the order of q and v), and with it the
  // acceleration bound.
  double position_tol(const State& it) const;
  double step_tol(const State& it) const;
  bool mass_iterating() const;
  // Solves the current iteration matrix (LU, or the mass iteration's Schur complement) in place.
  void solve_in_place(VecX& rhs);
  // The mass iteration's factorization, refreshed when it contracts slowly; false (res.message)
  // when it must give way to the full matrix.
  bool mass_matrix_ready(int it, const NewtonTrace& tr, StepResult& res);
  // NewtonProblem: the smooth step's iteration in body poses.
  NewtonCheck evaluate_iterate(int it, const NewtonTrace& tr) override;
  void converged_at_evaluation() override;
  bool prepare_matrix(int it, NewtonTrace& tr, StepResult& res) override;
  double solve() override;
  bool watches_divergence() const override;
  double motion() const override;
  bool drop_stale_matrix(int it, const NewtonTrace& tr) override;
  void apply() override;
  bool accept(int it, NewtonTrace& tr, const NewtonCheck& check) override;
  bool build_and_factor(const State& s, double h, const VecX& hdq);
  // Bookkeeping of the mass iteration after a fresh factorization contracted at `rate`.
  void note_fresh_rate(double rate);
  // The mass iteration's body-diagonal stiffness blocks at x, handed to sparse_schur_.
  void body_stiffness_terms(const State& x, double h);
  std::string failure_report(const State& start, double h) const override;
  // Step control: the local position error over its tolerance (≤ 1 acceptable).
  double scaled_local_error(const State& start, const State& x, double h) const;
  bool stabilized() const { return settings_.formulation == ConstraintFormulation::kStabilized; }
  // True if the velocity projection's correction w of v is more than 10 % of v (kinetic-energy
  // norm): the step landed on a singular position (see project()).
  bool left_its_branch(const VecX& v, const VecX& w);
  // Stabilized formulation: projects q̃ onto Φ = 0 and ṽ onto B v + Φ_t = 0.
  // With unilateral gaps this is the NSGA position correction and velocity jump.
  bool project(const State& prev, State& x, StepResult& res);
  // NSGA: the position correction and the velocity jump (NonsmoothCorrection) from the smooth
  // step's result, with its factorization and last joint evaluation as hints.
  bool correct_nonsmooth(const State& prev, State& x, StepResult& res);
  // Stabilized: q̃ onto Φ = 0 (mass-weighted closest point), then ṽ onto B v + Φ_t = 0; false
  // with `why` if a projection fails.
  bool project_positions(State& x, std::string& why);
  bool project_velocities(State& x, std::string& why);

  const System& sys_;
  SolverSettings settings_;
  AlphaParameters p_;
  // The smooth solve in progress: its start, step, tolerances and the mass iteration's
  // bookkeeping within it.
  struct SmoothSolve {
    const State* s = nullptr;
    double h = 0.0, beta_p = 0.0, gamma_p = 0.0;
    double err_c = 0.0, newton_tol = 0.0, tol_floor = 0.0, motion = 0.0;
    bool modified = false, step_stop = false, mass_iteration = false;
    int mass_fresh_at = -1;    // the iteration of this step that factored the mass iteration's S
    bool fresh_noted = false;  // its rate has been read (note_fresh_rate, once per factorization)
  } solve_;
  LinearSystem ls_;
  LinearSystem proj_;  // [M Bᵀ; B 0] of the projections
  std::unique_ptr<NonsmoothCorrection> nonsmooth_;
  // Modified Newton's mass iteration (see smooth_solve), whether its factorization holds the
  // current rows, and the persistent set it was made for.
  std::unique_ptr<MassSaddleSchur> mass_schur_;    // NSGA (gap rows), dense models
  std::unique_ptr<SparseMassSchur> sparse_schur_;  // every model without gaps
  bool mass_ok_ = false, mass_factored_ = false;
  // Body-diagonal stiffness blocks in the mass iteration (see note_fresh_rate): on, judged after
  // the trial, the rate that started the trial and the rate above which the next one starts.
  bool stiff_on_ = false, stiff_judged_ = false;
  double stiff_trial_rate_ = 0.0, next_stiff_trial_ = 0.0;
  bool mass_too_slow_ = false;  // a fresh factorization contracted slower than kMassRate
  std::vector<char> mass_persistent_;
  std::vector<Mat6> body_terms_;  // D_b of body_stiffness_terms
  State base_;
  double factored_h_ = -1.0;  // step size of the current factorisation (modified Newton)
  // End time of the step whose tangents own the factorization solve_step_matrix made itself
  // (the step kept none); NaN: none made.
  double tangent_factored_at_ = std::numeric_limits<double>::quiet_NaN();
  // Workspace (no allocation inside the step loop once sized).
  State trial_;
  std::vector<BodyKinematics> kin_;
  VecX f_, phi_, phi_t_, r_v_, r_q_, rhs_, hdq_, Mvdot_, Btl_;
  VecX proj_w_;  // the velocity projection's correction
  MatX B_, dfdq_, dfdv_, Kc_;
  std::vector<Eigen::Triplet<double>> tB_;
  bool B_current_ = true;  // B_ holds the rows of the last evaluation (see evaluate())
  std::vector<Eigen::Triplet<double>> tK_, tC_;  // sparse path: K_t and C_t of the last matrix
  // NSGA persistent contacts in the smooth step: rows G_j ṽ = 0 with force +G_jᵀλ_N,j for the
  // gaps flagged in persistent_ (identity rows λ_N,j = 0 for the others).
  int gap_rows_ = 0;  // number of gap rows in the smooth system (num_gaps() under NSGA, else 0)
  bool any_persistent_ = false;
  std::vector<char> persistent_, factored_persistent_;
  VecX a_n_, vdot_n_;  // a_n and v̇_n before restart_accelerations
  // Predictor history: v̇, λ, λ_N (quantities 0, 1, 2) at the starts of the last accepted steps,
  // and the persistent set of the last. The predictor extrapolates from it (see predict()) when
  // the next step starts where that one ended with the same persistent contacts.
  PredictorHistory hist_;
  std::vector<char> hist_persistent_;
  bool extrapolate_ = false;
  // The last converged smooth Newton increment after its last evaluation (zero if it ended on an
  // evaluation), valid when shared_ok_, and Φ(q̃) from it (see project()).
  VecX shared_xi_, tangent_xi_, shared_phi_;
  bool shared_ok_ = false;
  MatX G_;
  VecX gN_, r_c_;
  std::vector<Eigen::Triplet<double>> tG_;
};

}  // namespace cs
