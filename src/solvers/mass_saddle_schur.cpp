#include "clearsim/solvers/mass_saddle_schur.hpp"

#include <algorithm>
#include <cmath>

namespace cs {

MassSaddleSchur::MassSaddleSchur(const Model& model) {
  for (const Body& b : model.bodies) {
    inv_mass_.push_back(1.0 / b.mass);
    inv_inertia_.push_back(b.inertia_B.inverse());
  }
}

void MassSaddleSchur::apply_inverse_mass(const Eigen::Ref<const VecX>& x,
                                         Eigen::Ref<VecX> y) const {
  for (std::size_t b = 0; b < inv_mass_.size(); ++b) {
    const Eigen::Index c = 6 * static_cast<Eigen::Index>(b);
    y.segment<3>(c) = inv_mass_[b] * x.segment<3>(c);
    y.segment<3>(c + 3) = inv_inertia_[b] * x.segment<3>(c + 3);
  }
}

bool MassSaddleSchur::factor(const MatX& J) {
  J_ = J;
  return factor_rows();
}

// The kernels below are plain loops over column-major storage: axpy's where the compiler can
// vectorize them, short scalar inner products where a vectorized loop would be mostly prologue
// and epilogue. These systems have k ≲ 30 rows and n a few dozen columns; at that size the
// packing, alignment peeling and pivot searches of Eigen's general gemm, gemv and LDLT cost
// several times the arithmetic (seed 000, callgrind: a factorization 29 k → 10 k instructions,
// a solve 4.5 k → 3.5 k).
bool MassSaddleSchur::factor_rows() {
  const Eigen::Index k = J_.rows(), n = J_.cols();
  MinvJt_.resize(n, k);
  for (std::size_t b = 0; b < inv_mass_.size(); ++b) {
    const Eigen::Index c = 6 * static_cast<Eigen::Index>(b);
    MinvJt_.middleRows<3>(c) = inv_mass_[b] * J_.middleCols<3>(c).transpose();
    MinvJt_.middleRows<3>(c + 3).noalias() = inv_inertia_[b] * J_.middleCols<3>(c + 3).transpose();
  }
  if (k == 0) return true;
  // S = J M⁻¹ Jᵀ by columns, upper triangle only: S(0:j, j) = Σ_l J(0:j, l) (M⁻¹Jᵀ)(l, j),
  // skipping the zeros of M⁻¹Jᵀ (a row of J touches at most two bodies). Column j of the
  // column-major L_ is then, by symmetry, row j of the lower triangle, S(j, 0:j), which the
  // row-oriented factorization below reads with unit stride.
  L_.resize(k, k);
  d_.resize(k);
  w_.resize(k);
  const double* __restrict J = J_.data();
  double* __restrict L = L_.data();
  for (Eigen::Index j = 0; j < k; ++j) {
    double* __restrict s = L + j * k;
    for (Eigen::Index i = 0; i <= j; ++i) s[i] = 0.0;
    const double* __restrict mj = MinvJt_.data() + j * n;
    for (Eigen::Index l = 0; l < n; ++l) {
      const double f = mj[l];
      if (f == 0.0) continue;
      const double* __restrict jl = J + l * k;
      for (Eigen::Index i = 0; i <= j; ++i) s[i] += f * jl[i];
    }
  }
  // S = L D Lᵀ in place, row by row ("up-looking"), unpivoted: with u_j = L_ij d_j,
  //   u_j = S_ij − Σ_{l<j} u_l L_jl,   L_ij = u_j / d_j,   d_i = S_ii − Σ_{j<i} u_j L_ij.
  // Row i of L is stored at L_.data() + i k. The inner products are short (k ≲ 30) and scalar;
  // at this size that beats the vectorized right-looking update, whose loops are mostly
  // prologue and epilogue. S is symmetric positive semi-definite, so no pivoting is needed for
  // stability; a (nearly) dependent row of J shows as a pivot at round-off level, which the test
  // below reports instead of solving with it.
  double* __restrict u = w_.data();
  for (Eigen::Index i = 0; i < k; ++i) {
    double* __restrict li = L + i * k;
    double di = li[i];
    for (Eigen::Index j = 0; j < i; ++j) {
      const double* __restrict lj = L + j * k;
      double uj = li[j];
      for (Eigen::Index l = 0; l < j; ++l) uj -= u[l] * lj[l];
      u[j] = uj;
      li[j] = uj / d_(j);
      di -= uj * li[j];
    }
    d_(i) = di;
  }
  const double largest = d_.cwiseAbs().maxCoeff();
  return largest > 0.0 && std::isfinite(largest) &&
         d_.minCoeff() > 1e-13 * largest * static_cast<double>(k);
}

void MassSaddleSchur::solve(Eigen::Ref<VecX> a, Eigen::Ref<VecX> b) {
  const Eigen::Index k = J_.rows(), n = J_.cols();
  t_.resize(n);
  apply_inverse_mass(a, t_);  // M⁻¹ a
  if (k == 0) {
    a = t_;
    return;
  }
  // y = S⁻¹ (J M⁻¹ a − b): z = J M⁻¹ a − b, then L u = z, D v = u, Lᵀ y = v (rows of L at
  // L_.data() + i k, see factor_rows).
  double* __restrict y = b.data();
  const double* __restrict t = t_.data();
  const double* __restrict J = J_.data();
  const double* __restrict L = L_.data();
  for (Eigen::Index i = 0; i < k; ++i) y[i] = -y[i];
  for (Eigen::Index l = 0; l < n; ++l) {
    const double f = t[l];
    const double* __restrict jl = J + l * k;
    for (Eigen::Index i = 0; i < k; ++i) y[i] += f * jl[i];
  }
  for (Eigen::Index i = 1; i < k; ++i) {
    const double* __restrict li = L + i * k;
    double s = y[i];
    for (Eigen::Index l = 0; l < i; ++l) s -= li[l] * y[l];
    y[i] = s;
  }
  for (Eigen::Index i = 0; i < k; ++i) y[i] /= d_(i);
  for (Eigen::Index i = k - 1; i > 0; --i) {
    const double f = y[i];
    const double* __restrict li = L + i * k;
    for (Eigen::Index l = 0; l < i; ++l) y[l] -= f * li[l];
  }
  // x = M⁻¹ a − M⁻¹ Jᵀ y
  double* __restrict x = a.data();
  for (Eigen::Index l = 0; l < n; ++l) x[l] = t[l];
  for (Eigen::Index i = 0; i < k; ++i) {
    const double f = y[i];
    const double* __restrict mi = MinvJt_.data() + i * n;
    for (Eigen::Index l = 0; l < n; ++l) x[l] -= f * mi[l];
  }
}

bool MassSaddleSchur::factor_gaps(const MatX& B, const MatX& G, const std::vector<char>& active) {
  m_ = static_cast<int>(B.rows());
  const Eigen::Index n = B.cols(), p = G.rows();
  const Eigen::Index k = m_ + std::count(active.begin(), active.end(), 1);
  J_.resize(k, n);
  J_.topRows(m_) = B;
  for (Eigen::Index j = 0, r = m_; j < p; ++j)
    if (active[j]) J_.row(r++) = G.row(j);
  G_ = G;
  active_ = active;
  return factor_rows();
}

void MassSaddleSchur::solve_gaps(VecX& rhs) {
  const Eigen::Index n = J_.cols(), k = J_.rows(), p = G_.rows();
  a_ = rhs.head(n);
  b_.resize(k);
  b_.head(m_) = rhs.segment(n, m_);
  for (Eigen::Index j = 0, r = m_; j < p; ++j) {
    if (active_[j]) {
      b_(r++) = rhs(n + m_ + j);
    } else if (rhs(n + m_ + j) != 0.0) {
      a_.noalias() += G_.row(j).transpose() * rhs(n + m_ + j);
    }
  }
  solve(a_, b_);
  rhs.head(n) = a_;
  rhs.segment(n, m_) = b_.head(m_);
  for (Eigen::Index j = 0, r = m_; j < p; ++j)
    if (active_[j]) rhs(n + m_ + j) = -b_(r++);
}

}  // namespace cs
