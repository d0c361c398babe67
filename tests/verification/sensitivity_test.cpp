// Direct sensitivities (sensitivity/direct_sensitivity.hpp) against differences of whole runs.
// Both sides use full Newton at a tight tolerance: the sensitivity is the derivative of the
// exactly converged discrete solution, and a whole run carries its Newton error, which the
// difference divides by the parameter's step (modified Newton's 1e-13 in positions is ~1e-3 N
// in a reaction at h = 1e-5 s, 100 N/kg after dividing by 1e-5 kg). Measured agreement: 3e-12
// (slider mass), 3e-10 (pendulum length), 2e-6 → below 1e-6 with Richardson (crank speed, whose
// accelerations the runs' round-off limits); 1e-6 is the issue's bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/sensitivity/perturbed_models.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

// The text of examples/REL (support/example_runs.hpp reads it).
std::string example(const std::string& rel) {
  return testing::read_text(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + rel);
}

// Channel values at every output point, each row [channels..., derivatives...].
struct Table final : StepObserver {
  const ChannelSet& channels;
  const DirectSensitivity* sens = nullptr;
  std::vector<std::vector<double>> rows;
  explicit Table(const ChannelSet& c) : channels(c) {}
  void on_output(const State& s, const RunStats& stats) override {
    std::vector<double> v;
    channels.evaluate(s, stats, v);
    if (sens) sens->channel_derivatives(s, stats, v);
    rows.push_back(v);
  }
};

std::vector<Override> tight(const std::string& end) {
  return {{"solver.newton", "full"},
          {"solver.newton_tol", "1e-14"},
          {"solver.coordinates", "absolute"},
          {"solver.end", end}};
}

std::vector<std::vector<double>> run_with(const std::string& text, std::vector<Override> o) {
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  const ChannelSet channels = model_channels(lm, sys);
  Table table(channels);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, table, s, notes);
  EXPECT_TRUE(stats.ok) << stats.message;
  return table.rows;
}

// Every output row with the derivatives of `path` after the channels, run with o's settings
// (body poses when they say auto).
std::vector<std::vector<double>> sensitivity_rows(const std::string& text,
                                                  const std::vector<Override>& o,
                                                  const std::vector<std::string>& paths) {
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  std::string note;
  lm.run = DirectSensitivity::adapted(lm.run, note);
  const ChannelSet channels = model_channels(lm, sys);
  DirectSensitivity sens(text, "model.yaml", o, paths, channels.names(), sys, lm.run);
  Table table(channels);
  table.sens = &sens;
  State s;
  std::vector<std::string> notes;
  EXPECT_TRUE(run_with_sensitivities(sys, lm.run, sens, table, s, notes).ok);
  EXPECT_TRUE(sens.warnings().empty()) << sens.warnings().front();
  return table.rows;
}

std::vector<std::vector<double>> sensitivity_rows(const std::string& text,
                                                  const std::vector<Override>& o,
                                                  const std::string& path) {
  return sensitivity_rows(text, o, std::vector<std::string>{path});
}

// The runs with `path` at value ±step and ±2·step (in that order), with the overrides o.
std::array<std::vector<std::vector<double>>, 4> perturbed_runs(const std::string& text,
                                                               const std::vector<Override>& o,
                                                               const std::string& path,
                                                               double value, double step) {
  std::array<std::vector<std::vector<double>>, 4> runs;
  for (int k = 0; k < 4; ++k) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value + (k < 2 ? 1 : 2) * (k % 2 ? -step : step));
    auto ok = o;
    ok.push_back({path, buf});
    runs[static_cast<std::size_t>(k)] = run_with(text, ok);
  }
  return runs;
}

