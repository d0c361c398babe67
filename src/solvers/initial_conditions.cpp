#include "clearsim/solvers/initial_conditions.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <random>
#include <sstream>

#include "clearsim/solvers/configuration.hpp"

namespace cs {

bool use_sparse(int unknowns, LinearSolverKind kind) {
  if (kind == LinearSolverKind::kDense) return false;
  if (kind == LinearSolverKind::kSparse) return true;
  return unknowns > kDenseLimit;
}

State initial_state(const System& sys, double t0) {
  const Model& m = sys.model();
  State s;
  s.resize(m.num_bodies(), sys.num_constraints());
  s.resize_gaps(sys.num_gaps());
  s.memory = VecX::Zero(sys.num_memory());
  s.t = t0;
  for (int b = 0; b < m.num_bodies(); ++b) {
    const Body& body = m.bodies[b];
    s.x_W[b] = body.x0_W;
    s.R_WB[b] = body.R0_WB;
    s.v.segment<3>(6 * b) = body.v0_W;
    s.v.segment<3>(6 * b + 3) = body.R0_WB.transpose() * body.w0_W;
  }
  return s;
}

void assemble_mass_saddle(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                          LinearSystem& ls) {
  const int n = sys.num_dofs();
  MatrixSink S = ls.begin();
  sys.mass(S);
  sys.constraints(kin, t, nullptr, S.shifted(n, 0), nullptr, nullptr);
  // Bᵀ block: the transpose of what was written below the mass (dense: a small matrix; sparse:
  // its triplets — never a dense m × n matrix for a large model).
  if (sys.num_constraints() > 0 && !ls.is_sparse()) {
    MatX B = MatX::Zero(sys.num_constraints(), n);
    sys.constraints(kin, t, nullptr, MatrixSink(&B), nullptr, nullptr);
    S.add_block(0, n, B.transpose());
    return;
  }
  if (sys.num_constraints() > 0) {
    std::vector<Eigen::Triplet<double>> tr;
    sys.constraints(kin, t, nullptr, MatrixSink(&tr), nullptr, nullptr);
    for (const auto& e : tr) S.add(e.col(), n + e.row(), e.value());
  }
}

namespace {
// Text naming the constraint rows with the largest |Φ|.
std::string worst_rows(const System& sys, const VecX& phi, int count = 3) {
  std::vector<int> idx(phi.size());
  for (int i = 0; i < phi.size(); ++i) idx[i] = i;
  std::sort(idx.begin(), idx.end(),
            [&](int a, int b) { return std::abs(phi(a)) > std::abs(phi(b)); });
  std::ostringstream os;
  for (int k = 0; k < std::min<int>(count, static_cast<int>(idx.size())); ++k) {
    os << "\n    " << sys.describe_row(idx[k]) << ": residual " << phi(idx[k]);
  }
  return os.str();
}

void prepare(const System& sys, LinearSystem& ls, LinearSolverKind kind = LinearSolverKind::kAuto) {
  const int N = sys.num_dofs() + sys.num_constraints();
  const bool sparse = use_sparse(N, kind);
  if (ls.size() != N || ls.is_sparse() != sparse) ls.resize(N, sparse);
}
}  // namespace

SolveReport assemble_positions(const System& sys, State& s, double tol, int max_iterations,
                               LinearSystem& ls) {
  SolveReport rep;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  if (m == 0) return rep;
  prepare(sys, ls);
  std::vector<BodyKinematics> kin;
  VecX phi(m), rhs(n + m);
  for (int it = 0; it <= max_iterations; ++it) {
    sys.gather(s, kin);
    sys.constraints(kin, s.t, &phi, MatrixSink(), nullptr, nullptr);
    rep.residual = phi.lpNorm<Eigen::Infinity>();
    rep.iterations = it;
    if (!std::isfinite(rep.residual)) break;
    if (rep.residual <= tol) return rep;
    if (it == max_iterations) break;
    assemble_mass_saddle(sys, kin, s.t, ls);
    if (!ls.factorize()) {
      rep.ok = false;
      rep.message =
          "the constraint Jacobian is singular at this configuration (a joint is at a "
          "singular position or constraints conflict)" +
          worst_rows(sys, phi);
      return rep;
    }
    rhs.setZero();
    rhs.tail(m) = -phi;
    ls.solve(rhs);
    integrate_configuration(s, rhs.head(n), s);
  }
  rep.ok = false;
  std::ostringstream os;
  os << "could not assemble the mechanism: ‖Φ‖∞ = " << rep.residual << " after " << rep.iterations
     << " Newton iterations (are the initial positions close to a closed "
     << "configuration?)" << worst_rows(sys, phi);
  rep.message = os.str();
  return rep;
}

namespace {
// Rows of `cand` that are independent of the rows of `base` and of each other (rank-revealing
// QR of cand projected on the null space of base; rows scaled to unit norm first).
std::vector<int> independent_rows(const MatX& base, const MatX& cand) {
  const int n = static_cast<int>(cand.cols());
  MatX N;
  if (base.rows() > 0) {
    Eigen::FullPivLU<MatX> lu(base);
    lu.setThreshold(1e-10);
    N = lu.kernel();
  } else {
    N = MatX::Identity(n, n);
  }
  MatX CN = cand * N;
  for (int r = 0; r < CN.rows(); ++r) {
    const double nr = cand.row(r).norm();
    if (nr > 0) CN.row(r) /= nr;
  }
  std::vector<int> keep;
  if (CN.cols() == 0 || CN.rows() == 0) return keep;
  Eigen::ColPivHouseholderQR<MatX> qr(CN.transpose());
  qr.setThreshold(1e-9);
  std::vector<bool> kept(cand.rows(), false);
  for (Eigen::Index k = 0; k < qr.rank(); ++k) kept[qr.colsPermutation().indices()(k)] = true;
  for (int r = 0; r < cand.rows(); ++r)
    if (kept[r]) keep.push_back(r);
  return keep;
}

// Why [M Bᵀ; B 0] did not factorize: the constraint rows that depend on the others (named), or,
// when B has full rank, the spread of the bodies' masses that makes the matrix singular in
// floating point (a body of 1e308 kg beside one of 0.1 kg).
std::string singular_saddle_report(const System& sys, const std::vector<BodyKinematics>& kin,
                                   double t) {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  MatX B = MatX::Zero(m, n);
  sys.constraints(kin, t, nullptr, MatrixSink(&B), nullptr, nullptr);
  const std::vector<int> keep = independent_rows(MatX(0, n), B);
  std::ostringstream os;
  os.precision(3);
  os << "singular constraint Jacobian in the velocity assembly";
  if (static_cast<int>(keep.size()) < m) {
    os << ": these rows depend on the others —";
    std::vector<bool> kept(m, false);
    for (int r : keep) kept[r] = true;
    int listed = 0;
    for (int r = 0; r < m && listed < 4; ++r)
      if (!kept[r]) os << (listed++ ? "; " : " ") << sys.describe_row(r);
    return os.str();
  }
  const auto& bodies = sys.model().bodies;
  int lo = 0, hi = 0;
  for (int b = 1; b < static_cast<int>(bodies.size()); ++b) {
    if (bodies[b].mass < bodies[lo].mass) lo = b;
    if (bodies[b].mass > bodies[hi].mass) hi = b;
  }
  os << ": the joints' rows are independent, so the masses make the matrix singular in floating "
        "point: body '"
     << bodies[hi].name << "' " << bodies[hi].mass << " kg beside body '" << bodies[lo].name << "' "
     << bodies[lo].mass << " kg";
  return os.str();
}
}  // namespace

namespace {
// Prescribed body velocities as rows P v = p, three per vector given, with their names.
struct PrescribedRows {
  MatX P;
  VecX p;
  std::vector<std::string> names;
};

PrescribedRows prescribed_velocity_rows(const Model& model, const State& s, int n) {
  std::vector<MatX> rows;
  std::vector<Vec3> targets;
  PrescribedRows out;
  for (int b = 0; b < model.num_bodies(); ++b) {
    const Body& body = model.bodies[b];
    if (body.v0_prescribed) {
      MatX P = MatX::Zero(3, n);
      P.block<3, 3>(0, 6 * b).setIdentity();
      rows.push_back(P);
      targets.push_back(body.v0_W);
      out.names.push_back("velocity of body '" + body.name + "'");
    }
    if (body.w0_prescribed) {
      MatX P = MatX::Zero(3, n);
      P.block<3, 3>(0, 6 * b + 3) = s.R_WB[b];  // ω_W = R Ω_B
      rows.push_back(P);
      targets.push_back(body.w0_W);
      out.names.push_back("angular velocity of body '" + body.name + "'");
    }
  }
  const int np = 3 * static_cast<int>(rows.size());
  out.P.resize(np, n);
  out.p.resize(np);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    out.P.middleRows<3>(3 * k) = rows[k];
    out.p.segment<3>(3 * k) = targets[k];
  }
  return out;
}

// Minimal mass-weighted change of v onto the joints: [M Bᵀ; B 0][v; μ] = [M v_guess; −Φ_t].
SolveReport project_on_joints(const System& sys, const std::vector<BodyKinematics>& kin, State& s,
                              LinearSystem& ls) {
  SolveReport rep;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  if (m == 0) return rep;
  VecX phi_t = VecX::Zero(m);
  prepare(sys, ls);
  sys.constraints(kin, s.t, nullptr, MatrixSink(), &phi_t, nullptr);
  assemble_mass_saddle(sys, kin, s.t, ls);
  if (!ls.factorize()) {
    rep.ok = false;
    rep.message = singular_saddle_report(sys, kin, s.t);
    return rep;
  }
  VecX rhs(n + m), Mv;
  sys.mass_times(s.v, Mv);
  rhs << Mv, -phi_t;
  ls.solve(rhs);
  s.v = rhs.head(n);
  return rep;
}

// Every joint row, the prescribed rows independent of the joints, then the ideal rows Q of
// clearance joints independent of both (rows that only repeat what is already imposed are
// dropped), as C v = c.
void velocity_rows(const MatX& B, const VecX& phi_t, const PrescribedRows& pr, const MatX& Q,
                   MatX& C, VecX& c) {
  const int m = static_cast<int>(B.rows()), n = static_cast<int>(B.cols());
  const std::vector<int> keep_p = independent_rows(B, pr.P);
  MatX BP(m + static_cast<int>(keep_p.size()), n);
  BP.topRows(m) = B;
  for (std::size_t k = 0; k < keep_p.size(); ++k) BP.row(m + k) = pr.P.row(keep_p[k]);
  const std::vector<int> keep_q = independent_rows(BP, Q);
  const int nk = static_cast<int>(keep_p.size() + keep_q.size());
  C.resize(m + nk, n);
  c = VecX::Zero(m + nk);
  C.topRows(BP.rows()) = BP;
  c.head(m) = -phi_t;
  for (std::size_t k = 0; k < keep_p.size(); ++k) c(m + k) = pr.p(keep_p[k]);
  for (std::size_t k = 0; k < keep_q.size(); ++k) C.row(BP.rows() + k) = Q.row(keep_q[k]);
}

// A prescribed velocity the joints did not let through, said (the closest value is kept).
void report_missed_prescriptions(const PrescribedRows& pr, const VecX& v, SolveReport& rep) {
  const VecX miss = pr.P * v - pr.p;
  for (int r = 0; r < static_cast<int>(pr.p.size()); ++r) {
    if (std::abs(miss(r)) > 1e-9 * (1.0 + std::abs(pr.p(r)))) {
      std::ostringstream os;
      os << "the initial " << pr.names[r / 3] << " (component "
         << "xyz"[r % 3] << " = " << pr.p(r)
         << ") is not compatible with the joints; the closest compatible value "
         << (pr.P.row(r) * v)(0) << " is used";
      if (!rep.message.empty()) rep.message += '\n';
      rep.message += os.str();
    }
  }
}
}  // namespace

