// The IFToMM group-A benchmark problems (reference.md §6f; González, Dopico, Lugrís, Cuadrado,
// Multibody Syst. Dyn. 16 (2006) 179–190) shipped as examples, each checked against its
// reference: a closed form or a conservation law.
//   A01 simple pendulum    period 2.367842 s (elliptic integral) and the x, y history
//   A02 N-four-bar (N = 2) B₀ against the 1-DOF parallelogram branch through the flat
//                          (singular) positions, energy conserved
//   A03 Andrews' squeezer  β(0.03 s) = 15.81077 rad (IVP test set) and the energy balance
//   A04 Bricard            10 s with every formulation and integrator that accepts it: no
//                          abort although the rows kept at t = 0 lose rank every half period,
//                          and energy conserved
// plus a mechanism that is singular at t = 0, whose message must say so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"
#include "support/pendulum_reference.hpp"

namespace cs {
namespace {

using testing::ExampleRun;

constexpr double kG = 9.81;

ExampleRun run_example(const std::string& name, const std::vector<Override>& overrides,
                       const std::vector<std::string>& channels, int every = 1) {
  return testing::run_loaded(load_model_file(testing::example_path(name), overrides), 0.0, every,
                             channels);
}

// Largest |E(t) − E(0)| of an energy column.
double energy_drift(const std::vector<double>& e) {
  double worst = 0.0;
  for (double x : e) worst = std::max(worst, std::abs(x - e.front()));
  return worst;
}

// θ(t) of θ̈ = −k cos θ from θ(0) = θ₀, θ̇(0) = ω₀ at the times `t`: the 1-DOF references of A01
// and A02 (support/pendulum_reference.hpp).
std::vector<double> one_dof_reference(double k, double theta0, double omega0,
                                      const std::vector<double>& t) {
  return testing::one_dof_pendulum(k, theta0, omega0, t);
}

// Times at which `x` crosses zero downwards (linear interpolation between samples).
std::vector<double> down_crossings(const std::vector<double>& t, const std::vector<double>& x) {
  std::vector<double> out;
  for (std::size_t k = 1; k < x.size(); ++k)
    if (x[k - 1] > 0.0 && x[k] <= 0.0)
      out.push_back(t[k - 1] + (t[k] - t[k - 1]) * x[k - 1] / (x[k - 1] - x[k]));
  return out;
}

// --- A01 pendulum ------------------------------------------------------------------------------

// θ̈ = −(g/L) cos θ from rest at θ = 0 (x = +1 m): the period is 4√(L/g) K(sin 45°) = 2.367842 s.
struct PendulumError {
  double position = 0.0;  // max |x − x_ref|, |y − y_ref| [m]
  std::vector<double> periods;
  double energy_drift = 0.0;
  long newton_iterations = 0;
};

PendulumError run_pendulum(double h) {
  const ExampleRun r = run_example("iftomm_a01_pendulum", {{"solver.step", std::to_string(h)}},
                                   {"bob.position.x", "bob.position.y", "system.total_energy"});
  PendulumError e;
  if (!r.stats.ok) return e;
  const std::vector<double> th = one_dof_reference(kG, 0.0, 0.0, r.t);
  for (std::size_t k = 0; k < r.t.size(); ++k)
    e.position = std::max({e.position, std::abs(r.columns[0][k] - std::cos(th[k])),
                           std::abs(r.columns[1][k] - std::sin(th[k]))});
  const std::vector<double> down = down_crossings(r.t, r.columns[0]);
  for (std::size_t k = 1; k < down.size(); ++k) e.periods.push_back(down[k] - down[k - 1]);
  e.energy_drift = energy_drift(r.columns[2]);
  e.newton_iterations = r.stats.newton_iterations;
  return e;
}

TEST(IFToMM, A01PendulumPeriodAndPath) {
  const PendulumError e1 = run_pendulum(1e-3), e2 = run_pendulum(5e-4);
  std::printf(
      "[ A01 ] h = 1e-3: max position error %.3g m, energy drift %.3g J; h = 5e-4: %.3g m\n",
      e1.position, e1.energy_drift, e2.position);
  // The benchmark's high-precision level is 1e-3 m; generalized-α (ρ∞ = 0.9, second order) in
  // joint coordinates, as shipped for this open tree, reaches 2.4e-5 m at h = 1e-3 s, and
  // halving h divides the error by ≈ 4.
  EXPECT_LT(e1.position, 1e-3);
  EXPECT_NEAR(e1.position / e2.position, 4.0, 0.5);
  // Four periods in 10 s. Each to the closed form within the integrator's phase error: the
  // position error above is ≈ ω·δT with ω ≈ 4.4 rad/s at the bottom, so δT ≲ 1.2e-4 / 4.4 / 4
  // per period ≈ 1e-5 s; linear interpolation of x at the crossing adds nothing comparable
  // (ẍ = 0 at the bottom).
  ASSERT_GE(e1.periods.size(), 3u);
  for (double T : e1.periods) {
    std::printf("[ A01 ] period %.7f s (exact 2.367842)\n", T);
    EXPECT_NEAR(T, 2.367842, 2e-5);
  }
}

// --- A02 N-four-bar ------------------------------------------------------------------------------

// On the parallelogram branch: (3·1/3 + 2·1) θ̈ = −(3/2 + 2) g cos θ, θ(0) = 90°, θ̇(0) = −1 rad/s
// (B₀ at the top of crank 0 moving at +1 m/s along x).
struct FourBarRun {
  double b0_error = 0.0;  // max |B₀ − B₀,ref| [m]
  double energy_drift = 0.0;
  int flat_passes = 0;  // sign changes of B₀.y: the singular flat positions passed
  bool ok = false;
};

FourBarRun run_n_four_bar(double h, std::vector<Override> overrides = {}) {
  overrides.push_back({"solver.step", std::to_string(h)});
  const ExampleRun r = run_example("iftomm_a02_n_four_bar", overrides,
                                   {"B0.position.x", "B0.position.y", "system.total_energy"});
  FourBarRun f;
  f.ok = r.stats.ok;
  if (!f.ok) return f;
  const std::vector<double> th =
      one_dof_reference(3.5 * kG / 3.0, std::acos(-1.0) / 2.0, -1.0, r.t);
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    f.b0_error = std::max({f.b0_error, std::abs(r.columns[0][k] - std::cos(th[k])),
                           std::abs(r.columns[1][k] - std::sin(th[k]))});
    if (k > 0 && (r.columns[1][k] > 0.0) != (r.columns[1][k - 1] > 0.0)) ++f.flat_passes;
  }
  f.energy_drift = energy_drift(r.columns[2]);
  return f;
}

TEST(IFToMM, A02NFourBarKeepsItsBranchThroughTheFlatPositions) {
  const FourBarRun f1 = run_n_four_bar(1e-3), f2 = run_n_four_bar(5e-4);
  ASSERT_TRUE(f1.ok && f2.ok);
  std::printf(
      "[ A02 ] h = 1e-3: B0 error %.3g m, energy drift %.3g J, %d flat passes; h = 5e-4: "
      "%.3g m, %.3g J\n",
      f1.b0_error, f1.energy_drift, f1.flat_passes, f2.b0_error, f2.energy_drift);
  // Full turns at up to 4.9 rad/s: the flat positions are passed many times. On another branch
  // (a crank folding back) B₀ would leave the reference by O(1 m); the branch is kept to the
  // benchmark's high-precision level 1e-3 m (measured 1.9e-4 m).
  EXPECT_GE(f1.flat_passes, 10);
  EXPECT_LT(f1.b0_error, 1e-3);
  // Energy (35.8 J) is kept to the integrator's order: |E − E₀| is an O(h²) oscillation that
  // peaks at the fastest passages (the bottom) and returns to ≈ 0 each turn, not a drift.
  EXPECT_LT(f1.energy_drift, 1e-4 * 35.8);
  EXPECT_NEAR(f1.energy_drift / f2.energy_drift, 4.0, 0.6);
}

// The stabilized formulation without numerical damping: its velocity constraint B v = 0 at a
// step that lands next to a flat position can switch branches (crank 0 stopped, the others
// turning on: E fell from 35.8 to 0.1 J at t = 6.542 s). GeneralizedAlpha::left_its_branch
// refuses such a step and the halves pass. With full Newton: modified Newton (the default) meets
// a flat position at t = 8.48 s that no split of the step passes (issue 13 note).
TEST(IFToMM, A02StabilizedWithoutDampingKeepsItsBranch) {
  const FourBarRun f = run_n_four_bar(
      1e-3,
      {{"solver.formulation", "stabilized"}, {"solver.rho_inf", "1"}, {"solver.newton", "full"}});
  ASSERT_TRUE(f.ok);
  std::printf("[ A02 stabilized rho 1 ] B0 error %.3g m, energy drift %.3g J, %d flat passes\n",
              f.b0_error, f.energy_drift, f.flat_passes);
  EXPECT_GE(f.flat_passes, 10);
  EXPECT_LT(f.b0_error, 1e-3);
  EXPECT_LT(f.energy_drift, 1e-4 * 35.8);
}

// seed 004's formulations through the flat positions: ali3p and penalty keep an n × n matrix
// that stays regular where the rows lose rank, so they need no kept set. ali3p reaches the
// benchmark's high-precision level (measured 6.2e-4 m); the penalty formulation, whose joints
// give by O(a h²/1e3) and whose λ lags the constraint error, stays 2.3e-3 m off the branch at
// h = 1e-3 s: within the benchmark's low-precision level (1e-1 m), checked at 1e-2.
TEST(IFToMM, A02Ali3pAndPenaltyKeepTheirBranch) {
  for (const auto& [formulation, b0_tolerance] :
       std::vector<std::pair<const char*, double>>{{"ali3p", 1e-3}, {"penalty", 1e-2}}) {
    const FourBarRun f = run_n_four_bar(1e-3, {{"solver.formulation", formulation}});
    ASSERT_TRUE(f.ok) << formulation;
    std::printf("[ A02 %s ] B0 error %.3g m, energy drift %.3g J, %d flat passes\n", formulation,
                f.b0_error, f.energy_drift, f.flat_passes);
    EXPECT_GE(f.flat_passes, 10) << formulation;
    EXPECT_LT(f.b0_error, b0_tolerance) << formulation;
    EXPECT_LT(f.energy_drift, 1e-4 * 35.8) << formulation;
  }
}

// --- A03 Andrews' squeezer
// ------------------------------------------------------------------------

// β(0.03 s) and the largest |T + V − E₀ − τ(β − β₀)| of a run at step h. β is the crank's
// rotation from the start (written wrapped to (−π, π], unwrapped here) plus β₀.
struct SqueezerRun {
  bool ok = false;
  double beta_end = 0.0, balance = 0.0;
};

SqueezerRun run_squeezer(double h) {
  constexpr double kBeta0 = -0.0617138900142764496, kTorque = 0.033;
  const ExampleRun r =
      run_example("iftomm_a03_andrews_squeezer", {{"solver.step", std::to_string(h)}},
                  {"crank.rotation.z", "system.total_energy"});
  SqueezerRun q;
  q.ok = r.stats.ok;
  if (!q.ok) return q;
  const double two_pi = 2.0 * std::acos(-1.0);
  double turned = r.columns[0][0];
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    if (k > 0) {
      double d = r.columns[0][k] - r.columns[0][k - 1];
      d -= two_pi * std::round(d / two_pi);
      turned += d;
    }
    const double balance = r.columns[1][k] - r.columns[1][0] - kTorque * turned;
    q.balance = std::max(q.balance, std::abs(balance));
  }
  q.beta_end = kBeta0 + turned;
  return q;
}