// Largest |sensitivity − difference of runs| over the run, relative to the largest |difference|,
// for the channels `checked`. The runs' difference is Richardson's of central differences at ±Δ
// and ±2Δ (truncation O(Δ⁴)): a run's accelerations and reactions carry round-off amplified by
// β′ ~ 1/h², which a plain central difference divides by Δ (at Δ = 1e-4 relative it was 1e-5 of
// the slider–crank's accelerations), so Δ must be large and its truncation removed.
void expect_matches_runs(const std::string& text, const std::string& path, double value,
                         double step, const std::string& end,
                         const std::vector<std::string>& checked, double tol,
                         const std::vector<Override>& settings = {}) {
  std::vector<Override> o = tight(end);
  o.insert(o.end(), settings.begin(), settings.end());
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  ASSERT_EQ(DirectSensitivity::unsupported(sys, lm.run), "");
  const ChannelSet channels = model_channels(lm, sys);
  const std::vector<std::vector<double>> rows = sensitivity_rows(text, o, path);
  const auto runs = perturbed_runs(text, o, path, value, step);
  for (const auto& run : runs) ASSERT_EQ(run.size(), rows.size());
  const std::size_t nc = channels.names().size();
  for (const std::string& name : checked) {
    const auto c =
        static_cast<std::size_t>(std::find(channels.names().begin(), channels.names().end(), name) -
                                 channels.names().begin());
    ASSERT_LT(c, nc) << name;
    double worst = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double d1 = (runs[0][k][c] - runs[1][k][c]) / (2.0 * step);
      const double d2 = (runs[2][k][c] - runs[3][k][c]) / (4.0 * step);
      const double fd = (4.0 * d1 - d2) / 3.0;
      worst = std::max(worst, std::abs(rows[k][nc + c] - fd));
      scale = std::max(scale, std::abs(fd));
    }
    ASSERT_GT(scale, 0.0) << name;
    EXPECT_LE(worst / scale, tol) << name << " (largest derivative " << scale << ")";
  }
}

// R_p from the elements a parameter reaches (PerturbedModels::reach) is R_p from every element:
// the others' parts are the same in the four models. The slider's mass reaches no element; its
// initial position, the joints that name the slider; a joint's position, the joint and the
// driver that names it.
TEST(DirectSensitivity, ResidualDerivativeFromTheElementsReachedIsTheWholeOne) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  const std::vector<Override> o = tight("0.001");
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes));
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(sim.step());
  const State prev = sim.state();
  ASSERT_TRUE(sim.step());
  const State& s = sim.state();
  const StepLinearization step(sys, lm.run.solver, step_rows(lm.run.solver));
  const std::vector<std::string> paths = {"bodies.slider.mass", "bodies.slider.position[1]",
                                          "joints.crank_pivot.at[0]",
                                          "drivers.crank_speed.angular_velocity"};
  const std::vector<std::vector<std::string>> reached = {
      {}, {"rod_slider", "slider_guide"}, {"crank_pivot", "crank_speed"}, {"crank_speed"}};
  ParameterizedModel source =
      PerturbedModels::source(text, "model.yaml", o, paths, "--sensitivity");
  for (std::size_t p = 0; p < paths.size(); ++p) {
    PerturbedModels some, every;
    some.load(source, paths[p], paths[p], sys, {});
    every.load(source, paths[p], paths[p], sys, {});
    every.reach.clear();
    std::vector<std::string> flagged;
    for (std::size_t e = 0; e < some.reach.size(); ++e)
      if (some.reach[e]) flagged.push_back(lm.model.elements[e]->name());
    EXPECT_EQ(flagged, reached[p]) << paths[p];
    const VecX a = some.residual_derivative(step, prev, s.t - prev.t, s.vdot, s.lambda);
    const VecX b = every.residual_derivative(step, prev, s.t - prev.t, s.vdot, s.lambda);
    EXPECT_TRUE(some.reach_note.empty()) << some.reach_note;
    ASSERT_GT(b.lpNorm<Eigen::Infinity>(), 0.0) << paths[p];
    EXPECT_LE((a - b).lpNorm<Eigen::Infinity>(), 1e-9 * b.lpNorm<Eigen::Infinity>()) << paths[p];
  }
}

// The slider's mass moves the reactions and the driver torque, not the driven kinematics.
TEST(DirectSensitivity, SliderCrankMassAgainstWholeRuns) {
  expect_matches_runs(
      example("slider_crank_ideal/model.yaml"), "bodies.slider.mass", 0.14, 5e-4, "0.01",
      {"crank_speed.torque", "rod_slider.force.x", "rod_slider.force.y", "system.kinetic_energy"},
      1e-6);
}

