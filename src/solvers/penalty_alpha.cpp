#include "clearsim/solvers/penalty_alpha.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/newton_driver.hpp"
#include "clearsim/solvers/newton_stop.hpp"

namespace cs {

namespace {
// Automatic ALI3-P factors: α_i = kAutoAugmented·β′·m_i per row (row_factors). The augmented-
// Lagrangian update contracts the constraint error by about 1/(1 + ratio·σ²) per iteration, σ
// the row's share of the conditioning, while a position error δq leaves ratio·β′m_i·δq in λ_i.
// Measured (h = 1e-3 s on IFToMM A02, 1e-5 s on the slider–crank): ratio 1e2 and 1e4 stall at
// A02's first flat position (σ → 0); 1e5 passes it, and the slider–crank's reactions stay
// within 1.1e-5 of their range of a fine reference (index 3: 2.2e-3).
constexpr double kAutoAugmented = 1e5;
// Automatic penalty factor α = kAutoPenalty·m̄ [kg] and frequency ω = 1/h: the joints then
// give by Φ ≈ (F/m)/(kAutoPenalty ω²) = a h²/kAutoPenalty, while a position error δq leaves
// α(β′ + 2μωγ′ + ω²)δq ≈ kAutoPenalty·β′m̄·δq in λ. Measured on the ideal slider–crank at
// h = 1e-5 s against a fine index-3 reference: 1e2 → slider 1.7e-7 of its range, crank torque
// 2.2e-3; 1e3 → 3.0e-8, 1.0e-3; 1e4 → 2.2e-8, 1.0e-2; 1e5 → 2.1e-8, 0.10 (index 3: 1.4e-12,
// 2.2e-3).
constexpr double kAutoPenalty = 1e3;
// Ratios outside these bounds are absurd for the masses (penalty_parameter_warning).
constexpr double kAugmentedMin = 1.0, kAugmentedMax = 1e6;
constexpr double kPenaltyMin = 10.0, kPenaltyMax = 1e6;
// ali3p's projections: each solve contracts B y + c by 1/(1 + α‖B‖²/(β′m)) (≈ 1/101 with the
// automatic α, slower along rows close to dependent); they stop at newton_tol relative to the
// rows' largest term. A residual that stops contracting is the A-weighted least-squares point
// and is accepted up to kProjectionStall relative: next to a singular position the rows are
// inconsistent (IFToMM A02 lying flat: B v̇ + ζ stalled at 1e-5 to 3e-4 of ‖ζ‖).
constexpr int kMaxProjectionSolves = 12;
constexpr double kProjectionStall = 1e-2;
// Increments that stall within newton_stop::kNoiseBand of the round-off floor are accepted (as
// in GeneralizedAlpha's modified Newton).
using newton_stop::kNoiseBand;
// Next to a singular position (see newton()): stalled increments and Φ within this factor of
// newton_tol are accepted.
constexpr double kSingularSlack = 10.0;

double largest_mass(const System& sys) {
  double m = 0.0;
  for (const auto& b : sys.model().bodies) m = std::max(m, b.mass);
  return m > 0.0 ? m : 1.0;
}
}  // namespace

PenaltyParameters PenaltyParameters::at_step(const System& sys, const SolverSettings& s, double h) {
  PenaltyParameters q;
  const double m = largest_mass(sys);
  const double bp = AlphaParameters::from_settings(s).beta_prime(h);
  if (s.formulation == ConstraintFormulation::kAli3p) {
    q.alpha = s.penalty_factor > 0.0 ? s.penalty_factor : kAutoAugmented * bp * m;
    q.ratio = q.alpha / (bp * m);
  } else {
    q.alpha = s.penalty_factor > 0.0 ? s.penalty_factor : kAutoPenalty * m;
    // 1/h of the run's (initial) step, not of each step: an ω that followed adaptive steps
    // changed the constraint dynamics with the step and the control collapsed (A01, rtol 1e-8).
    q.omega = s.penalty_omega > 0.0 ? s.penalty_omega : 1.0 / s.step;
    q.mu = s.penalty_damping;
    q.ratio = q.alpha / m;
  }
  return q;
}

std::string penalty_parameter_warning(const System& sys, const SolverSettings& s) {
  const bool al = s.formulation == ConstraintFormulation::kAli3p;
  if (!(al || s.formulation == ConstraintFormulation::kPenalty) || s.penalty_factor <= 0.0 ||
      sys.num_constraints() == 0)
    return {};
  const PenaltyParameters q = PenaltyParameters::at_step(sys, s, s.step);
  const double lo = al ? kAugmentedMin : kPenaltyMin, hi = al ? kAugmentedMax : kPenaltyMax;
  if (q.ratio >= lo && q.ratio <= hi) return {};
  SolverSettings automatic = s;
  automatic.penalty_factor = -1.0;
  const double good = PenaltyParameters::at_step(sys, automatic, s.step).alpha;
  std::ostringstream os;
  os.precision(3);
  os << "solver.penalty_factor = " << s.penalty_factor << (al ? " N/m" : " kg") << " is "
     << (q.ratio < lo ? "too small" : "too large") << " for the masses (largest "
     << largest_mass(sys) << " kg) at h = " << s.step << " s: " << (al ? "α/(β′m)" : "α/m") << " = "
     << q.ratio << ", usable " << lo << " to " << hi
     << (q.ratio < lo ? (al ? " (the augmented-Lagrangian iterations hardly converge)"
                            : " (the joints come apart under load)")
                      : " (the iteration matrix loses the digits of the motion)")
     << "; the run uses `auto` instead: " << good << (al ? " N/m" : " kg");
  return os.str();
}

SolverSettings with_usable_penalty(const System& sys, SolverSettings s) {
  if (!penalty_parameter_warning(sys, s).empty()) s.penalty_factor = -1.0;
  return s;
}

std::string PenaltyAlpha::name() const {
  return ali3p() ? "generalized-alpha (ali3p)" : "generalized-alpha (penalty)";
}

PenaltyAlpha::PenaltyAlpha(const System& sys, const SolverSettings& settings)
    : sys_(sys), settings_(settings), p_(AlphaParameters::from_settings(settings)) {
  // An absurd penalty_factor is warned about and replaced by `auto`, as documented (issue 28).
  settings_ = with_usable_penalty(sys, settings_);
  // ali3p keeps dependent rows, whose λ* the iteration leaves alone in Bᵀ's null space; a
  // quadratic predictor grows that part as n² where the linear one grows it as n (IFToMM A04,
  // 10 s: energy drift 2.5e-4 J against 4e-6 J), and gains nothing measurable there (0.1 %).
  hist_.allow_quadratic(!ali3p());
  const int n = sys.num_dofs();
  ls_.resize(n, use_sparse(n, settings.linear_solver));
  std::vector<Eigen::Triplet<double>> mass;
  sys.mass(MatrixSink(&mass));
  m_diag_.setZero(n);
  for (const auto& e : mass)
    if (e.row() == e.col()) m_diag_(e.row()) += e.value();
  if (!ls_.is_sparse()) {
    dfdq_.resize(n, n);
    dfdv_.resize(n, n);
  }
}

void PenaltyAlpha::b_times(const VecX& y, VecX& out) const {
  const int m = sys_.num_constraints();
  if (!ls_.is_sparse()) {
    out.noalias() = B_ * y;
    return;
  }
  out.setZero(m);
  for (const auto& e : tB_) out(e.row()) += e.value() * y(e.col());
}

void PenaltyAlpha::bt_times(const VecX& y, VecX& out) const {
  if (!ls_.is_sparse()) {
    out.noalias() = B_.transpose() * y;
    return;
  }
  out.setZero(sys_.num_dofs());
  for (const auto& e : tB_) out(e.col()) += e.value() * y(e.row());
}

void PenaltyAlpha::evaluate(const State& x, bool need_matrix) {
  const int m = sys_.num_constraints();
  const bool dense = !ls_.is_sparse();
  sys_.gather(x, kin_);
  if (dense && need_matrix) {
    dfdq_.setZero();
    dfdv_.setZero();
    sys_.forces(kin_, x.t, f_, MatrixSink(&dfdq_), MatrixSink(&dfdv_));
  } else {
    sys_.forces(kin_, x.t, f_, MatrixSink(), MatrixSink());
  }
  sys_.mass_times(x.vdot, Mvdot_);
  r_q_ = Mvdot_ - f_;
  if (m == 0) return;
  evaluate_rows(x);
  bt_times(lambda_, Bty_);
  r_q_ += Bty_;
}

void PenaltyAlpha::evaluate_rows(const State& x) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  phi_.resize(m);
  phi_t_.resize(m);
  zeta_.setZero(m);
  VecX* zeta = ali3p() ? nullptr : &zeta_;
  if (!ls_.is_sparse()) {
    B_.setZero(m, n);
    sys_.constraints(kin_, x.t, &phi_, MatrixSink(&B_), &phi_t_, zeta);
  } else {
    tB_.clear();
    sys_.constraints(kin_, x.t, &phi_, MatrixSink(&tB_), &phi_t_, zeta);
  }
  if (ali3p()) {
    lambda_ = x.lambda + row_alpha_.cwiseProduct(phi_);  // λ* + αΦ
  } else {
    // λ = α(Φ̈ + 2μωΦ̇ + ω²Φ)
    b_times(x.vdot, By_);
    b_times(x.v, phi_d_);
    phi_d_ += phi_t_;
    penalty_multipliers(pen_, By_, zeta_, phi_d_, phi_, lambda_);
  }
}

