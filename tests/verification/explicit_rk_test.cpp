// Explicit Runge–Kutta integrators (rk4, dormand_prince) with Baumgarte-stabilised index-1
// constraints (seed 003): convergence order on a closed-form problem that exercises both the
// translations and the Lie-group rotation update, tolerance proportionality of the adaptive
// DOPRI5(4), the Baumgarte law Φ̈ + 2αΦ̇ + β²Φ = 0, a constrained pendulum's energy and
// constraint drift, the ideal slider–crank against its closed form (reference.md §8.1), the
// failure paths and the model-file keys.
#include "clearsim/solvers/explicit_rk.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "support/recorder.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

// Measured numbers go to the test report (--gtest_output=xml) rather than to the console.
void record(const std::string& key, double value) {
  std::ostringstream os;
  os.precision(4);
  os << value;
  ::testing::Test::RecordProperty(key, os.str());
}

// --- a free body on a spring, spinning: closed form for translation and rotation -------------
// 1 kg on a spring to the world origin (k = 100 N/m, free length 1 m, attached at the centre of
// mass, so no torque, no gravity): u = x − 1 = 0.2 cos ωt + (0.5/ω) sin ωt, ω = 10 rad/s.
// Axisymmetric inertia diag(A, A, C), torque-free: with L_W = R₀ J Ω₀ and μ = Ω₃ (A − C)/A,
//   R(t) = exp(t L_W/A) R₀ exp(t μ e₃)
// (then Ω_B = Rᵀ L_W/A + μ e₃ satisfies Euler's equations: Ω₃ constant, Ω⊥ turning at −μ).
constexpr double kA = 2.0, kC = 1.0, kOmegaSpring = 10.0;
const Vec3 kOmega0_B(1.0, 0.5, 3.0);
const Mat3 kR0 = so3::exp(Vec3(0.3, -0.2, 0.5));

Model spinning_oscillator() {
  Model m;
  Body b;
  b.name = "top";
  b.mass = 1.0;
  b.inertia_B = Vec3(kA, kA, kC).asDiagonal();
  b.x0_W = Vec3(1.2, 0, 0);
  b.v0_W = Vec3(0.5, 0, 0);
  b.R0_WB = kR0;
  b.w0_W = kR0 * kOmega0_B;
  add_body(m, b);
  forces::SpringDamperParams p;
  p.stiffness = kOmegaSpring * kOmegaSpring;
  p.free_length = 1.0;
  add_element(m, std::make_unique<forces::TranslationalSpringDamper>(
                     "spring", marker_at(m, kGround, Vec3::Zero(), Mat3::Identity()),
                     marker_at(m, 0, b.x0_W, Mat3::Identity()), p));
  return m;
}

struct PoseError {
  double position = 0.0;  // |x − x_exact| [m]
  double rotation = 0.0;  // ‖log(R_exactᵀ R)‖ [rad]
};

PoseError spinning_oscillator_error(const State& s) {
  const double t = s.t, w = kOmegaSpring;
  const double x = 1.0 + 0.2 * std::cos(w * t) + 0.5 / w * std::sin(w * t);
  const Vec3 L_W = kR0 * Vec3(kA, kA, kC).asDiagonal() * kOmega0_B;
  const double mu = kOmega0_B.z() * (kA - kC) / kA;
  const Mat3 R = so3::exp(t * L_W / kA) * kR0 * so3::exp(Vec3(0, 0, t * mu));
  return {(s.x_W[0] - Vec3(x, 0, 0)).norm(), so3::log(R.transpose() * s.R_WB[0]).norm()};
}

RunSettings explicit_settings(IntegratorKind kind, double h, double end) {
  RunSettings s;
  s.solver.integrator = kind;
  s.solver.step = h;
  s.solver.end = end;
  s.solver.newton_tol = 1e-13;  // initial assembly
  s.output.every = 1000000;     // first and last states only
  return s;
}

PoseError fixed_step_error(IntegratorKind kind, double h) {
  const auto r = testing::run(spinning_oscillator(), explicit_settings(kind, h, 2.0));
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_NEAR(r.states.back().t, 2.0, 1e-12);
  return spinning_oscillator_error(r.states.back());
}

