// The iteration matrix of joint coordinates, A = Jᵀ D J (D: 6 × 6 blocks per body, e.g. the mass
// and the body-diagonal force tangents), solved without forming it, in O(bodies) for any tree, by
// the articulated-body recursion (Featherstone's ABA with the velocity terms left out):
//   backward (children first)  Iᴬ_l = I_l + Σ_children (Iᴬ_c − U_c D_c⁻¹ W_c),
//                              U = Iᴬ S, W = Sᵀ Iᴬ, D = Sᵀ Iᴬ S (1 × 1 or 3 × 3 per joint);
//   solve, backward            u_l = b_l − S_lᵀ p_l,  p_parent += p_l + U_l D_l⁻¹ u_l;
//   solve, forward             x_l = D_l⁻¹(u_l − W_l V_parent),  V_l = V_parent + S_l x_l.
// Spatial quantities are about the world origin in world axes (JointTree::spatial_links), so a
// child's are added to its parent's as they are. D need not be symmetric (damping and stiffness
// tangents): U and W are kept apart.
//
// With rows B (closing joints, drivers; m × coordinates) the saddle [A Bᵀ; B 0] is solved through
// the Schur complement C = B A⁻¹ Bᵀ, one O(bodies) solve per row: [x; y] with
//   C y = B A⁻¹ b₁ − b₂,  x = A⁻¹ b₁ − (A⁻¹ Bᵀ) y.
#pragma once

#include <Eigen/LU>
#include <vector>

#include "clearsim/math/types.hpp"
#include "clearsim/solvers/joint_tree.hpp"

namespace cs {

class ArticulatedSolver {
 public:
  // Factorizes A = Jᵀ D J at `kin` (the tree's last kinematics()). False if a joint's D is
  // singular (a massless leaf, a joint whose subtree has no inertia along it): singular_body()
  // then names the body it carries.
  bool factor(const JointTree& tree, const std::vector<BodyKinematics>& kin,
              const std::vector<Mat6>& D);
  // The body whose joint made the last factor() fail, or −1.
  int singular_body() const { return singular_body_; }
  // x = A⁻¹ b (b and x may not alias).
  void solve(const Eigen::Ref<const VecX>& b, VecX& x) const;

  // Rows B (m × coordinates) for the saddle [A Bᵀ; B 0], at the last factor(): m solves. False
  // if B A⁻¹ Bᵀ is singular (dependent rows).
  bool factor_rows(const MatX& B);
  // The saddle's solution [x; y] of [b₁; b₂] (sizes coordinates and m), in place.
  void solve_saddle(VecX& rhs) const;

 private:
  using Mat63 = Eigen::Matrix<double, 6, 3>;
  using Mat36 = Eigen::Matrix<double, 3, 6>;
  std::vector<JointTree::SpatialLink> links_;  // I_O becomes Iᴬ in factor()
  std::vector<Mat63> U_;                       // Iᴬ S, then U D⁻¹ (what the solve uses)
  std::vector<Mat36> W_;                       // Sᵀ Iᴬ
  std::vector<Mat3> Dinv_;                     // D⁻¹ (top-left ncols × ncols)
  int n_ = 0, singular_body_ = -1;
  // Rows: B, A⁻¹ Bᵀ and the factorized Schur complement.
  MatX B_, AinvBt_;
  Eigen::PartialPivLU<MatX> schur_;
  mutable std::vector<Vec6> p_, V_;  // solve(): per link, bias wrench and solution's motion
  mutable VecX x0_, y_;
};

}  // namespace cs
