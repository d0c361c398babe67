// seed 004's formulations (formulation: ali3p and penalty; penalty_alpha.hpp) against index 3 and
// the stabilized formulation on the ideal slider–crank of seed 000, one revolution at h = 1e-5 s,
// each measured against a fine index-3 reference (full Newton, h = 2.5e-6 s); and their bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/penalty_alpha.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

using testing::ExampleRun;

const std::vector<std::string> kChannels = {"slider.position.x", "slider.velocity.x",
                                            "slider.acceleration.x", "rod_slider.force.x",
                                            "crank_speed.torque"};
constexpr double kRevolution = 0.012;  // 5000 rpm

ExampleRun run(std::vector<Override> overrides, int every) {
  overrides.push_back({"output.every", std::to_string(every)});
  LoadedModel lm = load_model_file(testing::example_path("slider_crank_ideal"), overrides);
  return testing::run_loaded(std::move(lm), kRevolution, every, kChannels);
}

// A consistent start of `sys` with every constraint row kept, as ali3p and penalty run.
State consistent_start(System& sys, double tol) {
  std::vector<std::string> notes;
  State s = initial_state(sys, 0.0);
  EXPECT_TRUE(make_consistent(sys, s, tol, notes).ok);
  sys.restore_removed_rows(s);
  return s;
}

// Per channel: max |x − x_ref| over the range of x_ref.
std::vector<double> errors(const ExampleRun& r, const ExampleRun& ref) {
  std::vector<double> out;
  for (std::size_t c = 0; c < kChannels.size(); ++c) {
    const auto& x = r.columns[c];
    const auto& y = ref.columns[c];
    EXPECT_EQ(x.size(), y.size());
    double worst = 0.0;
    for (std::size_t k = 0; k < std::min(x.size(), y.size()); ++k)
      worst = std::max(worst, std::abs(x[k] - y[k]));
    out.push_back(worst / (testing::max_of(y) - testing::min_of(y)));
  }
  return out;
}

TEST(Formulations, Ali3pAndPenaltyGiveTheResultsOfIndex3WithinTheIntegrationError) {
  const ExampleRun ref = run({{"solver.newton", "full"}, {"solver.step", "2.5e-6"}}, 40);
  // The formulations are those of body poses: index 3 there too (the example's default is joint
  // coordinates, whose reactions come from another scheme).
  const ExampleRun index3 = run({{"solver.coordinates", "absolute"}}, 10),
                   stabilized = run({{"solver.formulation", "stabilized"}}, 10);
  const ExampleRun ali3p = run({{"solver.formulation", "ali3p"}}, 10);
  const ExampleRun penalty = run({{"solver.formulation", "penalty"}}, 10);
  const auto e3 = errors(index3, ref), es = errors(stabilized, ref), ea = errors(ali3p, ref),
             ep = errors(penalty, ref);
  for (std::size_t c = 0; c < kChannels.size(); ++c)
    std::printf("[ %-22s ] index3 %.2e stabilized %.2e ali3p %.2e penalty %.2e\n",
                kChannels[c].c_str(), e3[c], es[c], ea[c], ep[c]);
  // The integration error of the motion (velocity, acceleration), index 3's and the
  // stabilized formulation's: 1.7e-6 / 7.3e-6 and 1.2e-7 / 4.8e-6 of the ranges (measured).
  const double motion_error = std::max({e3[1], e3[2], es[1], es[2]});
  for (int c : {1, 2}) {
    EXPECT_LT(ea[c], motion_error) << kChannels[c];        // measured 1.2e-7, 2.3e-6
    EXPECT_LT(ep[c], 1.5 * motion_error) << kChannels[c];  // measured 1.8e-6, 7.3e-6
  }
  // Positions: ali3p holds the joints to round-off like index 3 (1.4e-12 of the range);
  // penalty lets them give by about a h²/1e3 (measured 6.3e-8 of the slider's range).
  EXPECT_LT(ea[0], 1e-10);
  EXPECT_LT(ep[0], 1e-6);
  // Reactions: index 3's multipliers carry the start-up transient of its algebraic mode (1.5e-3
  // and 2.2e-3 of the ranges); ali3p's are as good as the stabilized formulation's (measured
  // 1.1e-5 for both; its acceleration projection takes the multipliers along); penalty's carry
  // its constraint error (2e-4 and 1.1e-3).
  const double reaction_error = std::max(e3[3], e3[4]);
  for (int c : {3, 4}) {
    EXPECT_LT(ea[c], 1e-4) << kChannels[c];
    EXPECT_LT(ep[c], reaction_error) << kChannels[c];
  }
}

// The sparse path (KLU, triplet assembly of Bᵀ diag(w) B; large models take it) gives what the
// dense path gives: the motion to 1e-6 of its range, the reactions to 3e-5, the round-off that
// ali3p's penalty leaves in λ (α_i times the positions' round-off: 1e-5 of the range against
// the fine reference above; 1.5e-5 between the two paths).
TEST(Formulations, SparsePathMatchesDensePath) {
  for (const char* formulation : {"ali3p", "penalty"}) {
    const ExampleRun dense = run({{"solver.formulation", formulation}}, 10);
    const ExampleRun sparse =
        run({{"solver.formulation", formulation}, {"solver.linear_solver", "sparse"}}, 10);
    const auto e = errors(sparse, dense);
    for (std::size_t c = 0; c < kChannels.size(); ++c)
      EXPECT_LT(e[c], c < 3 ? 1e-6 : 3e-5) << formulation << " " << kChannels[c];
  }
}

