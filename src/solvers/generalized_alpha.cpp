#include "clearsim/solvers/generalized_alpha.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/alpha_step.hpp"
#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/newton_driver.hpp"
#include "clearsim/solvers/newton_stop.hpp"
#include "clearsim/solvers/nonsmooth_correction.hpp"

namespace cs {

using newton_stop::kNoiseBand;
using newton_stop::kStepErrorFraction;

namespace {
// The mass iteration gives way to the full matrix when an iteration contracts slower than this.
// Sliding contacts on small clearances contract at about h·v_slide/c per iteration (the velocity
// rows leave out ∂(G v)/∂q, as the full matrix does too): 0.3 was seen on seed 000.
constexpr double kMassRate = newton_stop::kFreshGiveUpRate;
// Outside NSGA the mass iteration keeps its factorization from step to step and refreshes it at
// the current rows when an iteration contracts slower than this.
constexpr double kMassRefresh = newton_stop::kMovingRowsRefreshRate;
// A fresh factorization of M alone that contracts slower than this tries the body-diagonal
// stiffness blocks (see body_stiffness_terms and note_fresh_rate).
constexpr double kStiffRate = 0.03;
// Adaptive runs: the Newton tolerance is at most this fraction of the error allowed per step
// (see alpha_newton_cap), so that it adds ≲ 1 % to the error the controller holds.
constexpr double kAdaptiveNewtonFraction = 0.01;
// Tolerance proportionality: the local tolerance is the tolerance times √(rtol/this). Measured
// with g = 1, the global error of A01 (2.5 s) and of the slider–crank (one revolution) was
// ≈ 3.6·tol^(2/3); g = √(rtol/50) brings it to ≈ tol (see scaled_local_error).
constexpr double kProportionalityRef = 50.0;
}  // namespace

AlphaParameters AlphaParameters::from_rho_inf(double r) {
  AlphaParameters p;
  p.alpha_m = (2.0 * r - 1.0) / (r + 1.0);
  p.alpha_f = r / (r + 1.0);
  p.gamma = 0.5 + p.alpha_f - p.alpha_m;
  p.beta = 0.25 * (p.gamma + 0.5) * (p.gamma + 0.5);
  return p;
}

AlphaParameters AlphaParameters::from_settings(const SolverSettings& s) {
  AlphaParameters p;
  switch (s.integrator) {
    case IntegratorKind::kGeneralizedAlpha:
    case IntegratorKind::kNsga:
      return from_rho_inf(s.rho_inf);
    case IntegratorKind::kNewmark:
      p.beta = s.newmark_beta;
      p.gamma = s.newmark_gamma;
      return p;
    case IntegratorKind::kHht: {
      // HHT-α in the recurrence form: α_m = 0, α_f = (1 − ρ∞)/(1 + ρ∞) ∈ [0, 1/3].
      const double r = std::clamp(s.rho_inf, 0.5, 1.0);
      p.alpha_m = 0.0;
      p.alpha_f = (1.0 - r) / (1.0 + r);
      p.gamma = 0.5 + p.alpha_f;
      p.beta = 0.25 * (1.0 + p.alpha_f) * (1.0 + p.alpha_f);
      return p;
    }
    case IntegratorKind::kTrapezoidal:
      return p;
    case IntegratorKind::kRk4:
    case IntegratorKind::kDormandPrince:
      // Explicit schemes have no α parameters; the defaults' are dissipative (γ ≠ ½), so
      // run_analysis adds no index-3 stability note for them.
      return from_rho_inf(SolverSettings{}.rho_inf);
  }
  return p;
}

std::string GeneralizedAlpha::name() const {
  return settings_.integrator == IntegratorKind::kNsga ? "nsga" : "generalized-alpha";
}

GeneralizedAlpha::GeneralizedAlpha(const System& sys, const SolverSettings& settings)
    : sys_(sys), settings_(settings), p_(AlphaParameters::from_settings(settings)) {
  // NSGA is the stabilized formulation with unilateral rows in its projections; unilateral
  // contacts need it.
  if (settings_.integrator == IntegratorKind::kNsga || sys.num_gaps() > 0)
    settings_.formulation = ConstraintFormulation::kStabilized;
  if (sys.num_gaps() > 0)
    nonsmooth_ = std::make_unique<NonsmoothCorrection>(sys, settings_.newton_tol,
                                                       settings_.max_newton_iterations,
                                                       settings_.restitution_threshold);
  const int n = sys.num_dofs(), m = sys.num_constraints();
  gap_rows_ = nonsmooth_ ? sys.num_gaps() : 0;
  hist_.allow_quadratic(!stabilized());  // projections move the state: predictor_history.hpp
  const int N = n + m + gap_rows_;
  next_stiff_trial_ = kStiffRate;
  ls_.resize(N, use_sparse(N, settings.linear_solver));
  persistent_.assign(gap_rows_, 0);
  r_c_ = VecX::Zero(gap_rows_);
  // The mass iteration's solver: row blocks and a sparse LDLᵀ of S without gaps (fastest at
  // every size, measured: 10-link chain 157k → 185k steps/s against the dense one), the dense
  // one under NSGA, whose corrections use it as their chord.
  if (gap_rows_ == 0) {
    sparse_schur_ = std::make_unique<SparseMassSchur>(sys.model());
    mass_ok_ = true;
  } else if (!ls_.is_sparse()) {
    mass_schur_ = std::make_unique<MassSaddleSchur>(sys.model());
    mass_ok_ = true;
  }
  f_.resize(n);
  phi_.resize(m);
  phi_t_.resize(m);
  r_v_.resize(m);
  r_q_.resize(n);
  rhs_.resize(N);
  hdq_.resize(n);
  if (!ls_.is_sparse()) {
    B_.resize(m, n);
    dfdq_.resize(n, n);
    dfdv_.resize(n, n);
    Kc_.resize(n, n);
  }
}

void GeneralizedAlpha::evaluate(const State& s, bool need_matrix) {
  sys_.gather(s, kin_);
  const bool dense = !ls_.is_sparse();
  if (dense && need_matrix) {
    dfdq_.setZero();
    dfdv_.setZero();
    sys_.forces(kin_, s.t, f_, MatrixSink(&dfdq_), MatrixSink(&dfdv_));
  } else {
    sys_.forces(kin_, s.t, f_, MatrixSink(), MatrixSink());
  }
  // Residual r_q = M v̇ − f + Bᵀλ and Φ.
  sys_.mass_times(s.vdot, Mvdot_);
  r_q_ = Mvdot_ - f_;
  // The mass iteration between its refreshes needs only the products Bᵀλ and B v, not B: on
  // the 10-link chain clearing the dense 50 × 60 B, writing it and its Bᵀλ product were a sixth
  // of a step. B_ (tB_ on sparse systems) is filled at a refresh (see smooth_solve).
  B_current_ =
      !(sparse_schur_ && mass_ok_ && !need_matrix && settings_.newton == NewtonMode::kModified);
  if (sys_.num_constraints() > 0 && !B_current_) {
    sys_.constraint_products(kin_, s.t, s.lambda, stabilized() ? &s.v : nullptr, phi_, r_q_,
                             stabilized() ? &r_v_ : nullptr);
  } else if (sys_.num_constraints() > 0) {
    if (dense) {
      B_.setZero();
      sys_.constraints(kin_, s.t, &phi_, MatrixSink(&B_), &phi_t_, nullptr);
      r_q_.noalias() += B_.transpose() * s.lambda;
      if (stabilized()) r_v_.noalias() = B_ * s.v + phi_t_;
    } else {
      tB_.clear();
      sys_.constraints(kin_, s.t, &phi_, MatrixSink(&tB_), &phi_t_, nullptr);
      r_v_ = phi_t_;
      for (const auto& e : tB_) {
        r_q_(e.col()) += e.value() * s.lambda(e.row());
        r_v_(e.row()) += e.value() * s.v(e.col());
      }
    }
  }
  if (any_persistent_) {
    // Persistent contacts: force +Gᵀλ_N on the bodies (M v̇ = f − Bᵀλ + Gᵀλ_N) and the velocity
    // rows r_c = G ṽ (kept at zero; non-persistent rows are identity rows λ_N = 0).
    const int p = gap_rows_;
    r_c_.setZero();
    gN_.resize(p);
    if (dense) {
      G_.setZero(p, sys_.num_dofs());
      sys_.gaps(kin_, s.t, &gN_, MatrixSink(&G_));
      for (int j = 0; j < p; ++j) {
        if (!persistent_[j]) continue;
        r_q_.noalias() -= G_.row(j).transpose() * s.lambda_N(j);
        r_c_(j) = G_.row(j).dot(s.v);
      }
    } else {
      tG_.clear();
      sys_.gaps(kin_, s.t, &gN_, MatrixSink(&tG_));
      for (const auto& e : tG_) {
        if (!persistent_[e.row()]) continue;
        r_q_(e.col()) -= e.value() * s.lambda_N(e.row());
        r_c_(e.row()) += e.value() * s.v(e.col());
      }
    }
  }
}

namespace {
// Right-multiplies the rotation columns of body b in a dense matrix block by T_b.
void times_tangent(Eigen::Ref<MatX> A, const std::vector<Mat3>& T) {
  for (std::size_t b = 0; b < T.size(); ++b) {
    auto cols = A.middleCols<3>(6 * b + 3);
    const MatX tmp = cols * T[b];
    cols = tmp;
  }
}

// Adds c·(X T) to S, rows offset by row0, for X given as triplets and T = diag(1₃, T_b) per body:
// a triplet in a rotation column 6b + 3 + r spreads over the three columns of that block.
void add_times_tangent(MatrixSink& S, const std::vector<Eigen::Triplet<double>>& X,
                       const std::vector<Mat3>& T, double c, int row0) {
  for (const auto& e : X) {
    const int j = e.col(), b = j / 6, r = j % 6 - 3;
    const double v = c * e.value();
    if (r < 0) {
      S.add(row0 + e.row(), j, v);
      continue;
    }
    for (int k = 0; k < 3; ++k) S.add(row0 + e.row(), 6 * b + 3 + k, v * T[b](r, k));
  }
}
}  // namespace

bool GeneralizedAlpha::build_and_factor(const State& s, double h, const VecX& hdq) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const double beta_p = p_.beta_prime(h);
  const double gamma_p = p_.gamma_prime(h);
  std::vector<Mat3> T(sys_.model().num_bodies());
  for (std::size_t b = 0; b < T.size(); ++b) T[b] = so3::tangent(hdq.segment<3>(6 * b + 3));