bool PenaltyAlpha::build_and_factor(const State& x) {
  build(x, true);
  return ls_.factorize();
}

void PenaltyAlpha::build(const State& x, bool augmented) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  std::vector<Mat3> T(sys_.model().num_bodies());
  for (std::size_t b = 0; b < T.size(); ++b) T[b] = so3::tangent(hdq_.segment<3>(6 * b + 3));
  // Bᵀ diag(w) B with β′ times the weight of BᵀB in A (see the header), per row.
  if (ali3p()) {
    row_w_ = augmented ? row_alpha_ : VecX::Zero(m);
  } else {
    row_w_.setConstant(m, pen_.alpha * (beta_p_ + 2.0 * pen_.mu * pen_.omega * gamma_p_ +
                                        pen_.omega * pen_.omega));
  }
  if (!ls_.is_sparse()) {
    Kc_ = -dfdq_;
    if (m > 0) {
      sys_.constraint_tangent(kin_, x.t, lambda_, MatrixSink(&Kc_));
      if (augmented) {
        WB_.noalias() = row_w_.asDiagonal() * B_;
        Kc_.noalias() += B_.transpose() * WB_;
      }
    }
    for (std::size_t b = 0; b < T.size(); ++b) {
      auto cols = Kc_.middleCols<3>(6 * b + 3);
      const MatX tmp = cols * T[b];
      cols = tmp;
    }
    MatrixSink S = ls_.begin();
    sys_.mass(S);
    S.add_block(0, 0, (-gamma_p_ / beta_p_) * dfdv_ + (1.0 / beta_p_) * Kc_);
    return;
  }
  tK_.clear();
  tC_.clear();
  sys_.forces(kin_, x.t, f_, MatrixSink(&tK_, 0, 0, -1.0), MatrixSink(&tC_, 0, 0, -1.0));
  if (m > 0) sys_.constraint_tangent(kin_, x.t, lambda_, MatrixSink(&tK_));
  if (m > 0 && augmented) {
    Bs_.resize(m, n);
    Bs_.setFromTriplets(tB_.begin(), tB_.end());
    const Eigen::SparseMatrix<double> WB = row_w_.asDiagonal() * Bs_;
    const Eigen::SparseMatrix<double> BtB = Bs_.transpose() * WB;
    for (int k = 0; k < BtB.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(BtB, k); it; ++it)
        tK_.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
  }
  MatrixSink S = ls_.begin();
  sys_.mass(S);
  for (const auto& e : tC_) S.add(e.row(), e.col(), (gamma_p_ / beta_p_) * e.value());
  for (const auto& e : tK_) {
    const int j = e.col(), b = j / 6, r = j % 6 - 3;
    const double v = e.value() / beta_p_;
    if (r < 0) {
      S.add(e.row(), j, v);
      continue;
    }
    for (int k = 0; k < 3; ++k) S.add(e.row(), 6 * b + 3 + k, v * T[b](r, k));
  }
}

