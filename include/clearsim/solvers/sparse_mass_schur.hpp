// Sparse solver for the mass-weighted saddle-point systems of the mass iteration on large models,
//   [ M  Jᵀ ] [x]   [a]
//   [ J  0  ] [y] = [b],
// with M block-diagonal and constant (diag(m I₃, J_B) per body, the body-frame layout) and J the
// sparse constraint rows (k × n): through the Schur complement S = J M⁻¹ Jᵀ,
//   y = S⁻¹ (J M⁻¹ a − b),   x = M⁻¹ (a − Jᵀ y).
// S couples two rows only where they share a body, so for a chain it is block-tridiagonal and its
// sparse LDLᵀ (Eigen's SimplicialLDLT, AMD ordering, pattern analysed once) costs O(k).
//
// J is held as row blocks: the 6 entries of one row on one body. S is assembled from them body
// by body, S(i, j) += J_i,b M_b⁻¹ J_j,bᵀ, into the fixed pattern found when the rows' pattern
// last changed, and the solves are short dense products per row block. Eigen's general sparse
// products did the same work with an allocation and a pattern merge per product: they were two
// thirds of a factorization on the 90-link chain. The dense counterpart for small models is
// MassSaddleSchur.
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "clearsim/math/types.hpp"
#include "clearsim/model/model.hpp"

namespace cs {

class SparseMassSchur {
 public:
  explicit SparseMassSchur(const Model& model);

  // Replaces M_b by M_b + D_b in the factorizations that follow (D_b symmetric, one 6 × 6 block
  // per body; empty: M alone). A block whose sum is not positive definite keeps M_b.
  void set_body_terms(const std::vector<Mat6>& D);

  // Factorizes for the rows J (k × n) given as triplets (duplicates add up). False if S is
  // numerically singular, i.e. the rows are (nearly) linearly dependent.
  bool factor(const std::vector<Eigen::Triplet<double>>& J, int k, int n);
  // The same for dense rows: each row's entries on a body it touches (any of the six nonzero).
  bool factor(const MatX& J);
  // In place with the last factorization: rhs = [a (n); b (k)] on entry, [x; y] on return.
  void solve(VecX& rhs);

 private:
  // The pattern of J's triplets changed (or was never seen): row blocks, S's pattern, analysis.
  void analyse(const std::vector<Eigen::Triplet<double>>& J, int k, int n);

  struct RowBlock {
    int row = 0, body = 0;
    Vec6 j = Vec6::Zero();     // J_row,body
    Vec6 minv = Vec6::Zero();  // (M_b + D_b)⁻¹ J_row,bᵀ
  };
  std::vector<Mat6> mass_, inverse_;  // M_b, and (M_b + D_b)⁻¹ of the last set_body_terms
  std::vector<RowBlock> blocks_;
  std::vector<int> triplet_block_;  // for each triplet of J: its row block and slot (6·block + l)
  std::vector<std::pair<int, int>> triplet_key_;  // (row, col) of each triplet at the analysis
  // For every pair of row blocks on one body (p, q) with row_p ≥ row_q: the block indices and the
  // position of S(row_p, row_q) in S's lower-triangle values.
  struct Pair {
    int p, q, at;
  };
  std::vector<Pair> pairs_;
  int k_ = 0, n_ = 0;
  bool analysed_ = false;
  bool has_terms_ = false;         // inverse_ holds M_b + D_b for some body terms
  Eigen::SparseMatrix<double> S_;  // lower triangle of S, k × k
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt_;
  VecX t_, z_, zp_;
  std::vector<Eigen::Triplet<double>> dense_triplets_;
};

}  // namespace cs