  if (!ls_.is_sparse()) {
    // K_t = −∂f/∂q + ∂(Bᵀλ)/∂q; C_t = −∂f/∂v.
    Kc_ = -dfdq_;
    if (m > 0) sys_.constraint_tangent(kin_, s.t, s.lambda, MatrixSink(&Kc_));
    times_tangent(Kc_, T);
    MatrixSink S = ls_.begin();
    sys_.mass(S);
    S.add_block(0, 0, (-gamma_p / beta_p) * dfdv_ + (1.0 / beta_p) * Kc_);
    if (m > 0) {
      S.add_block(0, n, B_.transpose());
      if (stabilized()) {
        S.add_block(n, 0, B_);  // velocity rows; ∂(Bv)/∂q is left out (quasi-Newton, O(h))
      } else {
        MatX BT = B_;
        times_tangent(BT, T);
        S.add_block(n, 0, BT);
      }
    }
    for (int j = 0; j < gap_rows_; ++j) {
      if (any_persistent_ && persistent_[j]) {
        S.add_block(0, n + m + j, -G_.row(j).transpose());
        S.add_block(n + m + j, 0, G_.row(j));  // ∂(G v)/∂q left out, as for B (quasi-Newton)
      } else {
        S.add(n + m + j, n + m + j, 1.0);
      }
    }
    factored_persistent_ = persistent_;
    return ls_.factorize();
  }
  // Sparse: K_t and C_t as triplets, pushed into the matrix with T applied triplet by triplet
  // (no sparse products: building K, C, T and B T as matrices was a fifth of a step on the
  // 1000-link chain). The triplet buffers keep their capacity from one factorization to the next.
  tK_.clear();
  tC_.clear();
  sys_.forces(kin_, s.t, f_, MatrixSink(&tK_, 0, 0, -1.0), MatrixSink(&tC_, 0, 0, -1.0));
  if (m > 0) sys_.constraint_tangent(kin_, s.t, s.lambda, MatrixSink(&tK_));
  MatrixSink S = ls_.begin();
  sys_.mass(S);
  for (const auto& e : tC_) S.add(e.row(), e.col(), (gamma_p / beta_p) * e.value());
  add_times_tangent(S, tK_, T, 1.0 / beta_p, 0);
  if (stabilized()) {
    for (const auto& e : tB_) S.add(n + e.row(), e.col(), e.value());
  } else {
    add_times_tangent(S, tB_, T, 1.0, n);
  }
  for (const auto& e : tB_) S.add(e.col(), n + e.row(), e.value());
  for (int j = 0; j < gap_rows_; ++j)
    if (!(any_persistent_ && persistent_[j])) S.add(n + m + j, n + m + j, 1.0);
  if (any_persistent_) {
    for (const auto& e : tG_) {
      if (!persistent_[e.row()]) continue;
      S.add(e.col(), n + m + e.row(), -e.value());
      S.add(n + m + e.row(), e.col(), e.value());
    }
  }
  factored_persistent_ = persistent_;
  return ls_.factorize();
}