// Seed 003's four-bar with both coupler pins in wedge-lubricated (long, full film) bearings,
// started centred: the viscosity (both joints share the file's anchor) moves every journal. The
// film's small-ε limit gives the tangent at the centre (film_laws.hpp), and the step's first
// full-Newton retry leaves no factorization, which the tangent then makes for itself. The
// journals and the rocker agree to 4e-8 (Richardson of runs at ±1 %, ±2 %); the stiff film's
// accelerations carry round-off the runs' differences divide by Δ (at ±0.3 %: 3e-5), so they
// are checked at 1e-4.
TEST(DirectSensitivity, WedgeLubricatedFourBarViscosityAgainstWholeRuns) {
  const std::string text = example("four_bar_clearance/lubricated_wedge.yaml");
  const std::string mu = "joints.crank_coupler.clearance.lubricant.viscosity";
  expect_matches_runs(text, mu, 0.4, 4e-3, "0.02",
                      {"rocker.rotation.z", "crank_coupler.journal1.x", "crank_coupler.journal1.y",
                       "coupler_rocker.journal1.x", "coupler_rocker.eccentricity1"},
                      1e-6);
  expect_matches_runs(text, mu, 0.4, 4e-3, "0.02",
                      {"rocker.angular_acceleration.z", "crank_speed.torque"}, 1e-4);
}

// The crank speed moves everything, positions included.
TEST(DirectSensitivity, SliderCrankSpeedAgainstWholeRuns) {
  expect_matches_runs(example("slider_crank_ideal/model.yaml"),
                      "drivers.crank_speed.angular_velocity", 523.5987756, 2.0, "0.005",
                      {"slider.position.x", "slider.velocity.x", "slider.acceleration.x",
                       "crank_speed.torque", "rod_slider.force.x", "system.kinetic_energy"},
                      1e-6);
}

// One constraint formulation against whole runs of it: the slider–crank's crank speed (every
// kind of channel) and slider mass (the reactions), the pendulum's length over 0.5 s.
void expect_formulation_matches_runs(const std::string& formulation) {
  const std::vector<Override> o = {{"solver.formulation", formulation}};
  expect_matches_runs(example("slider_crank_ideal/model.yaml"),
                      "drivers.crank_speed.angular_velocity", 523.5987756, 2.0, "0.005",
                      {"slider.position.x", "slider.velocity.x", "slider.acceleration.x",
                       "crank_speed.torque", "rod_slider.force.x", "system.kinetic_energy"},
                      1e-6, o);
  expect_matches_runs(example("slider_crank_ideal/model.yaml"), "bodies.slider.mass", 0.14, 5e-4,
                      "0.01", {"crank_speed.torque", "rod_slider.force.x", "rod_slider.force.y"},
                      1e-6, o);
  expect_matches_runs(example("iftomm_a01_pendulum/model.yaml"), "bodies.bob.position[0]", 1.0,
                      4e-3, "0.5", {"bob.position.x", "bob.position.y"}, 1e-6, o);
}

// The stabilized formulation: each step ends in the projections of q onto Φ = 0 and of v onto
// B v + Φ_t = 0, differentiated as NSGA's corrections without contacts (correction_tangent.hpp).
// Measured: crank speed 8e-10 (positions) to 1.7e-7 (accelerations, reactions; index 3: 4.5e-7),
// slider mass 2.4e-13, pendulum length 5.7e-10.
TEST(DirectSensitivity, StabilizedFormulationAgainstWholeRuns) {
  expect_formulation_matches_runs("stabilized");
}

// The penalty formulation: λ = α(Φ̈ + 2μωΦ̇ + ω²Φ) is a function of the step's state, its rows
// λ/α − (Φ̈ + 2μωΦ̇ + ω²Φ) = 0 differentiated in place of Φ = 0 (step_linearization.hpp). The
// slider's mass also moves α = 1e3·m̄ (the largest mass), which the perturbed models' residuals
// carry. Measured: crank speed 8e-10 (positions) to 4.8e-8 (torque), slider mass 1.4e-8
// (torque), pendulum length 5.7e-10. Before the run's λ followed Newton's last increment
// (penalty_alpha.cpp, apply()), the reactions' derivatives were 5e-4 off.
TEST(DirectSensitivity, PenaltyFormulationAgainstWholeRuns) {
  expect_formulation_matches_runs("penalty");
}

