#include "clearsim/solvers/tree_alpha.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/newton_driver.hpp"
#include "clearsim/solvers/newton_stop.hpp"

namespace cs {

namespace {
// A factorization from an earlier step is refreshed at the current iterate when an iteration
// contracts slower than this (JᵀMJ moves with the configuration, newton_stop.hpp).
constexpr double kRefresh = newton_stop::kMovingRowsRefreshRate;
// Under NSGA the rows of a persistent contact turn at the journal's sliding speed over the
// clearance, v/c (≈ 10³–10⁴ rad/s in the Flores slider–crank), a term of the tangent that the
// iteration matrix leaves out; in sliding contact a factorization at the current iterate
// contracts no faster than 0.01–0.2, so refreshing at kRefresh only paid factorizations. A
// matrix is kept while it halves the increment. Measured on the Flores example over 1.2 s
// (output every 1000 steps) with refresh rates 1e-3, 0.05, 0.3, 0.5, 0.7: 2.69, 2.67, 2.81,
// 3.08, 3.0 × 10⁵ steps/s.
constexpr double kNsgaRefresh = 0.5;
// Pivots below this fraction of the largest make the iteration matrix singular.
constexpr double kSingularPivot = 1e-15;
// A fresh factorization that contracts slower than this fails the attempt (the driver splits).
constexpr double kSlowRate = newton_stop::kFreshGiveUpRate;
// The cost is judged every this many steps: above kMaxFactorRate factorizations per step since the
// start the run goes over to body poses (see judge_cost()).
constexpr long kJudgeSteps = 32;
constexpr double kMaxFactorRate = 0.5;
// Iteration matrices up to this size are solved through their inverse (see factor()).
constexpr int kInverseSize = 24;
// From this many coordinates the iteration matrix is factorized recursively (O(bodies)) rather
// than densely (O(n³), but a small inverse applied by one product per iteration): see
// docs/PERFORMANCE.md, chains, for the measured crossover.
constexpr int kRecursiveFrom = 20;
// A dense open tree of at least kRecursiveOpenTreeFrom coordinates whose matrix has been
// refactorized at more than kRecursiveRate of its steps goes over to the recursive path (see
// judge_cost()): a recursive factorization costs about one residual, a dense one about five, and
// the recursive path refreshes ahead (plan_refresh()). Measured on planar chains of 10 and 12
// links, recursive against dense, wall time (median of 5) and instructions: over 0.2 s (0.07
// factorizations per step) 1.07 and 1.03; over 1 s (0.35–0.42) 0.90–0.92 and 0.86–0.89 (with the
// linear predictor; the quadratic one keeps them at 0.04–0.05 factorizations per step there).
constexpr int kRecursiveOpenTreeFrom = 10;
constexpr double kRecursiveRate = 0.2;
// A fresh matrix that contracts slower than this takes the joints' geometric stiffness in for the
// rest of the run (see prepare_matrix()), as body poses' mass iteration takes its stiffness
// blocks (generalized_alpha.cpp, kStiffRate).
constexpr double kGeometricRate = 0.03;
// Refresh ahead (plan_refresh()): while matrices kept from the previous step keep contracting
// slowly, every step factorizes at its predictor, and tries the kept matrix again every
// kFirstTrial steps, the interval doubling up to kLastTrial while the trials fail.
constexpr long kFirstTrial = 4;
constexpr long kLastTrial = 64;
// Kept matrices judged cheaper on a trial are not refreshed ahead again for TreeAlpha::hold_
// steps (32 at first), doubling up to this each time.
constexpr long kLongestHold = 1024;
// Krylov iterations (krylov_solve()): at most this many vectors, to this fraction of the
// starting residual, with the Jacobian's action by differences of this size in the coordinates.
constexpr int kKrylovVectors = 8;
constexpr double kKrylovTol = 1e-3;
constexpr double kKrylovDelta = 1e-7;

// Rows B_b of a constraint block on bodies bi, bj (cb.m of them) in joint coordinates, B_b J,
// into rows [row, row + m) of B_red: through J when it is formed, else as Jᵀ of each row taken as
// a body force (JointTree::transpose_times, O(bodies) per row, no J).
void reduce_rows(const JointTree& tree, const std::vector<BodyKinematics>& kin,
                 const ConstraintBlock& cb, int bi, int bj, const MatX* J, int row, MatX& B_red) {
  if (J != nullptr) {
    B_red.middleRows(row, cb.m).setZero();
    if (bi != kGround)
      B_red.middleRows(row, cb.m).noalias() += cb.B.block(0, 0, cb.m, 6) * J->middleRows(6 * bi, 6);
    if (bj != kGround)
      B_red.middleRows(row, cb.m).noalias() += cb.B.block(0, 6, cb.m, 6) * J->middleRows(6 * bj, 6);
    return;
  }
  VecX y = VecX::Zero(6 * tree.num_bodies()), y_red;
  for (int r = 0; r < cb.m; ++r) {
    if (bi != kGround) y.segment<6>(6 * bi) = cb.B.block<1, 6>(r, 0).transpose();
    if (bj != kGround) y.segment<6>(6 * bj) += cb.B.block<1, 6>(r, 6).transpose();
    tree.transpose_times(kin, y, y_red);
    B_red.row(row + r) = y_red.transpose();
    if (bi != kGround) y.segment<6>(6 * bi).setZero();
    if (bj != kGround) y.segment<6>(6 * bj).setZero();
  }
}

// Whether a tree of n coordinates takes the recursive path.
bool choose_recursive(TreeAlpha::IterationMatrix choice, int n, bool nsga) {
  if (choice != TreeAlpha::IterationMatrix::kAuto)
    return choice == TreeAlpha::IterationMatrix::kRecursive;
  return !nsga && n >= kRecursiveFrom;
}

using newton_stop::kNoiseBand;
using newton_stop::kStepErrorFraction;
}  // namespace

bool TreeAlpha::applies(const System& sys, const SolverSettings& st, std::string* why) {
  auto refuse = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  if (st.coordinates == CoordinateChoice::kAbsolute) return refuse("solver.coordinates: absolute");
  if (st.analysis != Analysis::kDynamic) return refuse("not a dynamic analysis");
  if (st.integrator == IntegratorKind::kRk4 || st.integrator == IntegratorKind::kDormandPrince)
    return refuse("the integrator is not of the generalized-α family");
  // NSGA runs in the stabilized formulation whatever the setting says (GeneralizedAlpha): in
  // joint coordinates its smooth step keeps the loops' rows at index 3 and its corrections
  // project onto them.
  const bool nsga = st.integrator == IntegratorKind::kNsga || sys.num_gaps() > 0;
  if (!nsga && st.formulation != ConstraintFormulation::kIndex3 &&
      st.formulation != ConstraintFormulation::kStabilized)
    return refuse("the constraint formulation is ali3p or penalty");
  if (!nsga && sys.num_ideal_rows() > 0) return refuse("the model has clearance joints");
  if (nsga && sys.has_friction())
    return refuse("the contacts have friction (the frictional velocity jump is in body poses)");
  if (st.newton != NewtonMode::kModified) return refuse("newton: full");
  const State s0 = initial_state(sys);
  const std::optional<JointTree> tree = JointTree::build(sys, s0, why);
  if (!tree) return false;
  if (nsga && tree->num_coordinates() + tree->num_loop_rows() + sys.num_gaps() >= kDenseLimit)
    return refuse("NSGA with more than " + std::to_string(kDenseLimit) +
                  " joint coordinates, loop rows and contacts");
  if (tree->num_loop_rows() == 0) return true;
  if (!nsga && st.formulation != ConstraintFormulation::kIndex3)
    return refuse("closed loops with the stabilized formulation");
  // The loops' rows must be independent in joint coordinates: a planar loop's out-of-plane rows
  // are already held by the tree (body poses drop such rows as redundant; here they stay with
  // body poses).
  std::vector<BodyKinematics> kin(sys.model().num_bodies());
  tree->kinematics(VecX::Zero(tree->num_coordinates()),
                   std::vector<Mat3>(tree->rotation_slots().size(), Mat3::Identity()),
                   VecX::Zero(tree->num_coordinates()), kin);
  MatX B(tree->num_loop_rows(), tree->num_coordinates());
  loop_rows(sys, *tree, kin, s0.t, nullptr, nullptr, &B, nullptr);
  Eigen::ColPivHouseholderQR<MatX> qr(B.transpose());
  qr.setThreshold(1e-9);
  if (qr.rank() < B.rows())
    return refuse("the closed loops' rows are redundant in joint coordinates");
  return true;
}

void TreeAlpha::loop_rows(const System& sys, const JointTree& tree,
                          const std::vector<BodyKinematics>& kin, double t, VecX* phi,
                          const MatX* J, MatX* B_red, LoopForces* forces,
                          const std::vector<char>* skip, VecX* phi_t) {
  int row = 0;
  ConstraintBlock cb;
  cb.want_zeta = false;
  for (std::size_t k = 0; k < tree.loop_elements().size(); ++k) {
    const int e = tree.loop_elements()[k];
    const Element& el = *sys.model().elements[e];
    if (skip != nullptr && (*skip)[k]) {
      row += el.num_constraints();
      continue;
    }
    cb.reset(el.num_constraints());
    el.constraint(sys.input(e, t, kin), cb);
    const int bi = el.body_i(), bj = el.body_j();
    if (phi) phi->segment(row, cb.m) = cb.phi.head(cb.m);
    if (phi_t) phi_t->segment(row, cb.m) = cb.phi_t.head(cb.m);
    if (B_red) reduce_rows(tree, kin, cb, bi, bj, J, row, *B_red);
    if (forces) {  // Bᵀλ of the rows on their bodies
      const auto lam = forces->lambda.segment(row, cb.m);
      if (bi != kGround)
        forces->y.segment<6>(6 * bi).noalias() += cb.B.block(0, 0, cb.m, 6).transpose() * lam;
      if (bj != kGround)
        forces->y.segment<6>(6 * bj).noalias() += cb.B.block(0, 6, cb.m, 6).transpose() * lam;
    }
    row += cb.m;
  }
}

void TreeAlpha::coordinate_driver_rows(double t, const VecX& q, VecX* phi, VecX* phi_t,
                                       MatX* B) const {
  for (const CoordinateDriver& d : coordinate_drivers_) {
    if (phi) (*phi)(d.row) = d.theta0 + d.sigma * q(d.coord) - d.driver->driven_target(t);
    if (phi_t) (*phi_t)(d.row) = -d.driver->driven_target_rate(t);
    if (B) {
      B->row(d.row).setZero();
      (*B)(d.row, d.coord) = d.sigma;
    }
  }
}

void TreeAlpha::gather_loop_lambda(const VecX& global, VecX& lam) const {
  lam.setZero(static_cast<Eigen::Index>(loop_global_rows_.size()));
  if (global.size() != sys_.num_constraints()) return;
  for (std::size_t k = 0; k < loop_global_rows_.size(); ++k)
    if (loop_global_rows_[k] >= 0) lam(static_cast<Eigen::Index>(k)) = global(loop_global_rows_[k]);
}

void TreeAlpha::scatter_loop_lambda(const VecX& lam, VecX& global) const {
  if (global.size() != sys_.num_constraints()) global.setZero(sys_.num_constraints());
  for (std::size_t k = 0; k < loop_global_rows_.size(); ++k)
    if (loop_global_rows_[k] >= 0) global(loop_global_rows_[k]) = lam(static_cast<Eigen::Index>(k));
}

void TreeAlpha::start(State& s) {
  const bool fresh = !tree_ || s.tree_q.size() != tree_->num_coordinates() ||
                     s.tree_R.size() != tree_->rotation_slots().size();
  if (!fresh) return;
  std::string why;
  tree_ = JointTree::build(sys_, s, &why);
  if (!tree_) return;
  const int n = tree_->num_coordinates();
  coordinate_drivers_.clear();
  skip_.assign(tree_->loop_elements().size(), 0);
  loop_global_rows_.clear();
  for (int e : tree_->loop_elements())
    for (int r = 0; r < sys_.model().elements[e]->num_constraints(); ++r)
      loop_global_rows_.push_back(sys_.global_row(e, r));
  sys_.gather(s, kin_);
  s.tree_q.setZero(n);
  s.tree_R.assign(tree_->rotation_slots().size(), Mat3::Identity());
  tree_->rates(kin_, s.tree_qd);
  // q̈ of the state's accelerations (consistent ones, from make_consistent): the mass-weighted
  // solution of J q̈ = v̇ − J̇q̇, exact when v̇ moves along the joints.
  gather_loop_lambda(s.lambda, lam_);
  evaluate(s.t, s.tree_q, s.tree_R, s.tree_qd, VecX::Zero(n), VecX::Zero(lam_.size()));
  const VecX vdot_rel = s.vdot - vdot_;
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    const Body& body = sys_.model().bodies[b];
    y_.segment<3>(6 * b) = body.mass * vdot_rel.segment<3>(6 * b);
    y_.segment<3>(6 * b + 3) = body.inertia_B * vdot_rel.segment<3>(6 * b + 3);
  }
  tree_->transpose_times(kin_, y_, r_);
  blocks_.assign(sys_.model().num_bodies(), Mat6::Zero());
  sys_.mass(MatrixSink(&blocks_));
  recursive_ = choose_recursive(matrix_choice_, n, nsga_);
  if (recursive_) {
    if (!articulated_.factor(*tree_, kin_, blocks_)) {
      go_to_body_poses(s,
                       "the articulated inertia of body '" +
                           sys_.model().bodies[articulated_.singular_body()].name +
                           "' is singular along its joint",
                       true);
      return;
    }
    articulated_.solve(r_, s.tree_qdd);
  } else {
    tree_->project_blocks(kin_, blocks_, A_);
    s.tree_qdd = A_.ldlt().solve(r_);
    tree_->jacobian(kin_, J_);
  }
  find_coordinate_drivers(s);
  start_corrections();
  s.tree_a = s.tree_qdd;
  factored_h_ = -1.0;
  hist_.clear();
}