void PenaltyAlpha::newton(const State& s, double h, StepResult& res) {
  const double am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma;
  NewtonSolve& c = solve_;
  c.s = &s;
  c.h = h;
  // ali3p iterates with a fresh matrix at every iteration, whatever `newton` says: its
  // (α/β′)BᵀB block is ratio × M, so a stale matrix is ratio times further off than index 3's.
  // Measured on the ideal slider–crank at h = 1e-5 s: kept across steps, the contraction fell to
  // 0.2 and the reactions' error grew tenfold (1e-3 of their range); refreshed at each step's
  // first iteration, 6.2 iterations and 2.3 factorizations per step (0.56 s); fresh each
  // iteration, 2.2 per step (0.39 s) with reactions within 3e-4.
  c.modified = settings_.newton == NewtonMode::kModified && !ali3p();
  // Stop as GeneralizedAlpha does: newton_tol, and for modified Newton also the acceleration
  // bound (newton_stop.hpp), on the increments ξ and, for ali3p, on ratio·Φ: a constraint error
  // Φ leaves αΦ = ratio·β′m̄·Φ in λ, where index 3 leaves β′m̄·ξ.
  const double roundoff = newton_stop::roundoff(s);
  c.newton_tol = alpha_newton_cap(settings_, roundoff);
  c.floor = std::min(c.newton_tol, roundoff);
  c.prev_phi = INFINITY;
  State& x = trial_;
  // Predictor: v̇ and λ* extrapolated from the last steps when the last ended here (as
  // GeneralizedAlpha's: predictor_history.hpp), else held.
  x = s;
  x.t = s.t + h;
  extrapolate_ = hist_.continues(s.t, h, {&s.vdot, &s.lambda});
  if (extrapolate_) {
    const PredictorHistory::Weights w = hist_.weights(h);
    hist_.extrapolate(0, w, s.vdot, x.vdot);
    hist_.extrapolate(1, w, s.lambda, x.lambda);
  }
  x.a = ((1.0 - af) * x.vdot + af * s.vdot - am * s.a) / (1.0 - am);
  hdq_ = h * (s.v + h * (0.5 - beta) * s.a + h * beta * x.a);
  x.v = s.v + h * (1.0 - gamma) * s.a + h * gamma * x.a;
  integrate_configuration(s, hdq_, x);
  if (c.modified && std::abs(factored_h_ - h) > 1e-9 * h) factored_h_ = -1.0;
  newton_solve(*this, settings_.max_newton_iterations, res);
  x.lambda = lambda_;
}