// The ALI3-P formulation: the index-3 step, then its projections of v and v̇, which solve linear
// systems with the step's iteration matrix Â (without its augmented block), moving with the
// state and the step's rotation (projection_tangent.hpp). Measured: crank speed 8.4e-10
// (positions) to 6.4e-9 (torque), slider mass 3e-11 to 7.8e-9, pendulum length 2.3e-12 to
// 3.2e-12. The wedge-lubricated four-bar adds the films' stiffness to Â and their memory:
// 1.8e-8 (rocker), 5e-8 (journals) and 2.1e-7 (the driver torque).
TEST(DirectSensitivity, Ali3pFormulationAgainstWholeRuns) {
  expect_formulation_matches_runs("ali3p");
  expect_matches_runs(example("four_bar_clearance/lubricated_wedge.yaml"),
                      "joints.crank_coupler.clearance.lubricant.viscosity", 0.4, 4e-3, "0.02",
                      {"rocker.rotation.z", "crank_coupler.journal1.x", "coupler_rocker.journal1.x",
                       "coupler_rocker.eccentricity1", "crank_speed.torque"},
                      1e-6, {{"solver.formulation", "ali3p"}});
}

// ali3p in space: the run's multipliers take less than the acceleration projection's μ by
// W B (T − I)(v̇* − ṽ̇), 1.3e-3 N of the spatial slider–crank's reactions (zero in plane motion,
// where T turns about the increment's own axis), whose derivative follows v̇*'s tangent too:
// before it did, rod_slider.force.x was 0.79 of its derivative off whole runs after 0.05 s.
// Measured with the runs at ±1 % and ±2 % of the slider's mass: 5.2e-9 (force x), 3.0e-7
// (force z), 1.4e-10 (the guide's force), 3.6e-11 (the rod's angular acceleration); the runs'
// reactions carry round-off that smaller differences divide (force z 1.5e-6 at ±0.1 %).
TEST(DirectSensitivity, Ali3pSpatialReactionsAgainstWholeRuns) {
  expect_matches_runs(example("spatial_slider_crank_ideal/model.yaml"), "bodies.slider.mass", 0.5,
                      5e-3, "0.05",
                      {"rod_slider.force.x", "rod_slider.force.z", "slider_guide.force.x",
                       "rod.angular_acceleration.x"},
                      1e-6,
                      {{"solver.formulation", "ali3p"},
                       {"output.channels",
                        "[rod_slider.force.x, rod_slider.force.z, "
                        "slider_guide.force.x, rod.angular_acceleration.x]"}});
}

// A free mechanism: the A01 pendulum's mass point position (its length) over 0.5 s.
TEST(DirectSensitivity, PendulumLengthAgainstWholeRuns) {
  expect_matches_runs(example("iftomm_a01_pendulum/model.yaml"), "bodies.bob.position[0]", 1.0,
                      4e-3, "0.5", {"bob.position.x", "bob.position.y"}, 1e-6);
}

// The model's own settings (modified Newton's mass iteration, default tolerance): the tangent
// iteration converges with the mass iteration's factorization to the tangent full Newton gives
// (measured 1e-8 relative on the reactions, 1e-13 on the positions).
TEST(DirectSensitivity, ModifiedNewtonGivesFullNewtonsTangent) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  const std::string path = "drivers.crank_speed.angular_velocity";
  const auto modified = sensitivity_rows(text, {{"solver.end", "0.02"}}, path);
  const auto full = sensitivity_rows(
      text, {{"solver.end", "0.02"}, {"solver.newton", "full"}, {"solver.newton_tol", "1e-14"}},
      path);
  ASSERT_EQ(modified.size(), full.size());
  const std::size_t nc = modified[0].size() / 2;
  for (std::size_t c = nc; c + 1 < 2 * nc; ++c) {  // the last is the constraint violation
    double worst = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < full.size(); ++k) {
      worst = std::max(worst, std::abs(modified[k][c] - full[k][c]));
      scale = std::max(scale, std::abs(full[k][c]));
    }
    EXPECT_LE(worst, 1e-6 * scale) << "column " << c;
  }
}