void TreeAlpha::find_coordinate_drivers(const State& s) {
  // A driver of a revolute or prismatic tree joint prescribes that joint's coordinate: its row is
  // θ(q) − θ_d(t) with θ(q) = θ₀ + σ q_k exactly (the two bodies turn or slide about that joint
  // alone), so it is evaluated in the coordinate, not through the element's markers (whose angle
  // costs an atan2 and two frames at every iteration: 10 % of a slider–crank step). θ₀ and σ = ±1
  // are read from the element at the reference state.
  coordinate_drivers_.clear();
  skip_.assign(tree_->loop_elements().size(), 0);
  MatX B(1, tree_->num_coordinates());
  int row = 0;
  for (std::size_t k = 0; k < tree_->loop_elements().size(); ++k) {
    const int e = tree_->loop_elements()[k];
    const Element& el = *sys_.model().elements[e];
    const DrivenMotion motion = el.driven_motion();
    const int coord = motion == DrivenMotion::kNone
                          ? -1
                          : tree_->coordinate_between(el.body_i(), el.body_j(),
                                                      motion == DrivenMotion::kRotation);
    if (coord >= 0) {
      ConstraintBlock cb;
      cb.want_zeta = false;
      cb.reset(1);
      el.constraint(sys_.input(e, s.t, kin_), cb);
      reduce_rows(*tree_, kin_, cb, el.body_i(), el.body_j(), recursive_ ? nullptr : &J_, 0, B);
      const double sigma = B(0, coord);
      B(0, coord) = 0.0;
      if (std::abs(std::abs(sigma) - 1.0) < 1e-9 && B.lpNorm<Eigen::Infinity>() < 1e-9) {
        coordinate_drivers_.push_back(
            {row, coord, sigma > 0 ? 1.0 : -1.0, cb.phi(0) + el.driven_target(s.t), &el});
        skip_[k] = 1;
      }
    }
    row += el.num_constraints();
  }
}