// Convergence slopes log2(e(h)/e(h/2)) over three step sizes, for positions and rotations.
void expect_order(IntegratorKind kind, double h, double min_slope) {
  const PoseError e1 = fixed_step_error(kind, h), e2 = fixed_step_error(kind, h / 2),
                  e3 = fixed_step_error(kind, h / 4);
  for (const auto& [name, a, b, c] :
       {std::tuple{"position", e1.position, e2.position, e3.position},
        std::tuple{"rotation", e1.rotation, e2.rotation, e3.rotation}}) {
    record(std::string(name) + "_errors", a);
    record(std::string(name) + "_slope_1", std::log2(a / b));
    record(std::string(name) + "_slope_2", std::log2(b / c));
    record(std::string(name) + "_smallest_error", c);
    EXPECT_GE(std::log2(a / b), min_slope) << name << ": " << a << " " << b;
    EXPECT_GE(std::log2(b / c), min_slope) << name << ": " << b << " " << c;
    EXPECT_GT(c, 1e-13) << name << ": the smallest error must stay above round-off";
  }
}

TEST(ExplicitRk, Rk4IsFourthOrderInPositionAndRotation) {
  // h = 0.01, 0.005, 0.0025 (ωh ≤ 0.1 for the spring, 0.03 for the spin).
  expect_order(IntegratorKind::kRk4, 0.01, 3.8);
}

TEST(ExplicitRk, DormandPrinceAtFixedStepIsFifthOrder) {
  // h = 0.04, 0.02, 0.01 (adaptive: false runs DOPRI5 at a fixed step).
  expect_order(IntegratorKind::kDormandPrince, 0.04, 4.8);
}

TEST(ExplicitRk, Rk4CostsFourEvaluationsPerStep) {
  // The evaluation at the end of a step (v̇ and λ for output) is the first stage of the next one.
  const auto r =
      testing::run(spinning_oscillator(), explicit_settings(IntegratorKind::kRk4, 0.01, 1.0));
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  EXPECT_EQ(r.stats.factorizations, 4 * r.stats.steps + 1);
}

// Adaptive DOPRI5(4) at rtol = atol = tol: the error at t = 2 s over tol, for four tolerances.
TEST(ExplicitRk, DormandPrinceErrorFollowsTheTolerance) {
  std::vector<double> ratio;
  long previous_steps = 0;
  for (const double tol : {1e-5, 1e-6, 1e-7, 1e-8}) {
    RunSettings s = explicit_settings(IntegratorKind::kDormandPrince, 1e-3, 2.0);
    s.solver.adaptive = true;
    s.solver.rtol = tol;
    s.solver.atol = tol;
    const auto r = testing::run(spinning_oscillator(), s);
    ASSERT_TRUE(r.stats.ok) << r.stats.message;
    EXPECT_NEAR(r.states.back().t, 2.0, 1e-12);
    const PoseError e = spinning_oscillator_error(r.states.back());
    ratio.push_back(std::max(e.position, e.rotation) / tol);
    record("error_over_tol_" + std::to_string(ratio.size()), ratio.back());
    record("steps_" + std::to_string(ratio.size()), static_cast<double>(r.stats.steps));
    record("rejected_" + std::to_string(ratio.size()), static_cast<double>(r.stats.rejected_steps));
    EXPECT_GT(r.stats.steps, previous_steps) << "tighter tolerances take more steps";
    previous_steps = r.stats.steps;
  }
  // The local error of the 4th-order embedded solution is held at tol while the step advances
  // with the 5th-order one (local extrapolation): h ∝ tol^(1/5), global error ∝ h⁵ ∝ tol. So
  // error/tol is about constant — measured 1.96, 1.88, 1.86, 1.82 with 53, 80, 123, 193 steps
  // (10^(1/5) = 1.58 times more per decade). Band asserted: within [0.5, 5], spread < 2.
  const auto [lo, hi] = std::minmax_element(ratio.begin(), ratio.end());
  EXPECT_LT(*hi / *lo, 2.0) << ratio[0] << " " << ratio[1] << " " << ratio[2] << " " << ratio[3];
  EXPECT_GT(*lo, 0.5);
  EXPECT_LT(*hi, 5.0);
}

