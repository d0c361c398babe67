#include "clearsim/solvers/linear_system.hpp"

#include <cmath>

namespace cs {

void LinearSystem::resize(int n, bool sparse) {
  n_ = n;
  sparse_ = sparse;
  analysed_ = false;
  if (sparse_) {
    dense_.resize(0, 0);
    sparse_matrix_.resize(n, n);
  } else {
    dense_.setZero(n, n);
  }
}

MatrixSink LinearSystem::begin() {
  if (sparse_) {
    triplets_.clear();
    return MatrixSink(&triplets_);
  }
  dense_.setZero();
  return MatrixSink(&dense_);
}

bool LinearSystem::factorize() {
  if (!sparse_) {
    if (!dense_.allFinite()) return false;
    lu_.compute(dense_);
    // PartialPivLU never fails outright. Judge singularity by the pivots of U: a pivot at
    // round-off level relative to the largest one (1e-18; badly scaled but regular systems,
    // e.g. tiny inertias next to unit masses, stay far above it). Cheaper than rcond(), which
    // costs several extra triangular solves.
    const auto d = lu_.matrixLU().diagonal().cwiseAbs();
    const double dmax = d.maxCoeff(), dmin = d.minCoeff();
    rcond_ = dmax > 0.0 ? dmin / dmax : 0.0;
    return std::isfinite(dmax) && rcond_ > 1e-18;
  }
  sparse_matrix_.setFromTriplets(triplets_.begin(), triplets_.end());
  sparse_matrix_.makeCompressed();
  const int* outer = sparse_matrix_.outerIndexPtr();
  const int* inner = sparse_matrix_.innerIndexPtr();
  const auto nnz = static_cast<std::size_t>(sparse_matrix_.nonZeros());
  const bool same_pattern = analysed_ && pattern_inner_.size() == nnz &&
                            std::equal(pattern_outer_.begin(), pattern_outer_.end(), outer) &&
                            std::equal(pattern_inner_.begin(), pattern_inner_.end(), inner);
  if (!same_pattern) {
    slu_.analyzePattern(sparse_matrix_);
    pattern_outer_.assign(outer, outer + n_ + 1);
    pattern_inner_.assign(inner, inner + nnz);
    analysed_ = true;
  }
  slu_.factorize(sparse_matrix_);
  rcond_ = 1.0;
  return slu_.info() == Eigen::Success;
}

void LinearSystem::solve(VecX& rhs) const {
  if (sparse_) {
    rhs = slu_.solve(rhs);
  } else {
    rhs = lu_.solve(rhs);
  }
}

}  // namespace cs
