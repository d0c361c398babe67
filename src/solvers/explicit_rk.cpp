#include "clearsim/solvers/explicit_rk.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"

namespace cs {

ButcherTableau ButcherTableau::classical_rk4() {
  ButcherTableau t;
  t.stages = 4;
  t.order = 4;
  t.c = {0.0, 0.5, 0.5, 1.0};
  // clang-format off
  t.a = {0.0, 0.0, 0.0, 0.0,
         0.5, 0.0, 0.0, 0.0,
         0.0, 0.5, 0.0, 0.0,
         0.0, 0.0, 1.0, 0.0};
  // clang-format on
  t.b = {1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0};
  return t;
}

ButcherTableau ButcherTableau::dormand_prince() {
  ButcherTableau t;
  t.stages = 6;
  t.order = 5;
  t.c = {0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0};
  // clang-format off
  t.a = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         1.0 / 5.0, 0.0, 0.0, 0.0, 0.0, 0.0,
         3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0,
         44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0,
         19372.0 / 6561.0, -25360.0 / 2187.0, 64448.0 / 6561.0, -212.0 / 729.0, 0.0, 0.0,
         9017.0 / 3168.0, -355.0 / 33.0, 46732.0 / 5247.0, 49.0 / 176.0, -5103.0 / 18656.0, 0.0};
  // clang-format on
  // The seventh stage (c = 1, a_7j = b_j) is the evaluation at the end of the step (FSAL).
  t.b = {35.0 / 384.0, 0.0, 500.0 / 1113.0, 125.0 / 192.0, -2187.0 / 6784.0, 11.0 / 84.0};
  // b − b̂ with b̂ = (5179/57600, 0, 7571/16695, 393/640, −92097/339200, 187/2100, 1/40).
  t.error_weights = {71.0 / 57600.0,      0.0,          -71.0 / 16695.0, 71.0 / 1920.0,
                     -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0};
  return t;
}

namespace {

ButcherTableau tableau_for(IntegratorKind kind) {
  switch (kind) {
    case IntegratorKind::kRk4:
      return ButcherTableau::classical_rk4();
    case IntegratorKind::kDormandPrince:
      return ButcherTableau::dormand_prince();
    default:
      throw std::invalid_argument("ExplicitRungeKutta: not an explicit Runge–Kutta integrator");
  }
}

// Slope of the stage configuration in the algebra: translations v_W as they are; rotations
// dexp⁻¹_Θ(Ω) = T(Θ)⁻¹Ω ≈ Ω + ½ Θ × Ω + (1/12) Θ × (Θ × Ω) (see the header for the truncation).
void algebra_slope(const VecX& dq, const VecX& v, VecX& out) {
  for (Eigen::Index c = 0; c < v.size(); c += 6) {
    out.segment<3>(c) = v.segment<3>(c);
    const Vec3 theta = dq.segment<3>(c + 3), w_B = v.segment<3>(c + 3);
    const Vec3 theta_x_w = theta.cross(w_B);
    out.segment<3>(c + 3) = w_B + 0.5 * theta_x_w + (1.0 / 12.0) * theta.cross(theta_x_w);
  }
}

// True if an evaluation at `a` is one at `b`: same time, configuration and velocity, bit for bit,
// and the same element memory (updated between steps; the forces depend on it).
bool same_point(const State& a, const State& b) {
  return a.t == b.t && a.x_W == b.x_W && a.R_WB == b.R_WB && a.v.size() == b.v.size() &&
         a.v == b.v && a.memory.size() == b.memory.size() && a.memory == b.memory;
}

bool configuration_is_finite(const State& s) {
  for (std::size_t b = 0; b < s.x_W.size(); ++b)
    if (!s.x_W[b].allFinite() || !s.R_WB[b].allFinite()) return false;
  return true;
}

}  // namespace

