#include "clearsim/solvers/newton_driver.hpp"

#include "clearsim/solvers/newton_stop.hpp"

namespace cs {

void newton_solve(NewtonProblem& problem, int max_iterations, StepResult& res) {
  NewtonTrace trace;
  for (int it = 0; it <= max_iterations; ++it) {
    const NewtonCheck check = problem.evaluate_iterate(it, trace);
    if (!check.finite) break;
    if (it > 0 && trace.last_dx <= check.tol && check.phi <= check.phi_tol) {
      res.converged = true;
      problem.converged_at_evaluation();
      break;
    }
    if (it == max_iterations) break;
    if (!problem.prepare_matrix(it, trace, res)) break;
    const double dx = problem.solve();
    if (!std::isfinite(dx) && problem.stops_on_nonfinite_increment()) break;
    if (problem.watches_divergence() &&
        newton_stop::diverges(it, dx, trace.last_dx, problem.motion())) {
      // Diverging: the increment grew tenfold to a hundred times the step's own motion. Applied,
      // it throws the iterate far off, where the iteration can settle on a spurious root (the
      // squeeze-only lubricated four-bar at a film spike: an increment of 2.3 m after 2e-4 m, and
      // 14 iterations later a "converged" step with a pin 0.55 m out of its 50 µm bearing and
      // the kinetic energy multiplied by 4e7). It is not applied: a stale matrix is refactorized
      // at this iterate, and a fresh one that diverges fails the attempt (modified Newton then
      // tries full Newton from the predictor, and the run loop splits the step).
      if (problem.drop_stale_matrix(it, trace)) {
        res.iterations = it + 1;
        continue;
      }
      res.message = "Newton diverges";
      break;
    }
    trace.push(dx);
    problem.apply();
    res.iterations = it + 1;
    if (problem.accept(it, trace, check)) {
      res.converged = true;
      break;
    }
  }
}

}  // namespace cs