// From three parameters on, one factorization of the exact R_X per step serves them all
// (direct_sensitivity.cpp, solve_exactly_for); a parameter alone iterates with the run's own
// step matrix. Both solve the same linear system, the iteration to 1e-12 of dv̇ or until it
// stalls below kStallFloor = 1e-7 of it (round-off of the residual's cancellations): the same
// tangent to 1e-7 of each column's largest value, at the model's own settings (modified
// Newton in body poses). Measured on the accelerations and reactions: 2.1e-9 (the joint's
// position), 9e-10 (the crank speed), below 1e-11 (the slider's mass).
TEST(DirectSensitivity, ParametersTogetherGiveEachOnesTangent) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  const std::vector<std::string> paths = {"drivers.crank_speed.angular_velocity",
                                          "bodies.slider.mass", "joints.crank_rod.at[0]"};
  const std::vector<Override> o = {{"solver.end", "0.01"}};
  const auto together = sensitivity_rows(text, o, paths);
  for (std::size_t j = 0; j < paths.size(); ++j) {
    const auto alone = sensitivity_rows(text, o, paths[j]);
    ASSERT_EQ(alone.size(), together.size());
    const std::size_t nc = alone[0].size() / 2;
    for (std::size_t c = 0; c + 1 < nc; ++c) {  // the last is the constraint violation
      double worst = 0.0, scale = 0.0;
      for (std::size_t k = 0; k < alone.size(); ++k) {
        worst = std::max(worst, std::abs(together[k][nc * (1 + j) + c] - alone[k][nc + c]));
        scale = std::max(scale, std::abs(alone[k][nc + c]));
      }
      EXPECT_LE(worst, 1e-7 * scale) << paths[j] << ", channel " << c << " of " << scale;
    }
  }
}

// A closed form: a pendulum released from the horizontal passes the bottom at t₁ = T/4 with
// T = 4√(L/g)·K(1/√2) at any amplitude, so dt₁/dL = t₁/(2L). From the sensitivities,
// x(t₁; L) = 0 gives dt₁/dL = −(∂x/∂L)/ẋ at the crossing. The discrete t₁ carries
// generalized-α's period error, 2.8e-6 relative at h = 1e-3 s, and its derivative that error's
// derivative, (ωh)² ∝ 1/L: measured 8.1e-6 at h = 1e-3 s and 2.0e-6 at 5e-4 s (second order, as
// the scheme). The bounds: 1e-5 on t₁, 2e-5 on dt₁/dL.
TEST(DirectSensitivity, PendulumQuarterPeriodAgainstClosedForm) {
  const std::string text = example("iftomm_a01_pendulum/model.yaml");
  const std::vector<Override> o = {{"solver.end", "0.7"}, {"solver.newton_tol", "1e-13"}};
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  std::string note;
  lm.run = DirectSensitivity::adapted(lm.run, note);
  System sys(lm.model);
  const ChannelSet channels(sys, {"bob.position.x", "bob.velocity.x"});
  DirectSensitivity sens(text, "model.yaml", o, {"bodies.bob.position[0]"}, channels.names(), sys,
                         lm.run);
  Table table(channels);
  table.sens = &sens;
  State s;
  std::vector<std::string> notes;
  ASSERT_TRUE(run_with_sensitivities(sys, lm.run, sens, table, s, notes).ok);
  const double h = 1e-3;
  for (std::size_t k = 1; k < table.rows.size(); ++k) {
    const auto &a = table.rows[k - 1], &b = table.rows[k];
    if (!(a[0] > 0.0 && b[0] <= 0.0)) continue;
    const double f = a[0] / (a[0] - b[0]);  // the crossing between the two output points
    const double t1 = h * (static_cast<double>(k - 1) + f);
    const double dxdL = a[2] + f * (b[2] - a[2]), xdot = a[1] + f * (b[1] - a[1]);
    const double dt1dL = -dxdL / xdot;
    const double K = 1.854074677301372;  // K(1/√2), the complete elliptic integral
    EXPECT_NEAR(t1, std::sqrt(1.0 / 9.81) * K, 1e-5 * t1);
    EXPECT_NEAR(dt1dL, t1 / 2.0, 2e-5 * t1 / 2.0);
    return;
  }
  FAIL() << "the bob did not pass the bottom";
}

