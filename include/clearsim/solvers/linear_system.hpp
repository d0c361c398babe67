// A square linear system A x = b assembled through a MatrixSink and factorised by dense LU
// (small systems) or sparse LU (large ones: SuiteSparse's KLU). The sparse path analyses the
// pattern once and reuses it while the pattern is unchanged, and refactors with the pivot order
// of the last full factorisation while that stays well conditioned; both paths report singular
// matrices instead of returning garbage.
#pragma once

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <memory>
#include <vector>

#include "clearsim/assembly/matrix_sink.hpp"

namespace cs {

class LinearSystem {
 public:
  LinearSystem();
  ~LinearSystem();
  LinearSystem(LinearSystem&&) noexcept;
  LinearSystem& operator=(LinearSystem&&) noexcept;

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
  // The matrix last assembled, as a dense matrix (either path; for tests of tangents).
  MatX assembled() const;
  // Smallest over largest pivot |U_kk| of the last factorisation.
  double rcond() const { return rcond_; }

 private:
  int n_ = 0;
  bool sparse_ = false;
  MatX dense_;
  Eigen::PartialPivLU<MatX> lu_;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> sparse_matrix_;
  struct Klu;                 // KLU's symbolic and numeric objects (linear_system.cpp)
  std::unique_ptr<Klu> klu_;  // null until the first sparse factorisation
  std::vector<int> pattern_outer_, pattern_inner_;  // pattern of the last analysis
  bool analysed_ = false;
  double rcond_ = 1.0;
};

// Dense below this many unknowns, sparse above (DESIGN.md: dense LU below ~150 unknowns).
inline constexpr int kDenseLimit = 150;

}  // namespace cs