void TreeAlpha::evaluate(double t, const VecX& q, const std::vector<Mat3>& Q, const VecX& qd,
                         const VecX& qdd, const VecX& lam) {
  tree_->kinematics(q, Q, qd, kin_);
  tree_->accelerations(kin_, qd, qdd, vdot_);
  sys_.forces(kin_, t, f_, MatrixSink(), MatrixSink());
  y_.resize(vdot_.size());
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    const Body& body = sys_.model().bodies[b];
    y_.segment<3>(6 * b) = body.mass * vdot_.segment<3>(6 * b) - f_.segment<3>(6 * b);
    y_.segment<3>(6 * b + 3) =
        body.inertia_B * vdot_.segment<3>(6 * b + 3) - f_.segment<3>(6 * b + 3);
  }
  const int m = tree_->num_loop_rows();
  if (m > 0) {
    phi_.resize(m);
    LoopForces forces{lam, y_};
    loop_rows(sys_, *tree_, kin_, t, &phi_, nullptr, nullptr, &forces, &skip_);
  }
  if (any_persistent_) persistent_rows(t);
  tree_->transpose_times(kin_, y_, r_);
  coordinate_driver_rows(t, q, &phi_, nullptr, nullptr);
  for (const CoordinateDriver& d : coordinate_drivers_) r_(d.coord) += d.sigma * lam(d.row);
}

void TreeAlpha::body_blocks(double t, double beta_p, double gamma_p) {
  const int nb = sys_.model().num_bodies();
  tangents_.clear();
  sys_.forces(kin_, t, f_, MatrixSink(&tangents_, 0, 0, -1.0 / beta_p),
              MatrixSink(&tangents_, 0, 0, -gamma_p / beta_p));
  // The matrix is then JᵀMJ alone where the forces have no tangents (gravity, no springs):
  // NSGA's corrections factorize the same matrix (see correction_chord()).
  mass_only_ = std::all_of(tangents_.begin(), tangents_.end(),
                           [](const Eigen::Triplet<double>& e) { return e.value() == 0.0; });
  blocks_.assign(nb, Mat6::Zero());
  if (geometric_) add_geometric_stiffness(t, beta_p);
  mass_only_ = mass_only_ && !geometric_;
  couplings_.clear();
  for (const auto& e : tangents_) {
    if (e.row() / 6 == e.col() / 6) {
      blocks_[e.row() / 6](e.row() % 6, e.col() % 6) += e.value();
    } else if (e.value() != 0.0) {
      couplings_.push_back(e);
    }
  }
  // The mass straight into the blocks (it has no couplings), after the force tangents: the same
  // sums as through the triplets, without them.
  sys_.mass(MatrixSink(&blocks_));
}

void TreeAlpha::add_geometric_stiffness(double t, double beta_p) {
  // (1/β′)K_c of the joints' reactions at the iterate (JointTree::add_geometric_stiffness): the
  // tension of a long hanging chain, λ r against the links' J/(β h²), which the matrix JᵀMJ
  // alone leaves out. The reactions hold what the bodies' M v̇ − f and the loops' forces need;
  // the coordinate drivers' rows are loop rows here like any other.
  scatter_loop_lambda(lam_, lam_all_);
  y_.setZero(f_.size());
  if (tree_->num_loop_rows() > 0) {
    LoopForces forces{lam_, y_};
    loop_rows(sys_, *tree_, kin_, t, nullptr, nullptr, nullptr, &forces);
  }
  y_ = f_ - y_;
  tree_->add_geometric_stiffness(sys_, kin_, t, vdot_, y_, lam_all_, 1.0 / beta_p, blocks_);
}

void TreeAlpha::reduced_loop_rows(double t) {
  B_red_.resize(tree_->num_loop_rows(), tree_->num_coordinates());
  loop_rows(sys_, *tree_, kin_, t, nullptr, recursive_ ? nullptr : &J_, &B_red_, nullptr, &skip_);
  coordinate_driver_rows(t, q_, nullptr, nullptr, &B_red_);
}

bool TreeAlpha::factor_recursive(double h) {
  // The couplings between bodies through forces (springs, dampers between two bodies of the
  // tree) are left out of the recursive iteration matrix, which keeps the body-diagonal blocks
  // alone: modified Newton converges to the exact residual with any matrix close enough to the
  // tangent, at a rate set by what is left out (tree_alpha_recursive_test.cpp checks the
  // iterations per step against the dense path, which keeps them).
  if (!articulated_.factor(*tree_, kin_, blocks_)) return false;
  if (tree_->num_loop_rows() > 0) {
    reduced_loop_rows(solve_.t);
    if (!articulated_.factor_rows(B_red_)) return false;
  }
  factored_h_ = h;
  return true;
}