TEST(IFToMM, A03AndrewsSqueezerReachesTheTestSetAngle) {
  const SqueezerRun a = run_squeezer(1e-5), b = run_squeezer(5e-6);
  ASSERT_TRUE(a.ok && b.ok);
  std::printf(
      "[ A03 ] beta(0.03) = %.7f at h = 1e-5 (balance %.3g J), %.7f at h = 5e-6 (balance "
      "%.3g J); reference 15.81077\n",
      a.beta_end, a.balance, b.beta_end, b.balance);
  // Reference β(0.03 s) = 15.81077 rad (IVP test set, 7 digits: ±5e-6). Second order: the
  // error 8.5e-5 rad at h = 1e-5 s falls ≈ 4× with h halved (2.0e-5); the bounds leave ×2.
  EXPECT_NEAR(a.beta_end, 15.81077, 2e-4);
  EXPECT_NEAR(b.beta_end, 15.81077, 5e-5);
  // The energy balance (0.52 J exchanged between the spring, the motion and the drive) holds
  // to the integration error: 5e-5 J at h = 1e-5 s, 1.3e-5 J at 5e-6 s.
  EXPECT_LT(a.balance, 1e-4);
  EXPECT_LT(b.balance, 3e-5);
}

// --- A04 Bricard --------------------------------------------------------------------------------

