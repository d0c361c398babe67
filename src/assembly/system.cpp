#include "clearsim/assembly/system.hpp"

#include <Eigen/QR>
#include <Eigen/SparseLU>
#include <Eigen/SparseQR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "clearsim/assembly/forest_rank.hpp"
#include "clearsim/elements/forces/point_load.hpp"
#include "clearsim/math/so3.hpp"

namespace cs {

namespace {
const BodyKinematics kGroundKinematics{};

// Column of body b's first velocity component, or −1 for ground.
int col_of(int b) { return b == kGround ? -1 : 6 * b; }
}  // namespace

namespace {
// An element's blocks have fixed capacities (ConstraintBlock, GapBlock): one that asks for more
// would be written past them, so it is refused here, by name, before any evaluation.
void check_capacity(const Element& el) {
  auto refuse = [&](int n, const char* what, int most) {
    throw std::invalid_argument("element '" + el.name() + "' (" + el.kind() + ") has " +
                                std::to_string(n) + " " + what + ", more than the " +
                                std::to_string(most) + " an element can hold");
  };
  if (el.num_constraints() < 0 || el.num_constraints() > ConstraintBlock::kMaxRows)
    refuse(el.num_constraints(), "constraint rows", ConstraintBlock::kMaxRows);
  if (el.num_ideal_rows() < 0 || el.num_ideal_rows() > ConstraintBlock::kMaxRows)
    refuse(el.num_ideal_rows(), "ideal-joint rows", ConstraintBlock::kMaxRows);
  if (el.num_gaps() < 0 || el.num_gaps() > GapBlock::kMaxGaps)
    refuse(el.num_gaps(), "gaps", GapBlock::kMaxGaps);
}
}  // namespace

System::System(const Model& model) : model_(&model) {
  for (const auto& el : model.elements) check_capacity(*el);
  rows_.resize(model.elements.size());
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    const Element& el = *model.elements[e];
    rows_[e].count = el.num_constraints();
    rows_[e].removed.assign(rows_[e].count, false);
    if (rows_[e].count > 0) constraint_elements_.push_back(static_cast<int>(e));
    if (el.has_force()) force_elements_.push_back(static_cast<int>(e));
  }
  gap_offset_.assign(model.elements.size(), -1);
  std::vector<double> e_n, mu;
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    const Element& el = *model.elements[e];
    if (el.num_gaps() == 0) continue;
    gap_elements_.push_back(static_cast<int>(e));
    gap_offset_[e] = num_gaps_;
    for (int k = 0; k < el.num_gaps(); ++k) {
      e_n.push_back(el.restitution(k));
      mu.push_back(el.friction(k));
    }
    num_gaps_ += el.num_gaps();
  }
  memory_offset_.assign(model.elements.size(), -1);
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    const Element& el = *model.elements[e];
    if (el.num_ideal_rows() > 0) {
      ideal_row_elements_.push_back(static_cast<int>(e));
      num_ideal_rows_ += el.num_ideal_rows();
    }
    if (el.num_memory() > 0) {
      memory_elements_.push_back(static_cast<int>(e));
      memory_offset_[e] = num_memory_;
      num_memory_ += el.num_memory();
      memory_reads_reactions_ = memory_reads_reactions_ || el.memory_reads_reactions();
    }
  }
  memory_ = VecX::Zero(num_memory_);
  restitution_ = Eigen::Map<VecX>(e_n.data(), static_cast<Eigen::Index>(e_n.size()));
  friction_ = Eigen::Map<VecX>(mu.data(), static_cast<Eigen::Index>(mu.size()));
  layout();
}

void System::layout() {
  num_rows_ = 0;
  for (auto& r : rows_) {
    r.global.assign(r.count, -1);
    for (int k = 0; k < r.count; ++k) {
      if (!r.removed[k]) r.global[k] = num_rows_++;
    }
  }
}

void System::gather(const State& s, std::vector<BodyKinematics>& kin) const {
  const int nb = model_->num_bodies();
  kin.resize(nb);
  for (int b = 0; b < nb; ++b) {
    kin[b].x_W = s.x_W[b];
    kin[b].R_WB = s.R_WB[b];
    kin[b].v_W = s.v.segment<3>(6 * b);
    kin[b].w_B = s.v.segment<3>(6 * b + 3);
  }
  if (num_memory_ > 0 && s.memory.size() == num_memory_) memory_ = s.memory;
}

