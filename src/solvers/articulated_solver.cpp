#include "clearsim/solvers/articulated_solver.hpp"

#include <cmath>

namespace cs {

namespace {
// A joint's D is singular when a pivot is below this fraction of the magnitude of the products
// that formed it, Σ|S_i||Iᴬ_ij||S_j| (its round-off is about 1e-16 of that): the subtree has no
// inertia along the joint's motion.
constexpr double kSingularPivot = 1e-12;
// The rows' Schur complement is singular below this fraction of its largest pivot (as the dense
// iteration matrix, tree_alpha.cpp).
constexpr double kSingularRowPivot = 1e-15;

// The scale of D = Sᵀ Iᴬ S against which its pivots are judged (see kSingularPivot).
double product_scale(const Eigen::Matrix<double, 6, 3>& S, int k, const Mat6& IA) {
  const auto absS = S.leftCols(k).cwiseAbs();
  return (absS.transpose() * IA.cwiseAbs() * absS).maxCoeff();
}
}  // namespace

bool ArticulatedSolver::factor(const JointTree& tree, const std::vector<BodyKinematics>& kin,
                               const std::vector<Mat6>& D) {
  tree.spatial_links(kin, D, links_);
  const int nl = static_cast<int>(links_.size());
  n_ = tree.num_coordinates();
  U_.resize(nl);
  W_.resize(nl);
  Dinv_.resize(nl);
  singular_body_ = -1;
  for (int l = nl - 1; l >= 0; --l) {  // children first: I_O holds Iᴬ once they are added
    JointTree::SpatialLink& L = links_[l];
    Mat6& IA = L.I_O;
    const int k = L.ncols;
    if (k == 1) {
      const auto s = L.S.col(0);
      const Vec6 u = IA * s;
      const double d = s.dot(u);
      if (!(std::abs(d) > kSingularPivot * product_scale(L.S, 1, IA))) {
        singular_body_ = L.body;
        return false;
      }
      Dinv_[l](0, 0) = 1.0 / d;
      U_[l].col(0) = u / d;
      W_[l].row(0) = s.transpose() * IA;
      IA.noalias() -= U_[l].col(0) * W_[l].row(0);
    } else if (k == 3) {
      const Mat63 U = IA * L.S;
      const Mat3 Dl = L.S.transpose() * U;
      const Eigen::FullPivLU<Mat3> lu(Dl);
      const double smallest = lu.matrixLU().diagonal().cwiseAbs().minCoeff();
      if (!(smallest > kSingularPivot * product_scale(L.S, 3, IA))) {
        singular_body_ = L.body;
        return false;
      }
      Dinv_[l] = lu.inverse();
      U_[l].noalias() = U * Dinv_[l];
      W_[l].noalias() = L.S.transpose() * IA;
      IA.noalias() -= U_[l] * W_[l];
    }
    if (L.parent_link >= 0) links_[L.parent_link].I_O += IA;
  }
  return true;
}

void ArticulatedSolver::solve(const Eigen::Ref<const VecX>& b, VecX& x) const {
  const int nl = static_cast<int>(links_.size());
  x.resize(n_);
  p_.assign(nl, Vec6::Zero());
  V_.resize(nl);
  for (int l = nl - 1; l >= 0; --l) {  // children first: u_l into x_l, bias wrenches upwards
    const JointTree::SpatialLink& L = links_[l];
    if (L.ncols == 1) {
      const double u = b(L.coord) - L.S.col(0).dot(p_[l]);
      x(L.coord) = u;
      p_[l].noalias() += U_[l].col(0) * u;
    } else if (L.ncols == 3) {
      const Vec3 u = b.segment<3>(L.coord) - L.S.transpose() * p_[l];
      x.segment<3>(L.coord) = u;
      p_[l].noalias() += U_[l] * u;
    }
    if (L.parent_link >= 0) p_[L.parent_link] += p_[l];
  }
  for (int l = 0; l < nl; ++l) {  // parents first: the motion V of each body
    const JointTree::SpatialLink& L = links_[l];
    const Vec6 Vp = L.parent_link >= 0 ? V_[L.parent_link] : Vec6::Zero();
    V_[l] = Vp;
    if (L.ncols == 1) {
      const double xl = Dinv_[l](0, 0) * (x(L.coord) - W_[l].row(0).dot(Vp));
      x(L.coord) = xl;
      V_[l].noalias() += L.S.col(0) * xl;
    } else if (L.ncols == 3) {
      const Vec3 xl = Dinv_[l] * (x.segment<3>(L.coord) - W_[l] * Vp);
      x.segment<3>(L.coord) = xl;
      V_[l].noalias() += L.S * xl;
    }
  }
}

bool ArticulatedSolver::factor_rows(const MatX& B) {
  const int m = static_cast<int>(B.rows());
  B_ = B;
  AinvBt_.resize(n_, m);
  VecX col;
  for (int r = 0; r < m; ++r) {
    solve(B.row(r).transpose(), col);
    AinvBt_.col(r) = col;
  }
  if (m == 0) return true;
  schur_.compute(B * AinvBt_);
  if (!schur_.matrixLU().allFinite()) return false;
  const auto pivots = schur_.matrixLU().diagonal().cwiseAbs();
  return pivots.minCoeff() > kSingularRowPivot * pivots.maxCoeff();
}

void ArticulatedSolver::solve_saddle(VecX& rhs) const {
  const int m = static_cast<int>(B_.rows());
  solve(rhs.head(n_), x0_);
  if (m > 0) {
    y_ = schur_.solve(B_ * x0_ - rhs.tail(m));
    x0_.noalias() -= AinvBt_ * y_;
    rhs.tail(m) = y_;
  }
  rhs.head(n_) = x0_;
}

}  // namespace cs
