// Adjoint gradients (sensitivity/adjoint_gradient.hpp): the transposes the backward pass uses,
// each by a dot-product test ⟨w, A v⟩ = ⟨Aᵀ w, v⟩ at a real step, and the gradient of every
// objective kind against the same objective differentiated by the direct sensitivities
// (direct_sensitivity.hpp), which both compute from the same perturbed models: they differ by
// round-off and by the channel's state gradient (differences at 1e-7 m, 1e-6 relative), so
// 1e-8 relative is the bound and is met with margin (measured figures in
// docs/sensitivity.md).
#include "clearsim/sensitivity/adjoint_gradient.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

// The text of examples/REL (support/example_runs.hpp reads it).
std::string example(const std::string& rel) {
  return testing::read_text(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + rel);
}

std::vector<Override> tight(const std::string& end) {
  return {{"solver.newton", "full"},
          {"solver.newton_tol", "1e-14"},
          {"solver.coordinates", "absolute"},
          {"solver.end", end}};
}

VecX random_vector(std::mt19937& gen, Eigen::Index n) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX x(n);
  for (Eigen::Index i = 0; i < n; ++i) x(i) = u(gen);
  return x;
}

StateTangent random_tangent(std::mt19937& gen, const State& s) {
  StateTangent d = StateTangent::zero(s);
  d.q = random_vector(gen, d.q.size());
  d.v = random_vector(gen, d.v.size());
  d.a = random_vector(gen, d.a.size());
  d.vdot = random_vector(gen, d.vdot.size());
  d.lambda = random_vector(gen, d.lambda.size());
  return d;
}

// A model run to `end` and one step further: the step prev → s that the tests linearize.
struct OneStep {
  LoadedModel lm;
  std::unique_ptr<System> sys;
  State prev, s;
};

void step_at(const std::string& text, const std::string& end, OneStep& out) {
  out.lm = load_model_string(text, "model.yaml", tight(end));
  out.sys = std::make_unique<System>(out.lm.model);
  Simulation sim(*out.sys, out.lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes));
  ASSERT_TRUE(sim.run_to(out.lm.run.solver.end));
  out.prev = sim.state();
  ASSERT_TRUE(sim.step());
  out.s = sim.state();
}

// ⟨w, G(dS, dX)⟩ = ⟨G_Sᵀw, dS⟩ + ⟨G_Xᵀw, dX⟩, ⟨μ, J_R G(dS, dX)⟩ = ⟨Gᵀ J_Rᵀ μ, (dS, dX)⟩ and
// ⟨w, R_X⁻¹ v⟩ = ⟨R_X⁻ᵀ w, v⟩ at a step of a running mechanism (rotations of every size in
// hΔq, a moving constraint), to round-off of the sums' largest term.
void expect_transposes_hold(const std::string& text, const std::string& end,
                            StepRows rows = StepRows::kPositions) {
  OneStep one;
  step_at(text, end, one);
  if (::testing::Test::HasFatalFailure()) return;
  const LoadedModel& lm = one.lm;
  const System& sys = *one.sys;
  const State &prev = one.prev, &s = one.s;
  StepLinearization lin(sys, lm.run.solver, rows);
  lin.linearize(prev, s);
  ASSERT_TRUE(lin.factorize());
  const int n = sys.num_dofs(), m = sys.num_constraints();
  std::mt19937 gen(26);
  for (int trial = 0; trial < 3; ++trial) {
    const StateTangent dS = random_tangent(gen, s), w = random_tangent(gen, s);
    const VecX dvdot = random_vector(gen, n), dlambda = random_vector(gen, m);
    const VecX mu = random_vector(gen, n + m);
    StateTangent next, wS, jr;
    VecX dR, wvdot, wlambda;
    lin.directional(dS, dvdot, dlambda, next, dR);
    // The step's formulas.
    lin.transposed_step(w, wS, wvdot, wlambda);
    const double lhs = dot(w, next);
    const double rhs = dot(wS, dS) + wvdot.dot(dvdot) + wlambda.dot(dlambda);
    EXPECT_NEAR(lhs, rhs, 1e-13 * (std::abs(lhs) + dS.q.norm() * w.q.norm() + 1.0)) << trial;
    // The residual composed with them.
    lin.transposed_residual(mu, jr);
    lin.transposed_step(jr, wS, wvdot, wlambda);
    const double lhs_r = mu.dot(dR);
    const double rhs_r = dot(wS, dS) + wvdot.dot(dvdot) + wlambda.dot(dlambda);
    EXPECT_NEAR(lhs_r, rhs_r, 1e-12 * (std::abs(lhs_r) + mu.norm() * dR.norm()));
    // R_X's transposed solve: ⟨R_X⁻ᵀ z, R_X v⟩ = ⟨z, v⟩ with R_X v the directional derivative
    // along (dS = 0, dX = v), independent of the dense matrix.
    const VecX v = random_vector(gen, n + m), z = random_vector(gen, n + m);
    const StateTangent zero = StateTangent::zero(s);
    VecX R_Xv;
    lin.directional(zero, v.head(n), v.tail(m), next, R_Xv);
    const VecX mu_z = lin.solve_transposed(z);
    const double lhs_s = mu_z.dot(R_Xv), rhs_s = z.dot(v);
    EXPECT_NEAR(lhs_s, rhs_s, 1e-9 * (std::abs(rhs_s) + z.norm() * v.norm()))
        << "terms " << (mu_z.cwiseProduct(R_Xv)).cwiseAbs().maxCoeff();
  }
}