void System::update_memory(State& s) const {
  if (num_memory_ == 0) return;
  if (s.memory.size() != num_memory_) s.memory = VecX::Zero(num_memory_);
  std::vector<BodyKinematics> kin;
  gather(s, kin);
  const bool known = s.lambda.size() == num_constraints();
  for (int e : memory_elements_) {
    ElementInput in = input(e, s.t, kin);
    double lam[ConstraintBlock::kMaxRows] = {0, 0, 0, 0, 0, 0};
    if (known && rows_[e].count > 0) {
      element_lambda(e, s.lambda, lam);
      in.lambda = lam;
    }
    model_->elements[e]->update_memory(in, s.memory.data() + memory_offset_[e]);
  }
}

ElementInput System::input(int e, double t, const std::vector<BodyKinematics>& kin) const {
  const Element& el = *model_->elements[e];
  ElementInput in;
  in.t = t;
  in.i = el.body_i() == kGround ? &kGroundKinematics : &kin[el.body_i()];
  in.j = el.body_j() == kGround ? &kGroundKinematics : &kin[el.body_j()];
  if (memory_offset_[e] >= 0) in.memory = memory_.data() + memory_offset_[e];
  return in;
}

namespace {
// Writes local rows (columns [body i | body j], 6 each) at global row `row` into the columns of
// bodies i and j (−1: ground, skipped).
template <class Derived>
void scatter_rows(MatrixSink& S, int row, int ci, int cj, const Eigen::MatrixBase<Derived>& local) {
  if (ci >= 0) S.add_block(row, ci, local.leftCols(6));
  if (cj >= 0) S.add_block(row, cj, local.rightCols(6));
}
}  // namespace

template <class RowFn>
void System::for_each_constraint_row(const std::vector<BodyKinematics>& kin, double t,
                                     bool want_zeta, RowFn&& fn, bool want_jacobian,
                                     const std::vector<char>* only) const {
  ConstraintBlock cb;
  cb.want_zeta = want_zeta;
  cb.want_jacobian = want_jacobian;
  for (int e : constraint_elements_) {
    if (only != nullptr && !(*only)[e]) continue;
    const Element& el = *model_->elements[e];
    el.constraint(input(e, t, kin), cb);
    const int ci = col_of(el.body_i()), cj = col_of(el.body_j());
    for (int r = 0; r < cb.m; ++r) {
      const int g = rows_[e].global[r];
      if (g >= 0) fn(cb, r, g, ci, cj);
    }
  }
}

void System::constraints(const std::vector<BodyKinematics>& kin, double t, VecX* phi, MatrixSink B,
                         VecX* phi_t, VecX* zeta) const {
  for_each_constraint_row(
      kin, t, zeta != nullptr,
      [&](const ConstraintBlock& cb, int r, int g, int ci, int cj) {
        if (phi) (*phi)(g) = cb.phi(r);
        if (phi_t) (*phi_t)(g) = cb.phi_t(r);
        if (zeta) (*zeta)(g) = cb.zeta(r);
        if (B.active()) scatter_rows(B, g, ci, cj, cb.B.row(r));
      },
      B.active() || zeta != nullptr);
}

double System::constraint_violation(const std::vector<BodyKinematics>& kin, double t) const {
  double worst = 0.0;
  bool nan = false;  // a NaN row is said, not lost in the maximum
  for_each_constraint_row(
      kin, t, false,
      [&](const ConstraintBlock& cb, int r, int, int, int) {
        const double a = std::abs(cb.phi(r));
        if (std::isnan(a)) nan = true;
        worst = std::max(worst, a);
      },
      false);
  return nan ? std::numeric_limits<double>::quiet_NaN() : worst;
}

void System::constraint_products(const std::vector<BodyKinematics>& kin, double t,
                                 const VecX& lambda, const VecX* v, VecX& phi, VecX& Btl, VecX* Bv,
                                 const std::vector<char>* only) const {
  for_each_constraint_row(
      kin, t, false,
      [&](const ConstraintBlock& cb, int r, int g, int ci, int cj) {
        phi(g) = cb.phi(r);
        const auto row = cb.B.row(r);
        if (ci >= 0) Btl.segment<6>(ci) += lambda(g) * row.head<6>().transpose();
        if (cj >= 0) Btl.segment<6>(cj) += lambda(g) * row.tail<6>().transpose();
        if (Bv == nullptr) return;
        double bv = cb.phi_t(r);
        if (ci >= 0) bv += row.head<6>().dot(v->segment<6>(ci));
        if (cj >= 0) bv += row.tail<6>().dot(v->segment<6>(cj));
        (*Bv)(g) = bv;
      },
      true, only);
}