NewtonCheck PenaltyAlpha::evaluate_iterate(int it, const NewtonTrace& tr) {
  NewtonSolve& c = solve_;
  const int m = sys_.num_constraints();
  State& x = trial_;
  evaluate(x, !c.modified || factored_h_ < 0.0);
  // ali3p: the multiplier update λ* ← λ* + αΦ of the last iteration, at its end point.
  if (ali3p() && it > 0 && m > 0) {
    x.lambda = lambda_;
    By_ = row_alpha_.cwiseProduct(phi_);
    lambda_ += By_;
    bt_times(By_, Bty_);
    r_q_ += Bty_;
  }
  NewtonCheck check;
  check.phi = ali3p() && m > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
  check.finite = std::isfinite(check.phi) && r_q_.allFinite();
  if (!check.finite) return check;
  const double tol =
      c.modified ? newton_stop::accel_bound(x.vdot, beta_p_, c.floor, c.newton_tol) : c.newton_tol;
  // Increments that stop contracting within kNoiseBand of the round-off floor are round-off.
  const bool stalled = tr.stalled(it, 2);
  double stop = stalled ? std::max(tol, kNoiseBand * c.floor) : tol;
  // Φ itself goes no lower than the round-off floor. Next to a singular position the
  // augmented-Lagrangian update contracts Φ slowly along the row that loses rank (1/(1 +
  // ratio·σ²), σ → 0): once it stops halving, Φ is held to the stop of the increments.
  // There both stall together within a few times newton_tol (A02 lying flat: 1.3e-10 and
  // 1.9e-10, contracting by 0.997 per iteration): accepted within kSingularSlack of it.
  const bool phi_stalled = ali3p() && m > 0 && it >= 2 && check.phi >= 0.5 * c.prev_phi;
  double phi_stop = phi_stalled ? stop : std::max(stop / std::max(pen_.ratio, 1.0), c.floor);
  if (phi_stalled && stalled) {
    stop = std::max(stop, kSingularSlack * c.newton_tol);
    phi_stop = stop;
  }
  c.prev_phi = check.phi;
  check.tol = stop;
  check.phi_tol = phi_stop;
  return check;
}

