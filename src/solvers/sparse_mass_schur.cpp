#include "clearsim/solvers/sparse_mass_schur.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace cs {

SparseMassSchur::SparseMassSchur(const Model& model) {
  for (const Body& b : model.bodies) {
    inv_mass_.push_back(1.0 / b.mass);
    inv_inertia_.push_back(b.inertia_B.inverse());
  }
}

void SparseMassSchur::apply_inverse_mass(int body, const Vec6& x, Vec6& y) const {
  const auto b = static_cast<std::size_t>(body);
  y.head<3>() = inv_mass_[b] * x.head<3>();
  y.tail<3>() = inv_inertia_[b] * x.tail<3>();
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
  std::vector<std::vector<int>> on_body(inv_mass_.size());
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
  for (RowBlock& b : blocks_) apply_inverse_mass(b.body, b.j, b.minv);
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
  for (std::size_t body = 0; body < inv_mass_.size(); ++body) {
    const Eigen::Index c = 6 * static_cast<Eigen::Index>(body);
    t_.segment<3>(c) = inv_mass_[body] * a.segment<3>(c);
    t_.segment<3>(c + 3) = inv_inertia_[body] * a.segment<3>(c + 3);
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