void System::element_lambda(int e, const VecX& lambda, double* out) const {
  for (int r = 0; r < rows_[e].count; ++r) {
    const int g = rows_[e].global[r];
    out[r] = g < 0 ? 0.0 : lambda(g);
  }
}

namespace {
// Scatters a 12×12 local block into global columns of bodies i and j.
void scatter12(MatrixSink& S, int ci, int cj, const Mat12& K) {
  const int c[2] = {ci, cj};
  for (int a = 0; a < 2; ++a) {
    if (c[a] < 0) continue;
    for (int b = 0; b < 2; ++b) {
      if (c[b] < 0) continue;
      S.add_block(c[a], c[b], K.block<6, 6>(6 * a, 6 * b));
    }
  }
}
}  // namespace

void System::constraint_tangent(const std::vector<BodyKinematics>& kin, double t,
                                const VecX& lambda, MatrixSink K) const {
  double lam[ConstraintBlock::kMaxRows];
  Mat12 Ke;
  for (int e : constraint_elements_) {
    const Element& el = *model_->elements[e];
    element_lambda(e, lambda, lam);
    Ke.setZero();
    el.constraint_tangent(input(e, t, kin), lam, Ke);
    scatter12(K, col_of(el.body_i()), col_of(el.body_j()), Ke);
  }
}

void System::velocity_rows_tangent(const std::vector<BodyKinematics>& kin, double t, const VecX& v,
                                   MatrixSink D) const {
  double unit[ConstraintBlock::kMaxRows];
  Mat12 Ke;
  Eigen::Matrix<double, 12, 1> v_loc;
  for (int e : constraint_elements_) {
    const Element& el = *model_->elements[e];
    const int ci = col_of(el.body_i()), cj = col_of(el.body_j());
    v_loc.head<6>() = ci >= 0 ? Vec6(v.segment<6>(ci)) : Vec6::Zero();
    v_loc.tail<6>() = cj >= 0 ? Vec6(v.segment<6>(cj)) : Vec6::Zero();
    const ElementInput in = input(e, t, kin);
    for (int r = 0; r < rows_[e].count; ++r) {
      const int g = rows_[e].global[r];
      if (g < 0) continue;
      std::fill(std::begin(unit), std::end(unit), 0.0);
      unit[r] = 1.0;
      Ke.setZero();
      el.constraint_tangent(in, unit, Ke);
      const Eigen::Matrix<double, 1, 12> row = v_loc.transpose() * Ke;  // vᵀ ∂(B_rᵀ)/∂q
      scatter_rows(D, g, ci, cj, row);
    }
  }
}

void System::forces(const std::vector<BodyKinematics>& kin, double t, VecX& f, MatrixSink df_dq,
                    MatrixSink df_dv, const std::vector<char>* only) const {
  f.setZero(num_dofs());
  const bool tangents = df_dq.active() || df_dv.active();
  for (int b = 0; b < model_->num_bodies(); ++b) {
    const Body& body = model_->bodies[b];
    f.segment<3>(6 * b) += body.mass * model_->gravity_W;
    const Vec3& w = kin[b].w_B;
    const Vec3 Jw = body.inertia_B * w;
    f.segment<3>(6 * b + 3) -= w.cross(Jw);
    if (df_dv.active()) {
      // ∂(−Ω × JΩ)/∂Ω = (JΩ)~ − Ω̃ J
      df_dv.add_block(6 * b + 3, 6 * b + 3, so3::skew(Jw) - so3::skew(w) * body.inertia_B);
    }
  }
  ForceBlock fb;
  // One element's (or external load's) block into f and the tangents.
  const auto add = [&](int ci, int cj) {
    if (ci >= 0) f.segment<6>(ci) += fb.f.head<6>();
    if (cj >= 0) f.segment<6>(cj) += fb.f.tail<6>();
    if (df_dq.active()) scatter12(df_dq, ci, cj, fb.df_dq);
    if (df_dv.active()) scatter12(df_dv, ci, cj, fb.df_dv);
  };
  const auto clear = [&] {
    fb.f.setZero();
    if (tangents) {
      fb.df_dq.setZero();
      fb.df_dv.setZero();
    }
  };
  for (int e : force_elements_) {
    if (only != nullptr && !(*only)[e]) continue;
    const Element& el = *model_->elements[e];
    clear();
    el.force(input(e, t, kin), fb, tangents);
    add(col_of(el.body_i()), col_of(el.body_j()));
  }
  for (const ExternalLoad& load : external_loads_) {
    clear();
    forces::add_point_load(kin[load.body], load.p_B, load.F_W, load.tau_W, fb, tangents);
    add(col_of(load.body), -1);
  }
}