bool TreeAlpha::factor(double t, double h) {
  const double beta_p = p_.beta_prime(h);
  const double gamma_p = p_.gamma_prime(h);
  // A = Jᵀ(M + (γ′/β′) C_t + (1/β′) K_t)J: the body-diagonal blocks through the tree's composite
  // blocks, the force tangents' couplings between two bodies (springs, dampers) through J; then
  // the loops' rows B J: [A (B J)ᵀ; B J 0].
  const int nb = sys_.model().num_bodies();
  const int n = tree_->num_coordinates(), m = tree_->num_loop_rows();
  body_blocks(t, beta_p, gamma_p);
  factored_persistent_ = persistent_;
  if (recursive_) return factor_recursive(h);
  tree_->project_blocks(kin_, blocks_, A_);
  if (!couplings_.empty() || m > 0 || any_persistent_) tree_->jacobian(kin_, J_);
  if (!couplings_.empty()) {
    K_.resize(6 * nb, 6 * nb);
    K_.setFromTriplets(couplings_.begin(), couplings_.end());
    A_.noalias() += J_.transpose() * (K_ * J_);
  }
  if (m > 0) reduced_loop_rows(t);
  // NSGA: a row G_b J (of g = 0) and a column −(G_b J)ᵀ per persistent contact, an identity row
  // (λ_N = 0) per other contact, as GeneralizedAlpha's [M Bᵀ −Gᵀ; B; G].
  const int p = nsga_ ? sys_.num_gaps() : 0;
  if (m + p > 0) {
    saddle_.setZero(n + m + p, n + m + p);
    saddle_.topLeftCorner(n, n) = A_;
    if (m > 0) {
      saddle_.block(0, n, n, m) = B_red_.transpose();
      saddle_.block(n, 0, m, n) = B_red_;
    }
    for (int j = 0; j < p; ++j) {
      if (any_persistent_ && persistent_[j]) {
        saddle_.block(n + m + j, 0, 1, n).noalias() = G_body_.row(j) * J_;
        saddle_.block(0, n + m + j, n, 1) = -saddle_.block(n + m + j, 0, 1, n).transpose();
      } else {
        saddle_(n + m + j, n + m + j) = 1.0;
      }
    }
    lu_.compute(saddle_);
  } else {
    lu_.compute(A_);
  }
  // Singular: a zero pivot, or one at round-off of the largest (the determinant is no test: the
  // product of a long chain's pivots underflows).
  if (!lu_.matrixLU().allFinite()) return false;
  const auto pivots = lu_.matrixLU().diagonal().cwiseAbs();
  if (!(pivots.minCoeff() > kSingularPivot * pivots.maxCoeff())) return false;
  // Small matrices are solved by their inverse: one matrix-vector product per iteration instead
  // of two triangular solves (the slider–crank's 9 × 9: 10 % of a step), at the LU's accuracy
  // for the well-conditioned iteration matrices of small trees.
  use_inverse_ = n + m + p <= kInverseSize;
  if (use_inverse_) inverse_ = lu_.inverse();
  factored_h_ = h;
  return true;
}

void TreeAlpha::configure(const State& s) {
  q_ = s.tree_q + hdq_;
  Q_.resize(s.tree_R.size());
  const std::vector<int>& slots = tree_->rotation_slots();
  for (std::size_t k = 0; k < slots.size(); ++k)
    Q_[k] = s.tree_R[k] * so3::exp(hdq_.segment<3>(slots[k]));
}

StepResult TreeAlpha::step(State& s, double h) {
  if (body_poses_) return body_poses_->step(s, h);
  StepResult res = joint_step(s, h);
  if (res.converged || !recursive_ || body_poses_ ||
      settings_.coordinates != CoordinateChoice::kAuto)
    return res;
  // Even with the joints' geometric stiffness and GMRES on the exact tangent (prepare_matrix()),
  // a long spatial chain falling at h = 1e-3 s (100 links of chain_scaling_bench.cpp, from
  // 0.147 s) stalls above newton_tol, where body poses converge. Under `auto` such a run goes on
  // in body poses from the step's start (which the failed step left unchanged).
  // A singular articulated inertia met along the motion is named as at the start.
  std::ostringstream why;
  if (!slow_reason_.empty()) {
    why << slow_reason_;
  } else if (articulated_.singular_body() >= 0) {
    why << "the articulated inertia of body '"
        << sys_.model().bodies[articulated_.singular_body()].name
        << "' is singular along its joint";
  } else {
    why << "Newton did not converge in joint coordinates at t = " << s.t + h << " s";
  }
  go_to_body_poses(s, why.str(), false);
  return body_poses_->step(s, h);
}

void TreeAlpha::judge_cost(State& s, int smooth) {
  // Joint coordinates pay off when their dense matrix is refactorized rarely (the slider–crank
  // at h = 1e-5 s: 0.045 per step, a planar 10-link chain at 1e-4 s: 0.07). Where it is
  // refactorized at nearly every step (a spatial chain of spherical joints at h = 1e-3 s: the
  // rows turn by hω ≈ 1e-3 per step, so body poses refactorize every step too, but their sparse
  // matrix costs O(bodies), not O(n³)) the run goes on in body poses, from the state reached.
  // The rate is that of the whole run so far, judged every kJudgeSteps steps: a burst of
  // refactorizations (a fast passage) does not decide, a run that refactorizes throughout does.
  // Under NSGA body poses refactorize at every step too (their corrections use the factorization
  // as a chord) and the dense matrix is small (applies() keeps it under kDenseLimit): no switch.
  // On the recursive path the cost of a factorization is that of a few residuals, whatever the
  // size of the tree: no switch either.
  if (nsga_ || recursive_) return;
  ++judged_steps_;
  judged_factorizations_ += smooth;
  if (judged_steps_ % kJudgeSteps != 0) return;
  const double rate =
      static_cast<double>(judged_factorizations_) / static_cast<double>(judged_steps_);
  // A small open tree whose matrix ages fast is cheaper on the recursive path (kRecursiveRate):
  // its next factorization is the articulated one.
  if (rate > kRecursiveRate && matrix_choice_ == IterationMatrix::kAuto &&
      tree_->num_loop_rows() == 0 && tree_->num_coordinates() >= kRecursiveOpenTreeFrom) {
    recursive_ = true;
    factored_h_ = -1.0;
    return;
  }
  if (rate <= kMaxFactorRate) return;
  go_to_body_poses(s, "", false);
}