ExplicitRungeKutta::ExplicitRungeKutta(const System& sys, const SolverSettings& settings)
    : sys_(sys),
      settings_(settings),
      tableau_(tableau_for(settings.integrator)),
      name_(settings.integrator == IntegratorKind::kRk4 ? "rk4" : "dormand_prince"),
      alpha_(settings.baumgarte_alpha),
      beta_(settings.baumgarte_beta),
      schur_(sys.model()) {
  const int n = sys.num_dofs();
  slope_q_.assign(tableau_.stages, VecX::Zero(n));
  slope_v_.assign(tableau_.stages, VecX::Zero(n));
  dq_.setZero(n);
  v_end_.setZero(n);
  slope_q_end_.setZero(n);
  err_q_.setZero(n);
  err_v_.setZero(n);
  f_.setZero(n);
}

void ExplicitRungeKutta::size_for_constraints() {
  // The System may drop redundant rows after construction (make_consistent).
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  if (sized_rows_ == m) return;
  sized_rows_ = m;
  sparse_ = use_sparse(n + m, settings_.linear_solver);
  if (sparse_) ls_.resize(n + m, true);
  B_.setZero(sparse_ ? 0 : m, n);
  phi_.setZero(m);
  phi_t_.setZero(m);
  zeta_.setZero(m);
  Bv_.setZero(m);
  lambda_stage_.setZero(m);
  rhs_.setZero(n + m);
  start_.valid = end_.valid = false;
}

void ExplicitRungeKutta::constraint_rhs(VecX& out) const {
  out = -zeta_ - 2.0 * alpha_ * (Bv_ + phi_t_) - (beta_ * beta_) * phi_;
}

bool ExplicitRungeKutta::evaluate_dense(double t, const VecX& v, VecX& vdot, VecX& lambda) {
  if (sys_.num_constraints() > 0) {
    B_.setZero();
    sys_.constraints(kin_, t, &phi_, MatrixSink(&B_), &phi_t_, &zeta_);
    Bv_.noalias() = B_ * v;
  }
  if (!schur_.factor(B_)) return false;
  vdot = f_;
  constraint_rhs(lambda);
  schur_.solve(vdot, lambda);
  return true;
}

bool ExplicitRungeKutta::evaluate_sparse(double t, const VecX& v, VecX& vdot, VecX& lambda) {
  const int n = sys_.num_dofs();
  MatrixSink S = ls_.begin();
  sys_.mass(S);
  tB_.clear();
  sys_.constraints(kin_, t, &phi_, MatrixSink(&tB_), &phi_t_, &zeta_);
  Bv_.setZero();
  for (const Eigen::Triplet<double>& e : tB_) {
    S.add(n + e.row(), e.col(), e.value());
    S.add(e.col(), n + e.row(), e.value());
    Bv_(e.row()) += e.value() * v(e.col());
  }
  if (!ls_.factorize()) return false;
  constraint_rhs(lambda);
  rhs_.head(n) = f_;
  rhs_.tail(lambda.size()) = lambda;
  ls_.solve(rhs_);
  vdot = rhs_.head(n);
  lambda = rhs_.tail(lambda.size());
  return true;
}

bool ExplicitRungeKutta::evaluate(const State& at, VecX& vdot, VecX& lambda) {
  nonfinite_point_ = !configuration_is_finite(at) || !at.v.allFinite();
  if (nonfinite_point_) return false;
  sys_.gather(at, kin_);
  sys_.forces(kin_, at.t, f_, MatrixSink(), MatrixSink());
  const bool ok = sparse_ ? evaluate_sparse(at.t, at.v, vdot, lambda)
                          : evaluate_dense(at.t, at.v, vdot, lambda);
  ++evaluations_;
  return ok;
}

bool ExplicitRungeKutta::start_slope(const State& s) {
  if (end_.valid && same_point(end_.at, s)) {
    std::swap(start_, end_);  // the last step ended here (FSAL, or the end evaluation of rk4)
  } else if (!(start_.valid && same_point(start_.at, s))) {  // else: a rejected step's retry
    start_.at = s;
    start_.valid = evaluate(start_.at, start_.vdot, start_.lambda);
    if (!start_.valid) return false;
  }
  slope_q_[0] = s.v;  // Θ₁ = 0: dexp⁻¹ is the identity
  slope_v_[0] = start_.vdot;
  return true;
}