void System::set_external_load(const ExternalLoad& load) {
  for (ExternalLoad& l : external_loads_) {
    if (l.body == load.body) {
      l = load;
      return;
    }
  }
  external_loads_.push_back(load);
}

double System::external_load_power(const std::vector<BodyKinematics>& kin) const {
  double p = 0.0;
  for (const ExternalLoad& l : external_loads_)
    p += std::abs(forces::point_load_power(kin[l.body], l.p_B, l.F_W, l.tau_W));
  return p;
}

void System::mass(MatrixSink M) const {
  for (int b = 0; b < model_->num_bodies(); ++b) {
    const Body& body = model_->bodies[b];
    M.add_block(6 * b, 6 * b, body.mass * Mat3::Identity());
    M.add_block(6 * b + 3, 6 * b + 3, body.inertia_B);
  }
}

void System::mass_times(const VecX& x, VecX& y) const {
  y.resize(num_dofs());
  for (int b = 0; b < model_->num_bodies(); ++b) {
    const Body& body = model_->bodies[b];
    y.segment<3>(6 * b) = body.mass * x.segment<3>(6 * b);
    y.segment<3>(6 * b + 3) = body.inertia_B * x.segment<3>(6 * b + 3);
  }
}

double System::kinetic_energy(const std::vector<BodyKinematics>& kin) const {
  double T = 0.0;
  for (int b = 0; b < model_->num_bodies(); ++b) {
    const Body& body = model_->bodies[b];
    T += 0.5 * body.mass * kin[b].v_W.squaredNorm() +
         0.5 * kin[b].w_B.dot(body.inertia_B * kin[b].w_B);
  }
  return T;
}

double System::potential_energy(const std::vector<BodyKinematics>& kin, double t) const {
  double V = 0.0;
  for (int b = 0; b < model_->num_bodies(); ++b)
    V -= model_->bodies[b].mass * model_->gravity_W.dot(kin[b].x_W);
  for (int e : force_elements_) V += model_->elements[e]->potential_energy(input(e, t, kin));
  return V;
}

bool System::saddle_is_regular(const std::vector<Eigen::Triplet<double>>& tB) const {
  const int n = num_dofs(), N = n + num_rows_;
  std::vector<Eigen::Triplet<double>> t;
  mass(MatrixSink(&t));
  for (const auto& e : tB) {
    t.emplace_back(n + e.row(), e.col(), e.value());
    t.emplace_back(e.col(), n + e.row(), e.value());
  }
  Eigen::SparseMatrix<double> S(N, N);
  S.setFromTriplets(t.begin(), t.end());
  S.makeCompressed();
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu;
  lu.compute(S);
  if (lu.info() != Eigen::Success) return false;
  // A nearly singular matrix can factor "successfully"; check a solve with a known answer.
  const VecX x = VecX::LinSpaced(N, 1.0, 2.0);
  const VecX b = S * x;
  const VecX y = lu.solve(b);
  return y.allFinite() && (y - x).lpNorm<Eigen::Infinity>() <= 1e-6;
}

bool System::remove_rows_as(const System& other) {
  if (other.rows_.size() != rows_.size()) return false;
  for (std::size_t e = 0; e < rows_.size(); ++e)
    if (other.rows_[e].count != rows_[e].count) return false;
  for (std::size_t e = 0; e < rows_.size(); ++e) rows_[e].removed = other.rows_[e].removed;
  layout();
  return true;
}