void TreeAlpha::go_to_body_poses(State& s, const std::string& why, bool fresh) {
  // The multipliers of every row, GeneralizedAlpha's predictor (a fresh start has them already).
  if (!fresh) complete_outputs(s);
  s.tree_q.resize(0);
  s.tree_qd.resize(0);
  s.tree_qdd.resize(0);
  s.tree_a.resize(0);
  s.tree_R.clear();
  SolverSettings absolute = settings_;
  absolute.coordinates = CoordinateChoice::kAbsolute;
  body_poses_ = std::make_unique<GeneralizedAlpha>(sys_, absolute);
  switch_time_ = s.t;
  body_poses_why_ = why;
}

std::string TreeAlpha::name() const {
  const char* scheme = nsga_ ? "nsga" : "generalized-alpha";
  if (!body_poses_) return std::string(scheme) + " (joint coordinates)";
  std::ostringstream os;
  os << scheme << " (joint coordinates, body poses from t = " << switch_time_ << " s";
  if (!body_poses_why_.empty()) os << ": " << body_poses_why_;
  os << ")";
  return os.str();
}

StepResult TreeAlpha::joint_step(State& s, double h) {
  start(s);
  if (!tree_) {
    StepResult res;
    res.message = "the joint-coordinate tree could not be built";
    return res;
  }
  if (body_poses_) return body_poses_->step(s, h);  // start() found joint coordinates singular
  return alpha_step(*this, s, h);
}

void TreeAlpha::keep_start(const State& s) {
  a_n_ = s.tree_a;
  qdd_n_ = s.tree_qdd;
}

void TreeAlpha::restore_start(State& s) {
  s.tree_a = a_n_;
  s.tree_qdd = qdd_n_;
}

void TreeAlpha::plan_predictor(const State& s, double h, bool restarted) {
  extrapolate_ =
      !restarted && hist_.continues(s.t, h, {&s.tree_qdd}) && persistent_ == hist_persistent_;
}

bool TreeAlpha::release_pulling() {
  if (!any_persistent_ || !release_pulling_contacts(lamN_, persistent_)) return false;
  any_persistent_ = std::find(persistent_.begin(), persistent_.end(), 1) != persistent_.end();
  return true;
}

bool TreeAlpha::apply_corrections(const State& s, double h, StepResult& res) {
  smooth_factorizations_ = res.factorizations;
  if (!nsga_) return true;
  // trial_ keeps its buffers from step to step: store() and the corrections write every field
  // the next step and the outputs read, except the multipliers' other rows.
  if (trial_.x_W.size() != s.x_W.size() || trial_.tree_q.size() != s.tree_q.size()) trial_ = s;
  trial_.lambda = s.lambda;
  trial_.memory = s.memory;  // of the step's start, as the forces read it (not two steps back)
  store(s.t + h, trial_);
  return correct(s, trial_, res);
}

void TreeAlpha::accept_step(State& s, double h, StepResult& res) {
  const double t = s.t + h;
  if (settings_.adaptive) res.error_estimate = scaled_local_error(a_ - s.tree_a, h);
  gather_loop_lambda(s.lambda, lam_start_);
  hist_.accept(h, t, extrapolate_, {&s.tree_qdd, &lam_start_, &s.lambda_N}, qdd_);
  hist_persistent_ = persistent_;
  if (nsga_) {
    std::swap(s, trial_);
  } else {
    store(t, s);
  }
  if (settings_.coordinates == CoordinateChoice::kAuto) judge_cost(s, smooth_factorizations_);
}

void TreeAlpha::store(double t, State& s) {
  s.tree_q = q_;
  s.tree_R = Q_;
  s.tree_qd = qd_;
  s.tree_qdd = qdd_;
  s.tree_a = a_;
  if (tree_->num_loop_rows() > 0) scatter_loop_lambda(lam_, s.lambda);
  if (nsga_) s.lambda_N = lamN_;
  write_state(t, s);
}

void TreeAlpha::smooth_solve(const State& s, double h, StepResult& res) {
  SmoothSolve& c = solve_;
  c.s = &s;
  c.h = h;
  c.t = s.t + h;
  c.beta_p = p_.beta_prime(h);
  c.gamma_p = p_.gamma_prime(h);
  // The Newton stop of GeneralizedAlpha's modified Newton (generalized_alpha.cpp, smooth_solve),
  // in joint coordinates: κ h²|β − 1/6|‖a_{n+1} − a_n‖∞, capped by newton_tol, bounded by the
  // accelerations, floored at round-off (of the bodies' positions and of the joint coordinates,
  // a driven crank's angle among them). NSGA keeps the absolute test, as in body poses.
  c.err_c = kStepErrorFraction * h * h * std::abs(p_.beta - 1.0 / 6.0);
  const double roundoff =
      std::max(newton_stop::roundoff(s),
               newton_stop::kRoundoffFloor * (1.0 + s.tree_q.lpNorm<Eigen::Infinity>()));
  c.newton_tol = alpha_newton_cap(settings_, roundoff);
  c.tol_floor = std::min(c.newton_tol, roundoff);
  c.step_stop = settings_.newton_step_error_stop && !nsga_;
  predict(s, h);
  c.motion = std::max(hdq_.lpNorm<Eigen::Infinity>(), kNoiseBand * c.tol_floor);
  if (std::abs(factored_h_ - h) > 1e-9 * h || factored_persistent_ != persistent_)
    factored_h_ = -1.0;
  c.chord = correction_chord(s);
  c.refresh = nsga_ ? kNsgaRefresh : kRefresh;
  c.evaluated = false;
  plan_refresh();
  const int iterations = res.iterations, factorizations = res.factorizations;
  newton_solve(*this, settings_.max_newton_iterations, res);
  if (res.converged) {
    judge_refresh(res.iterations - iterations + res.factorizations - factorizations);
  }
  if (res.converged && !c.evaluated) {
    tree_->kinematics(q_, Q_, qd_, kin_);
    tree_->accelerations(kin_, qd_, qdd_, vdot_);
  }
}

void TreeAlpha::predict(const State& s, double h) {
  // Predictor: q̈ and the multipliers extrapolated from the last steps when the last ended here
  // (with the same persistent contacts; predictor_history.hpp, λ_N linearly), else held.
  const int m = tree_->num_loop_rows(), p = nsga_ ? sys_.num_gaps() : 0;
  const double am = p_.alpha_m, af = p_.alpha_f, beta = p_.beta, gamma = p_.gamma;
  qdd_ = s.tree_qdd;
  gather_loop_lambda(s.lambda, lam_);
  lamN_.setZero(p);
  for (int j = 0; j < p; ++j)
    if (persistent_[j] && s.lambda_N.size() == p) lamN_(j) = s.lambda_N(j);
  if (extrapolate_) {
    const PredictorHistory::Weights w = hist_.weights(h);
    hist_.extrapolate(0, w, s.tree_qdd, qdd_);
    if (m > 0) hist_.extrapolate(1, w, lam_, lam_);
    const double r = hist_.linear_weights(h).c01;
    const VecX& lamN_start = hist_.last_start(2);
    for (int j = 0; j < p; ++j)
      if (persistent_[j] && lamN_start.size() == p) lamN_(j) += r * (s.lambda_N(j) - lamN_start(j));
  }
  a_ = ((1.0 - af) * qdd_ + af * s.tree_qdd - am * s.tree_a) / (1.0 - am);
  hdq_ = h * s.tree_qd + h * h * (0.5 - beta) * s.tree_a + h * h * beta * a_;
  qd_ = s.tree_qd + h * (1.0 - gamma) * s.tree_a + h * gamma * a_;
  configure(s);
}