void ExplicitRungeKutta::track_fastest_contact(const State& at) {
  if (tableau_.has_error_estimate()) return;  // the error control cuts too-stiff steps
  sys_.gather(at, kin_);
  const System::FastestContact fc = sys_.fastest_contact(kin_, at.t);
  if (fc.rate() > fastest_.rate()) fastest_ = fc;
}

bool ExplicitRungeKutta::run_stages(const State& s, double h, int& failed_stage) {
  stage_ = s;  // carries what an evaluation reads besides the stage point (element memory)
  fastest_ = {};
  for (int i = 1; i < tableau_.stages; ++i) {
    dq_.setZero();
    stage_.v = s.v;
    for (int j = 0; j < i; ++j) {
      const double ha = h * tableau_.coefficient(i, j);
      if (ha == 0.0) continue;
      dq_ += ha * slope_q_[j];
      stage_.v += ha * slope_v_[j];
    }
    integrate_configuration(s, dq_, stage_);
    stage_.t = s.t + tableau_.c[i] * h;
    if (!evaluate(stage_, slope_v_[i], lambda_stage_)) {
      failed_stage = i + 1;
      return false;
    }
    track_fastest_contact(stage_);
    algebra_slope(dq_, stage_.v, slope_q_[i]);
  }
  return true;
}

void ExplicitRungeKutta::advance_end_point(const State& s, double h) {
  dq_.setZero();
  v_end_ = s.v;
  for (int i = 0; i < tableau_.stages; ++i) {
    const double hb = h * tableau_.b[i];
    if (hb == 0.0) continue;
    dq_ += hb * slope_q_[i];
    v_end_ += hb * slope_v_[i];
  }
  end_.at = s;
  integrate_configuration(s, dq_, end_.at);
  end_.at.v = v_end_;
  end_.at.t = s.t + h;
}

double ExplicitRungeKutta::error_norm(const State& s, double h) {
  const std::vector<double>& e = tableau_.error_weights;
  algebra_slope(dq_, v_end_, slope_q_end_);
  err_q_ = (h * e.back()) * slope_q_end_;
  err_v_ = (h * e.back()) * end_.vdot;
  for (int i = 0; i < tableau_.stages; ++i) {
    if (e[i] == 0.0) continue;
    err_q_ += (h * e[i]) * slope_q_[i];
    err_v_ += (h * e[i]) * slope_v_[i];
  }
  // Max norm: every coordinate within its tolerance, as the generalized-α estimate does.
  const double rtol = settings_.rtol, atol = settings_.atol;
  const State& next = end_.at;
  double err = 0.0;
  for (std::size_t b = 0; b < s.x_W.size(); ++b) {
    for (int k = 0; k < 6; ++k) {
      const Eigen::Index i = 6 * static_cast<Eigen::Index>(b) + k;
      const double q_size =
          k < 3 ? std::max(std::abs(s.x_W[b](k)), std::abs(next.x_W[b](k))) : 1.0;  // rad
      const double v_size = std::max(std::abs(s.v(i)), std::abs(next.v(i)));
      err = std::max(err, std::abs(err_q_(i)) / (atol + rtol * q_size));
      err = std::max(err, std::abs(err_v_(i)) / (atol + rtol * v_size));
    }
  }
  return err;
}

std::string ExplicitRungeKutta::failure(const State& s, double h, const std::string& why) const {
  std::ostringstream os;
  os << name_ << " step from t = " << s.t << " s (h = " << h << " s): " << why;
  return os.str();
}

bool ExplicitRungeKutta::too_stiff(const State& next, double h, std::string& why) {
  track_fastest_contact(next);
  const System::FastestContact fc = fastest_;
  const bool oscillates = fc.omega * h > kOscillationLimit;
  if (fc.element < 0 || (!oscillates && fc.damping_rate * h <= kDampingLimit)) return false;
  const Element& el = *sys_.model().elements[fc.element];
  std::ostringstream os;
  os.precision(3);
  os << el.kind() << " '" << el.name() << "' is too stiff for this step: ";
  if (oscillates)
    os << "its contact frequency " << fc.omega << " rad/s gives ω h = " << fc.omega * h
       << ", above " << name_ << "'s stability limit " << kOscillationLimit;
  else
    os << "its contact damping rate c/m = " << fc.damping_rate
       << " 1/s gives h c/m = " << fc.damping_rate * h << ", above " << name_
       << "'s stability limit " << kDampingLimit;
  os << " (a smaller step, dormand_prince or generalized_alpha resolves it)";
  why = os.str();
  return true;
}

