// TreeAlpha under NSGA: the persistent contacts of the smooth step and the corrections, in joint
// coordinates. The contact laws are alpha_step's (choose_persistent_contacts) and
// NonsmoothCorrection's; what is here maps them to the tree: G = G_b J, M̄ = JᵀMJ, v̇ = J q̈ + J̇ q̇.
#include <Eigen/LU>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/tree_alpha.hpp"
#include "clearsim/solvers/tree_space.hpp"

namespace cs {

TreeAlpha::TreeAlpha(const System& sys, const SolverSettings& settings)
    : sys_(sys),
      settings_(settings),
      p_(AlphaParameters::from_settings(settings)),
      nsga_(settings.integrator == IntegratorKind::kNsga || sys.num_gaps() > 0) {
  kin_.resize(sys.model().num_bodies());
  persistent_.assign(nsga_ ? sys.num_gaps() : 0, 0);
  hist_.allow_quadratic(!nsga_);  // corrections move the state: predictor_history.hpp
}

TreeAlpha::~TreeAlpha() = default;

void TreeAlpha::start_corrections() {
  if (!nsga_) return;
  space_ = std::make_unique<Space>(*this);
  nonsmooth_ = std::make_unique<NonsmoothCorrection>(sys_, *space_, settings_.newton_tol,
                                                     settings_.max_newton_iterations,
                                                     settings_.restitution_threshold);
}

bool TreeAlpha::choose_persistent(const State& s) {
  any_persistent_ = choose_persistent_contacts(sys_, settings_, s, persistent_);
  return any_persistent_;
}

const LinearSystem* TreeAlpha::correction_chord(const State& s) const {
  if (!nsga_ || !mass_only_ || !nonsmooth_ || !hist_.ended_at(s.t)) return nullptr;
  const std::vector<char>* active = nullptr;
  const LinearSystem* ls = nonsmooth_->last_factorization(&active);
  if (ls == nullptr || *active != persistent_) return nullptr;
  return ls;
}

void TreeAlpha::persistent_rows(double t) {
  // The contact force G_bᵀλ_N acts on the bodies (M v̇ = f − Bᵀλ + Gᵀλ_N, so y = M v̇ − f loses
  // it) and the gap is held at zero at the step's end, g(q_{n+1}) = 0: index 3, as the loops.
  // Body poses hold G v = 0 instead (the stabilized formulation); here the position rows leave
  // the position correction nothing to do in sliding contact (0.02 iterations per step on the
  // Flores example instead of 0.8, 2.8e5 instead of 2.7e5 steps/s), and the energy of a tip
  // sliding in a cavity drifts at second order where the velocity rows' drifted irregularly
  // (tree_nsga_test.cpp, SlidingTipKeepsItsEnergyAtSecondOrder).
  const int p = sys_.num_gaps(), nb = sys_.model().num_bodies();
  G_body_.setZero(p, 6 * nb);
  gN_.resize(p);
  sys_.gaps(kin_, t, &gN_, MatrixSink(&G_body_));
  r_c_.setZero(p);
  for (int j = 0; j < p; ++j) {
    if (!persistent_[j]) continue;
    y_.noalias() -= G_body_.row(j).transpose() * lamN_(j);
    r_c_(j) = gN_(j);
  }
}

bool TreeAlpha::restart_accelerations(State& s) {
  // As GeneralizedAlpha::restart_accelerations: at the onset of a persistent contact, a_n and q̈_n
  // move by the smallest M̄-weighted change that makes the contact's normal acceleration
  //   G_b v̇ + Ġ_b v = Ḡ q̈ + G_b J̇q̇ + ζ_b
  // vanish (Ḡ = G_b J, ζ_b = Ġ_b v by a central difference along q̇), keeping B_L q̈.
  const int p = sys_.num_gaps();
  if (!any_persistent_) return false;
  bool onset = false;
  for (int j = 0; j < p; ++j)
    onset = onset || (persistent_[j] && !(s.lambda_N.size() == p && s.lambda_N(j) > 0.0));
  if (!onset) return false;
  const int n = tree_->num_coordinates(), m = tree_->num_loop_rows(),
            nb = sys_.model().num_bodies();
  tree_->kinematics(s.tree_q, s.tree_R, s.tree_qd, kin_);
  tree_->jacobian(kin_, J_);
  VecX bias;  // J̇q̇ on the bodies
  tree_->accelerations(kin_, s.tree_qd, VecX::Zero(n), bias);
  blocks_.assign(nb, Mat6::Zero());
  sys_.mass(MatrixSink(&blocks_));
  MatX Mbar;
  tree_->project_blocks(kin_, blocks_, Mbar);
  MatX B(m, n), Gb = MatX::Zero(p, 6 * nb);
  if (m > 0) {
    loop_rows(sys_, *tree_, kin_, s.t, nullptr, &J_, &B, nullptr, &skip_);
    coordinate_driver_rows(s.t, s.tree_q, nullptr, nullptr, &B);
  }
  VecX g(p), zeta = VecX::Zero(p);
  sys_.gaps(kin_, s.t, &g, MatrixSink(&Gb));
  const MatX G = Gb * J_;
  const VecX vb = J_ * s.tree_qd;
  const double speed = vb.lpNorm<Eigen::Infinity>();
  if (speed > 0.0) {
    const double eps = 1e-7 / speed;  // moves every body coordinate by about 1e-7 (m or rad)
    MatX Gp = MatX::Zero(p, 6 * nb), Gm = MatX::Zero(p, 6 * nb);
    State shifted = s;
    std::vector<BodyKinematics> kin(nb);
    for (const double sign : {1.0, -1.0}) {
      space_->integrate(s, sign * eps * s.tree_qd, shifted);
      tree_->kinematics(shifted.tree_q, shifted.tree_R, s.tree_qd, kin);
      sys_.gaps(kin, s.t, &g, MatrixSink(sign > 0 ? &Gp : &Gm));
    }
    zeta = (Gp - Gm) * vb / (2.0 * eps);
  }
  zeta += Gb * bias;
  // [M̄ B̄ᵀ Ḡ_Pᵀ; B̄ 0 0; Ḡ_P 0 0] with identity rows for the other contacts.
  MatX S = MatX::Zero(n + m + p, n + m + p);
  S.topLeftCorner(n, n) = Mbar;
  S.block(0, n, n, m) = B.transpose();
  S.block(n, 0, m, n) = B;
  for (int j = 0; j < p; ++j) {
    if (persistent_[j]) {
      S.block(n + m + j, 0, 1, n) = G.row(j);
      S.block(0, n + m + j, n, 1) = G.row(j).transpose();
    } else {
      S(n + m + j, n + m + j) = 1.0;
    }
  }
  const Eigen::PartialPivLU<MatX> lu(S);
  for (VecX* acc : {&s.tree_a, &s.tree_qdd}) {
    VecX rhs = VecX::Zero(n + m + p);
    for (int j = 0; j < p; ++j)
      if (persistent_[j]) rhs(n + m + j) = -zeta(j) - G.row(j).dot(*acc);
    const VecX sol = lu.solve(rhs);
    if (!sol.allFinite()) return false;
    *acc += sol.head(n);
  }
  return true;
}

bool TreeAlpha::correct(const State& s, State& x, StepResult& res) {
  space_->preload(kin_, x);  // store() left x at the smooth step's result, kin_ there
  const NonsmoothReport r = nonsmooth_->correct(s, x);
  res.message = r.message;
  res.position_iterations = r.position_iterations;
  res.velocity_iterations = r.velocity_iterations;
  res.plastic_impacts = r.plastic_impacts;
  res.factorizations += r.factorizations;
  if (!r.ok) return false;
  // The bodies at q_{n+1}, q̇_{n+1} (v̇ stays the smooth step's, as in body poses); the jump on
  // the bodies W_b = J W; the loops' impulses μ_L on their global rows (the tree joints' rows are
  // filled by complete_outputs).
  // The positions are those of the correction's last evaluation, the velocities J q̇.
  const std::vector<BodyKinematics>& kin = space_->kinematics();
  const MatX& J = space_->jacobian();
  v_body_.noalias() = J * x.tree_qd;
  for (std::size_t b = 0; b < kin.size(); ++b) {
    x.x_W[b] = kin[b].x_W;
    x.R_WB[b] = kin[b].R_WB;
  }
  x.v = v_body_;
  jump_.swap(x.v_jump);  // W in joint coordinates
  x.v_jump.noalias() = J * jump_;
  jump_.swap(x.lambda_jump);  // the loops' μ
  x.lambda_jump.setZero(sys_.num_constraints());
  if (jump_.size() > 0) scatter_loop_lambda(jump_, x.lambda_jump);
  return true;
}

}  // namespace cs