double TreeAlpha::step_tol() const {
  const SmoothSolve& c = solve_;
  const double est = c.err_c * (a_ - c.s->tree_a).lpNorm<Eigen::Infinity>();
  const double pos =
      std::isfinite(est) && c.step_stop ? std::clamp(est, c.tol_floor, c.newton_tol) : c.newton_tol;
  return c.step_stop ? newton_stop::accel_bound(qdd_, c.beta_p, c.tol_floor, pos) : pos;
}

NewtonCheck TreeAlpha::evaluate_iterate(int, const NewtonTrace&) {
  evaluate(solve_.t, q_, Q_, qd_, qdd_, lam_);
  double phi_norm = tree_->num_loop_rows() > 0 ? phi_.lpNorm<Eigen::Infinity>() : 0.0;
  if (any_persistent_) phi_norm = std::max(phi_norm, r_c_.lpNorm<Eigen::Infinity>());
  NewtonCheck check;
  check.finite = r_.allFinite() && std::isfinite(phi_norm);
  check.phi = phi_norm;
  if (check.finite) check.tol = check.phi_tol = step_tol();
  return check;
}

void TreeAlpha::converged_at_evaluation() { solve_.evaluated = true; }

bool TreeAlpha::prepare_matrix(int it, NewtonTrace& tr, StepResult& res) {
  SmoothSolve& c = solve_;
  const bool stale = tr.fresh_at < 0;
  const bool measurable = tr.last_dx > kNoiseBand * c.tol_floor;
  if (!krylov_ && !nsga_ && tr.fresh_at >= 0 && it >= tr.fresh_at + 2 &&
      tr.slower_than(kGeometricRate) && measurable) {
    // A fresh matrix contracts slowly: first the joints' tension in the matrix (refactorized
    // here), then, if that is not enough, Krylov iterations on the exact tangent.
    if (!escalate(res)) return false;
    factored_h_ = -1.0;
    tr.fresh_at = -1;
  }
  if (tr.fresh_at >= 0 && it >= tr.fresh_at + 2 && tr.slower_than(kSlowRate) && measurable) {
    res.message = "Newton contracts too slowly";
    return false;
  }
  if (c.chord != nullptr && it >= 1 && tr.slower_than(c.refresh) && measurable) {
    c.chord = nullptr;  // contracts slowly: a factorization at this iterate
    factored_h_ = -1.0;
  }
  const bool slow_kept = stale && it >= 1 && tr.slower_than(c.refresh);
  const bool ahead = stale && it == 0 && factor_at_predictor_;
  if (c.chord == nullptr && (factored_h_ < 0.0 || slow_kept || ahead)) {
    if (slow_kept && factored_h_ >= 0.0) kept_matrix_was_slow();
    if (!factor(c.t, c.h)) {
      res.message = "singular iteration matrix";
      if (recursive_ && articulated_.singular_body() >= 0)
        res.message += ": the articulated inertia of body '" +
                       sys_.model().bodies[articulated_.singular_body()].name +
                       "' is singular along its joint";
      return false;
    }
    ++res.factorizations;
    tr.fresh_at = it;
  }
  return true;
}

void TreeAlpha::solve_matrix(VecX& v) {
  // v = P⁻¹ v with the iteration matrix P (the chord, recursive, inverse or LU), in place.
  if (solve_.chord != nullptr) {
    solve_.chord->solve(v);
  } else if (recursive_ && tree_->num_loop_rows() > 0) {
    articulated_.solve_saddle(v);
  } else if (recursive_) {
    articulated_.solve(v, sol_);
    v.swap(sol_);
  } else if (use_inverse_) {
    sol_.noalias() = inverse_ * v;
    v.swap(sol_);
  } else {
    sol_ = lu_.solve(v);
    v.swap(sol_);
  }
}

double TreeAlpha::solve() {
  const SmoothSolve& c = solve_;
  const int n = tree_->num_coordinates(), m = tree_->num_loop_rows();
  const int p = nsga_ ? sys_.num_gaps() : 0;
  rhs_.resize(n + m + p);
  rhs_.head(n) = -r_ / c.beta_p;
  if (m > 0) rhs_.segment(n, m) = -phi_;
  for (int j = 0; j < p; ++j)
    rhs_(n + m + j) = any_persistent_ && persistent_[j] ? -r_c_(j) : -lamN_(j) / c.beta_p;
  if (krylov_ && p == 0) {
    krylov_solve();
  } else {
    solve_matrix(rhs_);
  }
  return rhs_.head(n).lpNorm<Eigen::Infinity>();
}

void TreeAlpha::residual_change(const VecX& v, VecX& out) {
  // The iteration Jacobian's action, F′ v ≈ (F(ε v) − F(0))/ε with F = [r/β′; Φ] of the
  // increment applied as apply() applies it: every term of the tangent, those the matrix leaves
  // out included (the velocity terms J̇ q̇, the rotations' exp tangent, the couplings between
  // bodies). ε makes the largest coordinate move by kKrylovDelta; the iterate is restored after.
  const int n = tree_->num_coordinates(), m = tree_->num_loop_rows();
  const double vmax = v.lpNorm<Eigen::Infinity>();
  out.setZero(v.size());
  if (!(vmax > 0.0)) return;
  const double eps = kKrylovDelta / vmax;
  const VecX hdq = hdq_, qd = qd_, qdd = qdd_, a = a_, lam = lam_, r = r_, phi = phi_;
  rhs_ = eps * v;
  apply();
  evaluate(solve_.t, q_, Q_, qd_, qdd_, lam_);
  out.head(n) = (r_ - r) / (eps * solve_.beta_p);
  if (m > 0) out.segment(n, m) = (phi_ - phi) / eps;
  hdq_ = hdq;
  qd_ = qd;
  qdd_ = qdd;
  a_ = a;
  lam_ = lam;
  r_ = r;
  phi_ = phi;
  configure(*solve_.s);
}