struct BricardCase {
  const char* name;
  std::vector<Override> overrides;
  // Largest |E − E₀| over 10 s [J]: 1e-5 (issue 13) for the schemes that conserve energy;
  // generalized-α with ρ∞ < 1 damps, and the explicit schemes' Baumgarte terms do work.
  double energy_tolerance;
  // Largest |Φ| [m]: the solver's tolerance, or what the penalty formulation leaves, Φ ≈
  // a h²/1e3 with its automatic factor (penalty_alpha.cpp; measured 2.9e-8 m).
  double violation_tolerance = 1e-9;
  // ali3p and penalty keep all 30 rows (no independent set to re-choose).
  bool rechooses = true;
};

// ctest lists a case by its name instead of its bytes.
void PrintTo(const BricardCase& c, std::ostream* os) { *os << c.name; }

class Bricard : public ::testing::TestWithParam<BricardCase> {};

TEST_P(Bricard, RunsTenSecondsAndConservesEnergy) {
  const BricardCase& c = GetParam();
  const ExampleRun r = run_example("iftomm_a04_bricard", c.overrides,
                                   {"system.total_energy", "system.constraint_violation"}, 10);
  ASSERT_TRUE(r.stats.ok) << c.name << ": " << r.stats.message;
  EXPECT_NEAR(r.t.back(), 10.0, 1e-12);
  // The rows kept at t = 0 lose rank near t = 1.25 s (BricardRowsAreRechosen below): without a
  // re-choice the run stops there.
  if (c.rechooses) {
    EXPECT_GE(r.stats.row_rechoices, 1) << c.name;
  }
  const double drift = energy_drift(r.columns[0]);
  EXPECT_LT(drift, c.energy_tolerance) << c.name;
  // Positions on the joints to the solver's tolerance (1e-10) at every output.
  EXPECT_LT(testing::max_abs(r.columns[1]), c.violation_tolerance) << c.name;
  std::printf(
      "[ A04 %-28s ] energy drift %.3g J, %ld steps, %ld Newton iterations, "
      "%ld row re-choices, %.3f s\n",
      c.name, drift, r.stats.steps, r.stats.newton_iterations, r.stats.row_rechoices,
      r.stats.wall_seconds);
}