// --- a pendulum on a revolute joint: Baumgarte, energy and constraint drift ---------------
// A 1 kg sphere (J = 0.01 kg·m²) on a massless arm of 1 m, pivot at the origin, released from
// the horizontal at rest under g = 9.81 m/s².
Model pendulum() {
  Model m;
  m.gravity_W = Vec3(0, -9.81, 0);
  Body bob;
  bob.name = "bob";
  bob.mass = 1.0;
  bob.inertia_B = 0.01 * Mat3::Identity();
  bob.x0_W = Vec3(1, 0, 0);
  add_body(m, bob);
  add_joint(m, "pivot", joints::JointType::kRevolute, kGround, 0, Vec3::Zero(), Vec3::UnitZ());
  return m;
}

double pendulum_energy(const State& s) {
  const Vec3 w_B = s.v.segment<3>(3);
  return 0.5 * s.v.head<3>().squaredNorm() + 0.5 * 0.01 * w_B.squaredNorm() + 9.81 * s.x_W[0].y();
}

double constraint_norm(const System& sys, const State& s) {
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX phi(sys.num_constraints());
  sys.constraints(kin, s.t, &phi, MatrixSink(), nullptr, nullptr);
  return phi.norm();
}

TEST(ExplicitRk, Rk4EnergyDriftOfConservativePendulumIsFourthOrder) {
  // About one period (2.37 s) from the horizontal; the largest |E − E₀| over the run.
  auto drift = [](double h) {
    RunSettings s = explicit_settings(IntegratorKind::kRk4, h, 2.4);
    s.output.every = 1;
    const auto r = testing::run(pendulum(), s);
    EXPECT_TRUE(r.stats.ok) << r.stats.message;
    const double E0 = pendulum_energy(r.states.front());
    double worst = 0.0;
    for (const State& st : r.states) worst = std::max(worst, std::abs(pendulum_energy(st) - E0));
    return worst;
  };
  const double d1 = drift(0.02), d2 = drift(0.01), d3 = drift(0.005);
  record("drift_h_0.02", d1);
  record("slope_1", std::log2(d1 / d2));
  record("slope_2", std::log2(d2 / d3));
  EXPECT_NEAR(std::log2(d1 / d2), 4.0, 0.3) << d1 << " " << d2;
  EXPECT_NEAR(std::log2(d2 / d3), 4.0, 0.3) << d2 << " " << d3;
}

TEST(ExplicitRk, ConstraintViolationStaysSmallAndBoundedOverManyPeriods) {
  // 20 s ≈ 8.4 periods at h = 0.01 with the default α = β = 5 1/s: ‖Φ‖ is the integration error
  // the stabilisation keeps from accumulating; without it (α = β = 0) the drift grows.
  auto run = [](double alpha) {
    RunSettings s = explicit_settings(IntegratorKind::kRk4, 0.01, 20.0);
    s.solver.baumgarte_alpha = s.solver.baumgarte_beta = alpha;
    s.output.every = 1;
    const Model model = pendulum();
    const auto r = testing::run(model, s);
    EXPECT_TRUE(r.stats.ok) << r.stats.message;
    System sys(model);
    double first = 0.0, last = 0.0;  // largest ‖Φ‖ over the first and the last 5 s
    for (const State& st : r.states) {
      const double phi = constraint_norm(sys, st);
      if (st.t <= 5.0) first = std::max(first, phi);
      if (st.t >= 15.0) last = std::max(last, phi);
    }
    return std::pair{first, last};
  };
  const auto [first, last] = run(SolverSettings{}.baumgarte_alpha);
  record("phi_first_5s", first);
  record("phi_last_5s", last);
  EXPECT_LT(last, 1e-6) << first << " " << last;
  EXPECT_LT(last, 3.0 * first) << first << " " << last;
  const auto [free_first, free_last] = run(0.0);
  record("unstabilised_phi_first_5s", free_first);
  record("unstabilised_phi_last_5s", free_last);
  EXPECT_GT(free_last, 10.0 * last) << free_first << " " << free_last;
}