SolveReport assemble_velocities(const System& sys, State& s, LinearSystem& ls,
                                bool use_prescribed) {
  SolveReport rep;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  const PrescribedRows pr = use_prescribed ? prescribed_velocity_rows(sys.model(), s, n)
                                           : PrescribedRows{MatX(0, n), VecX(0), {}};
  // Clearance joints start moving as their ideal joints (Q v = 0) where the joints and the
  // prescribed velocities leave that free: otherwise the minimal-norm velocities would give the
  // journal an arbitrary speed inside its bearing at t = 0 (13 m/s in seed 000's slider-crank).
  const int nq = use_prescribed ? sys.num_ideal_rows() : 0;
  MatX Q = MatX::Zero(nq, n);
  if (nq > 0) sys.ideal_rows(kin, s.t, MatrixSink(&Q));
  if (pr.p.size() == 0 && nq == 0) return project_on_joints(sys, kin, s, ls);
  // Dense: this runs once, at t = 0, on models that prescribe velocities or have clearance
  // joints.
  MatX B = MatX::Zero(m, n), C;
  VecX phi_t = VecX::Zero(m), c;
  sys.constraints(kin, s.t, nullptr, MatrixSink(&B), &phi_t, nullptr);
  velocity_rows(B, phi_t, pr, Q, C, c);
  const auto rows = static_cast<int>(C.rows());
  MatX S = MatX::Zero(n + rows, n + rows);
  MatX M = MatX::Zero(n, n);
  sys.mass(MatrixSink(&M));
  S.topLeftCorner(n, n) = M;
  S.topRightCorner(n, rows) = C.transpose();
  S.bottomLeftCorner(rows, n) = C;
  VecX rhs(n + rows);
  rhs << M * s.v, c;
  Eigen::PartialPivLU<MatX> lu(S);
  if (!(lu.rcond() > 1e-15)) {
    rep.ok = false;
    rep.message = "singular system in the velocity assembly";
    return rep;
  }
  s.v = lu.solve(rhs).head(n);
  report_missed_prescriptions(pr, s.v, rep);
  return rep;
}

