#include "clearsim/solvers/sparse_mass_schur.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace cs {

namespace {
// The inverse of a symmetric positive definite 6 × 6 matrix by Cholesky, A = L Lᵀ,
// A⁻¹ = L⁻ᵀ L⁻¹; false if A is not positive definite. Plain loops: Eigen's LLT and inverse at this
// fixed size went through its general blocked triangular solves, about 4× the arithmetic.
bool spd_inverse(const Mat6& A, Mat6& inverse) {
  double L[6][6] = {}, W[6][6] = {};  // L and L⁻¹, lower triangular
  for (int j = 0; j < 6; ++j) {
    double d = A(j, j);
    for (int k = 0; k < j; ++k) d -= L[j][k] * L[j][k];
    if (!(d > 1e-14 * A(j, j)) || !std::isfinite(d)) return false;
    L[j][j] = std::sqrt(d);
    for (int i = j + 1; i < 6; ++i) {
      double s = A(i, j);
      for (int k = 0; k < j; ++k) s -= L[i][k] * L[j][k];
      L[i][j] = s / L[j][j];
    }
  }
  for (int j = 0; j < 6; ++j) {
    W[j][j] = 1.0 / L[j][j];
    for (int i = j + 1; i < 6; ++i) {
      double s = 0.0;
      for (int k = j; k < i; ++k) s -= L[i][k] * W[k][j];
      W[i][j] = s / L[i][i];
    }
  }
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = 0.0;
      for (int k = i; k < 6; ++k) s += W[k][i] * W[k][j];
      inverse(i, j) = s;
      inverse(j, i) = s;
    }
  }
  return true;
}
}  // namespace

SparseMassSchur::SparseMassSchur(const Model& model) {
  for (const Body& b : model.bodies) {
    Mat6 M = Mat6::Zero();
    M.topLeftCorner<3, 3>() = b.mass * Mat3::Identity();
    M.bottomRightCorner<3, 3>() = b.inertia_B;
    mass_.push_back(M);
    inverse_.push_back(M.inverse());
  }
}

void SparseMassSchur::set_body_terms(const std::vector<Mat6>& D) {
  const bool with_terms = D.size() == mass_.size();
  if (!with_terms && !has_terms_) return;  // M alone already
  for (std::size_t b = 0; b < mass_.size(); ++b)
    if (!with_terms || !spd_inverse(mass_[b] + D[b], inverse_[b])) inverse_[b] = mass_[b].inverse();
  has_terms_ = with_terms;
}

void SparseMassSchur::analyse(const std::vector<Eigen::Triplet<double>>& J, int k, int n) {
  k_ = k;
  n_ = n;
  blocks_.clear();
  triplet_block_.resize(J.size());
  triplet_key_.resize(J.size());
  std::map<std::pair<int, int>, int> block_of;  // (row, body) → row block
  for (std::size_t e = 0; e < J.size(); ++e) {
    const int row = J[e].row(), col = J[e].col(), body = col / 6;
    const auto [it, inserted] = block_of.try_emplace({row, body}, static_cast<int>(blocks_.size()));
    if (inserted) blocks_.push_back(RowBlock{row, body});
    triplet_block_[e] = 6 * it->second + col % 6;
    triplet_key_[e] = {row, col};
  }
  // Pairs of row blocks on one body, and S's lower-triangle pattern from them (the diagonal
  // always, so that a row touching no body still shows as a zero pivot).
  std::vector<std::vector<int>> on_body(mass_.size());
  for (std::size_t p = 0; p < blocks_.size(); ++p)
    on_body[static_cast<std::size_t>(blocks_[p].body)].push_back(static_cast<int>(p));
  std::vector<Eigen::Triplet<double>> pattern;
  for (int i = 0; i < k; ++i) pattern.emplace_back(i, i, 0.0);
  for (const auto& list : on_body)
    for (int p : list)
      for (int q : list)
        if (blocks_[p].row >= blocks_[q].row) pattern.emplace_back(blocks_[p].row, blocks_[q].row);
  S_.resize(k, k);
  S_.setFromTriplets(pattern.begin(), pattern.end());
  S_.makeCompressed();
  pairs_.clear();
  for (const auto& list : on_body) {
    for (int p : list) {
      for (int q : list) {
        const int r = blocks_[p].row, c = blocks_[q].row;
        if (r < c) continue;
        const int* begin = S_.innerIndexPtr() + S_.outerIndexPtr()[c];
        const int* end = S_.innerIndexPtr() + S_.outerIndexPtr()[c + 1];
        const int at = static_cast<int>(std::lower_bound(begin, end, r) - S_.innerIndexPtr());
        pairs_.push_back(Pair{p, q, at});
      }
    }
  }
  ldlt_.analyzePattern(S_);
  analysed_ = true;
}