bool PenaltyAlpha::prepare_matrix(int it, NewtonTrace& tr, StepResult& res) {
  NewtonSolve& c = solve_;
  const bool need_matrix = !c.modified || factored_h_ < 0.0;
  if (!need_matrix && it >= 2 && tr.slower_than(newton_stop::kLuRefreshRate)) {
    evaluate(trial_, true);  // slow contraction: a fresh matrix (modified Newton)
    factored_h_ = -1.0;
  }
  if (!c.modified || factored_h_ < 0.0) {
    if (!build_and_factor(trial_)) {
      res.message = "singular iteration matrix";
      return false;
    }
    ++res.factorizations;
    factored_h_ = c.h;
    tr.fresh_at = it;
  }
  return true;
}

double PenaltyAlpha::solve() {
  rhs_ = -r_q_ / beta_p_;
  ls_.solve(rhs_);
  return rhs_.lpNorm<Eigen::Infinity>();
}

void PenaltyAlpha::apply() {
  const double am = p_.alpha_m, af = p_.alpha_f;
  State& x = trial_;
  const int m = sys_.num_constraints();
  // ali3p's λ = λ* + αΦ follows the increment ξ as Φ does, by B T ξ (T the rotation tangent of
  // the step's hΔq, as in the matrix): its last evaluation is one increment before the step's
  // end, and α = 1e5·β′m makes an increment at the tolerance (1e-17 m) 1e-2 N of the
  // slider–crank's reactions, which whole runs' differences then divide by the parameter's step.
  if (ali3p() && m > 0 && row_alpha_.size() == m) {
    turned_ = rhs_;
    for (Eigen::Index b = 0; b < turned_.size() / 6; ++b)
      turned_.segment<3>(6 * b + 3) =
          so3::tangent(hdq_.segment<3>(6 * b + 3)) * rhs_.segment<3>(6 * b + 3);
    b_times(turned_, By_);
    lambda_ += row_alpha_.cwiseProduct(By_);
  }
  hdq_ += rhs_;
  integrate_configuration(*solve_.s, hdq_, x);
  x.v += gamma_p_ * rhs_;
  x.vdot += beta_p_ * rhs_;
  x.a += ((1.0 - af) / (1.0 - am)) * beta_p_ * rhs_;
  // The penalty's λ = α(Φ̈ + 2μωΦ̇ + ω²Φ) follows the increment ξ: the iteration's last
  // evaluation is one increment before the step's end, and λ moves by α(β′ + 2μωγ′ + ω²) B ξ
  // with it (the matrix's w_B; 3e-4 of λ on IFToMM A01 at newton_tol 1e-14), which the
  // reactions would carry and the sensitivities, which take λ as that function of the state,
  // would not. What this leaves out (B's and ζ's change with q and v) is ω_body·h of it.
  // The next evaluation recomputes λ whole.
  if (!ali3p() && m > 0 && row_w_.size() == m) {
    b_times(rhs_, By_);
    lambda_ += row_w_.cwiseProduct(By_);
  }
}

void PenaltyAlpha::converged_at_evaluation() {
  // ali3p's λ = λ* + αΦ of this evaluation leaves the residual r_q it just computed, which the
  // next increment ξ would take up as α B T ξ in λ: at the tolerance (ξ ~ 1e-17 m) that is
  // 1e-2 N of the slider–crank's reactions (α = 1e5·β′m, 1e15 N/m at h = 1e-5 s), changing
  // from step to step, which whole runs' differences divide by a parameter's step (the
  // reactions' derivatives were 2e-3 off). The increment is one solve with the factorization of
  // this iteration's matrix (built at the previous iterate: full Newton builds one per
  // iteration), whose error is second order in ξ.
  if (!ali3p() || sys_.num_constraints() == 0 || factored_h_ < 0.0) return;
  solve();
  apply();
}

bool PenaltyAlpha::accept(int it, NewtonTrace& tr, const NewtonCheck& check) {
  // Accept without another evaluation when the contraction rate ρ bounds the remaining error,
  // ρ/(1 − ρ)·‖ξ‖ ≤ stop/10, Φ being within tolerance already (as GeneralizedAlpha).
  return it >= 1 && tr.contracting() && check.phi <= check.phi_tol &&
         tr.remaining_error_within(check.tol);
}

