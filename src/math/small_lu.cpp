#include "clearsim/math/small_lu.hpp"

#include <cmath>
#include <utility>

namespace cs {

bool SmallLU::compute(const MatX& A) {
  const Eigen::Index n = A.rows();
  lu_ = A;
  perm_.resize(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k) {
    // The largest entry of column k at or below the diagonal is the pivot (partial pivoting).
    Eigen::Index p = k;
    lu_.col(k).tail(n - k).cwiseAbs().maxCoeff(&p);
    p += k;
    perm_[static_cast<std::size_t>(k)] = static_cast<int>(p);
    if (lu_(p, k) == 0.0) return false;
    if (p != k) lu_.row(k).swap(lu_.row(p));
    const Eigen::Index rest = n - k - 1;
    // Column k below the diagonal, by address: at k = n − 1 it is empty and lu_(k + 1, k) would
    // index past the last row (Eigen's bounds assertion stops the sanitizer build there).
    double* __restrict l = lu_.data() + k * n + k + 1;
    const double inverse = 1.0 / lu_(k, k);
    for (Eigen::Index i = 0; i < rest; ++i) l[i] *= inverse;
    // The rank-one update of the trailing block, column by column (contiguous in column-major),
    // as plain loops: at these lengths an Eigen expression's set-up outweighs its arithmetic.
    for (Eigen::Index j = k + 1; j < n; ++j) {
      double* __restrict c = &lu_(k + 1, j);
      const double f = lu_(k, j);
      for (Eigen::Index i = 0; i < rest; ++i) c[i] -= f * l[i];
    }
  }
  return true;
}

void SmallLU::solve_column(double* x) const {
  const Eigen::Index n = lu_.rows();
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto p = static_cast<Eigen::Index>(perm_[static_cast<std::size_t>(k)]);
    if (p != k) std::swap(x[k], x[p]);
  }
  for (Eigen::Index k = 0; k < n; ++k) {  // L y = P b, L unit lower
    const double* l = &lu_(0, k);
    const double xk = x[k];
    for (Eigen::Index i = k + 1; i < n; ++i) x[i] -= xk * l[i];
  }
  for (Eigen::Index k = n - 1; k >= 0; --k) {  // U x = y
    const double* u = &lu_(0, k);
    const double xk = x[k] / u[k];
    x[k] = xk;
    for (Eigen::Index i = 0; i < k; ++i) x[i] -= xk * u[i];
  }
}

void SmallLU::solve_in_place(MatX& B) const {
  for (Eigen::Index c = 0; c < B.cols(); ++c) solve_column(&B(0, c));
}

void SmallLU::solve_in_place(VecX& b) const { solve_column(b.data()); }

void SmallLU::solve_transposed_in_place(VecX& b) const {
  // Aᵀ = Uᵀ Lᵀ P: Uᵀ y = b (lower), Lᵀ z = y (unit upper), x = Pᵀ z.
  const Eigen::Index n = lu_.rows();
  for (Eigen::Index k = 0; k < n; ++k)
    b(k) = (b(k) - lu_.col(k).head(k).dot(b.head(k))) / lu_(k, k);
  for (Eigen::Index k = n - 1; k >= 0; --k)
    b(k) -= lu_.col(k).tail(n - k - 1).dot(b.tail(n - k - 1));
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    const auto p = static_cast<Eigen::Index>(perm_[static_cast<std::size_t>(k)]);
    if (p != k) std::swap(b(k), b(p));
  }
}

}  // namespace cs