TEST(ExplicitRk, BaumgarteViolationDecaysAsTheCriticallyDampedLaw) {
  // From an assembled pendulum moved 0.1 mm off its joint, Φ(t) follows Φ̈ + 2αΦ̇ + β²Φ = 0
  // exactly in continuous time; for α = β: Φ(t) = [Φ₀(1 + αt) + Φ̇₀ t] e^(−αt).
  const Model model = pendulum();
  System sys(model);
  State s = initial_state(sys);
  std::vector<std::string> notes;
  ASSERT_TRUE(make_consistent(sys, s, 1e-13, notes).ok);
  s.x_W[0] += Vec3(1e-4, -5e-5, 2e-5);
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  const int m = sys.num_constraints();
  VecX phi0(m), phi_t(m);
  MatX B = MatX::Zero(m, sys.num_dofs());
  sys.constraints(kin, s.t, &phi0, MatrixSink(&B), &phi_t, nullptr);
  const VecX phidot0 = B * s.v + phi_t;
  SolverSettings st;
  st.integrator = IntegratorKind::kRk4;
  st.baumgarte_alpha = st.baumgarte_beta = 20.0;
  ExplicitRungeKutta rk(sys, st);
  const double h = 1e-3, alpha = 20.0;
  for (int k = 1; k <= 500; ++k) {
    ASSERT_TRUE(rk.step(s, h).converged);
    if (k % 50 != 0) continue;
    const double t = s.t;
    sys.gather(s, kin);
    VecX phi(m);
    sys.constraints(kin, t, &phi, MatrixSink(), nullptr, nullptr);
    const VecX expected = (phi0 * (1 + alpha * t) + phidot0 * t) * std::exp(-alpha * t);
    EXPECT_LT((phi - expected).norm(), 1e-3 * phi0.norm() + 1e-12) << "t = " << t;
  }
  // After 0.5 s = 10/α the violation is down by (1 + 10) e^(−10) ≈ 5e-4.
  EXPECT_LT(constraint_norm(sys, s), 1e-3 * phi0.norm());
  // Without stabilisation the same start keeps its violation.
  State free = initial_state(sys);
  ASSERT_TRUE(make_consistent(sys, free, 1e-13, notes).ok);
  free.x_W[0] += Vec3(1e-4, -5e-5, 2e-5);
  st.baumgarte_alpha = st.baumgarte_beta = 0.0;
  ExplicitRungeKutta rk_free(sys, st);
  for (int k = 0; k < 500; ++k) ASSERT_TRUE(rk_free.step(free, h).converged);
  EXPECT_GT(constraint_norm(sys, free), 0.5 * phi0.norm());
}

// --- the ideal slider–crank (seed 000, 5000 rpm) against its closed form -----------------
TEST(ExplicitRk, SliderCrankMatchesClosedFormAtSmallStep) {
  // One revolution (0.012 s) at h = 1e-5. Scales: stroke 0.17 m, peak speed 28.4 m/s, peak
  // acceleration 19 419 m/s².
  // rk4 also through the sparse LU path (large models) instead of the mass-saddle Schur solve.
  for (const auto& [kind, linear] :
       {std::pair{IntegratorKind::kRk4, LinearSolverKind::kAuto},
        std::pair{IntegratorKind::kRk4, LinearSolverKind::kSparse},
        std::pair{IntegratorKind::kDormandPrince, LinearSolverKind::kAuto}}) {
    RunSettings s = explicit_settings(kind, 1e-5, 0.012);
    s.solver.linear_solver = linear;
    s.output.every = 10;
    const auto r = testing::run(testing::slider_crank(), s);
    ASSERT_TRUE(r.stats.ok) << r.stats.message;
    double ex = 0.0, ev = 0.0, ea = 0.0;
    for (const State& st : r.states) {
      const auto ref = testing::slider_closed_form(st.t);
      ex = std::max(ex, std::abs(st.x_W[2].x() - ref.x));
      ev = std::max(ev, std::abs(st.v(12) - ref.v));
      ea = std::max(ea, std::abs(st.vdot(12) - ref.a));
    }
    const std::string name = std::string(kind == IntegratorKind::kRk4 ? "rk4" : "dormand_prince") +
                             (linear == LinearSolverKind::kSparse ? "_sparse" : "");
    record(name + "_position_error", ex);
    record(name + "_velocity_error", ev);
    record(name + "_acceleration_error", ea);
    record(name + "_max_phi", r.stats.max_constraint_violation);
    EXPECT_LT(ex, 1e-10 * 0.17) << name;
    EXPECT_LT(ev, 1e-10 * 28.4) << name;
    EXPECT_LT(ea, 1e-10 * 19419.0) << name;
    EXPECT_LT(r.stats.max_constraint_violation, 1e-11) << name;
  }
}