// The dense R_X that factorize() writes from its blocks (M, ∂f/∂q, ∂f/∂v, B, K, and D, D_v for
// the velocity and penalty rows) equals directional() along each unknown, column by column, in
// every row kind: the two are written apart, and every solve of the filters, the direct
// sensitivities and the adjoint uses the dense one.
void expect_dense_R_X_is_directional(const std::string& text, const std::string& end) {
  OneStep one;
  step_at(text, end, one);
  if (::testing::Test::HasFatalFailure()) return;
  const LoadedModel& lm = one.lm;
  const System& sys = *one.sys;
  const State &prev = one.prev, &s = one.s;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  for (const StepRows rows : {StepRows::kPositions, StepRows::kVelocities, StepRows::kPenalty}) {
    StepLinearization lin(sys, lm.run.solver, rows);
    lin.linearize(prev, s);
    ASSERT_TRUE(lin.factorize());
    const MatX& A = lin.scaled_R_X();
    ASSERT_EQ(A.rows(), n + m);
    const StateTangent zero = StateTangent::zero(s);
    StateTangent next;
    VecX base, column, unit = VecX::Zero(n + m);
    lin.directional(zero, unit.head(n), unit.tail(m), next, base);
    for (int j = 0; j < n + m; ++j) {
      unit(j) = 1.0;
      lin.directional(zero, unit.head(n), unit.tail(m), next, column);
      unit(j) = 0.0;
      column -= base;
      column.tail(m) *= lin.row_scale();
      // Round-off of the products' terms (K − ∂f/∂q against M at h²β: 1e-16 of the column).
      EXPECT_LE((A.col(j) - column).norm(), 1e-13 * (column.norm() + 1.0))
          << "rows " << static_cast<int>(rows) << ", column " << j;
    }
  }
}

TEST(StepLinearizationMatrix, DenseEqualsDirectionalOnSliderCrank) {
  expect_dense_R_X_is_directional(example("slider_crank_ideal/model.yaml"), "0.003");
}

TEST(StepLinearizationMatrix, DenseEqualsDirectionalOnLubricatedFourBar) {
  expect_dense_R_X_is_directional(example("four_bar_clearance/lubricated_wedge.yaml"), "0.002");
}

TEST(AdjointTransposes, DotProductTestsOnSliderCrank) {
  expect_transposes_hold(example("slider_crank_ideal/model.yaml"), "0.003");
}

TEST(AdjointTransposes, DotProductTestsOnLubricatedFourBar) {
  expect_transposes_hold(example("four_bar_clearance/lubricated_wedge.yaml"), "0.002");
}

