#include "clearsim/sensitivity/correction_tangent.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/configuration.hpp"

namespace cs {

namespace {
constexpr int kModels = PerturbedModels::kModels;
// ∂(G_Aᵀν_A)/∂q, which no element writes, by central differences at σ = 1e-6 and 2σ (m or rad)
// combined by Richardson, O(σ⁴): a gap curves on the scale of its clearance (0.5 mm in seed
// 000: a plain central difference left 1e-6 relative there). The rest of F_Y and H_Z is written
// from M, B, G and the constraints' tangent.
constexpr double kIncrementStep = 1e-6;

// The rows of `M` (gaps × n) listed in `rows`.
MatX rows_of(const MatX& M, const std::vector<int>& rows) {
  MatX out(static_cast<Eigen::Index>(rows.size()), M.cols());
  for (std::size_t k = 0; k < rows.size(); ++k)
    out.row(static_cast<Eigen::Index>(k)) = M.row(rows[k]);
  return out;
}

VecX entries_of(const VecX& v, const std::vector<int>& rows) {
  VecX out(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t k = 0; k < rows.size(); ++k) out(static_cast<Eigen::Index>(k)) = v(rows[k]);
  return out;
}

std::vector<int> flagged(const std::vector<char>& flags) {
  std::vector<int> out;
  for (std::size_t j = 0; j < flags.size(); ++j)
    if (flags[j]) out.push_back(static_cast<int>(j));
  return out;
}

// K_G = ∂(Gᵀν)/∂q at y (body-frame tangents, as the constraints' K: x_W + σ e, R exp(σ e)), by
// Richardson's central differences of the gaps alone, each column moving one body's kinematics.
MatX gap_force_tangent(const System& sys, const State& y, const VecX& nu) {
  const int n = sys.num_dofs(), p = sys.num_gaps();
  MatX K = MatX::Zero(n, n);
  if (p == 0 || nu.isZero(0.0)) return K;
  std::vector<BodyKinematics> base, kin;
  sys.gather(y, base);
  kin = base;
  VecX g(p);
  MatX G(p, n);
  // Only the bodies of the contacts move Gᵀν: the other columns are zero.
  std::vector<char> touched(static_cast<std::size_t>(n / 6), 0);
  for (const auto& el : sys.model().elements) {
    if (el->num_gaps() == 0) continue;
    for (const int b : {el->body_i(), el->body_j()})
      if (b >= 0) touched[static_cast<std::size_t>(b)] = 1;
  }
  for (int j = 0; j < n; ++j) {
    const int b = j / 6, k = j % 6;
    if (!touched[static_cast<std::size_t>(b)]) continue;
    const auto force = [&](double sigma) {
      kin[b] = base[b];
      if (k < 3)
        kin[b].x_W(k) += sigma;
      else
        kin[b].R_WB = base[b].R_WB * so3::exp(sigma * Vec3::Unit(k - 3));
      G.setZero();
      sys.gaps(kin, y.t, &g, MatrixSink(&G));
      return VecX(G.transpose() * nu);
    };
    const auto central = [&](double sigma) {
      return VecX((force(sigma) - force(-sigma)) / (2.0 * sigma));
    };
    K.col(j) = (4.0 * central(kIncrementStep) - central(2.0 * kIncrementStep)) / 3.0;
    kin[b] = base[b];
  }
  return K;
}
}  // namespace

CorrectionTangent::CorrectionTangent(const System& sys, const SolverSettings& settings)
    : sys_(sys),
      correction_(sys, std::max(1e-3 * settings.newton_tol, 1e-14),
                  std::max(50, settings.max_newton_iterations), settings.restitution_threshold),
      tol_(std::max(1e-3 * settings.newton_tol, 1e-14)) {
  correction_.keep_record(true);
}

bool CorrectionTangent::linearize(const State& prev, const State& smooth, std::string& why) {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  prev_ = prev;
  prev_.gdot_N.resize(0);  // ġ⁻ = G(q_n) v_n evaluated afresh, as jump_residual does
  State x = smooth;
  x.lambda_N.setZero(p);  // no persistent contacts (DirectSensitivity::adapted)
  const NonsmoothReport rep = correction_.correct(prev_, x);
  if (!rep.ok) {
    why = "the corrections solved again to round-off failed: " + rep.message;
    return false;
  }
  why = boundary_contact();
  if (!why.empty()) return false;
  const CorrectionRecord& rec = correction_.record();
  // A plastic pass set every e_eff to 0 although some approach was above the threshold with e > 0.
  const VecX& e = sys_.restitution();
  bool plastic = false;
  for (int j = 0; j < p; ++j)
    plastic = plastic || (rec.resolve_margin(j) > 0.0 && e(j) > 0.0 && rec.e_eff(j) == 0.0);
  restituting_.assign(static_cast<std::size_t>(p), 0);
  for (int j = 0; j < p; ++j) restituting_[j] = !plastic && rec.resolve_margin(j) > 0.0;
  A_ = flagged(rec.position_active);
  Aj_ = flagged(rec.jump_active);
  Y_.resize(n + m + static_cast<Eigen::Index>(A_.size()));
  Y_ << rec.U, rec.nu_B, entries_of(rec.nu_N, A_);
  Z_.resize(n + m + static_cast<Eigen::Index>(Aj_.size()));
  Z_ << rec.W, rec.mu, entries_of(rec.Lambda, Aj_);
  at_ = x;
  at_.v = rec.smooth.v;
  // H_Z is linear: [M Bᵀ −G_A′ᵀ; B 0 0; G_A′ 0 0] at the corrected configuration.
  MatX M = MatX::Zero(n, n), B = MatX::Zero(m, n), G = MatX::Zero(p, n);
  std::vector<BodyKinematics> kin;
  sys_.gather(at_, kin);
  VecX phi(m), g(p);
  sys_.mass(MatrixSink(&M));
  if (m > 0) sys_.constraints(kin, at_.t, &phi, MatrixSink(&B), nullptr, nullptr);
  sys_.gaps(kin, at_.t, &g, MatrixSink(&G));
  F_Y_.compute(position_jacobian(Y_));
  const MatX GA = rows_of(G, Aj_);
  MatX J = MatX::Zero(Z_.size(), Z_.size());
  J.topLeftCorner(n, n) = M;
  J.block(0, n, n, m) = B.transpose();
  J.block(0, n + m, n, GA.rows()) = -GA.transpose();
  J.block(n, 0, m, n) = B;
  J.block(n + m, 0, GA.rows(), n) = GA;
  H_Z_.compute(J);
  return true;
}

MatX CorrectionTangent::position_jacobian(const VecX& Y) const {
  // At q = q̃ ∘ exp(U): [M + (K_B − K_G) T, Bᵀ, −G_Aᵀ; B T, 0, 0; G_A T, 0, 0], with
  // K_B = ∂(Bᵀν_B)/∂q, K_G = ∂(G_Aᵀν_A)/∂q and T = ∂q/∂U = blockdiag(1, tangent(ψ_b)).
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const auto a = static_cast<Eigen::Index>(A_.size());
  const CorrectionRecord& rec = correction_.record();
  State y = rec.smooth;
  integrate_configuration(rec.smooth, Y.head(n), y);
  std::vector<BodyKinematics> kin;
  sys_.gather(y, kin);
  MatX M = MatX::Zero(n, n), B = MatX::Zero(m, n), G = MatX::Zero(p, n);
  VecX g(p);
  sys_.mass(MatrixSink(&M));
  if (m > 0) sys_.constraints(kin, y.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  if (p > 0) sys_.gaps(kin, y.t, &g, MatrixSink(&G));
  const MatX GA = rows_of(G, A_);
  MatX T = MatX::Identity(n, n);
  for (Eigen::Index b = 0; b < n / 6; ++b)
    T.block<3, 3>(6 * b + 3, 6 * b + 3) = so3::tangent(Y.segment<3>(6 * b + 3));
  MatX K = MatX::Zero(n, n);
  if (m > 0) sys_.constraint_tangent(kin, y.t, Y.segment(n, m), MatrixSink(&K));
  VecX nu_A = VecX::Zero(p);
  for (Eigen::Index k = 0; k < a; ++k) nu_A(A_[static_cast<std::size_t>(k)]) = Y(n + m + k);
  K -= gap_force_tangent(sys_, y, nu_A);
  MatX J = MatX::Zero(Y.size(), Y.size());
  J.topLeftCorner(n, n) = M + K * T;
  J.block(n, 0, m, n) = B * T;
  J.block(n + m, 0, a, n) = GA * T;
  J.block(0, n, n, m) = B.transpose();
  J.block(0, n + m, n, a) = -GA.transpose();
  return J;
}

MatX CorrectionTangent::position_jacobian_by_differences(const VecX& Y) const {
  const CorrectionRecord& rec = correction_.record();
  MatX J(Y.size(), Y.size());
  VecX y = Y;
  const auto central = [&](Eigen::Index j, double sigma) {
    y(j) = Y(j) + sigma;
    const VecX plus = position_residual(sys_, rec.smooth, y);
    y(j) = Y(j) - sigma;
    const VecX minus = position_residual(sys_, rec.smooth, y);
    y(j) = Y(j);
    return VecX((plus - minus) / (2.0 * sigma));
  };
  for (Eigen::Index j = 0; j < Y.size(); ++j)
    J.col(j) = (4.0 * central(j, kIncrementStep) - central(j, 2.0 * kIncrementStep)) / 3.0;
  return J;
}

std::string CorrectionTangent::boundary_contact() const {
  // Each decision's value must be clear of zero by more than the corrections' round-off: a gap
  // by 100 tol [m], a multiplier by its effective mass times that, a normal velocity by 1e-12
  // of the speeds.
  const CorrectionRecord& r = correction_.record();
  const double tau_g = 100.0 * tol_;
  const double tau_v = 1e-12 * std::max(1.0, r.smooth.v.lpNorm<Eigen::Infinity>());
  const VecX& e = sys_.restitution();
  for (int j = 0; j < sys_.num_gaps(); ++j) {
    const char* what = nullptr;
    if (r.position_active[j] && r.nu_N(j) <= r.r_eff(j) * tau_g)
      what = "is closed by the position correction with no force";
    else if (!r.position_active[j] && r.g(j) <= tau_g)
      what = "touches without closing";
    else if (std::abs(r.g_tilde(j)) <= tau_g)
      what = "grazes at the smooth prediction";
    else if (r.candidate[j] && r.jump_active[j] && r.Lambda(j) <= r.r_eff(j) * tau_v)
      what = "takes a vanishing impulse";
    else if (r.candidate[j] && !r.jump_active[j] && r.law(j) <= tau_v)
      what = "leaves with zero normal velocity";
    else if (r.candidate[j] && e(j) > 0.0 && std::abs(r.resolve_margin(j)) <= tau_v)
      what = "approaches at the restitution threshold";
    if (what == nullptr) continue;
    std::ostringstream os;
    os << "contact " << sys_.describe_gap(j) << " " << what
       << " (the boundary of its active set, where the step has no derivative)";
    return os.str();
  }
  return {};
}

VecX CorrectionTangent::position_residual(const System& sys, const State& smooth,
                                          const VecX& Y) const {
  const int n = sys.num_dofs(), m = sys.num_constraints(), p = sys.num_gaps();
  const int a = static_cast<int>(A_.size());
  State y = smooth;
  integrate_configuration(smooth, Y.head(n), y);
  std::vector<BodyKinematics> kin;
  sys.gather(y, kin);
  VecX phi(m), g(p), F(n + m + a), MU;
  MatX G = MatX::Zero(p, n);
  sys.mass_times(Y.head(n), MU);
  // Φ and Bᵀν_B without writing B (the constraint rows' products, row by row).
  if (m > 0) sys.constraint_products(kin, y.t, Y.segment(n, m), nullptr, phi, MU, nullptr);
  if (p > 0) sys.gaps(kin, y.t, &g, MatrixSink(&G));
  F.head(n) = MU - rows_of(G, A_).transpose() * Y.tail(a);
  F.segment(n, m) = phi;
  F.tail(a) = entries_of(g, A_);
  return F;
}

VecX CorrectionTangent::jump_residual(const System& sys, const State& at, const State& prev,
                                      const VecX& Z) const {
  const int n = sys.num_dofs(), m = sys.num_constraints(), p = sys.num_gaps();
  const int a = static_cast<int>(Aj_.size());
  std::vector<BodyKinematics> kin;
  VecX phi(m), bv(m), g(p), MW, H(n + m + a);
  MatX G = MatX::Zero(p, n), Gn = MatX::Zero(p, n);
  // ġ⁻ = G(q_n) v_n at the start.
  sys.gather(prev, kin);
  sys.gaps(kin, prev.t, &g, MatrixSink(&Gn));
  const VecX gdot_pre = Gn * prev.v;
  sys.gather(at, kin);
  const VecX W = Z.head(n), v = at.v + W;
  sys.mass_times(W, MW);
  // Bᵀμ and B v + Φ_t without writing B (the constraint rows' products, row by row).
  if (m > 0) sys.constraint_products(kin, at.t, Z.segment(n, m), &v, phi, MW, &bv);
  sys.gaps(kin, at.t, &g, MatrixSink(&G));
  const MatX GA = rows_of(G, Aj_);
  H.head(n) = MW - GA.transpose() * Z.tail(a);
  H.segment(n, m) = bv;
  // The law each active contact follows: Newton's with this model's e where the step applied
  // restitution, plastic (G v = 0) where it did not (a slow approach, or the plastic pass).
  const VecX& e = sys.restitution();
  for (int k = 0; k < a; ++k) {
    const int j = Aj_[static_cast<std::size_t>(k)];
    H(n + m + k) = G.row(j).dot(v) + (restituting_[j] ? e(j) : 0.0) * gdot_pre(j);
  }
  return H;
}

void CorrectionTangent::apply(const StateTangent& dprev, StateTangent& d,
                              const PerturbedModels& par) const {
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  const CorrectionRecord& rec = correction_.record();
  const auto offset = [&](int k) { return (k % 2 == 0 ? 1.0 : -1.0) * par.eps[k / 2]; };
  // Position: F_Y dY = −dF along (dq̃, p) with Y fixed.
  VecX F[kModels];
  for (int k = 0; k < kModels; ++k)
    F[k] = position_residual(*par.sys[k], displaced(rec.smooth, d, offset(k)), Y_);
  const VecX dU = F_Y_.solve(VecX(-par.derivative(F))).head(n);
  // q = q̃ ∘ exp(U): its body-frame tangent, as StepLinearization::directional writes it.
  StateTangent dat = d;
  for (Eigen::Index b = 0; b < n / 6; ++b) {
    const Vec3 psi = rec.U.segment<3>(6 * b + 3);
    dat.q.segment<3>(6 * b) = d.q.segment<3>(6 * b) + dU.segment<3>(6 * b);
    dat.q.segment<3>(6 * b + 3) = so3::exp(psi).transpose() * d.q.segment<3>(6 * b + 3) +
                                  so3::tangent(psi) * dU.segment<3>(6 * b + 3);
  }
  // Jump: H_Z dZ = −dH along (dq, dṽ, dS_n, p) with Z fixed.
  VecX H[kModels];
  for (int k = 0; k < kModels; ++k)
    H[k] = jump_residual(*par.sys[k], displaced(at_, dat, offset(k)),
                         displaced(prev_, dprev, offset(k)), Z_);
  const VecX dZ = H_Z_.solve(VecX(-par.derivative(H)));
  d.q = dat.q;
  d.v_jump = dZ.head(n);
  d.v += d.v_jump;
  d.lambda_jump = dZ.segment(n, m);
  d.Lambda.setZero(p);
  for (std::size_t k = 0; k < Aj_.size(); ++k)
    d.Lambda(Aj_[k]) = dZ(n + m + static_cast<Eigen::Index>(k));
}

}  // namespace cs