// Through compliant impacts: the Flores slider–crank's dry clearance joint (Lankarani–Nikravesh,
// the approach speed remembered from each onset) over its first impacts, against central
// differences of whole runs at ±1e-6 relative. Modified Newton at 1e-12: full Newton at 1e-14
// fails an impact step, and the run splits it. The runs' differences converge only at small
// steps there (±1e-5 of the restitution is past the linear range by 2.5 ms: 1.19 relative);
// measured 1.9e-5 (restitution, 2.5 ms: 12 impacts) and 3.5e-6 (clearance, 1.3 ms), the
// differences' own round-off (Newton's 1e-12 over 1e-6). Before this held: the step's Jacobians
// were taken with the memory after the step (wrong at each onset), the memory's tangent missed
// the onset, and the forces' dependence on it was left out (2.9e-3 at the first impact).
void expect_impacts_match_runs(const std::string& path, double value, const std::string& end,
                               double tol) {
  const std::string text = example("flores_slider_crank/model.yaml");
  const std::vector<Override> o = {
      {"solver.newton_tol", "1e-12"},
      {"solver.coordinates", "absolute"},
      {"solver.end", end},
      {"output.channels", "[rod_slider.eccentricity1, slider.position.x]"}};
  const std::vector<std::vector<double>> rows = sensitivity_rows(text, o, path);
  std::vector<std::vector<double>> runs[2];
  const double step = 1e-6 * value;
  for (int k = 0; k < 2; ++k) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", value + (k == 0 ? step : -step));
    auto ok = o;
    ok.push_back({path, buf});
    runs[k] = run_with(text, ok);
    ASSERT_EQ(runs[k].size(), rows.size());
  }
  for (std::size_t c = 0; c < 2; ++c) {
    double worst = 0.0, scale = 0.0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double fd = (runs[0][k][c] - runs[1][k][c]) / (2.0 * step);
      worst = std::max(worst, std::abs(rows[k][2 + c] - fd));
      scale = std::max(scale, std::abs(fd));
    }
    ASSERT_GT(scale, 0.0);
    EXPECT_LE(worst / scale, tol) << path << " channel " << c << " (largest " << scale << ")";
  }
}

TEST(DirectSensitivity, CompliantImpactsAgainstWholeRuns) {
  expect_impacts_match_runs("joints.rod_slider.clearance.restitution", 0.9, "0.0025", 1e-4);
  expect_impacts_match_runs("joints.rod_slider.clearance.radial", 0.5e-3, "0.0013", 3e-5);
}

// A grazing onset (the approach speed at its floor min_approach_speed) is a kink of the memory
// update: no derivative, said with the time, NaN from there.
TEST(DirectSensitivity, GrazingOnsetIsReportedNotDifferentiated) {
  const std::string text = example("flores_slider_crank/model.yaml");
  const std::vector<Override> o = {
      {"solver.newton_tol", "1e-12"}, {"solver.coordinates", "absolute"}, {"solver.end", "0.0015"}};
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  const ChannelSet channels = model_channels(lm, sys);
  DirectSensitivity sens(text, "model.yaml", o, {"joints.rod_slider.clearance.radial"},
                         channels.names(), sys, lm.run);
  Table table(channels);
  table.sens = &sens;
  State s;
  std::vector<std::string> notes;
  ASSERT_TRUE(run_with_sensitivities(sys, lm.run, sens, table, s, notes).ok);
  ASSERT_EQ(sens.warnings().size(), 1u);
  EXPECT_NE(sens.warnings()[0].find("no derivative at t = 0.00133 s"), std::string::npos)
      << sens.warnings()[0];
  EXPECT_TRUE(std::isnan(table.rows.back().back()));
}