TEST(AdjointTransposes, DotProductTestsOfThePenaltyRows) {
  expect_transposes_hold(example("slider_crank_ideal/model.yaml"), "0.003", StepRows::kPenalty);
  expect_transposes_hold(example("four_bar_clearance/lubricated_wedge.yaml"), "0.002",
                         StepRows::kPenalty);
}

// The objective's value and gradient from the direct sensitivities: the channel and its
// derivatives at every step (the initial state first), then J and Σ_n ∂J/∂c_n dc_n/dp.
struct DirectObjective {
  std::vector<double> t, c;
  std::vector<std::vector<double>> dc;  // per step, per parameter
};

struct DirectRecorder final : StepObserver {
  const ChannelSet& ch;
  const DirectSensitivity& sens;
  DirectObjective& out;
  DirectRecorder(const ChannelSet& c, const DirectSensitivity& s, DirectObjective& o)
      : ch(c), sens(s), out(o) {}
  void record(const State& s, const RunStats& stats) {
    std::vector<double> v, d;
    ch.evaluate(s, stats, v);
    sens.channel_derivatives(s, stats, d);
    out.t.push_back(s.t);
    out.c.push_back(v[0]);
    out.dc.push_back(d);
  }
  void on_output(const State& s, const RunStats& stats) override {
    if (out.t.empty()) record(s, stats);  // the initial state; steps come through on_step
  }
  void on_step(const State& s, const RunStats& stats) override { record(s, stats); }
};

void expect_adjoint_equals_direct(const std::string& text, const std::vector<Override>& o,
                                  const std::vector<std::string>& paths,
                                  const std::string& objective_text, double tol) {
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  ASSERT_EQ(AdjointGradient::unsupported(sys, lm.run), "");
  const AdjointObjective objective = AdjointObjective::parse(objective_text);
  AdjointGradient adjoint(text, "model.yaml", o, paths, objective, sys, lm.run);
  std::vector<std::string> notes;
  const GradientResult g = adjoint.compute(sys, notes);

  LoadedModel lm2 = load_model_string(text, "model.yaml", o);
  System sys2(lm2.model);
  const ChannelSet ch(sys2, {objective.channel()});
  DirectSensitivity direct(text, "model.yaml", o, paths, ch.names(), sys2, lm2.run);
  DirectObjective d;
  DirectRecorder recorder(ch, direct, d);
  State s;
  ASSERT_TRUE(run_with_sensitivities(sys2, lm2.run, direct, recorder, s, notes).ok);
  ASSERT_TRUE(direct.warnings().empty()) << direct.warnings().front();
  ASSERT_EQ(d.c.size(), static_cast<std::size_t>(g.steps) + 1);
  std::vector<double> w;
  const double J = objective.evaluate(d.t, d.c, w);
  EXPECT_EQ(J, g.value) << objective_text;
  int nonzero = 0;
  for (std::size_t j = 0; j < paths.size(); ++j) {
    double dJ = 0.0;
    for (std::size_t k = 0; k < w.size(); ++k) dJ += w[k] * d.dc[k][j];
    EXPECT_NEAR(g.gradient[j], dJ, tol * std::abs(dJ))
        << objective_text << " d/d " << paths[j] << " (direct " << dJ << ")";
    nonzero += dJ != 0.0;  // zero where the physics has none (a mass in a driven mechanism)
    std::printf("%s d/d(%s): adjoint %.15g direct %.15g rel %.2e\n", objective_text.c_str(),
                paths[j].c_str(), g.gradient[j], dJ, std::abs(g.gradient[j] - dJ) / std::abs(dJ));
  }
  EXPECT_GT(nonzero, 0) << objective_text;
}

// A reference for rms(): the slider's position of the nominal run shifted and sampled coarsely.
std::string write_reference() {
  const std::string path = std::string(::testing::TempDir()) + "adjoint_reference.csv";
  std::ofstream f(path);
  f << "time,slider.position.x\n# units: s,m\n";
  for (int k = 0; k <= 20; ++k) {
    const double t = 1e-4 * k;
    f << t << "," << 0.2 + 0.05 * std::cos(523.6 * t) << "\n";
  }
  return path;
}

const std::vector<std::string> kSliderCrankParameters = {"bodies.slider.mass", "bodies.rod.mass",
                                                         "drivers.crank_speed.angular_velocity",
                                                         "joints.crank_rod.at[0]"};