void TreeAlpha::krylov_solve() {
  // GMRES on F′ ξ = −F, right-preconditioned by the iteration matrix (flexible form: the
  // preconditioned vectors Z are kept), up to kKrylovVectors vectors or a residual kKrylovTol of
  // the start's. Each vector costs one residual and one solve, O(bodies) on the recursive path.
  const VecX b = rhs_;
  const double beta = b.norm();
  const int size = static_cast<int>(b.size());
  if (!(beta > 0.0)) return;
  std::vector<VecX> V{b / beta}, Z;
  MatX H = MatX::Zero(kKrylovVectors + 1, kKrylovVectors);
  VecX w, y;
  int k = 0;
  for (; k < kKrylovVectors;) {
    VecX z = V[static_cast<std::size_t>(k)];
    solve_matrix(z);
    residual_change(z, w);
    Z.push_back(std::move(z));
    for (int i = 0; i <= k; ++i) {
      H(i, k) = V[static_cast<std::size_t>(i)].dot(w);
      w -= H(i, k) * V[static_cast<std::size_t>(i)];
    }
    H(k + 1, k) = w.norm();
    ++k;
    VecX e = VecX::Zero(k + 1);
    e(0) = beta;
    const MatX Hk = H.topLeftCorner(k + 1, k);
    y = Hk.householderQr().solve(e);
    const double res = (e - Hk * y).norm();
    if (!(res > kKrylovTol * beta) || !(H(k, k - 1) > 1e-14 * beta)) break;
    V.push_back(w / H(k, k - 1));
  }
  rhs_.setZero(size);
  for (int i = 0; i < k; ++i) rhs_ += y(i) * Z[static_cast<std::size_t>(i)];
}

bool TreeAlpha::drop_stale_matrix(int it, const NewtonTrace& tr) {
  // (as GeneralizedAlpha's): a stale matrix is refactorized here, a fresh one fails the attempt.
  // A fresh one without the joints' geometric stiffness takes it in and is refactorized.
  if (tr.fresh_at == it) {
    if (krylov_ || nsga_) return false;
    StepResult ignored;
    if (!escalate(ignored)) return false;
  } else if (factored_h_ >= 0.0) {
    kept_matrix_was_slow();
  }
  factored_h_ = -1.0;
  solve_.chord = nullptr;
  return true;
}

bool TreeAlpha::escalate(StepResult& res) {
  if (!geometric_) {
    geometric_ = true;
    return true;
  }
  // Where even the tension in the matrix leaves Newton contracting slowly, Krylov iterations on
  // the exact tangent cost a residual and a solve per vector: more than body poses, whose
  // matrix is the whole tangent (measured on a 1023-body binary tree of spherical joints at
  // h = 1e-4 s: 7.8 µs per body and step with them against 2.2 µs in body poses; on a 100-link
  // spatial chain at h = 1e-3 s, 1.21× body poses). Under `auto` the run goes on in body poses
  // (step()); with joint coordinates forced it takes the Krylov iterations.
  if (recursive_ && settings_.coordinates == CoordinateChoice::kAuto) {
    std::ostringstream why;
    why << "Newton contracts slowly in joint coordinates at t = " << solve_.t
        << " s even with the joints' geometric stiffness";
    slow_reason_ = why.str();
    res.message = slow_reason_;
    return false;
  }
  krylov_ = true;
  return true;
}

void TreeAlpha::plan_refresh() {
  // On the recursive path a factorization costs about one residual. Where matrices kept from
  // the previous step contract slowly, refreshing them at the second iteration pays the
  // factorization and a wasted iteration; factorizing at the predictor pays only the
  // factorization (a 1023-body binary tree of spherical joints at h = 1e-4 s: a kept matrix
  // contracts by 0.6–0.9 from the first steps, a fresh one by 1e-5; 4.4 iterations and a
  // factorization per step against 2.3 and one). Why a matrix ages so fast there: a slender
  // link spinning about its own axis while its children, hung on that axis, counter-rotate
  // moves only its axial inertia, so JᵀMJ has eigenvalues down to 2.6e-7 against 0.99 (127
  // links), and those soft directions turn with the links: one step from rest changes A by
  // 4e-6 of its norm, 20× its smallest eigenvalue (‖A₁⁻¹(A₂ − A₁)‖₂ = 2.5). But a matrix at the
  // predictor can contract slower than one refreshed two iterations on (a 100-link spatial chain
  // falling at h = 1e-3 s: 4.9 iterations and one factorization against 4.2 and 0.84), so the two
  // are compared: trials of the kept matrix every trial_every_ steps, kept when no dearer than the
  // steps refreshed ahead (judge_refresh()). Where kept matrices serve (planar chains: 5e-4
  // factorizations per step) nothing changes: refreshing ahead starts when a matrix fails the
  // step after the one that factorized it.
  trial_step_ = trial_failed_ = factor_at_predictor_ = false;
  ++solves_;
  if (!recursive_ || nsga_ || krylov_ || !refresh_ahead_) return;
  if (++ahead_steps_ % trial_every_ == 0) {
    trial_step_ = true;  // the kept matrix again
    return;
  }
  factor_at_predictor_ = true;
}

void TreeAlpha::kept_matrix_was_slow() {
  if (!recursive_ || nsga_ || krylov_ || !refresh_ahead_allowed_) return;
  if (refresh_ahead_) {
    trial_failed_ = trial_step_;
    return;
  }
  // A burst (a planar 90-link chain refreshes at 4 % of its steps) is left to the kept
  // matrices; a matrix that fails one step after it was factorized ages too fast to keep.
  const bool again = last_slow_solve_ == solves_ - 1;
  last_slow_solve_ = solves_;
  if (!again || solves_ < hold_until_) return;
  refresh_ahead_ = true;
  trial_every_ = kFirstTrial;
  ahead_steps_ = 0;
  ahead_cost_ = 0;
  ahead_solves_ = 0;
}

void TreeAlpha::judge_refresh(int cost) {
  // cost: iterations and factorizations of the converged smooth solve, each about a residual.
  if (factor_at_predictor_) {
    ahead_cost_ += cost;
    ++ahead_solves_;
    return;
  }
  if (!trial_step_) return;
  const bool kept_cheaper =
      !trial_failed_ || (ahead_solves_ > 0 && cost * ahead_solves_ <= ahead_cost_);
  if (!kept_cheaper) {
    trial_every_ = std::min(2 * trial_every_, kLastTrial);
    return;
  }
  refresh_ahead_ = false;
  if (trial_failed_) {  // kept on cost: not refreshed ahead again for a while
    hold_until_ = solves_ + hold_;
    hold_ = std::min(2 * hold_, kLongestHold);
  }
}

