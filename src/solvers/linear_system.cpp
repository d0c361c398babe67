#include "clearsim/solvers/linear_system.hpp"

#include <klu.h>

#include <algorithm>
#include <cmath>

namespace cs {

namespace {
// Dense systems up to this size are solved by plain substitution (see solve()).
constexpr int kSmallDense = 16;
}  // namespace

// Why KLU and not Eigen's SparseLU: on the 1000-link chain (9 000 unknowns) SparseLU's solve
// alone took 35 % of a modified-Newton step (supernodal triangular solves with a temporary per
// call), and every factorisation redid its numeric pivoting. KLU (Davis & Palamadai Natarajan,
// built for the repeated factorisations of circuit simulation) refactors with the pivot order of
// its last factorisation and solves in place.
struct LinearSystem::Klu {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  double fresh_rcond = 0.0;  // rcond of the last full (pivoting) factorisation
  Klu() { klu_defaults(&common); }
  ~Klu() {
    free_numeric();
    if (symbolic) klu_free_symbolic(&symbolic, &common);
  }
  Klu(const Klu&) = delete;
  Klu& operator=(const Klu&) = delete;
  void free_numeric() {
    if (numeric) klu_free_numeric(&numeric, &common);
  }
};

LinearSystem::LinearSystem() = default;
LinearSystem::~LinearSystem() = default;
LinearSystem::LinearSystem(LinearSystem&&) noexcept = default;
LinearSystem& LinearSystem::operator=(LinearSystem&&) noexcept = default;

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

MatX LinearSystem::assembled() const {
  if (!sparse_) return dense_;
  Eigen::SparseMatrix<double> A(n_, n_);
  A.setFromTriplets(triplets_.begin(), triplets_.end());
  return MatX(A);
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
  int* outer = sparse_matrix_.outerIndexPtr();
  int* inner = sparse_matrix_.innerIndexPtr();
  double* values = sparse_matrix_.valuePtr();
  const auto nnz = static_cast<std::size_t>(sparse_matrix_.nonZeros());
  if (!std::all_of(values, values + nnz, [](double v) { return std::isfinite(v); })) return false;
  if (!klu_) klu_ = std::make_unique<Klu>();
  Klu& k = *klu_;
  const bool same_pattern = analysed_ && pattern_inner_.size() == nnz &&
                            std::equal(pattern_outer_.begin(), pattern_outer_.end(), outer) &&
                            std::equal(pattern_inner_.begin(), pattern_inner_.end(), inner);
  if (!same_pattern) {
    k.free_numeric();
    if (k.symbolic) klu_free_symbolic(&k.symbolic, &k.common);
    k.symbolic = klu_analyze(n_, outer, inner, &k.common);
    if (!k.symbolic) return false;
    pattern_outer_.assign(outer, outer + n_ + 1);
    pattern_inner_.assign(inner, inner + nnz);
    analysed_ = true;
  }
  // Refactor with the last pivot order; a fresh factorisation (with pivoting) when there is none
  // or when the old order has lost four orders of magnitude of pivot ratio on the new values.
  if (k.numeric && klu_refactor(outer, inner, values, k.symbolic, k.numeric, &k.common) &&
      klu_rcond(k.symbolic, k.numeric, &k.common) && k.common.rcond > 1e-4 * k.fresh_rcond) {
    rcond_ = k.common.rcond;
    return std::isfinite(rcond_) && rcond_ > 1e-18;
  }
  k.free_numeric();
  k.numeric = klu_factor(outer, inner, values, k.symbolic, &k.common);
  if (!k.numeric || !klu_rcond(k.symbolic, k.numeric, &k.common)) return false;
  rcond_ = k.fresh_rcond = k.common.rcond;
  return std::isfinite(rcond_) && rcond_ > 1e-18;
}

void LinearSystem::solve(VecX& rhs) const {
  if (sparse_) {
    klu_solve(klu_->symbolic, klu_->numeric, n_, 1, rhs.data(), &klu_->common);
  } else if (n_ <= kSmallDense) {
    // Small systems (the NSGA corrections in joint coordinates: 5 × 5 on the Flores
    // slider–crank) by plain substitution in place: Eigen's solve() allocates its result and runs
    // blocked triangular kernels, which took a tenth of that run's step.
    rhs = lu_.permutationP() * rhs;
    const MatX& LU = lu_.matrixLU();
    for (int i = 1; i < n_; ++i)
      for (int j = 0; j < i; ++j) rhs(i) -= LU(i, j) * rhs(j);
    for (int i = n_ - 1; i >= 0; --i) {
      for (int j = i + 1; j < n_; ++j) rhs(i) -= LU(i, j) * rhs(j);
      rhs(i) /= LU(i, i);
    }
  } else {
    rhs = lu_.solve(rhs);
  }
}

}  // namespace cs
