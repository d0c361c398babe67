// Dense solver for the mass-weighted saddle-point systems of the NSGA corrections,
//   [ M  Jᵀ ] [x]   [a]
//   [ J  0  ] [y] = [b],
// when M is block-diagonal and constant (one diag(m I₃, J_B) block per body, our body-frame
// layout): with the Schur complement S = J M⁻¹ Jᵀ (symmetric, k × k),
//   y = S⁻¹ (J M⁻¹ a − b),   x = M⁻¹ (a − Jᵀ y).
// M⁻¹ is applied block by block, so one factorization costs O(k² n + k³) instead of the
// O((n + k)³) of an LU of the whole matrix: for the small models of the clearance examples
// that is what lets the corrections refactor at every step (exact Jacobians, fewer iterations)
// instead of iterating on a stale LU.
#pragma once

#include <vector>

#include "clearsim/math/types.hpp"
#include "clearsim/model/model.hpp"

namespace cs {

class MassSaddleSchur {
 public:
  explicit MassSaddleSchur(const Model& model);

  // Factorizes for the rows J (k × n, k may be 0). False if S is numerically singular, i.e. the
  // rows of J are (nearly) linearly dependent.
  bool factor(const MatX& J);
  // Solves with the last factorization; a (size n) and b (size k) are overwritten by x and y.
  void solve(Eigen::Ref<VecX> a, Eigen::Ref<VecX> b);

  // y ← M⁻¹ x.
  void apply_inverse_mass(const Eigen::Ref<const VecX>& x, Eigen::Ref<VecX> y) const;

  // The layout of the NSGA systems: unknowns [x (n); μ (m); ν (p)] and matrix
  //   [ M  Bᵀ  −Gᵀ ]
  //   [ B  0   0   ]
  //   [ G_A 0  0   ]   (gap rows j with active[j]; the others are identity rows ν_j = rhs_j),
  // that is J = [B; G_A] and y = [μ; −ν_A] above, the inactive columns −G_jᵀ ν_j moving to the
  // right-hand side. factor_gaps keeps copies of G and of the active set for solve_gaps.
  bool factor_gaps(const MatX& B, const MatX& G, const std::vector<char>& active);
  // In place: rhs = [r_x; r_μ; r_ν] on entry, [x; μ; ν] on return.
  void solve_gaps(VecX& rhs);

 private:
  bool factor_rows();  // from J_

  std::vector<double> inv_mass_;
  std::vector<Mat3> inv_inertia_;
  MatX J_, MinvJt_, G_;  // J (k × n), M⁻¹Jᵀ (n × k), and G as factor_gaps received it
  MatX L_;               // S = L D Lᵀ: unit lower-triangular L below the diagonal of L_
  VecX d_, w_, t_, a_, b_;
  std::vector<char> active_;
  int m_ = 0;
};

}  // namespace cs