// ali3p's iteration matrix against central finite differences of its residual, on the flyball
// governor (IFToMM A05: spring–dampers, 3D rotations, four joint types) at a state one step
// along its motion, with an increment off the motion so that the tangent operator T ≠ 1.
TEST(Formulations, Ali3pIterationMatrixMatchesFiniteDifferences) {
  LoadedModel lm = load_model_file(testing::example_path("iftomm_a05_flyball_governor"),
                                   {{"solver.formulation", "ali3p"}});
  System sys(lm.model);
  State s = consistent_start(sys, 1e-12);
  PenaltyAlpha pa(sys, lm.run.solver);
  const double h = 1e-3;
  VecX hdq = h * s.v;
  for (int k = 0; k < hdq.size(); ++k) hdq(k) += 1e-4 * std::sin(1.0 + k);  // off the motion
  const PenaltyAlpha::Linearization at = pa.linearize(s, hdq, h);
  const AlphaParameters p = AlphaParameters::from_settings(lm.run.solver);
  const double beta_p = (1.0 - p.alpha_m) / ((1.0 - p.alpha_f) * h * h * p.beta);
  // ε: the residual carries α_i·Φ with α_i ≈ 1e5·β′·m_i, so round-off in r is ~1e-16·|r| and the
  // truncation O(ε²); 1e-6 balances them for |hdq| ~ 1e-3.
  const double eps = 1e-6;
  double worst = 0.0;
  for (int k = 0; k < hdq.size(); ++k) {
    VecX plus = hdq, minus = hdq;
    plus(k) += eps;
    minus(k) -= eps;
    const VecX fd = (pa.linearize(s, plus, h).residual - pa.linearize(s, minus, h).residual) /
                    (2.0 * eps * beta_p);
    const double scale = std::max(at.matrix.col(k).lpNorm<Eigen::Infinity>(), 1e-12);
    worst = std::max(worst, (fd - at.matrix.col(k)).lpNorm<Eigen::Infinity>() / scale);
  }
  std::printf("[ ali3p tangent ] largest column error against finite differences %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);  // measured 4.9e-9; leaving T out would give ~|hdq| ~ 1e-3
}

// The penalty's reactions are λ = α(Φ̈ + 2μωΦ̇ + ω²Φ) at the step's end, not at Newton's last
// evaluation one increment before it: the sensitivities take λ as that function of the state
// (docs/sensitivity.md, *Penalty formulation*). Over a revolution of the slider–crank at its own
// settings (modified Newton), the largest deviation relative to max |λ|: measured 3.2e-7 with λ
// following the last increment by the matrix's w_B B ξ, 3.4e-3 without. The update leaves out
// B's and ζ's change over ξ, about ω h = 5e-3 of it (the crank at 523 rad/s, h = 1e-5 s), so
// at most 1.7e-5; the bound is 1e-5.
TEST(Formulations, PenaltyReactionsAreThoseOfTheStepsEnd) {
  LoadedModel lm = load_model_file(testing::example_path("slider_crank_ideal"),
                                   {{"solver.formulation", "penalty"}});
  System sys(lm.model);
  State s = consistent_start(sys, lm.run.solver.newton_tol);
  PenaltyAlpha pa(sys, lm.run.solver);
  const double h = lm.run.solver.step;
  const PenaltyParameters pen = PenaltyParameters::at_step(sys, lm.run.solver, h);
  const int n = sys.num_dofs(), m = sys.num_constraints();
  std::vector<BodyKinematics> kin;
  double worst = 0.0, scale = 0.0;
  for (int k = 0; k * h < kRevolution; ++k) {
    ASSERT_TRUE(pa.step(s, h).converged);
    sys.gather(s, kin);
    VecX phi = VecX::Zero(m), phi_t = VecX::Zero(m), zeta = VecX::Zero(m), lambda;
    MatX B = MatX::Zero(m, n);
    sys.constraints(kin, s.t, &phi, MatrixSink(&B), &phi_t, &zeta);
    penalty_multipliers(pen, B * s.vdot, zeta, B * s.v + phi_t, phi, lambda);
    worst = std::max(worst, (lambda - s.lambda).lpNorm<Eigen::Infinity>());
    scale = std::max(scale, lambda.lpNorm<Eigen::Infinity>());
  }
  std::printf("[ penalty ] largest |λ − α(Φ̈ + 2μωΦ̇ + ω²Φ)| over a revolution: %.2e of max |λ|\n",
              worst / scale);
  EXPECT_LT(worst, 1e-5 * scale);
}

TEST(Formulations, PenaltyFactorAbsurdForTheMassesIsWarnedWithAUsableValue) {
  LoadedModel lm = load_model_file(testing::example_path("slider_crank_ideal"),
                                   {{"solver.formulation", "ali3p"}});
  System sys(lm.model);
  EXPECT_TRUE(penalty_parameter_warning(sys, lm.run.solver).empty());  // auto
  lm.run.solver.penalty_factor = 1e-3;
  const std::string small = penalty_parameter_warning(sys, lm.run.solver);
  EXPECT_NE(small.find("too small"), std::string::npos) << small;
  EXPECT_NE(small.find("the run uses `auto` instead: "), std::string::npos) << small;
  lm.run.solver.penalty_factor = 1e30;
  const std::string large = penalty_parameter_warning(sys, lm.run.solver);
  EXPECT_NE(large.find("too large"), std::string::npos) << large;
  lm.run.solver.formulation = ConstraintFormulation::kPenalty;
  lm.run.solver.penalty_factor = 0.3;  // α/m = 1 for the 0.3 kg crank
  EXPECT_NE(penalty_parameter_warning(sys, lm.run.solver).find("too small"), std::string::npos);
  lm.run.solver.penalty_factor = 300.0;  // α/m = 1e3, the automatic value
  EXPECT_TRUE(penalty_parameter_warning(sys, lm.run.solver).empty());
}

}  // namespace
}  // namespace cs