SolveReport solve_accelerations(const System& sys, State& s, LinearSystem& ls) {
  SolveReport rep;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  prepare(sys, ls);
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX f, zeta = VecX::Zero(m);
  sys.forces(kin, s.t, f, MatrixSink(), MatrixSink());
  sys.constraints(kin, s.t, nullptr, MatrixSink(), nullptr, &zeta);
  assemble_mass_saddle(sys, kin, s.t, ls);
  if (!ls.factorize()) {
    rep.ok = false;
    rep.message = "singular system [M Bᵀ; B 0] for the initial accelerations";
    return rep;
  }
  VecX rhs(n + m);
  rhs << f, -zeta;
  ls.solve(rhs);
  s.vdot = rhs.head(n);
  s.lambda = rhs.tail(m);
  return rep;
}

namespace {
// A configuration near s, moved along the constraint manifold (a random admissible velocity,
// including the drivers' motion, for a short time) and re-assembled. Rank decisions taken there
// see structural redundancy only, not the extra rank loss of a singular (dead-centre) start.
bool generic_neighbour(const System& sys, const State& s, double tol, LinearSystem& ls, State& g) {
  g = s;
  std::mt19937 rng(20261121);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < g.v.size(); ++k) g.v(k) = u(rng);
  if (!assemble_velocities(sys, g, ls, /*use_prescribed=*/false).ok) return false;
  const double vmax = g.v.lpNorm<Eigen::Infinity>();
  if (!(vmax > 0.0)) return false;
  const double eps = 1e-3 / vmax;  // moves every coordinate by at most 1 mm or 1 mrad
  integrate_configuration(s, eps * g.v, g);
  g.t = s.t + eps;
  return assemble_positions(sys, g, tol, 50, ls).ok;
}
}  // namespace