TEST(AdjointGradient, SliderCrankEveryObjectiveEqualsDirect) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  const auto o = tight("0.002");
  for (const std::string& obj :
       {std::string("end(crank_speed.torque)"), std::string("integral(rod_slider.force.x)"),
        std::string("pnorm(crank_speed.torque, 8)"),
        "rms(slider.position.x, " + write_reference() + ")"})
    expect_adjoint_equals_direct(text, o, kSliderCrankParameters, obj, 1e-8);
}

// The penalty formulation's rows transposed (step_linearization.hpp). The driven slider–crank's
// kinematics depend on a mass only through the joints' penalty compliance: 1 % more slider mass
// moves end(slider.acceleration.x) by 1.5e-10 of itself, and the two methods' round-off (R_X's
// LU forwards and transposed) differs by 1.9e-9 m/s² per kg, 6e-7 of its derivative
// (1.7e-8 to 1.4e-7 for the other mass derivatives of the kinematic objectives and the rod's
// mass on the rod force). The derivatives the physics makes are compared: measured 3e-12 to
// 3e-11.
TEST(AdjointGradient, PenaltyFormulationEqualsDirect) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  auto o = tight("0.002");
  o.push_back({"solver.formulation", "penalty"});
  const std::vector<std::string> kinematic = {"drivers.crank_speed.angular_velocity",
                                              "joints.crank_rod.at[0]"};
  for (const std::string& obj : {std::string("end(slider.acceleration.x)"),
                                 "rms(slider.position.x, " + write_reference() + ")"})
    expect_adjoint_equals_direct(text, o, kinematic, obj, 1e-8);
  expect_adjoint_equals_direct(
      text, o,
      {"bodies.slider.mass", "drivers.crank_speed.angular_velocity", "joints.crank_rod.at[0]"},
      "integral(rod_slider.force.x)", 1e-8);
}

// Seed 003's four-bar with wedge-lubricated pins (full film, the contacts' memory included): the
// viscosity, a mass, a joint's point and the crank speed at once.
TEST(AdjointGradient, LubricatedFourBarEveryObjectiveEqualsDirect) {
  const std::string text = example("four_bar_clearance/lubricated_wedge.yaml");
  const auto o = tight("0.002");
  const std::vector<std::string> paths = {"joints.crank_coupler.clearance.lubricant.viscosity",
                                          "bodies.coupler.mass", "joints.rocker_pivot.at[0]",
                                          "drivers.crank_speed.angular_velocity"};
  for (const char* obj : {"end(rocker.angular_velocity.z)", "integral(rocker.angular_velocity.z)",
                          "pnorm(crank_speed.torque, 6)", "end(coupler.angular_velocity.z)"})
    expect_adjoint_equals_direct(text, o, paths, obj, 1e-8);
}

// The Flores slider-crank's dry clearance joint (Lankarani-Nikravesh) over its first contact
// episodes: its remembered approach speed is transposed (adjoint_memory.hpp). The restitution
// and the slider's mass. Not 1e-8 here: both methods difference the memory update over 1e-9 m
// (so that a just-closed contact stays closed), where the remembered speed's round-off
// (ulp(2 m/s) = 4e-16) is 4e-7 of its derivative — the adjoint one coordinate at a time, the
// direct method along its tangent. Measured: 8.8e-7 (restitution), 9.8e-8 (mass).
TEST(AdjointGradient, CompliantImpactsEqualDirect) {
  const std::string text = example("flores_slider_crank/model.yaml");
  const std::vector<Override> o = {{"solver.newton", "full"},
                                   {"solver.newton_tol", "1e-12"},
                                   {"solver.coordinates", "absolute"},
                                   {"solver.end", "0.0009"}};
  const std::vector<std::string> paths = {"joints.rod_slider.clearance.restitution",
                                          "bodies.slider.mass"};
  for (const char* obj : {"end(slider.position.x)", "integral(slider.velocity.x)"})
    expect_adjoint_equals_direct(text, o, paths, obj, 3e-6);
}

}  // namespace
}  // namespace cs