void GeneralizedAlpha::body_stiffness_terms(const State& x, double h) {
  // D_b: the body-diagonal blocks of the joints' geometric stiffness K_c = ∂(Bᵀλ)/∂q, times T/β′
  // as in the iteration matrix, symmetrized. Joints that pin a point of each body (spherical, the
  // point rows of the others) have a K_c with no block between two bodies, and at large tension
  // and small link inertia it is what sets the mass iteration's rate: λ r/(J/h²β) ≈ 0.4 at the
  // top of a 1000-link chain of 0.1 kg links at h = 1e-3 s, 11 iterations per step. Its
  // antisymmetric part, ½((s × R̃ᵀλ)×), vanishes where the reaction is along the lever, as in a
  // hanging chain. Force elements are left out: their stiffness couples two bodies (a spring, a
  // gear mesh), and its diagonal blocks alone made the iteration slower and less accurate on
  // IFToMM A05 (8.5 iterations per step at h = 5e-4 s); stiff forces are the full LU's job.
  const auto nb = static_cast<std::size_t>(sys_.model().num_bodies());
  const double beta_p = p_.beta_prime(h);
  body_terms_.assign(nb, Mat6::Zero());  // K_c's blocks first, then D_b in place
  if (sys_.num_constraints() > 0)
    sys_.constraint_tangent(kin_, x.t, x.lambda, MatrixSink(&body_terms_));
  for (std::size_t b = 0; b < nb; ++b) {
    Mat6 D = body_terms_[b] / beta_p;
    D.rightCols<3>() = D.rightCols<3>() * so3::tangent(hdq_.segment<3>(6 * b + 3));
    body_terms_[b] = 0.5 * (D + D.transpose());
  }
  sparse_schur_->set_body_terms(body_terms_);
}

void GeneralizedAlpha::note_fresh_rate(double rate) {
  // The contraction of a factorization of S made at the current rows. When M alone contracts
  // slower than the trial rate (kStiffRate at first), the joints' stiffness blocks are tried and
  // kept if the first fresh factorization with them contracts at least twice as fast. If they do
  // not help, the slowness is elsewhere: stiffness between bodies (forces), or the dropped T(hΔq)
  // of index 3 at large rotation steps (h‖ω‖ ≈ 0.03 on the falling 300-link chain at
  // h = 1e-3 s, where its tension has not built up yet). A dense system then goes to the full LU,
  // whose solve costs about a Schur solve; a sparse one keeps the mass iteration, whose Schur
  // solve is a fraction of a sparse LU solve, and tries the blocks again at twice the rate. Any
  // system gives the mass iteration up at once when a fresh factorization contracts slower than
  // kMassRate (the blocks are for an iteration that converges slowly, not one that diverges).
  if (rate > kMassRate) {
    mass_too_slow_ = true;
    return;
  }
  if (sparse_schur_ && !stiff_on_ && rate > next_stiff_trial_) {
    stiff_on_ = true;
    stiff_judged_ = false;
    stiff_trial_rate_ = rate;
    mass_factored_ = false;
    return;
  }
  if (stiff_on_ && !stiff_judged_) {
    stiff_judged_ = true;
    if (rate > 0.5 * stiff_trial_rate_) {
      stiff_on_ = false;
      next_stiff_trial_ = 2.0 * stiff_trial_rate_;
      mass_factored_ = false;
      if (!ls_.is_sparse()) mass_too_slow_ = true;
    }
  }
}