// A static equilibrium's sensitivity, S dx/dp = ∂r/∂p, against the closed form. The pendulum
// (bob 1 kg at L = 1 m, horizontal at θ = 0) on a torsion spring k at its pivot, gravity −y:
// g(θ; k, m) = kθ + m g L cos θ = 0, so dθ/dk = −θ/g_θ and dθ/dm = −g L cos θ/g_θ with
// g_θ = k − m g L sin θ. Newton at 1e-13 leaves θ within ~1e-13; the parameters' Richardson
// differences are exact to O(δ⁴) ~ 1e-12: 1e-9 relative is far above both.
TEST(DirectSensitivity, StaticEquilibriumAgainstClosedForm) {
  const std::string text = R"(gravity: [0, -9.81, 0]
bodies:
  bob: {mass: 1.0, inertia: [1.0e-3, 1.0e-3, 1.0e-3], position: [1, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, bob], at: [0, 0, 0], axis: [0, 0, 1]}
forces:
  torsion: {type: rotational_spring_damper, joint: pivot, stiffness: 20.0}
solver: {analysis: static, newton_tol: 1.0e-13}
output: {channels: [torsion.angle, bob.position.y]}
)";
  const double k = 20.0, g = 9.81;
  double th = -0.5;  // the closed form's root, by Newton
  for (int it = 0; it < 100; ++it) th -= (k * th + g * std::cos(th)) / (k - g * std::sin(th));
  const double g_th = k - g * std::sin(th);
  const std::vector<std::pair<std::string, double>> cases = {
      {"forces.torsion.stiffness", -th / g_th}, {"bodies.bob.mass", -g * std::cos(th) / g_th}};
  for (const auto& [path, dth] : cases) {
    LoadedModel lm = load_model_string(text, "model.yaml");
    System sys(lm.model);
    ASSERT_EQ(DirectSensitivity::unsupported(sys, lm.run), "");
    const std::vector<std::vector<double>> rows = sensitivity_rows(text, {}, path);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_NEAR(rows[0][0], th, 1e-12);
    EXPECT_NEAR(rows[0][2], dth, 1e-9 * std::abs(dth)) << path;
    // y = L sin θ: dy/dp = cos θ dθ/dp (the state's tangent carried to another channel).
    EXPECT_NEAR(rows[0][3], std::cos(th) * dth, 1e-9 * std::abs(dth)) << path;
  }
}

// A kinematic analysis's sensitivity to the crank speed ω of seed 003's ideal four-bar (fully
// driven). The rocker angle is θ₄ = F(θ₂₀ + ωt), so dθ₄/dω = t ω₄/ω and dω₄/dω = ω₄/ω + t α₄/ω:
// identities in the run's own channels, exact. The accelerations' derivative against Richardson
// differences of whole runs at ±1e-3, ±2e-3 of ω (truncation O(δ⁴) ~ 1e-12; each run's positions
// to the analysis's 1e-10 tolerance, divided by δ: ~1e-7 of α₄'s derivative).
TEST(DirectSensitivity, KinematicFourBarAgainstIdentitiesAndWholeRuns) {
  const std::string text = example("four_bar_ideal/model.yaml");
  const std::string path = "drivers.crank_speed.angular_velocity";
  const double w = 62.83185307;
  const std::vector<Override> o = {
      {"solver.end", "0.01"},
      {"output.channels",
       "[rocker.rotation.z, rocker.angular_velocity.z, rocker.angular_acceleration.z]"}};
  LoadedModel lm = load_model_string(text, "model.yaml", o);
  System sys(lm.model);
  ASSERT_EQ(DirectSensitivity::unsupported(sys, lm.run), "");
  const std::vector<std::vector<double>> rows = sensitivity_rows(text, o, path);
  const double step = 1e-3 * w;
  const auto runs = perturbed_runs(text, o, path, w, step);
  for (const auto& run : runs) ASSERT_EQ(run.size(), rows.size());
  ASSERT_GT(rows.size(), 10u);
  double worst[3] = {0, 0, 0}, scale[3] = {0, 0, 0};
  const double dt = 0.01 / static_cast<double>(rows.size() - 1);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double t = dt * static_cast<double>(k);
    const std::vector<double>& r = rows[k];  // θ₄, ω₄, α₄, then their derivatives
    const double d1 = (runs[0][k][2] - runs[1][k][2]) / (2.0 * step);
    const double d2 = (runs[2][k][2] - runs[3][k][2]) / (4.0 * step);
    const double expected[3] = {t * r[1] / w, r[1] / w + t * r[2] / w, (4.0 * d1 - d2) / 3.0};
    for (int c = 0; c < 3; ++c) {
      worst[c] = std::max(worst[c], std::abs(r[3 + c] - expected[c]));
      scale[c] = std::max(scale[c], std::abs(expected[c]));
    }
  }
  EXPECT_LE(worst[0] / scale[0], 1e-10);
  EXPECT_LE(worst[1] / scale[1], 1e-10);
  EXPECT_LE(worst[2] / scale[2], 1e-6);
}

