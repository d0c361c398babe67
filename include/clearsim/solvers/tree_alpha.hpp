// Generalized-α in joint coordinates (JointTree: a spanning tree of revolute, prismatic, fixed
// and spherical joints): the same scheme and Newton stop as GeneralizedAlpha, on the tree's
// coordinates q (an angle or slide per joint, a rotation Q updated on the right per spherical
// joint) instead of the bodies' poses, with rows only for the loops (closing joints, drivers):
//   q_{n+1} = q_n ∘ hΔq,   hΔq = h q̇_n + h²(½ − β) a_n + h²β a_{n+1}
//   q̇_{n+1} = q̇_n + h(1 − γ) a_n + hγ a_{n+1}
//   (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) q̈_{n+1} + α_f q̈_n
//   Jᵀ(M v̇ − f + B_Lᵀλ)(q_{n+1}, q̇_{n+1}, q̈_{n+1}, t_{n+1}) = 0,   Φ_L(q_{n+1}, t_{n+1}) = 0,
// with v̇ = J q̈ + J̇ q̇ and B_L, Φ_L the loop elements' rows (index 3).
// The residual is evaluated in O(bodies) by the tree's recursions. The iteration matrix
// A = Jᵀ(M + (γ′/β′)C_t + (1/β′)K_t)J (C_t = −∂f/∂v, K_t = −∂f/∂q; without the derivatives of J,
// which modified Newton can leave out) is factorized when an iteration contracts slowly and kept
// across steps otherwise (modified Newton), in one of two ways:
//   dense      A formed (of the size of q) and LU-factorized, O(n³): small trees and NSGA;
//   recursive  A never formed: the articulated-body recursion (ArticulatedSolver) factorizes and
//              solves it in O(bodies), the loops' rows through their Schur complement; larger
//              trees, with no limit on their size.
// The joint reactions are computed for the outputs only (complete_outputs).
//
// Under NSGA (frictionless contacts) the smooth step carries the persistent contacts (chosen as
// GeneralizedAlpha chooses them) as rows g(q) = 0 with forces λ_N, index 3 like the loops, and
// NonsmoothCorrection then projects positions and velocities in joint coordinates (metric
// M̄ = JᵀMJ, rows B_L J and G J; tree_nsga.cpp, tree_space.cpp).
#pragma once

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <memory>
#include <sstream>
#include <string>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/alpha_step.hpp"
#include "clearsim/solvers/articulated_solver.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/joint_tree.hpp"
#include "clearsim/solvers/newton_driver.hpp"
#include "clearsim/solvers/nonsmooth_correction.hpp"
#include "clearsim/solvers/predictor_history.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class TreeAlpha final : public Integrator, private NewtonProblem, private AlphaStepper {
 public:
  // The tree is built at the first step, whose start is its reference state.
  TreeAlpha(const System& sys, const SolverSettings& settings);
  ~TreeAlpha() override;

  // True if `sys` can run in joint coordinates with `settings` (generalized-α family or NSGA
  // without friction, modified Newton, solver.coordinates auto, loops' rows independent in joint
  // coordinates); otherwise false and why in `why`.
  static bool applies(const System& sys, const SolverSettings& settings, std::string* why);

  // How the iteration matrix is factorized (see above); kAuto chooses by the number of
  // coordinates. Tests and benchmarks force one; set before the first step.
  enum class IterationMatrix { kAuto, kDense, kRecursive };
  void set_iteration_matrix(IterationMatrix choice) { matrix_choice_ = choice; }
  // Whether the recursive path may factorize at the predictor while kept matrices fail (see
  // plan_refresh(); on by default). Tests compare both.
  void set_refresh_ahead(bool allowed) { refresh_ahead_allowed_ = allowed; }
  // Whether the tree built at the first step uses the recursive path.
  bool recursive() const { return recursive_; }

  StepResult step(State& s, double h) override;
  int order() const override { return 2; }
  // "generalized-alpha (joint coordinates)" or "nsga (joint coordinates)", with the time it went
  // over to body poses if it did.
  std::string name() const override;
  // Joint reactions λ of s (the step leaves them out).
  void complete_outputs(State& s) override;

 private:
  class Space;  // the NSGA corrections' view of the tree (tree_space.cpp)
  // Bᵀλ of the loops' rows added to body forces y.
  struct LoopForces {
    const VecX& lambda;
    VecX& y;
  };
  // The loops' rows at `kin`: Φ_L into phi, B_L J into B_red (with J), B_Lᵀλ into forces, Φ_t
  // into phi_t; any may be null (J too: B_red is then formed without it). Loop elements flagged in
  // `skip` are left out (their rows untouched).
  static void loop_rows(const System& sys, const JointTree& tree,
                        const std::vector<BodyKinematics>& kin, double t, VecX* phi, const MatX* J,
                        MatX* B_red, LoopForces* forces, const std::vector<char>* skip = nullptr,
                        VecX* phi_t = nullptr);
  // The coordinate drivers' rows (Φ, Φ_t, B) over what loop_rows() left in them; any may be null.
  void coordinate_driver_rows(double t, const VecX& q, VecX* phi, VecX* phi_t, MatX* B) const;
  // Drivers of tree joints, whose rows are evaluated in the joint's coordinate (see
  // find_coordinate_drivers(); needs J_ and kin_ at the reference state).
  struct CoordinateDriver {
    int row = 0;         // loop row
    int coord = 0;       // the driven coordinate q_k
    double sigma = 1.0;  // θ = θ0 + σ q_k
    double theta0 = 0.0;
    const Element* driver = nullptr;  // its driven_target gives θ_d(t)
  };
  void find_coordinate_drivers(const State& s);
  // The loops' multipliers from a vector of System's global rows (State::lambda, lambda_jump) and
  // back (sized to the global rows if it is not).
  void gather_loop_lambda(const VecX& global, VecX& lam) const;
  void scatter_loop_lambda(const VecX& lam, VecX& global) const;
  // One step in joint coordinates (alpha_step over the hooks below).
  StepResult joint_step(State& s, double h);
  // AlphaStepper: the phases of the step in joint coordinates (alpha_step.hpp).
  void keep_start(const State& s) override;
  void restore_start(State& s) override;
  void plan_predictor(const State& s, double h, bool restarted) override;
  // The smooth step's Newton iteration from s, leaving the iterate in q_, Q_, qd_, qdd_, a_, lam_
  // and lamN_.
  void smooth_solve(const State& s, double h, StepResult& res) override;
  // No full Newton here: the iteration matrix leaves out the derivatives of J.
  bool retry_full_newton(const State&, double, StepResult&) override { return false; }
  bool release_pulling() override;
  // NSGA: the smooth result stored into trial_ and corrected there (correct()).
  bool apply_corrections(const State& s, double h, StepResult& res) override;
  const char* correction_name() const override { return "NSGA correction"; }
  void discard_matrix() override { factored_h_ = -1.0; }
  void accept_step(State& s, double h, StepResult& res) override;
  // The predictor of the step from s (q̈, multipliers, a, hΔq, q̇ and the configuration).
  void predict(const State& s, double h);
  // The Newton stop at the current iterate (see GeneralizedAlpha::step_tol).
  double step_tol() const;
  // NewtonProblem: the smooth step's iteration in joint coordinates.
  NewtonCheck evaluate_iterate(int it, const NewtonTrace& tr) override;
  void converged_at_evaluation() override;
  bool prepare_matrix(int it, NewtonTrace& tr, StepResult& res) override;
  double solve() override;
  bool stops_on_nonfinite_increment() const override { return true; }
  double motion() const override { return solve_.motion; }
  bool drop_stale_matrix(int it, const NewtonTrace& tr) override;
  // The next remedy for a fresh matrix that contracts slowly: the joints' geometric stiffness,
  // then Krylov iterations, or under `auto` on the recursive path body poses (false, with why in
  // res.message and slow_reason_).
  bool escalate(StepResult& res);
  // Recursive path: whether this step factorizes at its predictor (see refresh_ahead_).
  void plan_refresh();
  // A matrix kept from an earlier step contracted slowly and is refreshed.
  void kept_matrix_was_slow();
  // After a converged smooth solve of `cost` iterations and factorizations: whether to go on
  // refreshing ahead (plan_refresh()).
  void judge_refresh(int cost);
  void apply() override;
  bool accept(int it, NewtonTrace& tr, const NewtonCheck& check) override;
  // The iterate into s (joint coordinates, multipliers, body poses) at time t.
  void store(double t, State& s);
  // NSGA (tree_nsga.cpp). The corrections, once the tree is built.
  void start_corrections();
  // Persistent contacts as in body poses (choose_persistent_contacts).
  bool choose_persistent(const State& s) override;
  // a and q̈ of s made consistent with the persistent contacts at their onset (see
  // GeneralizedAlpha::restart_accelerations); false if nothing was done.
  bool restart_accelerations(State& s) override;
  // The corrections on the smooth step's result x (s: the state at t_n); the velocity jump and
  // its multipliers are left in joint coordinates (complete_outputs maps them).
  bool correct(const State& s, State& x, StepResult& res);
  // The last correction's factorization, if it can stand for the iteration matrix of the step
  // from s: the previous step ended at s, the forces have no tangents (the matrix is then
  // [JᵀMJ (B J)ᵀ −(G J)ᵀ; B J; G_P J], the corrections' own at the persistent contacts P) and its
  // active set is P. It is at the configuration of s, fresher than a factorization kept from
  // earlier steps; used as a chord while it contracts.
  const LinearSystem* correction_chord(const State& s) const;
  // The persistent contacts' forces G_bᵀλ_N on the bodies added to y and their rows r_c = g, at
  // kin_ (evaluate()).
  void persistent_rows(double t);
  // Goes over to body poses if the dense matrix is refactorized at most steps (`smooth`: the
  // smooth step's factorizations of the step).
  void judge_cost(State& s, int smooth);
  // Joint coordinates of s, with s as reference state if the tree has none yet.
  void start(State& s);
  // q_ and Q_ from s and the increment hdq_.
  void configure(const State& s);
  // Kinematics, body accelerations, forces, Φ_L into phi_ and the residual
  // r_ = Jᵀ(M v̇ − f + B_Lᵀλ) at (q, Q, q̇, q̈, λ).
  void evaluate(double t, const VecX& q, const std::vector<Mat3>& Q, const VecX& qd,
                const VecX& qdd, const VecX& lam);
  // Factorizes the iteration matrix at the last evaluation's kinematics, for step h.
  bool factor(double t, double h);
  // The 6 × 6 body-diagonal blocks of M + (γ′/β′)C_t + (1/β′)K_t into blocks_, the force
  // tangents' couplings between bodies into couplings_ (factor()).
  void body_blocks(double t, double beta_p, double gamma_p);
  // Adds (1/β′) times the joints' geometric stiffness at the iterate to blocks_.
  void add_geometric_stiffness(double t, double beta_p);
  // v = P⁻¹ v with the iteration matrix, in place.
  void solve_matrix(VecX& v);
  // The increment by GMRES on the exact tangent, preconditioned by the matrix (from rhs_).
  void krylov_solve();
  // out = F′ v, by a difference of the residual at the iterate moved by v.
  void residual_change(const VecX& v, VecX& out);
  // factor() on the recursive path: ArticulatedSolver on blocks_, the loops' rows B_L J.
  bool factor_recursive(double h);
  // The loops' and coordinate drivers' rows in joint coordinates, B_L J, into B_red_ (J_ is used
  // on the dense path, never formed on the recursive one).
  void reduced_loop_rows(double t);
  // Continues the run in body poses from s (no joint coordinates in s yet if `fresh`), and why.
  void go_to_body_poses(State& s, const std::string& why, bool fresh);
  void write_state(double t, State& s) const;
  // Why the step from `start` to t failed, for the run's message.
  std::string failure_report(const State& start, double h) const override;
  double scaled_local_error(const VecX& da, double h);

  const System& sys_;
  SolverSettings settings_;
  AlphaParameters p_;
  // The smooth solve in progress: its start, step, tolerances and the matrix it iterates with.
  struct SmoothSolve {
    const State* s = nullptr;
    double h = 0.0, t = 0.0, beta_p = 0.0, gamma_p = 0.0;
    double err_c = 0.0, newton_tol = 0.0, tol_floor = 0.0, motion = 0.0, refresh = 0.0;
    bool step_stop = false;
    const LinearSystem* chord = nullptr;  // the corrections' factorization, while it contracts
    bool evaluated = false;               // kin_ and vdot_ belong to the final iterate
  } solve_;
  std::optional<JointTree> tree_;
  IterationMatrix matrix_choice_ = IterationMatrix::kAuto;
  bool recursive_ = false;  // the tree's iteration matrix is ArticulatedSolver's
  ArticulatedSolver articulated_;
  std::string body_poses_why_;  // why the run went over to body poses
  Eigen::PartialPivLU<MatX> lu_;
  MatX inverse_;  // of a small iteration matrix (see factor())
  bool use_inverse_ = false;
  // Body poses, once joint coordinates have proved dearer (judge_cost()), and from when.
  std::unique_ptr<GeneralizedAlpha> body_poses_;
  double switch_time_ = 0.0;
  long judged_steps_ = 0, judged_factorizations_ = 0;
  std::vector<int> loop_global_rows_;  // System's global row of each loop row (−1: removed)
  std::vector<CoordinateDriver> coordinate_drivers_;
  std::vector<char> skip_;  // per loop element: a coordinate driver
  double factored_h_ = -1.0;
  // NSGA: the corrections, persistent contacts (as in GeneralizedAlpha), the iterate's λ_N and
  // the persistent rows' g, the gaps' rows on the bodies (p × 6·bodies).
  bool nsga_ = false;
  std::unique_ptr<Space> space_;
  std::unique_ptr<NonsmoothCorrection> nonsmooth_;
  std::vector<char> persistent_, factored_persistent_, hist_persistent_;
  bool any_persistent_ = false, extrapolate_ = false;
  bool mass_only_ = false;  // the last factorization had no force tangents
  // The joints' geometric stiffness is in the iteration matrix (see prepare_matrix()): off until
  // a fresh matrix contracts slowly, then on for the rest of the run.
  bool geometric_ = false;
  bool krylov_ = false;      // Krylov iterations on the exact tangent (krylov_solve())
  std::string slow_reason_;  // why escalate() sent the run to body poses
  // Recursive path: steps factorize at their predictor while kept matrices fail and cost more
  // (plan_refresh()), every trial_every_-th of them trying the kept one again.
  bool refresh_ahead_allowed_ = true;
  bool refresh_ahead_ = false, trial_step_ = false, trial_failed_ = false;
  bool factor_at_predictor_ = false;  // this step's first iteration factorizes
  long ahead_steps_ = 0, trial_every_ = 4, ahead_cost_ = 0, ahead_solves_ = 0;
  long solves_ = 0, last_slow_solve_ = -2;  // smooth solves, and the last whose kept matrix failed
  long hold_until_ = 0, hold_ = 32;         // no refreshing ahead before solve hold_until_
  VecX lam_all_;  // every row's multiplier at the iterate (tree rows from the reactions)
  VecX lamN_, r_c_, gN_, v_body_, jump_;
  VecX a_n_, qdd_n_;               // a_n and q̈_n of the step, before restart_accelerations
  int smooth_factorizations_ = 0;  // the smooth step's factorizations in this step (judge_cost)
  MatX G_body_;
  State trial_;
  // Predictor history: q̈, the loop rows' λ and λ_N (quantities 0, 1, 2) at the starts of the
  // last accepted steps.
  PredictorHistory hist_;
  VecX lam_start_;  // the loop rows' λ at the accepted step's start, for hist_
  // Workspace.
  std::vector<BodyKinematics> kin_;
  VecX q_, qd_, qdd_, a_, r_, vdot_, f_, y_, hdq_, lam_, phi_, rhs_, sol_;
  std::vector<Mat3> Q_;
  MatX J_, A_, B_red_, saddle_;
  std::vector<Mat6> blocks_;
  std::vector<Eigen::Triplet<double>> tangents_, couplings_;
  Eigen::SparseMatrix<double> K_;
  State scratch_, zero_;
};

}  // namespace cs
