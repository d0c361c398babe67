// Destination for assembled matrix entries: a dense matrix (small systems), a triplet list that
// becomes a sparse matrix (large systems), or the body-diagonal 6 × 6 blocks alone (the mass
// iteration's stiffness terms), with a block offset and a scale factor so one evaluation can be
// written straight into a block of an iteration matrix.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "clearsim/math/types.hpp"

namespace cs {

class MatrixSink {
 public:
  MatrixSink() = default;
  explicit MatrixSink(MatX* dense, int row0 = 0, int col0 = 0, double scale = 1.0)
      : dense_(dense), row0_(row0), col0_(col0), scale_(scale) {}
  explicit MatrixSink(std::vector<Eigen::Triplet<double>>* triplets, int row0 = 0, int col0 = 0,
                      double scale = 1.0)
      : triplets_(triplets), row0_(row0), col0_(col0), scale_(scale) {}

  // Keeps only the entries whose row and column belong to the same body (6 columns per body)
  // and adds them to that body's block; the others are dropped.
  explicit MatrixSink(std::vector<Mat6>* body_blocks, double scale = 1.0)
      : body_blocks_(body_blocks), scale_(scale) {}

  bool active() const {
    return dense_ != nullptr || triplets_ != nullptr || body_blocks_ != nullptr;
  }

  void add(int r, int c, double value) {
    // Zeros are kept in triplet mode so the sparsity pattern stays the same between
    // evaluations and the sparse LU can reuse its analysis.
    if (dense_ != nullptr) {
      (*dense_)(row0_ + r, col0_ + c) += scale_ * value;
    } else if (triplets_ != nullptr) {
      triplets_->emplace_back(row0_ + r, col0_ + c, scale_ * value);
    } else if (body_blocks_ != nullptr) {
      const int i = row0_ + r, j = col0_ + c;
      if (i / 6 == j / 6)
        (*body_blocks_)[static_cast<std::size_t>(i / 6)](i % 6, j % 6) += scale_ * value;
    }
  }

  template <class Derived>
  void add_block(int r0, int c0, const Eigen::MatrixBase<Derived>& block) {
    if (dense_ != nullptr) {
      dense_->block(row0_ + r0, col0_ + c0, block.rows(), block.cols()) += scale_ * block;
      return;
    }
    if (body_blocks_ != nullptr) {
      // Whole blocks of two different bodies (the elements' 6 × 6 pieces) are skipped at once.
      const int i0 = row0_ + r0, j0 = col0_ + c0;
      const auto rows = static_cast<int>(block.rows()), cols = static_cast<int>(block.cols());
      if ((i0 + rows - 1) / 6 < j0 / 6 || (j0 + cols - 1) / 6 < i0 / 6) return;
      if constexpr (Derived::RowsAtCompileTime == 6 && Derived::ColsAtCompileTime == 6) {
        if (i0 == j0 && i0 % 6 == 0) {
          (*body_blocks_)[static_cast<std::size_t>(i0 / 6)] += scale_ * block;
          return;
        }
      }
      // A block within one body's (the mass's 3 × 3 pieces): added at once, entry by entry the
      // same sums as add().
      const int b = i0 / 6;
      if (j0 / 6 == b && (i0 + rows - 1) / 6 == b && (j0 + cols - 1) / 6 == b) {
        (*body_blocks_)[static_cast<std::size_t>(b)].block(i0 % 6, j0 % 6, rows, cols) +=
            scale_ * block;
        return;
      }
    }
    for (Eigen::Index c = 0; c < block.cols(); ++c)
      for (Eigen::Index r = 0; r < block.rows(); ++r)
        add(r0 + static_cast<int>(r), c0 + static_cast<int>(c), block(r, c));
  }

  // The same destination moved by (dr, dc) and scaled by s.
  MatrixSink shifted(int dr, int dc, double s = 1.0) const {
    MatrixSink m = *this;
    m.row0_ += dr;
    m.col0_ += dc;
    m.scale_ *= s;
    return m;
  }

 private:
  MatX* dense_ = nullptr;
  std::vector<Eigen::Triplet<double>>* triplets_ = nullptr;
  std::vector<Mat6>* body_blocks_ = nullptr;
  int row0_ = 0, col0_ = 0;
  double scale_ = 1.0;
};

}  // namespace cs