std::vector<std::string> System::remove_redundant_rows(const State& s) {
  std::vector<std::string> messages;
  for (auto& r : rows_) r.removed.assign(r.count, false);
  layout();
  if (num_rows_ == 0) return messages;
  std::vector<BodyKinematics> kin;
  gather(s, kin);
  // Rank-revealing QR of Bᵀ with column pivoting: the first `rank` pivots are independent rows
  // of B. Rows are first scaled to unit norm so the decision does not depend on units. Dense
  // for small systems; sparse QR (COLAMD ordering) for large ones.
  std::vector<bool> independent(num_rows_, false);
  Eigen::Index rank = 0;
  if (num_dofs() <= 300) {
    MatX B = MatX::Zero(num_rows_, num_dofs());
    constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
    for (int r = 0; r < B.rows(); ++r) {
      const double n = B.row(r).norm();
      if (n > 0.0) B.row(r) /= n;
    }
    Eigen::ColPivHouseholderQR<MatX> qr(B.transpose());
    qr.setThreshold(1e-9);
    rank = qr.rank();
    for (Eigen::Index k = 0; k < rank; ++k) independent[qr.colsPermutation().indices()(k)] = true;
  } else {
    // Sparse QR of a large Bᵀ is slow (its fill-in grows fast with loops, and it took minutes
    // on a 3000-link chain); most large models have no redundancy. Trees without loops show it
    // by their structure (forest_rank.hpp); otherwise a sparse LU of [M Bᵀ; B 0] shows it in
    // the time of one step: it is regular exactly when B has full row rank. Only a failed (or
    // inaccurate) LU goes on to the rank-revealing QR.
    std::vector<BodyPairRow> pair_rows;
    pair_rows.reserve(static_cast<std::size_t>(num_rows_));
    for_each_constraint_row(
        kin, s.t, false, [&](const ConstraintBlock& cb, int r, int, int ci, int cj) {
          pair_rows.push_back({ci < 0 ? -1 : ci / 6, cj < 0 ? -1 : cj / 6, cb.B.row(r)});
        });
    if (rows_independent_on_a_forest(pair_rows, model_->num_bodies())) return messages;
    std::vector<Eigen::Triplet<double>> tr;
    constraints(kin, s.t, nullptr, MatrixSink(&tr), nullptr, nullptr);
    if (saddle_is_regular(tr)) return messages;
    VecX norm2 = VecX::Zero(num_rows_);
    for (const auto& e : tr) norm2(e.row()) += e.value() * e.value();
    std::vector<Eigen::Triplet<double>> trT;
    trT.reserve(tr.size());
    for (const auto& e : tr)
      if (norm2(e.row()) > 0)
        trT.emplace_back(e.col(), e.row(), e.value() / std::sqrt(norm2(e.row())));
    Eigen::SparseMatrix<double> Bt(num_dofs(), num_rows_);
    Bt.setFromTriplets(trT.begin(), trT.end());
    Bt.makeCompressed();
    Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
    qr.setPivotThreshold(1e-9);
    qr.compute(Bt);
    rank = qr.rank();
    for (Eigen::Index k = 0; k < rank; ++k) independent[qr.colsPermutation().indices()(k)] = true;
  }
  if (rank == num_rows_) return messages;
  for (std::size_t e = 0; e < rows_.size(); ++e) {
    for (int r = 0; r < rows_[e].count; ++r) {
      const int g = rows_[e].global[r];
      if (g >= 0 && !independent[g]) {
        rows_[e].removed[r] = true;
        messages.push_back(describe_row(g) + " is redundant and was removed");
      }
    }
  }
  layout();
  return messages;
}

namespace {
// |R_mm| / |R_11| of a column-pivoted QR: its diagonal does not increase, so this ratio
// estimates σ_min/σ_max of the first m pivot columns (0 if they are dependent).
double pivot_ratio(const Eigen::ColPivHouseholderQR<MatX>& qr, Eigen::Index m) {
  if (m == 0) return 1.0;
  const double first = std::abs(qr.matrixQR()(0, 0));
  return first > 0.0 ? std::abs(qr.matrixQR()(m - 1, m - 1)) / first : 0.0;
}

// Scales every row to unit norm, so that the conditioning does not depend on units.
void unit_rows(MatX& B) {
  for (Eigen::Index r = 0; r < B.rows(); ++r) {
    const double n = B.row(r).norm();
    if (n > 0.0) B.row(r) /= n;
  }
}

// The λ' with B'ᵀλ' closest to the generalized force f (B' has full row rank).
VecX same_force(const MatX& B_new, const VecX& f) {
  return B_new.transpose().colPivHouseholderQr().solve(f);
}
}  // namespace