// Every integrator and formulation that runs the model; the energy bound is issue 13's 1e-5 J at
// h = 1e-3 s for all of them (measured 4e-6 to 7.7e-6 J for the implicit schemes, whose error
// is the O(h²) oscillation of T + V at the fastest passages, and 1e-11 J for rk4).
INSTANTIATE_TEST_SUITE_P(
    IFToMM, Bricard,
    ::testing::Values(
        BricardCase{"index3_rho0.9", {}, 1e-5},
        // Index 3 at ρ∞ = 1 is weakly unstable (the run warns so); its energy error peaks at
        // the rank-loss instant t ≈ 8.8 s: 6.7e-6 J with full Newton, 1.05e-5 J with the
        // default modified Newton (issue 13 note). Full Newton is pinned here.
        BricardCase{"index3_rho1", {{"solver.rho_inf", "1"}, {"solver.newton", "full"}}, 1e-5},
        BricardCase{"stabilized_rho0.9", {{"solver.formulation", "stabilized"}}, 1e-5},
        BricardCase{"stabilized_rho1",
                    {{"solver.formulation", "stabilized"}, {"solver.rho_inf", "1"}},
                    1e-5},
        BricardCase{"index3_full_newton", {{"solver.newton", "full"}}, 1e-5},
        BricardCase{"stabilized_full_newton",
                    {{"solver.newton", "full"}, {"solver.formulation", "stabilized"}},
                    1e-5},
        BricardCase{"hht", {{"solver.integrator", "hht"}}, 1e-5},
        BricardCase{"trapezoidal_stabilized",
                    {{"solver.integrator", "trapezoidal"}, {"solver.formulation", "stabilized"}},
                    1e-5},
        // seed 004's formulations (measured 4.2e-6 and 6.2e-6 J for ali3p, 8.9e-6 J for penalty)
        BricardCase{"ali3p", {{"solver.formulation", "ali3p"}}, 1e-5, 1e-9, false},
        BricardCase{"trapezoidal_ali3p",
                    {{"solver.integrator", "trapezoidal"}, {"solver.formulation", "ali3p"}},
                    1e-5,
                    1e-9,
                    false},
        BricardCase{"penalty", {{"solver.formulation", "penalty"}}, 1e-5, 1e-7, false},
        BricardCase{"trapezoidal_penalty",
                    {{"solver.integrator", "trapezoidal"}, {"solver.formulation", "penalty"}},
                    1e-5,
                    1e-7,
                    false},
        BricardCase{"rk4", {{"solver.integrator", "rk4"}}, 1e-5},
        BricardCase{"dormand_prince", {{"solver.integrator", "dormand_prince"}}, 1e-5}),
    [](const auto& param_info) {
      std::string s = param_info.param.name;
      for (char& ch : s)
        if (ch == '.') ch = '_';
      return s;
    });