// --- failure paths, factory, incompatible models --------------------------------------------
TEST(ExplicitRk, DependentConstraintRowsFailTheStepWithAMessage) {
  // Two revolute joints on the same axis, their redundant rows not removed (no
  // make_consistent): [M Bᵀ; B 0] is singular.
  Model m = pendulum();
  add_joint(m, "pivot2", joints::JointType::kRevolute, kGround, 0, Vec3::Zero(), Vec3::UnitZ());
  System sys(m);
  State s = initial_state(sys);
  SolverSettings st;
  st.integrator = IntegratorKind::kRk4;
  ExplicitRungeKutta rk(sys, st);
  const State before = s;
  const StepResult r = rk.step(s, 1e-3);
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.message.find("singular"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("rk4"), std::string::npos) << r.message;
  EXPECT_EQ(s.t, before.t);
  EXPECT_TRUE(s.x_W[0] == before.x_W[0]);
}

TEST(ExplicitRk, UnstableStepFailsInsteadOfReturningGarbage) {
  // h α far beyond the stability limit: the violation explodes, the step reports it.
  const Model model = pendulum();
  System sys(model);
  State s = initial_state(sys);
  std::vector<std::string> notes;
  ASSERT_TRUE(make_consistent(sys, s, 1e-13, notes).ok);
  s.x_W[0] += Vec3(1e-3, 0, 0);
  SolverSettings st;
  st.integrator = IntegratorKind::kRk4;
  st.baumgarte_alpha = st.baumgarte_beta = 1e6;
  ExplicitRungeKutta rk(sys, st);
  StepResult r;
  for (int k = 0; k < 2000 && (k == 0 || r.converged); ++k) r = rk.step(s, 1e-2);
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.message.find("stability limit"), std::string::npos) << r.message;
}

TEST(ExplicitRk, FactoryNamesAndOrders) {
  const Model model = pendulum();
  System sys(model);
  SolverSettings st;
  st.integrator = IntegratorKind::kRk4;
  EXPECT_EQ(make_integrator(sys, st)->name(), "rk4");
  EXPECT_EQ(make_integrator(sys, st)->order(), 4);
  st.integrator = IntegratorKind::kDormandPrince;
  EXPECT_EQ(make_integrator(sys, st)->name(), "dormand_prince");
  EXPECT_EQ(make_integrator(sys, st)->order(), 4);
}

TEST(ExplicitRk, TableausSatisfyTheirOrderConditionsUpToFour) {
  for (const ButcherTableau& t :
       {ButcherTableau::classical_rk4(), ButcherTableau::dormand_prince()}) {
    const int s = t.stages;
    VecX b(s), c(s);
    MatX A(s, s);
    for (int i = 0; i < s; ++i) {
      b(i) = t.b[i];
      c(i) = t.c[i];
      for (int j = 0; j < s; ++j) A(i, j) = t.coefficient(i, j);
      EXPECT_NEAR(A.row(i).sum(), c(i), 1e-15) << "row " << i;
    }
    const VecX c2 = c.cwiseProduct(c), Ac = A * c;
    EXPECT_NEAR(b.sum(), 1.0, 1e-15);
    EXPECT_NEAR(b.dot(c), 1.0 / 2.0, 1e-15);
    EXPECT_NEAR(b.dot(c2), 1.0 / 3.0, 1e-15);
    EXPECT_NEAR(b.dot(Ac), 1.0 / 6.0, 1e-15);
    EXPECT_NEAR(b.dot(c2.cwiseProduct(c)), 1.0 / 4.0, 1e-15);
    EXPECT_NEAR(b.dot(c.cwiseProduct(Ac)), 1.0 / 8.0, 1e-15);
    EXPECT_NEAR(b.dot(A * c2), 1.0 / 12.0, 1e-15);
    EXPECT_NEAR(b.dot(A * Ac), 1.0 / 24.0, 1e-15);
    if (!t.has_error_estimate()) continue;
    // The error weights sum to zero: both solutions are consistent.
    double sum = 0.0;
    for (const double e : t.error_weights) sum += e;
    EXPECT_NEAR(sum, 0.0, 1e-15);
  }
}

