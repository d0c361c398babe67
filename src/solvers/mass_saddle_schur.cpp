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

bool MassSaddleSchur::factor_rows() {
  const Eigen::Index k = J_.rows(), n = J_.cols();
  MinvJt_.resize(n, k);
  for (std::size_t b = 0; b < inv_mass_.size(); ++b) {
    const Eigen::Index c = 6 * static_cast<Eigen::Index>(b);
    MinvJt_.middleRows<3>(c) = inv_mass_[b] * J_.middleCols<3>(c).transpose();
    MinvJt_.middleRows<3>(c + 3).noalias() = inv_inertia_[b] * J_.middleCols<3>(c + 3).transpose();
  }
  if (k == 0) return true;
  S_.resize(k, k);
  S_.noalias() = J_ * MinvJt_;
  // S is symmetric positive semi-definite; LDLT pivots on the diagonal, so (nearly) dependent
  // rows of J show as tiny trailing pivots, which are reported rather than solved. (LLT would be
  // about 0.5 µs cheaper here but changes the round-off, and with it the chaotic contact
  // histories the examples document.)
  ldlt_.compute(S_);
  if (ldlt_.info() != Eigen::Success) return false;
  const VecX d = ldlt_.vectorD().cwiseAbs();
  const double largest = d.maxCoeff();
  return largest > 0.0 && std::isfinite(largest) &&
         d.minCoeff() > 1e-13 * largest * static_cast<double>(k);
}

void MassSaddleSchur::solve(Eigen::Ref<VecX> a, Eigen::Ref<VecX> b) {
  t_.resize(a.size());
  apply_inverse_mass(a, t_);  // M⁻¹ a
  if (J_.rows() == 0) {
    a = t_;
    return;
  }
  y_.noalias() = J_ * t_;
  y_ -= b;
  b = ldlt_.solve(y_);  // y = S⁻¹ (J M⁻¹ a − b)
  a = t_;
  a.noalias() -= MinvJt_ * b;  // x = M⁻¹ a − M⁻¹ Jᵀ y
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
    } else {
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