// The 29 rows kept at t = 0 become dependent near t = 1.25 s, while all 30 keep rank 29: a System
// that keeps the start's choice ("frozen") sees its conditioning fall to ~0 on the states of the
// run, while the run's own System, re-choosing, stays well conditioned.
TEST(IFToMM, BricardRowsAreRechosen) {
  const LoadedModel lm = load_model_file(testing::example_path("iftomm_a04_bricard"));
  System sys(lm.model), frozen(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes)) << sim.stats().message;
  State s0 = sim.state();
  ASSERT_TRUE(make_consistent(frozen, s0, lm.run.solver.newton_tol, notes).ok);
  std::vector<BodyKinematics> kin;
  frozen.gather(s0, kin);
  const double at_start = frozen.kept_rows_conditioning(kin, 0.0);
  double worst_frozen = at_start, worst_run = at_start;
  State at_worst;
  while (sim.state().t < 2.5 - 1e-9) {  // half a period, past t = 1.25 s
    ASSERT_TRUE(sim.step()) << sim.stats().message;
    const State& s = sim.state();
    frozen.gather(s, kin);
    const double c = frozen.kept_rows_conditioning(kin, s.t);
    if (c < worst_frozen) at_worst = s;
    worst_frozen = std::min(worst_frozen, c);
    sys.gather(s, kin);
    worst_run = std::min(worst_run, sys.kept_rows_conditioning(kin, s.t));
  }
  std::printf(
      "[ A04 rows ] conditioning at t = 0 %.3g, worst kept from t = 0 %.3g, worst "
      "re-chosen %.3g, %ld re-choices\n",
      at_start, worst_frozen, worst_run, sim.stats().row_rechoices);
  EXPECT_LT(worst_frozen, 1e-3 * at_start);
  // Re-chosen when it falls to 1/4 of the best since the last choice: never below ~1/4 of the
  // start's (1/8 leaves room for the fall within the step that triggers it).
  EXPECT_GT(worst_run, at_start / 8.0);
  EXPECT_GE(sim.stats().row_rechoices, 1);

  // Re-choosing the frozen rows there keeps the constraint force Bᵀλ: it lies in the span of
  // all rows, which the new set spans, so the least-squares map is exact to round-off.
  const int m = frozen.num_constraints();
  at_worst.lambda = VecX::LinSpaced(m, 1.0, 2.0);
  auto force = [&](const State& s) {
    frozen.gather(s, kin);
    MatX B = MatX::Zero(m, frozen.num_dofs());
    frozen.constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
    return VecX(B.transpose() * s.lambda);
  };
  const VecX before = force(at_worst);
  const System::RowChoice choice = frozen.rechoose_rows(at_worst, 2.0);
  EXPECT_TRUE(choice.changed);
  EXPECT_EQ(frozen.num_constraints(), m);
  EXPECT_EQ(choice.full_rank, m);  // all 30 rows keep rank 29 there
  EXPECT_LT((force(at_worst) - before).norm(), 1e-9 * before.norm());
}