std::string System::row_name(int e, int r) const {
  const Element& el = *model_->elements[e];
  std::ostringstream os;
  os << el.kind() << " '" << el.name() << "': " << el.constraint_row_name(r);
  return os.str();
}

double System::kept_rows_conditioning(const std::vector<BodyKinematics>& kin, double t) const {
  if (num_rows_ == 0 || num_dofs() > kDenseRowChoiceDofs || !has_removed_rows()) return 1.0;
  return kept_conditioning_dense(kin, t);
}

double System::kept_conditioning_dense(const std::vector<BodyKinematics>& kin, double t) const {
  if (num_rows_ == 0) return 1.0;
  cond_B_.setZero(num_rows_, num_dofs());
  constraints(kin, t, nullptr, MatrixSink(&cond_B_), nullptr, nullptr);
  unit_rows(cond_B_);
  cond_qr_.compute(cond_B_.transpose());
  return pivot_ratio(cond_qr_, num_rows_);
}

std::string System::conflicting_drivers(const State& s) const {
  // The drivers' rows (elements whose rows depend on time) must be independent of the joints'
  // rows and of each other: each asks for one motion the joints leave free. If the rank of all
  // rows is less than the joints' rank plus the drivers' rows, some driver asks for a motion the
  // joints (or another driver) forbid, and the mechanism is locked. Dense (the check runs once
  // at the start); large models are left to the first step's failure.
  if (num_dofs() > 300) return {};
  std::vector<BodyKinematics> kin;
  gather(s, kin);
  std::vector<std::pair<int, int>> which;
  const MatX Bt = all_rows_transposed(kin, s.t, which);
  std::vector<Eigen::Index> joint_cols;
  std::vector<std::string> drivers;
  int driver_rows = 0;
  for (std::size_t k = 0; k < which.size(); ++k) {
    const Element& el = *model_->elements[which[k].first];
    if (!el.rows_depend_on_time()) {
      joint_cols.push_back(static_cast<Eigen::Index>(k));
      continue;
    }
    ++driver_rows;
    const std::string name = "'" + el.name() + "'";
    if (drivers.empty() || drivers.back() != name) drivers.push_back(name);
  }
  if (driver_rows == 0) return {};
  const auto rank_of = [](const MatX& A) {
    Eigen::ColPivHouseholderQR<MatX> qr(A);
    qr.setThreshold(1e-9);
    return static_cast<int>(qr.rank());
  };
  const int all = rank_of(Bt);
  const int joints = joint_cols.empty() ? 0 : rank_of(Bt(Eigen::all, joint_cols));
  if (all - joints >= driver_rows) return {};
  std::ostringstream os;
  os << "the mechanism is locked: its drivers (";
  for (std::size_t k = 0; k < drivers.size(); ++k) os << (k ? ", " : "") << drivers[k];
  os << ") prescribe " << driver_rows << " motion" << (driver_rows > 1 ? "s" : "")
     << " but the joints leave " << std::max(0, all - joints) << " of them free ("
     << num_dofs() - joints
     << " degrees of freedom in all): a driver too many, or a joint that fixes what a driver "
        "moves. Remove a driver or check the joints' geometry";
  return os.str();
}

MatX System::all_rows_transposed(const std::vector<BodyKinematics>& kin, double t,
                                 std::vector<std::pair<int, int>>& which) const {
  which.clear();
  for (int e : constraint_elements_)
    for (int r = 0; r < rows_[e].count; ++r) which.emplace_back(e, r);
  MatX B = MatX::Zero(static_cast<Eigen::Index>(which.size()), num_dofs());
  ConstraintBlock cb;
  int row = 0;
  for (int e : constraint_elements_) {
    const Element& el = *model_->elements[e];
    el.constraint(input(e, t, kin), cb);
    const int ci = col_of(el.body_i()), cj = col_of(el.body_j());
    MatrixSink sink(&B);
    for (int r = 0; r < cb.m; ++r, ++row) scatter_rows(sink, row, ci, cj, cb.B.row(r));
  }
  unit_rows(B);
  return B.transpose();
}