bool SparseMassSchur::factor(const std::vector<Eigen::Triplet<double>>& J, int k, int n) {
  bool same = analysed_ && k == k_ && n == n_ && J.size() == triplet_key_.size();
  for (std::size_t e = 0; same && e < J.size(); ++e)
    same = J[e].row() == triplet_key_[e].first && J[e].col() == triplet_key_[e].second;
  if (!same) analyse(J, k, n);
  for (RowBlock& b : blocks_) b.j.setZero();
  for (std::size_t e = 0; e < J.size(); ++e) {
    const int slot = triplet_block_[e];
    blocks_[static_cast<std::size_t>(slot / 6)].j(slot % 6) += J[e].value();
  }
  for (RowBlock& b : blocks_) b.minv.noalias() = inverse_[static_cast<std::size_t>(b.body)] * b.j;
  double* values = S_.valuePtr();
  std::fill(values, values + S_.nonZeros(), 0.0);
  for (const Pair& pr : pairs_)
    values[pr.at] +=
        blocks_[static_cast<std::size_t>(pr.p)].j.dot(blocks_[static_cast<std::size_t>(pr.q)].minv);
  ldlt_.factorize(S_);
  if (ldlt_.info() != Eigen::Success) return false;
  if (k == 0) return true;
  // S is symmetric positive semi-definite: a (nearly) dependent row shows as a pivot at
  // round-off level, reported instead of solved with (as in MassSaddleSchur).
  const VecX& d = ldlt_.vectorD();
  const double largest = d.cwiseAbs().maxCoeff();
  return largest > 0.0 && std::isfinite(largest) &&
         d.minCoeff() > 1e-13 * largest * static_cast<double>(k);
}

bool SparseMassSchur::factor(const MatX& J) {
  // All six entries of a touched body, so that the pattern does not change when one of them
  // passes through zero.
  dense_triplets_.clear();
  for (Eigen::Index i = 0; i < J.rows(); ++i) {
    for (Eigen::Index c = 0; c + 6 <= J.cols(); c += 6) {
      const auto block = J.row(i).segment<6>(c);
      if (block.isZero(0.0)) continue;
      for (int l = 0; l < 6; ++l)
        dense_triplets_.emplace_back(static_cast<int>(i), static_cast<int>(c) + l, block(l));
    }
  }
  return factor(dense_triplets_, static_cast<int>(J.rows()), static_cast<int>(J.cols()));
}

void SparseMassSchur::solve(VecX& rhs) {
  auto a = rhs.head(n_);
  auto b = rhs.tail(k_);
  t_.resize(n_);
  for (std::size_t body = 0; body < inverse_.size(); ++body) {
    const Eigen::Index c = 6 * static_cast<Eigen::Index>(body);
    t_.segment<6>(c).noalias() = inverse_[body] * a.segment<6>(c);
  }
  z_ = -b;  // z = J M⁻¹ a − b
  for (const RowBlock& rb : blocks_) z_(rb.row) += rb.j.dot(t_.segment<6>(6 * rb.body));
  // y = S⁻¹ z with S = Pᵀ L D Lᵀ P, in place on zp_ (no temporaries in the step).
  const auto& perm = ldlt_.permutationP().indices();
  zp_.resize(k_);
  for (int i = 0; i < k_; ++i) zp_(perm(i)) = z_(i);
  ldlt_.matrixL().solveInPlace(zp_);
  zp_.array() /= ldlt_.vectorD().array();
  ldlt_.matrixU().solveInPlace(zp_);
  for (int i = 0; i < k_; ++i) b(i) = zp_(perm(i));
  a = t_;  // x = M⁻¹ a − M⁻¹ Jᵀ y
  for (const RowBlock& rb : blocks_) a.segment<6>(6 * rb.body) -= b(rb.row) * rb.minv;
}

}  // namespace cs