void GeneralizedAlpha::smooth_solve(const State& s, double h, StepResult& res) {
  const double beta = p_.beta;
  SmoothSolve& c = solve_;
  c.s = &s;
  c.beta_p = p_.beta_prime(h);
  c.gamma_p = p_.gamma_prime(h);
  // Stopping tolerance tied to the step (modified Newton). An absolute tolerance alone lets the
  // Newton error of a step, δq ≲ newton_tol, exceed the step's truncation error O(h³) at small h;
  // it reaches the velocities amplified by γ′ = γ/(βh), and modified Newton's error has the same
  // sign step after step, so it accumulates along the constrained directions, whose algorithmic
  // roots decay only as ρ∞ per step: second order is lost (ideal slider–crank, h = 1e-6: velocity
  // error 115× that of full Newton; tests/verification/newton_order_test.cpp). The tolerance of
  // this step is κ·h²|β − 1/6|‖a_{n+1} − a_n‖∞, κ = kStepErrorFraction of the Zienkiewicz–Xie
  // estimate of the local position error (a_{n+1} from the current iterate), so the velocity
  // error injected per step, γ′δq ≈ (γ/β)|β − 1/6|κ h²‖ȧ‖ ≈ 0.2κ h²‖ȧ‖ (ρ∞ = 0.9), stays far
  // below the velocity truncation error even after the 1/(1 − ρ∞) accumulation. κ = 0.003 is
  // measured: the Newton error then changes that test's velocity error by < 3 % from h = 1e-4 to
  // 1e-6 (κ = 0.01: 7 %; 0.03: 32 %; 0.1: 520 % at h = 1e-6). The tolerance is capped by
  // newton_tol (never looser than the absolute test), bounded by kAccelFraction·‖v̇‖/β′ (the
  // accelerations and reactions carry β′δq: with the position bound alone they had 9× their
  // truncation error at h = 1e-5), and floored at round-off in the positions, which Φ cannot
  // beat. Full Newton keeps the absolute test: it converges quadratically, so its
  // remaining error is O(newton_tol²) (the same test: its velocity error is unchanged by this).
  // NSGA keeps it too: its corrections then project positions and velocities onto the joints and
  // gaps exactly, and its examples' published figures were measured with it.
  c.modified = settings_.newton == NewtonMode::kModified;
  c.err_c = kStepErrorFraction * h * h * std::abs(beta - 1.0 / 6.0);
  const double roundoff = newton_stop::roundoff(s);
  c.newton_tol = alpha_newton_cap(settings_, roundoff);
  c.tol_floor = std::min(c.newton_tol, roundoff);
  c.step_stop = settings_.newton_step_error_stop && c.modified && !nonsmooth_;
  predict(s, h);
  // The step's own motion (the predictor's increment), the scale of a diverging increment.
  c.motion = std::max(hdq_.lpNorm<Eigen::Infinity>(), kNoiseBand * c.tol_floor);
  shared_ok_ = false;  // set when Newton converges (see project())
  choose_matrix(h);
  c.mass_fresh_at = -1;
  c.fresh_noted = false;
  newton_solve(*this, settings_.max_newton_iterations, res);
}

double GeneralizedAlpha::position_tol(const State& it) const {
  const SmoothSolve& c = solve_;
  const double est = c.err_c * (it.a - c.s->a).lpNorm<Eigen::Infinity>();
  return std::isfinite(est) && c.step_stop ? std::clamp(est, c.tol_floor, c.newton_tol)
                                           : c.newton_tol;
}

double GeneralizedAlpha::step_tol(const State& it) const {
  const SmoothSolve& c = solve_;
  return c.step_stop ? newton_stop::accel_bound(it.vdot, c.beta_p, c.tol_floor, position_tol(it))
                     : position_tol(it);
}

void GeneralizedAlpha::predict(const State& s, double h) {
  // Predictor: v̇ and λ extrapolated from the last steps when the last step ended here with the
  // same persistent contacts (predictor_history.hpp; λ_N of persistent contacts linearly), else
  // held (v̇_{n+1} = v̇_n, λ_{n+1} = λ_n). The predictor only starts Newton; the linear one is
  // O(h²) from the solution instead of O(h) (the ideal slider–crank: 2.0 → 1.2 full Newton
  // iterations per step; seed 000 in free flight: first increments 3e-8 → 2e-9 m). Under NSGA
  // the corrections perturb the state a little every step, and fast sliding contacts iterate at
  // the rate h·v/c of the velocity rows, so the gain in iterations is smaller there.
  const int p = gap_rows_;
  State& x = trial_;
  x.t = s.t + h;
  // The step's forces read the memory of its start (a compliant contact's approach speed from
  // its onset). trial_ holds the state of two steps back (accept_step swaps them): without this
  // the step after an onset read the memory of before it, found the contact new again and
  // re-remembered its approach speed, every other step.
  x.memory = s.memory;
  x.vdot = s.vdot;
  x.lambda = s.lambda;
  if (p > 0) {
    x.lambda_N = s.lambda_N.size() == p ? s.lambda_N : VecX::Zero(p);
    for (int j = 0; j < p; ++j)
      if (!persistent_[j]) x.lambda_N(j) = 0.0;
  }
  if (extrapolate_) {
    const PredictorHistory::Weights w = hist_.weights(h);
    hist_.extrapolate(0, w, s.vdot, x.vdot);
    hist_.extrapolate(1, w, s.lambda, x.lambda);
    const double r = hist_.linear_weights(h).c01;
    for (int j = 0; j < p; ++j)
      if (persistent_[j]) x.lambda_N(j) += r * (s.lambda_N(j) - hist_.last_start(2)(j));
  }
  alpha_update(p_, s, h, x, hdq_);
}