bool PenaltyAlpha::project_onto(VecX& y, const VecX& c, double rel_tol, VecX* lambda) {
  const double inv_beta_p = 1.0 / beta_p_;
  double last = INFINITY;
  for (int k = 0;; ++k) {
    b_times(y, By_);
    const double scale = 1.0 + std::max(By_.lpNorm<Eigen::Infinity>(), c.lpNorm<Eigen::Infinity>());
    By_ += c;
    // Each solve below moved y by δy with (A − (α/β′)BᵀB) δy ≈ M δy = −Bᵀ (α/β′)(B y + c) at
    // the new y: the force of the correction, which the multipliers take up.
    if (lambda != nullptr && k > 0) *lambda += inv_beta_p * row_alpha_.cwiseProduct(By_);
    const double r = By_.lpNorm<Eigen::Infinity>() / scale;
    if (!std::isfinite(r)) return false;
    if (r <= rel_tol) return true;
    // Stalled or out of solves: the least-squares point of nearly dependent rows.
    if (r >= 0.5 * last || k == kMaxProjectionSolves) return r <= kProjectionStall;
    last = r;
    By_ = (inv_beta_p * row_alpha_).cwiseProduct(By_);
    bt_times(By_, Bty_);
    rhs_ = -Bty_;
    ls_.solve(rhs_);
    y += rhs_;
  }
}

bool PenaltyAlpha::project(State& x, std::string& why) {
  if (sys_.num_constraints() == 0) return true;
  // The factored A is M + ... + (α/β′)BᵀB: y ← y − A⁻¹(α/β′)Bᵀ(B y + c) is the augmented-
  // Lagrangian form of the A-weighted closest point on B y + c = 0 (González et al. 2006).
  // Velocities: c = Φ_t at q_{n+1} (B and Φ_t from the last evaluation, at most one increment
  // ξ ≲ tolerance before q_{n+1}).
  if (!project_onto(x.v, phi_t_, settings_.newton_tol, nullptr)) {
    why = "velocity projection did not converge";
    return false;
  }
  // Accelerations: c = ζ(q, v) at the projected velocities; λ follows the correction, so the
  // reactions stay those of the projected accelerations.
  sys_.gather(x, kin_);
  sys_.constraints(kin_, x.t, nullptr, MatrixSink(), nullptr, &zeta_);
  if (!project_onto(x.vdot, zeta_, settings_.newton_tol, &x.lambda)) {
    why = "acceleration projection did not converge";
    return false;
  }
  return true;
}

void PenaltyAlpha::row_factors(const State& s) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  row_alpha_.setConstant(m, pen_.alpha);
  if (settings_.penalty_factor > 0.0 || m == 0) return;
  // α_i = ratio·β′·m_i with m_i = Σ_j B_ij² M_jj / (Σ_j B_ij²)², the B²-weighted mean mass of
  // the coordinates the row moves, per unit of the row's norm. One α for all rows made the
  // driver torque of the slider–crank (crank inertia 1e-5 kg·m² against 0.3 kg) carry 0.24 of
  // its range in round-off at ratio 1e5. The harmonic mass 1/Σ_j B_ij²/M_jj is as soft as the
  // lightest coordinate: a hinge row of IFToMM A05 (a rod's 5e-6 kg·m² about its axis) then met
  // the whole spinning governor (8.6 kg·m²) through the other joints, and its projection
  // contracted by 0.97 per solve. The heaviest coordinate max_j M_jj/B_ij² overweights small
  // lever arms: A04 took 451 iterations per step and the slider–crank's rod force lost its
  // digits.
  sys_.gather(s, kin_);
  VecX& bb = row_bb_;    // Σ_j B_ij²
  VecX& bbm = row_bbm_;  // Σ_j B_ij² M_jj
  bb.setZero(m);
  bbm.setZero(m);
  auto add = [&](int i, int j, double b) {
    bb(i) += b * b;
    bbm(i) += b * b * m_diag_(j);
  };
  if (!ls_.is_sparse()) {
    B_.setZero(m, n);
    sys_.constraints(kin_, s.t, nullptr, MatrixSink(&B_), nullptr, nullptr);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        if (B_(i, j) != 0.0) add(i, j, B_(i, j));
  } else {
    tB_.clear();
    sys_.constraints(kin_, s.t, nullptr, MatrixSink(&tB_), nullptr, nullptr);
    for (const auto& e : tB_) add(e.row(), e.col(), e.value());
  }
  const double per_mass = pen_.ratio * beta_p_;
  for (int i = 0; i < m; ++i)
    row_alpha_(i) = bb(i) > 0.0 ? per_mass * bbm(i) / (bb(i) * bb(i)) : pen_.alpha;
}