void TreeAlpha::apply() {
  const SmoothSolve& c = solve_;
  const int n = tree_->num_coordinates(), m = tree_->num_loop_rows();
  const int p = nsga_ ? sys_.num_gaps() : 0;
  const double am = p_.alpha_m, af = p_.alpha_f;
  const auto xi = rhs_.head(n);
  hdq_ += xi;
  configure(*c.s);
  qd_ += c.gamma_p * xi;
  qdd_ += c.beta_p * xi;
  a_ += ((1.0 - af) / (1.0 - am)) * c.beta_p * xi;
  if (m > 0) lam_ += c.beta_p * rhs_.segment(n, m);
  if (p > 0) lamN_ += c.beta_p * rhs_.tail(p);
}

bool TreeAlpha::accept(int it, NewtonTrace& tr, const NewtonCheck& check) {
  // Accept when the contraction rate ρ bounds the remaining error, ρ/(1 − ρ)·‖ξ‖ ≤ tol/10, or
  // the increment is at the round-off floor (as in body poses).
  const double tol_floor = solve_.tol_floor;
  // With Krylov iterations on the exact tangent an increment that stalls within newton_tol is
  // the residual's round-off (the falling 100-link chain stalls at 4e-12 after contracting by
  // 1e-3 per iteration, above the step-error stop's 1e-12): at the floor too.
  const bool at_floor =
      tr.stalled(it, 1) && (tr.last_dx <= kNoiseBand * tol_floor ||
                            (krylov_ && it >= 2 && tr.last_dx <= solve_.newton_tol));
  const double phi_tol = at_floor ? std::max(check.tol, kNoiseBand * tol_floor) : check.tol;
  if (it < 1 || check.phi > phi_tol || !(tr.contracting() || at_floor)) return false;
  return at_floor || tr.last_dx <= tol_floor || tr.remaining_error_within(step_tol());
}

std::string TreeAlpha::failure_report(const State& start, double h) const {
  const double t = start.t + h;
  // As GeneralizedAlpha's: where the residuals are largest at the last iterate, and the force
  // that may be too stiff for the step.
  std::ostringstream os;
  os << "Newton did not converge at t = " << t << " s (step h = " << h << " s)";
  const int m = tree_->num_loop_rows();
  if (m > 0 && phi_.size() == m && phi_.allFinite()) {
    Eigen::Index worst = 0;
    const double w = phi_.cwiseAbs().maxCoeff(&worst);
    int row = 0;
    for (int e : tree_->loop_elements()) {
      const int rows = sys_.model().elements[e]->num_constraints();
      if (worst < row + rows) {
        const int g = sys_.global_row(e, static_cast<int>(worst) - row);
        if (g >= 0) os << "; largest constraint residual " << w << " in " << sys_.describe_row(g);
        break;
      }
      row += rows;
    }
  } else if (m > 0) {
    os << "; the constraint residual is not finite";
  }
  if (r_.size() > 0 && r_.allFinite()) {
    Eigen::Index worst = 0;
    const double w = r_.cwiseAbs().maxCoeff(&worst);
    const int b = tree_->body_of_coordinate(static_cast<int>(worst));
    os << "; largest dynamic residual " << w << " at the joint carrying body '"
       << sys_.model().bodies[b].name << "'";
    const std::string stiff = sys_.describe_stiffest_force(b, start, &kin_, h);
    if (!stiff.empty()) os << "; " << stiff;
  } else {
    os << "; the dynamic residual is not finite";
  }
  return os.str();
}

void TreeAlpha::write_state(double t, State& s) const {
  s.t = t;
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    s.x_W[b] = kin_[b].x_W;
    s.R_WB[b] = kin_[b].R_WB;
    s.v.segment<3>(6 * b) = kin_[b].v_W;
    s.v.segment<3>(6 * b + 3) = kin_[b].w_B;
  }
  s.vdot = vdot_;
  s.a = vdot_;  // no pseudo-acceleration in body coordinates
}

double TreeAlpha::scaled_local_error(const VecX& da, double h) {
  // The position error in joint coordinates, h²|β − 1/6|(a_{n+1} − a_n), moved to the bodies by
  // J and measured there as GeneralizedAlpha measures its own.
  scratch_.x_W.resize(kin_.size());
  for (std::size_t b = 0; b < kin_.size(); ++b) scratch_.x_W[b] = kin_[b].x_W;
  if (recursive_) {
    // J da as the body velocities of rates da (no J of O(bodies²) entries); the kinematics of
    // the iterate are restored after.
    std::vector<BodyKinematics> moved(kin_.size());
    tree_->kinematics(q_, Q_, da, moved);
    scratch_.a.resize(6 * static_cast<Eigen::Index>(kin_.size()));
    for (std::size_t b = 0; b < kin_.size(); ++b) {
      scratch_.a.segment<3>(6 * static_cast<Eigen::Index>(b)) = moved[b].v_W;
      scratch_.a.segment<3>(6 * static_cast<Eigen::Index>(b) + 3) = moved[b].w_B;
    }
    tree_->kinematics(q_, Q_, qd_, kin_);
  } else {
    tree_->jacobian(kin_, J_);
    scratch_.a = J_ * da;
  }
  zero_.a = VecX::Zero(scratch_.a.size());
  return alpha_local_error(sys_, settings_, p_, zero_, scratch_, h);
}

void TreeAlpha::complete_outputs(State& s) {
  if (body_poses_) return;
  if (!tree_ || s.tree_q.size() != tree_->num_coordinates() || sys_.num_constraints() == 0) return;
  // The tree joints' reactions carry each subtree's M v̇ − f, the loops' forces Bᵀλ and the
  // persistent contacts' forces Gᵀλ_N on it; under NSGA their impulses likewise carry M W, the
  // loops' μ and the contacts' Λ_N.
  sys_.gather(s, kin_);
  sys_.forces(kin_, s.t, f_, MatrixSink(), MatrixSink());
  const int p = nsga_ ? sys_.num_gaps() : 0;
  if (p > 0) {
    G_body_.setZero(p, f_.size());
    gN_.resize(p);
    sys_.gaps(kin_, s.t, &gN_, MatrixSink(&G_body_));
  }
  auto external = [&](const VecX& global, const VecX* contact, VecX& f) {
    if (tree_->num_loop_rows() > 0) {
      gather_loop_lambda(global, lam_);
      y_.setZero(f.size());
      LoopForces forces{lam_, y_};
      loop_rows(sys_, *tree_, kin_, s.t, nullptr, nullptr, nullptr, &forces);
      f -= y_;
    }
    if (p > 0 && contact != nullptr && contact->size() == p)
      f.noalias() += G_body_.transpose() * *contact;
  };
  external(s.lambda, &s.lambda_N, f_);
  tree_->reactions(sys_, kin_, s.t, s.vdot, f_, s.lambda);
  if (p > 0 && s.lambda_jump.size() == sys_.num_constraints() && s.v_jump.size() == f_.size()) {
    f_.setZero();
    external(s.lambda_jump, &s.Lambda, f_);
    tree_->reactions(sys_, kin_, s.t, s.v_jump, f_, s.lambda_jump);
  }
}

}  // namespace cs
