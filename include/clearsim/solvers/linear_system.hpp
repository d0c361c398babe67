// A square linear system A x = b assembled through a MatrixSink and factorised by dense LU
// (small systems) or sparse LU (large ones). The sparse path analyses the pattern once and
// reuses it while the pattern is unchanged; both paths report singular matrices instead of
// returning garbage.
#pragma once

#include <Eigen/LU>
#include <Eigen/SparseLU>
#include <vector>

#include "clearsim/assembly/matrix_sink.hpp"

namespace cs {

class LinearSystem {
 public:
  // Size n; sparse storage if `sparse`.
  void resize(int n, bool sparse);
  int size() const { return n_; }
  bool is_sparse() const { return sparse_; }

  // Clears the matrix and returns a sink that writes into it.
  MatrixSink begin();
  // Factorises the assembled matrix; false if it is (numerically) singular.
  bool factorize();
  // Solves in place with the last factorisation.
  void solve(VecX& rhs) const;
  // Smallest over largest pivot of the last dense factorisation (1 for sparse).
  double rcond() const { return rcond_; }

 private:
  int n_ = 0;
  bool sparse_ = false;
  MatX dense_;
  Eigen::PartialPivLU<MatX> lu_;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> sparse_matrix_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> slu_;
  std::vector<int> pattern_outer_, pattern_inner_;  // pattern of the last analysis
  bool analysed_ = false;
  double rcond_ = 1.0;
};

// Dense below this many unknowns, sparse above (DESIGN.md: dense LU below ~150 unknowns).
inline constexpr int kDenseLimit = 150;

}  // namespace cs
