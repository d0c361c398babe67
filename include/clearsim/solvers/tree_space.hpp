// TreeAlpha's joint coordinates as the NSGA corrections see them (CorrectionSpace): velocity
// coordinates q̇ of the tree, rows of the loops (B_L J, coordinate drivers in their coordinate)
// and of the gaps (G_b J), metric M̄ = JᵀMJ at the last configuration evaluated, and the tree's
// configuration update (q + U; Q exp(U) for a spherical joint's rotation).
#pragma once

#include <vector>

#include "clearsim/solvers/correction_space.hpp"
#include "clearsim/solvers/tree_alpha.hpp"

namespace cs {

class TreeAlpha::Space final : public CorrectionSpace {
 public:
  explicit Space(const TreeAlpha& owner);
  int dofs() const override { return owner_.tree_->num_coordinates(); }
  int rows() const override { return owner_.tree_->num_loop_rows(); }
  void evaluate(const State& x, VecX* phi, VecX* phi_t, MatX* B, VecX* g, MatX* G) override;
  void mass(MatrixSink S) const override { S.add_block(0, 0, metric()); }
  void mass_times(const VecX& x, VecX& Mx) const override { Mx.noalias() = metric() * x; }
  void inverse_mass_weights(const MatX& G, VecX& w) override;
  void integrate(const State& base, const VecX& U, State& x) const override;
  VecX& velocity(State& x) const override { return x.tree_qd; }

  // `kin` are the kinematics of state `at` (the smooth step's last, at its result): the next
  // evaluation at exactly that configuration and those rates takes them instead of computing
  // them again.
  void preload(const std::vector<BodyKinematics>& kin, const State& at) {
    preload_kin_ = kin;
    preload_q_ = at.tree_q;
    preload_qd_ = at.tree_qd;
    preload_R_ = at.tree_R;
    preloaded_ = true;
  }
  // At the last configuration evaluated: body kinematics, J, and the gaps' rows on the bodies.
  const std::vector<BodyKinematics>& kinematics() const { return kin_; }
  const MatX& jacobian() const { return J_; }

 private:
  // M̄ at the last configuration evaluated, formed when first asked for (a position correction
  // that finds the gaps closed at its first iterate needs none).
  const MatX& metric() const;

  const TreeAlpha& owner_;
  std::vector<BodyKinematics> kin_;
  MatX J_, G_body_;
  mutable MatX M_;
  mutable MatX MJ_;  // workspace of metric(): diag(m I₃, J_B) J
  // Per body: mass, inertia about the centre of mass (body frame) and its inverse.
  std::vector<double> body_mass_;
  std::vector<Mat3> body_inertia_, inv_inertia_;
  mutable bool metric_current_ = false;
  bool preloaded_ = false;
  std::vector<BodyKinematics> preload_kin_;
  VecX preload_q_, preload_qd_;
  std::vector<Mat3> preload_R_;
};

}  // namespace cs
