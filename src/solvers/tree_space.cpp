#include "clearsim/solvers/tree_space.hpp"

#include "clearsim/math/so3.hpp"

namespace cs {

TreeAlpha::Space::Space(const TreeAlpha& owner)
    : owner_(owner), kin_(owner.sys_.model().num_bodies()) {
  for (const Body& b : owner.sys_.model().bodies) {
    body_mass_.push_back(b.mass);
    body_inertia_.push_back(b.inertia_B);
    inv_inertia_.push_back(b.inertia_B.inverse());
  }
}

void TreeAlpha::Space::evaluate(const State& x, VecX* phi, VecX* phi_t, MatX* B, VecX* g, MatX* G) {
  const System& sys = owner_.sys_;
  const JointTree& tree = *owner_.tree_;
  const int n = tree.num_coordinates(), m = tree.num_loop_rows(), p = sys.num_gaps();
  if (preloaded_ && x.tree_q == preload_q_ && x.tree_qd == preload_qd_ && x.tree_R == preload_R_) {
    kin_.swap(preload_kin_);
    preloaded_ = false;
  } else {
    tree.kinematics(x.tree_q, x.tree_R, x.tree_qd, kin_);
  }
  tree.jacobian(kin_, J_);
  metric_current_ = false;
  if (B != nullptr) {
    phi->resize(m);
    phi_t->resize(m);
    B->resize(m, n);
    loop_rows(sys, tree, kin_, x.t, phi, &J_, B, nullptr, &owner_.skip_, phi_t);
    owner_.coordinate_driver_rows(x.t, x.tree_q, phi, phi_t, B);
  }
  if (G != nullptr) {
    G_body_.setZero(p, 6 * sys.model().num_bodies());
    g->resize(p);
    if (p > 0) sys.gaps(kin_, x.t, g, MatrixSink(&G_body_));
    G->noalias() = G_body_ * J_;
  }
}

const MatX& TreeAlpha::Space::metric() const {
  // Jᵀ diag(m I₃, J_B) J from the J the evaluation formed anyway: for the small trees NSGA runs
  // in, cheaper than the composite blocks of JointTree::project_blocks (which avoid forming J).
  if (metric_current_) return M_;
  MJ_.resize(J_.rows(), J_.cols());
  for (std::size_t b = 0; b < body_mass_.size(); ++b) {
    const auto row = 6 * static_cast<Eigen::Index>(b);
    MJ_.middleRows<3>(row) = body_mass_[b] * J_.middleRows<3>(row);
    MJ_.middleRows<3>(row + 3).noalias() = body_inertia_[b] * J_.middleRows<3>(row + 3);
  }
  M_.noalias() = J_.transpose().lazyProduct(MJ_);
  metric_current_ = true;
  return M_;
}

void TreeAlpha::Space::inverse_mass_weights(const MatX&, VecX& w) {
  // The gap's effective mass on the bodies as if they were free, G_b M⁻¹ G_bᵀ: the weight body
  // poses use for the same contact (the tree's own, Ḡ M̄⁻¹ Ḡᵀ, would cost a factorization of M̄
  // at every step for a number that only scales the active-set rule).
  BodyPoseSpace::block_weights(owner_.sys_, inv_inertia_, G_body_, w);
}

void TreeAlpha::Space::integrate(const State& base, const VecX& U, State& x) const {
  // The rotations' slots of q are unused; adding U there is harmless.
  x.tree_q = base.tree_q + U;
  const std::vector<int>& slots = owner_.tree_->rotation_slots();
  x.tree_R.resize(slots.size());
  for (std::size_t k = 0; k < slots.size(); ++k)
    x.tree_R[k] = base.tree_R[k] * so3::exp(U.segment<3>(slots[k]));
}

}  // namespace cs
