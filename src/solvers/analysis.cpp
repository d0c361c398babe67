// run_analysis: one analysis from consistent initial conditions. A dynamic analysis is a
// Simulation stepped to its end with the caller's observer; the kinematic analysis (positions,
// velocities and accelerations solved at each time) and the static equilibrium are not time
// integrations and run here.
#include <chrono>
#include <sstream>

#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/plausibility_watch.hpp"
#include "clearsim/solvers/run_watches.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "clearsim/solvers/static_equilibrium.hpp"
#include "clearsim/solvers/tree_alpha.hpp"

namespace cs {

namespace {
using Clock = std::chrono::steady_clock;

bool fails(RunStats& stats, std::string message) {
  stats.ok = false;
  stats.message = std::move(message);
  return false;
}

// Second-order prediction from the last point, then exact position, velocity and acceleration
// solves at t. False (stats.message set) if one fails.
bool kinematic_point(System& sys, const SolverSettings& st, double t, State& s, LinearSystem& ls,
                     RunStats& stats) {
  const double dt = t - s.t;
  const VecX dq = dt * s.v + 0.5 * dt * dt * s.vdot;
  State next = s;
  next.t = t;
  integrate_configuration(s, dq, next);
  SolveReport r = assemble_positions(sys, next, st.newton_tol, st.max_newton_iterations, ls);
  stats.newton_iterations += r.iterations;
  const std::string at = "kinematic analysis at t = " + std::to_string(t) + ": ";
  if (!r.ok) return fails(stats, at + r.message);
  next.v.setZero();
  SolveReport rv = assemble_velocities(sys, next, ls, /*use_prescribed=*/false);
  SolveReport ra = solve_accelerations(sys, next, ls);
  if (!rv.ok || !ra.ok) return fails(stats, at + rv.message + ra.message);
  s = next;
  stats.last_iterations = r.iterations;
  stats.last_step = dt;
  return true;
}

void run_kinematic(System& sys, const SolverSettings& st, int every, State& s, RunStats& stats,
                   StepObserver& obs) {
  const std::int64_t n =
      st.kinematic_steps > 0 ? st.kinematic_steps : fixed_step_count(st.end, st.step);
  const double t0 = s.t;
  LinearSystem ls;
  RowWatch rows(sys, nullptr);
  PlausibilityWatch plausibility(sys);
  for (std::int64_t k = 1; k <= n; ++k) {
    const double t = t0 + st.end * static_cast<double>(k) / static_cast<double>(n);
    if (!kinematic_point(sys, st, t, s, ls, stats)) return;
    ++stats.steps;
    plausibility.after_step(s, stats, 1);
    obs.on_step(s, stats);
    if (!rows.after_step(s, st.newton_tol, stats)) return;
    const bool output = k % every == 0 || k == n;
    if (output) emit_output(sys, s, stats, obs);
    if (stop_asked(sys, s, output, stats, obs)) return;
  }
}

// The kinematic and static analyses from consistent initial conditions.
RunStats run_positional(System& sys, const RunSettings& settings, StepObserver& observer, State& s,
                        std::vector<std::string>& notes) {
  RunStats stats;
  const SolverSettings& st = settings.solver;
  s = initial_state(sys, 0.0);
  const SolveReport init = make_consistent(sys, s, st.newton_tol, notes);
  if (!init.ok) {
    fails(stats, "initial conditions: " + init.message);
    return stats;
  }
  if (st.analysis == Analysis::kStatic) return run_static(sys, st, s, observer);
  if (const int dof = sys.num_dofs() - sys.num_constraints(); dof > 0) {
    notes.push_back("the mechanism has " + std::to_string(dof) +
                    " degree(s) of freedom that no driver prescribes; the kinematic analysis "
                    "gives them the least kinetic energy (zero velocity where possible)");
  }
  emit_output(sys, s, stats, observer);
  run_kinematic(sys, st, std::max(1, settings.output.every), s, stats, observer);
  return stats;
}
}  // namespace

std::string incompatible_settings(const System& sys, const SolverSettings& st) {
  if (!step_count_ok(st.end, st.step)) {
    std::ostringstream os;
    os << "solver.end = " << st.end << " s in steps of solver.step = " << st.step
       << " s is not a run: expected both positive and finite, with at most " << kMaxStepCount
       << " steps";
    return os.str();
  }
  const bool explicit_rk =
      st.integrator == IntegratorKind::kRk4 || st.integrator == IntegratorKind::kDormandPrince;
  if (sys.num_gaps() > 0 && st.analysis == Analysis::kDynamic && explicit_rk) {
    return "the model has unilateral contacts (" + sys.describe_gap(0) +
           (sys.num_gaps() > 1 ? ", ..." : "") + "): the explicit integrator " +
           (st.integrator == IntegratorKind::kRk4 ? "rk4" : "dormand_prince") +
           " has no impact law or non-penetration condition; use solver.integrator: nsga";
  }
  if (sys.num_gaps() > 0 &&
      (st.analysis != Analysis::kDynamic || st.integrator != IntegratorKind::kNsga)) {
    return "the model has unilateral contacts (" + sys.describe_gap(0) +
           (sys.num_gaps() > 1 ? ", ..." : "") +
           "): they need a dynamic analysis with solver.integrator: nsga";
  }
  std::string why;
  if (st.analysis == Analysis::kDynamic && st.coordinates == CoordinateChoice::kJoint &&
      !TreeAlpha::applies(sys, st, &why))
    return "solver.coordinates: joint is not possible here: " + why +
           " (coordinates: auto chooses by itself)";
  return {};
}

RunStats run_analysis(System& sys, const RunSettings& settings, StepObserver& observer, State& s,
                      std::vector<std::string>& notes) {
  const auto start = Clock::now();
  RunStats stats;
  if (settings.solver.analysis == Analysis::kDynamic) {
    Simulation sim(sys, settings);  // it refuses incompatible settings itself
    if (sim.initialize(notes)) sim.run_to(sim.state().t + settings.solver.end, &observer);
    s = sim.state();
    stats = sim.stats();
  } else if (const std::string why = incompatible_settings(sys, settings.solver); !why.empty()) {
    fails(stats, why);
  } else {
    stats = run_positional(sys, settings, observer, s, notes);
  }
  stats.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

}  // namespace cs