void alpha_update(const AlphaParameters& p, const State& s, double h, State& x, VecX& hdq) {
  const double am = p.alpha_m, af = p.alpha_f, beta = p.beta, gamma = p.gamma;
  // (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) v̇_{n+1} + α_f v̇_n
  x.a = ((1.0 - af) * x.vdot + af * s.vdot - am * s.a) / (1.0 - am);
  hdq = h * (s.v + h * (0.5 - beta) * s.a + h * beta * x.a);
  x.v = s.v + h * (1.0 - gamma) * s.a + h * gamma * x.a;
  integrate_configuration(s, hdq, x);
}

void GeneralizedAlpha::choose_matrix(double h) {
  SmoothSolve& c = solve_;
  const int p = gap_rows_;
  // The fixed-step loop computes h as target − t, so equal steps differ in the last bits.
  if (c.modified && std::abs(factored_h_ - h) > 1e-9 * h) factored_h_ = -1.0;
  if (c.modified && p > 0 && factored_persistent_ != persistent_) factored_h_ = -1.0;
  // Mass iteration (modified Newton): the iteration matrix keeps only M of its top-left block
  // M + (γ′/β′)C_t + K_t T/β′ — the dropped terms are O(h²β‖M⁻¹K‖) and O(hγ‖M⁻¹C‖) relative to
  // M, about 1e-7 for the rigid mechanisms of the seeds at h = 1e-5 — and, under index 3, the
  // tangent T(hΔq) = I + O(h‖ω‖) of its bottom-left block B T, so that [M Bᵀ −Gᵀ; B; G] is
  // solved through the Schur complement of the block-diagonal M (sparse_schur_ without gaps,
  // mass_schur_ under NSGA). That matrix does not depend on h; it is refactored when the rows
  // move on: at every step under NSGA (its corrections use it as their chord), and otherwise when
  // an iteration contracts slower than kMassRefresh with a factorization from an earlier step.
  // The contraction of fresh factorizations decides, in note_fresh_rate, whether M's blocks get
  // the joints' stiffness and whether the run goes over to the LU of the full matrix for good.
  if (mass_too_slow_ && mass_ok_) {  // found at the end of the last step
    mass_ok_ = false;
    factored_h_ = -1.0;
  }
  c.mass_iteration = c.modified && mass_ok_ && (mass_schur_ || sparse_schur_);
  if (nonsmooth_ || (p > 0 && mass_persistent_ != persistent_)) mass_factored_ = false;
  c.h = h;
}

bool GeneralizedAlpha::mass_iterating() const { return solve_.mass_iteration && mass_ok_; }

NewtonCheck GeneralizedAlpha::evaluate_iterate(int, const NewtonTrace&) {
  const SmoothSolve& c = solve_;
  const int m = sys_.num_constraints();
  const bool need_matrix = !c.mass_iteration && (!c.modified || factored_h_ < 0.0);
  evaluate(trial_, need_matrix);
  // Constraint residual in position units: Φ (index 3) or h-scaled B v + Φ_t (stabilized).
  double phi_norm = m == 0 ? 0.0
                           : (stabilized() ? r_v_.lpNorm<Eigen::Infinity>() / c.gamma_p
                                           : phi_.lpNorm<Eigen::Infinity>());
  if (any_persistent_) phi_norm = std::max(phi_norm, r_c_.lpNorm<Eigen::Infinity>() / c.gamma_p);
  NewtonCheck check;
  check.finite = std::isfinite(phi_norm) && r_q_.allFinite();
  check.phi = phi_norm;
  if (check.finite) check.tol = check.phi_tol = step_tol(trial_);
  return check;
}

void GeneralizedAlpha::converged_at_evaluation() {
  shared_xi_.setZero(sys_.num_dofs());  // B_ and Φ are those of the accepted iterate
  shared_ok_ = true;
}

bool GeneralizedAlpha::prepare_matrix(int it, NewtonTrace& tr, StepResult& res) {
  SmoothSolve& c = solve_;
  if (mass_iterating()) {
    if (!mass_matrix_ready(it, tr, res)) return false;
  } else if (!(!c.mass_iteration && (!c.modified || factored_h_ < 0.0)) && it >= 2 &&
             tr.slower_than(newton_stop::kLuRefreshRate)) {
    // Modified Newton refreshes the matrix when contraction is slow (rate above 1/4).
    evaluate(trial_, true);
    factored_h_ = -1.0;
  }
  if (!mass_iterating() && (!c.modified || factored_h_ < 0.0)) {
    if (!build_and_factor(trial_, c.h, hdq_)) {
      res.message = "singular iteration matrix";
      return false;
    }
    ++res.factorizations;
    factored_h_ = c.h;
    tr.fresh_at = it;
  }
  return true;
}