// The message of a run that cannot start (empty if it could).
std::string start_failure(const std::string& yaml) {
  LoadedModel lm = load_model_string(yaml, "start.yaml");
  System sys(lm.model);
  struct Discard : StepObserver {
    void on_output(const State&, const RunStats&) override {}
  } discard;
  State s;
  std::vector<std::string> notes;
  const RunStats r = run_analysis(sys, lm.run, discard, s, notes);
  return r.ok ? std::string() : r.message;
}

// Starts where rows are dependent that are not dependent nearby: the start is what is singular,
// and the message must say so and name the rows.
//   parallelogram four-bar started flat, every link on the ground line: a change point where
//     the parallelogram and anti-parallelogram branches cross (mobility 1, 2 there)
//   two rods pinned in line between two ground pivots 2 m apart: a toggle, locked (no finite
//     motion) though the middle pin may move to first order
TEST(IFToMM, SingularStartIsBlamedPrecisely) {
  const std::string flat = R"(
gravity: [0, -9.81, 0]
bodies:
  crank:   {mass: 1, inertia: [1.0e-4, 8.3e-2, 8.3e-2], position: [0.5, 0, 0]}
  coupler: {mass: 1, inertia: [1.0e-4, 3.3e-1, 3.3e-1], position: [2, 0, 0]}
  rocker:  {mass: 1, inertia: [1.0e-4, 8.3e-2, 8.3e-2], position: [2.5, 0, 0]}
joints:
  O2: {type: revolute, bodies: [ground, crank], at: [0, 0, 0], axis: [0, 0, 1]}
  A:  {type: revolute, bodies: [crank, coupler], at: [1, 0, 0], axis: [0, 0, 1]}
  B:  {type: revolute, bodies: [coupler, rocker], at: [3, 0, 0], axis: [0, 0, 1]}
  O4: {type: revolute, bodies: [ground, rocker], at: [2, 0, 0], axis: [0, 0, 1]}
solver: {step: 1.0e-3, end: 0.1}
)";
  const std::string toggle = R"(
gravity: [0, -9.81, 0]
bodies:
  rod1: {mass: 1, inertia: [1.0e-4, 8.3e-2, 8.3e-2], position: [0.5, 0, 0]}
  rod2: {mass: 1, inertia: [1.0e-4, 8.3e-2, 8.3e-2], position: [1.5, 0, 0]}
joints:
  left:   {type: revolute, bodies: [ground, rod1], at: [0, 0, 0], axis: [0, 0, 1]}
  middle: {type: revolute, bodies: [rod1, rod2], at: [1, 0, 0], axis: [0, 0, 1]}
  right:  {type: revolute, bodies: [rod2, ground], at: [2, 0, 0], axis: [0, 0, 1]}
solver: {step: 1.0e-3, end: 0.1}
)";
  for (const std::string& yaml : {flat, toggle}) {
    const std::string why = start_failure(yaml);
    EXPECT_NE(why.find("initial configuration is singular"), std::string::npos) << why;
    EXPECT_NE(why.find("revolute '"), std::string::npos) << why;  // names the rows
  }
}

}  // namespace
}  // namespace cs