namespace {
// Closed frictional contacts that start without slip start sticking (friction memory).
void mark_initial_sticking(const System& sys, State& s, double tol) {
  const int p = sys.num_gaps();
  if (p == 0 || !sys.has_friction()) return;
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX g(p);
  sys.gaps(kin, s.t, &g, MatrixSink());
  MatX T = MatX::Zero(2 * p, sys.num_dofs());
  sys.tangential(kin, s.t, MatrixSink(&T));
  const VecX vT = T * s.v;
  for (int j = 0; j < p; ++j)
    s.sticking[j] =
        sys.friction()(j) > 0.0 && g(j) <= 10.0 * tol && vT.segment<2>(2 * j).norm() <= 1e-12;
}
}  // namespace

namespace {
// ‖B v + Φ_t‖∞ at s: how far its velocities are from the velocity constraints.
double velocity_violation(const System& sys, const State& s) {
  const int m = sys.num_constraints();
  if (m == 0) return 0.0;
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX phi(m), Btl(sys.num_dofs()), Bv(m);
  Btl.setZero();
  sys.constraint_products(kin, s.t, VecX::Zero(m), &s.v, phi, Btl, &Bv);
  return Bv.lpNorm<Eigen::Infinity>();
}
}  // namespace

SolveReport make_consistent(System& sys, State& s, double tol, std::vector<std::string>& notes,
                            StartFrom from) {
  LinearSystem ls;
  const State guess = s;
  // Rows dependent at the initial guess must go before Newton can assemble at all.
  std::vector<std::string> removed = sys.remove_redundant_rows(s);
  SolveReport rep = assemble_positions(sys, s, tol, 50, ls);
  if (!rep.ok) return rep;
  // Decide redundancy at a generic neighbour; if that keeps rows the first decision dropped,
  // the start is singular for them and the assembly is redone with the structural set only.
  State g;
  bool singular_start = false;
  const char* kSingularStart =
      "\n    (the initial configuration is singular: some constraints are dependent there but "
      "not nearby — a dead-centre or change-point position. Start the model away from it)";
  const bool have_neighbour = generic_neighbour(sys, s, tol, ls, g);
  if (have_neighbour) {
    const int before = sys.num_constraints();
    removed = sys.remove_redundant_rows(g);
    if (sys.num_constraints() != before) {
      singular_start = true;
      s = guess;
      rep = assemble_positions(sys, s, tol, 50, ls);
      if (!rep.ok) {
        rep.message += kSingularStart;
        return rep;
      }
    }
  }
  // A driver the joints do not let move (a driver too many) would show up only as a row removed
  // as redundant and violated at the first step: said here, naming the drivers. Judged at the
  // generic neighbour, where a dead-centre start's momentary dependence is gone.
  if (std::string why = sys.conflicting_drivers(have_neighbour ? g : s); !why.empty()) {
    rep.ok = false;
    rep.message = std::move(why);
    return rep;
  }
  notes.insert(notes.end(), removed.begin(), removed.end());
  s.lambda = VecX::Zero(sys.num_constraints());
  const bool given = from == StartFrom::kGivenState;
  if (!given || velocity_violation(sys, s) > tol) {
    SolveReport vel = assemble_velocities(sys, s, ls, !given);
    if (!vel.ok) {
      // The rows independent nearby are dependent here: the start, not the model, is at fault.
      if (singular_start) vel.message += kSingularStart;
      return vel;
    }
    if (!vel.message.empty()) notes.push_back(vel.message);
  }
  SolveReport acc = solve_accelerations(sys, s, ls);
  if (!acc.ok) return acc;
  s.a = s.vdot;
  mark_initial_sticking(sys, s, tol);
  sys.update_memory(s);
  return rep;
}

}  // namespace cs