bool GeneralizedAlpha::mass_matrix_ready(int it, const NewtonTrace& tr, StepResult& res) {
  SmoothSolve& c = solve_;
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = gap_rows_;
  const bool fresh = c.mass_fresh_at >= 0;
  // Rates are read only from increments above the round-off noise.
  const bool measurable = tr.last_dx > kNoiseBand * c.tol_floor;
  if (fresh && it >= c.mass_fresh_at + 2 && measurable) {
    // The first rate of a factorization drives the stiffness blocks' trial; any later one
    // that is still slower than kMassRate ends the mass iteration.
    if (!c.fresh_noted) {
      c.fresh_noted = true;
      note_fresh_rate(tr.last_dx / tr.prev_dx);
    } else if (tr.slower_than(kMassRate)) {
      mass_too_slow_ = true;
    }
  }
  if (mass_too_slow_) {
    // Too slow: the LU of the full matrix from here on. This step is solved again from its
    // predictor (by step()'s full-Newton attempt), not from an iterate the mass iteration
    // may have thrown far off: continued from there, the lubricated four-bar's first step
    // (rate 22) led to a history that failed at its film rupture (t = 0.091 s).
    mass_ok_ = false;
    mass_factored_ = false;
    factored_h_ = -1.0;
    res.message = "the mass iteration contracts too slowly";
    return false;
  }
  if (mass_factored_ && (fresh || it < 2 || !tr.slower_than(kMassRefresh))) return true;
  if (p > 0 && !any_persistent_) G_.setZero(p, n);
  if (stiff_on_) {
    body_stiffness_terms(trial_, c.h);
  } else if (sparse_schur_) {
    sparse_schur_->set_body_terms({});
  }
  if (!B_current_ && m > 0) {  // the products alone were evaluated at x
    if (ls_.is_sparse()) {
      tB_.clear();
      sys_.constraints(kin_, trial_.t, nullptr, MatrixSink(&tB_), nullptr, nullptr);
    } else {
      B_.setZero();
      sys_.constraints(kin_, trial_.t, nullptr, MatrixSink(&B_), nullptr, nullptr);
    }
    B_current_ = true;
  }
  const bool ok = mass_schur_ ? mass_schur_->factor_gaps(B_, G_, persistent_)
                              : (ls_.is_sparse() ? sparse_schur_->factor(tB_, m, n)
                                                 : sparse_schur_->factor(B_));
  if (!ok) {
    res.message = "singular iteration matrix (mass iteration)";
    mass_factored_ = false;
    return false;
  }
  ++res.factorizations;
  mass_factored_ = true;
  mass_persistent_ = persistent_;
  c.mass_fresh_at = it;
  c.fresh_noted = false;
  return true;
}

double GeneralizedAlpha::solve() {
  const SmoothSolve& c = solve_;
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = gap_rows_;
  rhs_.head(n) = -r_q_ / c.beta_p;
  if (m > 0) rhs_.segment(n, m) = stabilized() ? VecX(-r_v_ / c.gamma_p) : VecX(-phi_);
  for (int j = 0; j < p; ++j)
    rhs_(n + m + j) = persistent_[j] ? -r_c_(j) / c.gamma_p : -trial_.lambda_N(j) / c.beta_p;
  solve_in_place(rhs_);
  return rhs_.head(n).lpNorm<Eigen::Infinity>();
}

void GeneralizedAlpha::solve_in_place(VecX& rhs) {
  if (mass_iterating() && mass_schur_) {
    mass_schur_->solve_gaps(rhs);
  } else if (mass_iterating()) {
    sparse_schur_->solve(rhs);
  } else {
    ls_.solve(rhs);
  }
}

bool GeneralizedAlpha::solve_step_matrix(VecX& rhs) {
  if (factored_h_ < 0.0 && !mass_iterating() && !(tangent_factored_at_ == trial_.t)) {
    // The step kept no factorization (the full-Newton retry drops its own): one of the matrix
    // at the accepted state, for this step's tangents only. factored_h_ stays unset, so the
    // next step factors afresh as it would have: the run is the same with or without them.
    evaluate(trial_, true);
    if (!build_and_factor(trial_, solve_.h, hdq_)) return false;
    tangent_factored_at_ = trial_.t;
  }
  solve_in_place(rhs);
  return rhs.allFinite();
}

bool GeneralizedAlpha::watches_divergence() const { return !mass_iterating(); }

double GeneralizedAlpha::motion() const { return solve_.motion; }

bool GeneralizedAlpha::drop_stale_matrix(int it, const NewtonTrace& tr) {
  if (!solve_.modified || tr.fresh_at == it) return false;
  factored_h_ = -1.0;
  return true;
}

void GeneralizedAlpha::apply() {
  const SmoothSolve& c = solve_;
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = gap_rows_;
  const double am = p_.alpha_m, af = p_.alpha_f;
  const auto xi = rhs_.head(n);
  State& x = trial_;
  hdq_ += xi;
  integrate_configuration(*c.s, hdq_, x);
  x.v += c.gamma_p * xi;
  x.vdot += c.beta_p * xi;
  x.a += ((1.0 - af) / (1.0 - am)) * c.beta_p * xi;
  if (m > 0) x.lambda += c.beta_p * rhs_.segment(n, m);
  if (p > 0) x.lambda_N += c.beta_p * rhs_.segment(n + m, p);
}