System::RowChoice System::rechoose_rows(State& s, double gain) {
  RowChoice c;
  std::vector<BodyKinematics> kin;
  gather(s, kin);
  const int n = num_dofs(), m = num_rows_;
  // Dense at any size: this runs only when the cheap watch or a violated row asks for it.
  c.conditioning = kept_conditioning_dense(kin, s.t);
  std::vector<std::pair<int, int>> which;
  Eigen::ColPivHouseholderQR<MatX> qr(all_rows_transposed(kin, s.t, which));
  qr.setThreshold(1e-9);
  c.full_rank = static_cast<int>(qr.rank());
  if (m == 0 || !(pivot_ratio(qr, m) > gain * c.conditioning)) return c;
  // The forces of the current rows, to be carried over.
  MatX B = MatX::Zero(m, n);
  constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  const VecX force = B.transpose() * s.lambda;
  const bool has_jump = s.lambda_jump.size() == m;
  const VecX impulse = has_jump ? VecX(B.transpose() * s.lambda_jump) : VecX();
  std::vector<bool> keep(which.size(), false);
  for (int k = 0; k < m; ++k) keep[qr.colsPermutation().indices()(k)] = true;
  for (std::size_t i = 0; i < which.size(); ++i) {
    const auto [e, r] = which[i];
    const bool removed = !keep[i];
    if (removed == rows_[e].removed[r]) continue;
    c.changed = true;
    rows_[e].removed[r] = removed;
    (removed ? c.now_removed : c.now_kept).push_back(row_name(e, r));
  }
  if (!c.changed) return c;
  layout();
  B.setZero();
  constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  s.lambda = same_force(B, force);
  if (has_jump) s.lambda_jump = same_force(B, impulse);
  c.conditioning = pivot_ratio(qr, m);
  return c;
}

int System::restore_removed_rows(State& s) {
  int restored = 0;
  std::vector<int> old_global;
  for (const auto& r : rows_) old_global.insert(old_global.end(), r.global.begin(), r.global.end());
  for (auto& r : rows_)
    for (int k = 0; k < r.count; ++k)
      if (r.removed[k]) {
        r.removed[k] = false;
        ++restored;
      }
  if (restored == 0) return 0;
  layout();
  // Each kept row keeps its multiplier; the restored rows start at zero: Bᵀλ is unchanged.
  auto remap = [&](VecX& x) {
    if (x.size() != num_rows_ - restored) return;
    VecX y = VecX::Zero(num_rows_);
    std::size_t i = 0;
    for (const auto& r : rows_)
      for (int k = 0; k < r.count; ++k, ++i)
        if (old_global[i] >= 0) y(r.global[k]) = x(old_global[i]);
    x = y;
  };
  remap(s.lambda);
  remap(s.lambda_jump);
  return restored;
}

void System::gaps(const std::vector<BodyKinematics>& kin, double t, VecX* g, MatrixSink G) const {
  GapBlock gb;
  for (int e : gap_elements_) {
    const Element& el = *model_->elements[e];
    el.gaps(input(e, t, kin), gb);
    const int ci = col_of(el.body_i()), cj = col_of(el.body_j());
    for (int k = 0; k < gb.p; ++k) {
      const int row = gap_offset_[e] + k;
      if (g) (*g)(row) = gb.g(k);
      if (G.active()) scatter_rows(G, row, ci, cj, gb.G.row(k));
    }
  }
}

void System::tangential(const std::vector<BodyKinematics>& kin, double t, MatrixSink T) const {
  GapBlock gb;
  for (int e : gap_elements_) {
    const Element& el = *model_->elements[e];
    el.gaps(input(e, t, kin), gb);
    const int ci = col_of(el.body_i()), cj = col_of(el.body_j());
    for (int k = 0; k < gb.p; ++k) {
      scatter_rows(T, 2 * (gap_offset_[e] + k), ci, cj, gb.T.middleRows<2>(2 * k));
    }
  }
}

void System::ideal_rows(const std::vector<BodyKinematics>& kin, double t, MatrixSink Q) const {
  ConstraintBlock cb;
  int row = 0;
  for (int e : ideal_row_elements_) {
    const Element& el = *model_->elements[e];
    el.ideal_rows(input(e, t, kin), cb);
    const int ci = col_of(el.body_i()), cj = col_of(el.body_j());
    for (int r = 0; r < cb.m; ++r, ++row) scatter_rows(Q, row, ci, cj, cb.B.row(r));
  }
}

