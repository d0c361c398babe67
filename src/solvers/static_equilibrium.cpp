#include "clearsim/solvers/static_equilibrium.hpp"

#include <cmath>
#include <sstream>

#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/plausibility_watch.hpp"

namespace cs {

double static_residual(const System& sys, const State& s, VecX& r) {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX f;
  sys.forces(kin, s.t, f, MatrixSink(), MatrixSink());
  VecX phi(m);
  MatX B = MatX::Zero(m, n);
  sys.constraints(kin, s.t, &phi, MatrixSink(&B), nullptr, nullptr);
  r.resize(n + m);
  r.head(n) = f - B.transpose() * s.lambda;
  r.tail(m) = -phi;
  return r.lpNorm<Eigen::Infinity>();
}

void static_tangent(const System& sys, const State& s, MatX& S) {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  S.setZero(n + m, n + m);
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX f;
  MatX dfdq = MatX::Zero(n, n);
  sys.forces(kin, s.t, f, MatrixSink(&dfdq), MatrixSink());
  S.topLeftCorner(n, n) = -dfdq;
  if (m > 0) {
    sys.constraint_tangent(kin, s.t, s.lambda, MatrixSink(&S));
    MatX B = MatX::Zero(m, n);
    sys.constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
    S.topRightCorner(n, m) = B.transpose();
    S.bottomLeftCorner(m, n) = B;
  }
}

bool solve_static(const System& sys, const SolverSettings& settings, State& s, int& iterations,
                  std::string& message) {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  s.v.setZero();
  s.vdot.setZero();
  s.a.setZero();
  MatX S;
  VecX r;
  double norm = static_residual(sys, s, r);
  for (iterations = 0; iterations < 4 * settings.max_newton_iterations; ++iterations) {
    if (norm <= settings.newton_tol) return true;
    static_tangent(sys, s, S);
    Eigen::FullPivLU<MatX> lu(S);
    if (!lu.isInvertible()) {
      message =
          "the stiffness matrix is singular: some motion is resisted by neither a joint "
          "nor a spring (a mechanism cannot be in static equilibrium without it)";
      return false;
    }
    const VecX dx = lu.solve(r);
    // Backtracking: halve the step until the residual decreases.
    double alpha = 1.0;
    for (int ls = 0; ls < 12; ++ls, alpha *= 0.5) {
      State trial = s;
      integrate_configuration(s, alpha * dx.head(n), trial);
      trial.lambda = s.lambda + alpha * dx.tail(m);
      VecX rt;
      const double nt = static_residual(sys, trial, rt);
      if (std::isfinite(nt) && (nt < norm || ls == 11)) {
        s = trial;
        norm = nt;
        r = rt;
        break;
      }
    }
  }
  std::ostringstream os;
  os << "static equilibrium not found at t = " << s.t << " s: residual " << norm << " after "
     << iterations << " Newton iterations";
  message = os.str();
  return false;
}

RunStats run_static(const System& sys, const SolverSettings& settings, State& s,
                    StepObserver& observer) {
  RunStats stats;
  PlausibilityWatch plausibility(sys);
  const long n = settings.kinematic_steps;
  for (long k = 0; k <= n; ++k) {
    if (n > 0) s.t = settings.end * static_cast<double>(k) / static_cast<double>(n);
    int it = 0;
    std::string msg;
    if (!solve_static(sys, settings, s, it, msg)) {
      stats.ok = false;
      stats.message = msg;
      return stats;
    }
    stats.newton_iterations += it;
    stats.last_iterations = it;
    ++stats.steps;
    plausibility.after_step(s, stats, 1);
    observer.on_step(s, stats);
    observer.on_output(s, stats);
  }
  return stats;
}

}  // namespace cs