PenaltyAlpha::Linearization PenaltyAlpha::linearize(const State& s, const VecX& hdq, double h) {
  const double am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma;
  beta_p_ = p_.beta_prime(h);
  gamma_p_ = gamma / (h * beta);
  pen_ = PenaltyParameters::at_step(sys_, settings_, h);
  row_factors(s);
  State x = s;
  x.t = s.t + h;
  hdq_ = hdq;
  integrate_configuration(s, hdq_, x);
  x.a = (hdq / h - s.v - h * (0.5 - beta) * s.a) / (h * beta);
  x.v = s.v + h * (1.0 - gamma) * s.a + h * gamma * x.a;
  x.vdot = ((1.0 - am) * x.a + am * s.a - af * s.vdot) / (1.0 - af);
  evaluate(x, true);
  Linearization out;
  out.residual = r_q_;
  build_and_factor(x);
  out.matrix = ls_.assembled();
  return out;
}

PenaltyAlpha::Projection PenaltyAlpha::projection_matrix(const State& start, const State& end,
                                                         const VecX& hdq) {
  const double h = end.t - start.t;
  beta_p_ = p_.beta_prime(h);
  gamma_p_ = p_.gamma / (h * p_.beta);
  pen_ = PenaltyParameters::at_step(sys_, settings_, h);
  if (ali3p()) row_factors(start);
  hdq_ = hdq;
  evaluate(end, true);
  // K at end.lambda itself, not λ + αΦ: the step's last evaluation had Φ ≈ 0, while the states
  // the sensitivities displace along a tangent are off Φ = 0 by O(ε²), and α = 1e5·β′m turns
  // that into forces the step never saw (the A01 pendulum's positions 1.6e-6 off whole runs).
  lambda_ = end.lambda;
  build(end, false);
  return {ls_.assembled(), row_alpha_, beta_p_};
}

StepResult PenaltyAlpha::step(State& s, double h) {
  StepResult res;
  beta_p_ = p_.beta_prime(h);
  gamma_p_ = p_.gamma / (h * p_.beta);
  // The automatic parameters follow h, which the fixed-step loop computes as target − t: equal
  // steps differ in their last bits, and must not refactor for that.
  const PenaltyParameters next = PenaltyParameters::at_step(sys_, settings_, h);
  if (std::abs(next.alpha - pen_.alpha) > 1e-9 * next.alpha ||
      std::abs(next.omega - pen_.omega) > 1e-9 * next.omega)
    factored_h_ = -1.0;
  pen_ = next;
  if (ali3p()) row_factors(s);
  newton(s, h, res);
  if (!res.converged && settings_.newton == NewtonMode::kModified && !ali3p()) {
    // As GeneralizedAlpha: one full-Newton attempt before the driver cuts the step.
    StepResult retry;
    settings_.newton = NewtonMode::kFull;
    newton(s, h, retry);
    settings_.newton = NewtonMode::kModified;
    factored_h_ = -1.0;
    retry.iterations += res.iterations;
    retry.factorizations += res.factorizations;
    res = retry;
  }
  std::string why;
  if (res.converged && ali3p() && !project(trial_, why)) {
    res.converged = false;
    res.message = why;
  }
  if (!res.converged) {
    factored_h_ = -1.0;
    std::ostringstream os;
    os << "Newton did not converge at t = " << trial_.t << " s (step h = " << h << " s, " << name()
       << ")";
    if (!res.message.empty()) os << ": " << res.message;
    res.message = os.str();
    return res;
  }
  if (settings_.adaptive) res.error_estimate = alpha_local_error(sys_, settings_, p_, s, trial_, h);
  hist_.accept(h, trial_.t, extrapolate_, {&s.vdot, &s.lambda}, trial_.vdot);
  std::swap(s, trial_);
  return res;
}

}  // namespace cs