std::string System::describe_gap(int k) const {
  for (int e : gap_elements_) {
    const Element& el = *model_->elements[e];
    if (k >= gap_offset_[e] && k < gap_offset_[e] + el.num_gaps())
      return el.kind() + " '" + el.name() + "': " + el.gap_name(k - gap_offset_[e]);
  }
  return "gap " + std::to_string(k);
}

bool System::has_removed_rows() const {
  for (const auto& r : rows_)
    for (bool rem : r.removed)
      if (rem) return true;
  return false;
}

double System::removed_rows_violation(const std::vector<BodyKinematics>& kin, double t,
                                      std::string* which) const {
  double worst = 0.0;
  ConstraintBlock cb;
  for (int e : constraint_elements_) {
    const ElementRows& rows = rows_[e];
    bool any = false;
    for (bool rem : rows.removed) any = any || rem;
    if (!any) continue;
    const Element& el = *model_->elements[e];
    el.constraint(input(e, t, kin), cb);
    for (int r = 0; r < cb.m; ++r) {
      if (rows.removed[r] && std::abs(cb.phi(r)) > worst) {
        worst = std::abs(cb.phi(r));
        if (which) *which = el.kind() + " '" + el.name() + "': " + el.constraint_row_name(r);
      }
    }
  }
  return worst;
}

std::string System::describe_row(int global_row) const {
  for (std::size_t e = 0; e < rows_.size(); ++e) {
    for (int r = 0; r < rows_[e].count; ++r) {
      if (rows_[e].global[r] == global_row) {
        const Element& el = *model_->elements[e];
        std::ostringstream os;
        os << el.kind() << " '" << el.name() << "': " << el.constraint_row_name(r);
        return os.str();
      }
    }
  }
  return "constraint row " + std::to_string(global_row);
}

System::FastestContact System::fastest_contact(const std::vector<BodyKinematics>& kin,
                                               double t) const {
  FastestContact out;
  const auto inv_mass = [&](int b) { return b == kGround ? 0.0 : 1.0 / model_->bodies[b].mass; };
  for (int e : force_elements_) {
    const Element& el = *model_->elements[e];
    const Element::ContactRates r = el.contact_rates(input(e, t, kin));
    if (!(r.stiffness > 0.0 || r.damping > 0.0)) continue;
    const double inv_m = inv_mass(el.body_i()) + inv_mass(el.body_j());
    const FastestContact c{e, std::sqrt(r.stiffness * inv_m), r.damping * inv_m};
    if (c.rate() > out.rate()) out = c;
  }
  return out;
}

System::StiffestForce System::stiffest_force(int body, const std::vector<BodyKinematics>& kin,
                                             double t) const {
  StiffestForce out;
  ForceBlock fb;
  for (int e : force_elements_) {
    const Element& el = *model_->elements[e];
    const int side = el.body_i() == body ? 0 : el.body_j() == body ? 6 : -1;
    if (side < 0) continue;
    fb = ForceBlock{};
    el.force(input(e, t, kin), fb, true);
    const double k = fb.df_dq.block<3, 3>(side, side).norm();  // ≥ the spectral norm
    if (std::isfinite(k) && k > out.stiffness) out = {e, k};
  }
  return out;
}

std::string System::describe_stiffest_force(int body, const State& start,
                                            const std::vector<BodyKinematics>* last,
                                            double h) const {
  std::vector<BodyKinematics> kin0;
  gather(start, kin0);
  StiffestForce k = stiffest_force(body, kin0, start.t);
  if (last) {
    const StiffestForce k1 = stiffest_force(body, *last, start.t + h);
    if (k1.stiffness > k.stiffness) k = k1;
  }
  if (k.element < 0) return "";
  const Element& el = *model_->elements[k.element];
  const double omega_h = std::sqrt(k.stiffness / model_->bodies[body].mass) * h;
  std::ostringstream os;
  os.precision(3);
  os << kStiffestForce << " '" << model_->bodies[body].name << "': " << el.kind() << " '"
     << el.name() << "', stiffness " << k.stiffness << " N/m, ω h = " << omega_h;
  if (omega_h > 1.0) os << " (a smaller step or `adaptive: true` resolves it)";
  return os.str();
}

}  // namespace cs