TEST(DirectSensitivity, RefusesWhatItCannotDifferentiate) {
  const std::string text = example("slider_crank_ideal/model.yaml");
  for (const auto& [set, word] : std::vector<std::pair<Override, std::string>>{
           {{"solver.integrator", "rk4"}, "Runge-Kutta"},
           {{"solver.adaptive", "true"}, "fixed steps"}}) {
    LoadedModel lm = load_model_string(text, "model.yaml", {set});
    System sys(lm.model);
    EXPECT_NE(DirectSensitivity::unsupported(sys, lm.run).find(word), std::string::npos)
        << set.path;
  }
  LoadedModel lm = load_model_string(text, "model.yaml");
  System sys(lm.model);
  const auto make = [&](const std::string& path) {
    DirectSensitivity sens(text, "model.yaml", {}, {path}, {"slider.position.x"}, sys, lm.run);
  };
  EXPECT_THROW(make("bodies.slider"), ModelFileError);         // a map, not a number
  EXPECT_THROW(make("bodies.slider.colour"), ModelFileError);  // no such key
  EXPECT_THROW(make("solver.step"), ModelFileError);           // a setting
  try {
    make("bodies.slider");
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("not a number"), std::string::npos) << e.what();
  }
}

// A wheel driven through backlash (tests/verification/backlash_drive_test.cpp's): the stop's
// stiffness moves the impact that starts at (b/2)/ω = 10 ms, whatever k is, so the derivative
// has no kink in time. Runs to 15 ms, halfway through the contact. Measured agreement 9e-12
// (torque), 1e-12 (lost motion), 1.4e-12 (wheel speed); 1e-6 is the issue's bound.
TEST(DirectSensitivity, BacklashStiffnessAgainstWholeRuns) {
  const std::string wheel = R"(
bodies:
  wheel: {mass: 1, inertia: [0.005, 0.005, 0.01], position: [0, 0, 0]}
joints:
  hub: {type: revolute, bodies: [ground, wheel], at: [0, 0, 0], axis: [0, 0, 1],
        backlash: {play: 0.02, stiffness: 1.0e3, damping: 0.5}}
drivers:
  motor: {joint: hub, angular_velocity: 1.0}
solver: {integrator: generalized_alpha, rho_inf: 0.9, step: 1.0e-5, end: 0.015}
output:
  channels: [motor.torque, motor.lost_motion, wheel.angular_velocity.z]
)";
  expect_matches_runs(wheel, "joints.hub.backlash.stiffness", 1.0e3, 10.0, "0.015",
                      {"motor.torque", "motor.lost_motion", "wheel.angular_velocity.z"}, 1e-6);
}

// Joint limits (tests/verification/joint_limit_run_test.cpp's cases): a slider falls onto its
// prismatic stop at 0.1428 s whatever the stop's stiffness, and a pendulum onto its angle stop at
// 0.2025 s; both runs end halfway through the contact (half periods 14 ms and 35 ms), before the
// stop lets go at a time that k moves (a kink of the discrete solution in k, as backlash's).
// Measured agreement: displacement 5e-12, force 1.5e-11, angle 1.3e-11, torque 1.9e-10.
TEST(DirectSensitivity, JointLimitStiffnessAgainstWholeRuns) {
  const std::string slider = R"(
gravity: [0, 0, -9.81]
bodies:
  slider: {mass: 2, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0]}
joints:
  guide: {type: prismatic, bodies: [ground, slider], axis: [0, 0, 1],
          limits: {lower: -0.1, upper: 0.1, stiffness: 1.0e5, damping: 300}}
solver: {integrator: generalized_alpha, rho_inf: 0.9, step: 1.0e-4, end: 0.15}
output:
  channels: [guide_limits.displacement, guide_limits.force]
)";
  expect_matches_runs(slider, "joints.guide.limits.stiffness", 1.0e5, 1.0e3, "0.15",
                      {"guide_limits.displacement", "guide_limits.force"}, 1e-6);
  const std::string pendulum = R"(
gravity: [0, 0, -9.81]
bodies:
  rod: {mass: 1, inertia: [1.0e-4, 1.0e-4, 1.0e-4], position: [0.5, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, rod], at: [0, 0, 0], axis: [0, 1, 0],
          limits: {lower: -0.5, upper: 0.4, stiffness: 2.0e3, damping: 10}}
solver: {integrator: generalized_alpha, rho_inf: 0.9, step: 1.0e-4, end: 0.215}
output:
  channels: [pivot_limits.angle, pivot_limits.torque]
)";
  expect_matches_runs(pendulum, "joints.pivot.limits.stiffness", 2.0e3, 20.0, "0.215",
                      {"pivot_limits.angle", "pivot_limits.torque"}, 1e-6);
}

}  // namespace
}  // namespace cs
