// LU with partial pivoting for small dense matrices (up to a few dozen rows), unblocked.
//
// Why not Eigen::PartialPivLU: for a dynamic size above 16 Eigen takes its blocked algorithm
// (panels of 8, triangular solves and GEMM calls between them), tuned for large matrices. On a
// step's 35 × 35 matrix R_X (the four-bar in body poses) that machinery cost 71 k instructions
// per factorization (callgrind), a sixth of a Kalman filter's step, where the plain
// right-looking loop below takes 55 k. The arithmetic is the textbook one (Golub & Van Loan,
// Alg. 3.4.1); tests/unit/math/small_lu_test.cpp checks it against Eigen's.
#pragma once

#include <vector>

#include "clearsim/math/types.hpp"

namespace cs {

class SmallLU {
 public:
  // Factorizes P A = L U in place of a copy of A (square). Returns false if a pivot is exactly
  // zero (A singular); solve() is then undefined.
  bool compute(const MatX& A);
  // A X = B for every column of B, in place; A x = b.
  void solve_in_place(MatX& B) const;
  void solve_in_place(VecX& b) const;
  // Aᵀ x = b, in place.
  void solve_transposed_in_place(VecX& b) const;
  Eigen::Index size() const { return lu_.rows(); }

 private:
  void solve_column(double* x) const;  // A x = b in place of b
  MatX lu_;                            // L (unit lower, below the diagonal) and U
  std::vector<int> perm_;              // row i of P A is row perm_[i] of A
};

}  // namespace cs