bool GeneralizedAlpha::accept(int it, NewtonTrace& tr, const NewtonCheck& check) {
  SmoothSolve& c = solve_;
  // Accept without another evaluation when the contraction rate ρ bounds the remaining
  // error, ρ/(1 − ρ)·‖ξ‖ ≤ tol/10 (the usual stopping rule of simplified Newton; Hairer &
  // Wanner IV.8), the residual before this correction already being within tolerance.
  // An increment at the round-off floor is accepted as it is (its rate would be noise), and
  // so is one that has stopped contracting within kNoiseBand of it, or within the position
  // bound: the floor counts the bodies' coordinates, but a driver's Φ = θ − ωt carries the
  // round-off of ωt too (2.8e-14 rad at 157 rad), and near a singular position (IFToMM A02
  // lying flat) the conditioning of the matrix keeps the increments well above round-off. The
  // latter only for an exact Newton increment (matrix factored at this iterate): a stale
  // matrix also stalls, on a stiff film (seed 003's lubricated four-bar), and accepting it
  // there lost the film.
  const bool stalled = tr.stalled(it, 1);
  const double stall_tol =
      !stalled ? c.tol_floor
               : std::max(kNoiseBand * c.tol_floor, tr.fresh_at == it ? position_tol(trial_) : 0.0);
  const bool at_floor = c.step_stop && tr.last_dx <= stall_tol;
  const double phi_tol = at_floor ? std::max(check.tol, stall_tol) : check.tol;
  if (it < 1 || check.phi > phi_tol || !(tr.contracting() || at_floor)) return false;
  if (mass_iterating() && c.mass_fresh_at >= 0 && it == c.mass_fresh_at + 1 && tr.contracting() &&
      tr.last_dx > kNoiseBand * c.tol_floor && !c.fresh_noted) {
    c.fresh_noted = true;
    note_fresh_rate(tr.rate());  // the two increments of this step's fresh factorization
  }
  if (!at_floor && !tr.remaining_error_within(check.tol)) return false;
  shared_xi_ = rhs_.head(sys_.num_dofs());  // B_ and Φ are those of the iterate before it
  shared_ok_ = true;
  return true;
}

StepResult GeneralizedAlpha::step(State& s, double h) { return alpha_step(*this, s, h); }

void GeneralizedAlpha::keep_start(const State& s) {
  a_n_ = s.a;
  vdot_n_ = s.vdot;
}

void GeneralizedAlpha::restore_start(State& s) {
  s.a = a_n_;
  s.vdot = vdot_n_;
}

void GeneralizedAlpha::plan_predictor(const State& s, double h, bool restarted) {
  // The history is that of the step that ended at s (same persistent set, a sensible step ratio).
  extrapolate_ = !restarted && persistent_ == hist_persistent_ &&
                 hist_.continues(s.t, h, {&s.vdot, &s.lambda}) &&
                 (gap_rows_ == 0 ||
                  (s.lambda_N.size() == gap_rows_ && hist_.last_start(2).size() == gap_rows_));
}

bool GeneralizedAlpha::retry_full_newton(const State& s, double h, StepResult& res) {
  if (settings_.newton != NewtonMode::kModified) return false;
  settings_.newton = NewtonMode::kFull;
  smooth_solve(s, h, res);
  settings_.newton = NewtonMode::kModified;
  factored_h_ = -1.0;
  return true;
}

bool GeneralizedAlpha::apply_corrections(const State& s, double, StepResult& res) {
  if (!stabilized() || (sys_.num_constraints() == 0 && !nonsmooth_)) return true;
  return project(s, trial_, res);
}

const char* GeneralizedAlpha::correction_name() const {
  return nonsmooth_ ? "NSGA correction" : "projection";
}

void GeneralizedAlpha::discard_matrix() { factored_h_ = -1.0; }

void GeneralizedAlpha::accept_step(State& s, double h, StepResult& res) {
  State& x = trial_;
  res.error_estimate = scaled_local_error(s, x, h);
  hist_.accept(h, x.t, extrapolate_, {&s.vdot, &s.lambda, &s.lambda_N}, x.vdot);
  hist_persistent_ = persistent_;
  std::swap(s, x);
}

// Tolerance proportionality (Söderlind): the local error of the position update
// (Zienkiewicz–Xie), h²|β − 1/6| (a_{n+1} − a_n) ∝ h³, is held at (atol + rtol·|x|)·g with
// g = √(rtol/kProportionalityRef). Held at the tolerance itself (g = 1), the global error,
// ∝ h² ∝ tol^(2/3), was 70× tol at rtol = 1e-4 and 2000× at 1e-8 (A01 and the slider–crank):
// tightening tol 100× gained only 21×. The local tolerance ∝ tol^(3/2) makes h ∝ tol^(1/2) and
// the global error ∝ tol. Error per unit step (local error ≤ tol·h) does the same in theory, but
// index-3 generalized-α's a_{n+1} carries the velocity error of the earlier, larger steps
// divided by h, so that estimate stopped shrinking with h and the step collapsed (A01, t = 0.01 s).
double GeneralizedAlpha::scaled_local_error(const State& start, const State& x, double h) const {
  return alpha_local_error(sys_, settings_, p_, start, x, h);
}

double alpha_local_error(const System& sys, const SolverSettings& st, const AlphaParameters& p,
                         const State& start, const State& x, double h) {
  double err = 0.0;
  const double c = h * h * std::abs(p.beta - 1.0 / 6.0) / std::sqrt(st.rtol / kProportionalityRef);
  for (int b = 0; b < sys.model().num_bodies(); ++b) {
    for (int k = 0; k < 6; ++k) {
      const int i = 6 * b + k;
      const double scale = st.atol + st.rtol * (k < 3 ? std::abs(x.x_W[b](k)) : 1.0);
      err = std::max(err, c * std::abs(x.a(i) - start.a(i)) / scale);
    }
  }
  return err;
}