TEST(ExplicitRk, UnilateralContactsAskForNsga) {
  Model m = pendulum();
  add_sphere_plane(m, "floor", kGround, Vec3(0, -2, 0), Vec3::UnitY(), 0, Vec3(1, 0, 0), 0.1, 0.5,
                   0.0);
  System sys(m);
  SolverSettings st;
  st.integrator = IntegratorKind::kDormandPrince;
  const std::string why = incompatible_settings(sys, st);
  EXPECT_NE(why.find("dormand_prince"), std::string::npos) << why;
  EXPECT_NE(why.find("solver.integrator: nsga"), std::string::npos) << why;
}

// --- model-file keys ------------------------------------------------------------------------
const std::string kPendulumFile =
    "bodies:\n  bob: {mass: 1, inertia: [0.01, 0.01, 0.01], position: [1, 0, 0]}\n"
    "joints:\n  pivot: {type: revolute, bodies: [ground, bob], at: [0, 0, 0], axis: [0, 0, 1]}\n";

std::string reader_error(const std::string& text) {
  try {
    load_model_string(text, "rk.yaml");
  } catch (const ModelFileError& e) {
    return e.what();
  }
  return "";
}

TEST(ExplicitRk, ModelReaderKeys) {
  const LoadedModel rk4 = load_model_string(
      kPendulumFile + "solver: {integrator: rk4, baumgarte_alpha: 250, baumgarte_beta: 200}\n",
      "rk.yaml");
  EXPECT_EQ(rk4.run.solver.integrator, IntegratorKind::kRk4);
  EXPECT_EQ(rk4.run.solver.baumgarte_alpha, 250.0);
  EXPECT_EQ(rk4.run.solver.baumgarte_beta, 200.0);
  EXPECT_TRUE(rk4.warnings.empty());
  const LoadedModel dp = load_model_string(
      kPendulumFile + "solver: {integrator: dormand_prince, adaptive: true, rtol: 1e-7}\n",
      "rk.yaml");
  EXPECT_EQ(dp.run.solver.integrator, IntegratorKind::kDormandPrince);
  EXPECT_TRUE(dp.run.solver.adaptive);
  EXPECT_EQ(dp.run.solver.baumgarte_alpha, SolverSettings{}.baumgarte_alpha);
  EXPECT_TRUE(dp.warnings.empty());
  EXPECT_EQ(reader_error(kPendulumFile + "solver: {integrator: rk4, baumgarte_alpha: -1}\n"),
            "rk.yaml:5:44: error: solver.baumgarte_alpha: expected a non-negative number [1/s], "
            "found '-1'");
  // Keys the chosen integrator does not read are accepted with a warning.
  const LoadedModel ga = load_model_string(
      kPendulumFile + "solver:\n  integrator: generalized_alpha\n  baumgarte_beta: 10\n",
      "rk.yaml");
  ASSERT_EQ(ga.warnings.size(), 1u);
  EXPECT_EQ(ga.warnings[0],
            "rk.yaml:7:3: warning: solver.baumgarte_beta is ignored: they are used by the rk4 and "
            "dormand_prince integrators only");
  const LoadedModel rho = load_model_string(
      kPendulumFile + "solver:\n  integrator: rk4\n  rho_inf: 0.8\n  adaptive: true\n", "rk.yaml");
  ASSERT_EQ(rho.warnings.size(), 2u);
  EXPECT_NE(rho.warnings[0].find("solver.adaptive is ignored: rk4 runs at a fixed step"),
            std::string::npos)
      << rho.warnings[0];
  EXPECT_NE(rho.warnings[1].find("solver.rho_inf is ignored"), std::string::npos)
      << rho.warnings[1];
  EXPECT_FALSE(rho.run.solver.adaptive);
}

}  // namespace
}  // namespace cs