bool ExplicitRungeKutta::blew_up(const State& s, const State& next, double h, std::string& why) {
  sys_.gather(s, kin_);
  ke_max_ = std::max(ke_max_, sys_.kinetic_energy(kin_));
  // The kinetic energy the start accelerations alone give in one step: the scale of a start
  // from rest (exactly or up to round-off), where ke_max_ says nothing.
  double ke_accel = 0.0;
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    const Body& body = sys_.model().bodies[b];
    const Vec3 dv = h * slope_v_[0].segment<3>(6 * b), dw = h * slope_v_[0].segment<3>(6 * b + 3);
    ke_accel += 0.5 * (body.mass * dv.squaredNorm() + dw.dot(body.inertia_B * dw));
  }
  sys_.gather(next, kin_);
  const double ke = sys_.kinetic_energy(kin_);
  // From exactly rest with no start acceleration (forces ramped in from zero) there is no scale
  // to compare with, and no energy for an unstable mode to have amplified.
  const double reference = std::max(ke_max_, ke_accel);
  if (reference == 0.0 || ke <= kEnergyBlowUp * reference) return false;
  int worst = 0;
  double gain = -1.0;
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    const double g = sys_.model().bodies[b].mass * (next.v - s.v).segment<3>(6 * b).squaredNorm();
    if (g > gain) gain = g, worst = b;
  }
  std::ostringstream os;
  os.precision(3);
  os << "the kinetic energy grew from " << std::max(ke_max_, ke_accel) << " J to " << ke
     << " J in one step: the step is beyond the explicit scheme's stability limit";
  const std::string stiff = sys_.describe_stiffest_force(worst, s, nullptr, h);
  os << (stiff.empty() ? "; reduce solver.step" : "; " + stiff);
  why = os.str();
  return true;
}

StepResult ExplicitRungeKutta::step(State& s, double h) {
  StepResult res;
  size_for_constraints();
  evaluations_ = 0;
  int failed_stage = 1;
  bool ok = start_slope(s) && run_stages(s, h, failed_stage);
  if (ok) {
    advance_end_point(s, h);
    failed_stage = tableau_.stages + 1;
    end_.valid = ok = evaluate(end_.at, end_.vdot, end_.lambda);
  }
  res.factorizations = evaluations_;
  if (ok && tableau_.has_error_estimate()) res.error_estimate = error_norm(s, h);
  const State& next = end_.at;
  const bool finite = ok && end_.vdot.allFinite() && std::isfinite(res.error_estimate);
  if (!finite) {
    end_.valid = false;
    res.error_estimate = 0.0;
    std::ostringstream os;
    if (ok || nonfinite_point_) {
      os << "non-finite positions, velocities or accelerations: the step is beyond the explicit "
            "scheme's stability limit (stiff forces, or baumgarte_alpha or baumgarte_beta above "
            "about 2.8/h); reduce solver.step";
    } else {
      os << "the matrix [M Bᵀ; B 0] is singular at stage " << failed_stage
         << ": the constraint rows are dependent there (a singular or dead-centre position)";
    }
    res.message = failure(s, h, os.str());
    return res;
  }
  if (std::string why; too_stiff(next, h, why) || blew_up(s, next, h, why)) {
    end_.valid = false;
    res.error_estimate = 0.0;
    res.message = failure(s, h, why);
    return res;
  }
  res.converged = true;
  s.t = next.t;
  s.x_W = next.x_W;
  s.R_WB = next.R_WB;
  s.v = next.v;
  s.vdot = end_.vdot;
  s.a = end_.vdot;  // no pseudo-acceleration: a generalized-α step that follows starts from v̇
  s.lambda = end_.lambda;
  return res;
}

}  // namespace cs