// Adaptive runs: the Newton tolerance of a step is at most kAdaptiveNewtonFraction of the
// smallest local error the controller allows, atol·g, or the Newton error, not the truncation
// error, sets the accuracy at tight tolerances (rtol = atol = 1e-8 allows 1.4e-13 per step,
// under the default newton_tol of 1e-10). Never below the round-off floor `floor`, which Φ
// cannot beat.
double alpha_newton_cap(const SolverSettings& st, double floor) {
  if (!st.adaptive) return st.newton_tol;
  const double allowed = st.atol * std::sqrt(st.rtol / kProportionalityRef);
  return std::min(std::max(kAdaptiveNewtonFraction * allowed, floor), st.newton_tol);
}

bool GeneralizedAlpha::project(const State& prev, State& x, StepResult& res) {
  if (nonsmooth_) return correct_nonsmooth(prev, x, res);
  return project_positions(x, res.message) && project_velocities(x, res.message);
}

bool GeneralizedAlpha::project_positions(State& x, std::string& why) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  // Position: q_{n+1} = q̃ ∘ exp(U) with M U + Bᵀν = 0, Φ(q_{n+1}) = 0 (mass-weighted closest
  // point; Gauss–Newton with B from the current iterate).
  const double tol = settings_.newton_tol;
  if (proj_.size() != n + m) proj_.resize(n + m, ls_.is_sparse());
  base_ = x;
  VecX U = VecX::Zero(n), rhs(n + m);
  for (int it = 0;; ++it) {
    sys_.gather(x, kin_);
    sys_.constraints(kin_, x.t, &phi_, MatrixSink(), nullptr, nullptr);
    if (phi_.lpNorm<Eigen::Infinity>() <= tol) break;
    if (it == settings_.max_newton_iterations || !phi_.allFinite()) {
      why = "position projection did not converge";
      return false;
    }
    assemble_mass_saddle(sys_, kin_, x.t, proj_);
    if (!proj_.factorize()) {
      why = "singular matrix in the position projection";
      return false;
    }
    // Each increment solves M δU + Bᵀδν = 0, B δU = −Φ: U is the M-orthogonal correction to
    // first order (B changes by O(U) between iterates; U itself is O(h³) after a smooth step).
    rhs.setZero();
    rhs.tail(m) = -phi_;
    proj_.solve(rhs);
    U += rhs.head(n);
    integrate_configuration(base_, U, x);
  }
  return true;
}

bool GeneralizedAlpha::project_velocities(State& x, std::string& why) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  VecX rhs(n + m);
  // Velocity: v_{n+1} = ṽ + W with M W + Bᵀμ = 0 and B v_{n+1} + Φ_t = 0.
  sys_.gather(x, kin_);
  sys_.constraints(kin_, x.t, nullptr, MatrixSink(), &phi_t_, nullptr);
  assemble_mass_saddle(sys_, kin_, x.t, proj_);
  if (!proj_.factorize()) {
    why = "singular matrix in the velocity projection";
    return false;
  }
  MatX B = MatX::Zero(m, n);
  sys_.constraints(kin_, x.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  rhs.setZero();
  rhs.tail(m) = -(B * x.v + phi_t_);
  proj_.solve(rhs);
  proj_w_ = rhs.head(n);
  if (left_its_branch(x.v, proj_w_)) {
    why =
        "the velocity projection changes the velocity by more than 10 %: the step has landed "
        "on a singular position of the joints (their rows lose rank there)";
    return false;
  }
  x.v += rhs.head(n);
  return true;
}

bool GeneralizedAlpha::left_its_branch(const VecX& v, const VecX& w) {
  // After a converged smooth step the projection corrects v by O(h³)-small amounts (1e-7
  // relative on A02). Near a singular position (A02's flat positions, where several branches
  // of motion cross) B v = −Φ_t at the nearly singular B can throw most of the velocity away
  // and put the mechanism on another branch; a failed step is retried in halves, whose end
  // points do not land on the singular point. Kinetic-energy norms, so units do not matter;
  // the floor keeps a mechanism at rest from failing on round-off.
  sys_.mass_times(w, Mvdot_);
  const double w2 = w.dot(Mvdot_);
  sys_.mass_times(v, Mvdot_);
  const double v2 = v.dot(Mvdot_);
  return w.lpNorm<Eigen::Infinity>() > 1e3 * settings_.newton_tol && w2 > 0.01 * v2;
}

void GeneralizedAlpha::rows_changed() {
  factored_h_ = -1.0;      // the modified-Newton matrix holds the old rows
  mass_factored_ = false;  // and so does the mass iteration's
  hist_.clear();           // λ history belongs to the old rows: no extrapolation
  shared_ok_ = false;
}

std::string GeneralizedAlpha::failure_report(const State& start, double h) const {
  const State& s = trial_;
  std::ostringstream os;
  os << "Newton did not converge at t = " << s.t << " s (step h = " << h << " s)";
  if (sys_.num_constraints() > 0 && phi_.size() > 0 && phi_.allFinite()) {
    Eigen::Index worst = 0;
    const double w = phi_.cwiseAbs().maxCoeff(&worst);
    os << "; largest constraint residual " << w << " in "
       << sys_.describe_row(static_cast<int>(worst));
  } else if (!phi_.allFinite()) {
    os << "; the constraint residual is not finite";
  }
  if (r_q_.size() > 0) {
    Eigen::Index worst = 0;
    const double w = r_q_.cwiseAbs().maxCoeff(&worst);
    const int b = static_cast<int>(worst) / 6;
    os << "; largest dynamic residual " << w << " on body '" << sys_.model().bodies[b].name << "'";
    const std::string stiff = sys_.describe_stiffest_force(b, start, &kin_, h);
    if (!stiff.empty()) os << "; " << stiff;
  }
  return os.str();
}

}  // namespace cs
