// The compliant and lubricated clearance-joint examples, loaded from their files and run
// (shortened where they are long), against the claims of the papers they reproduce, quantified:
//   flores_slider_crank                  the lubricated joint (long bearing, squeeze + wedge)
//                                        keeps the slider acceleration within 6 % RMS of the ideal
//                                        mechanism; the dry compliant joint does not (> 30 %)
//   four_bar_clearance                   seed 003's trends (reference.md §6d) that the runs show:
//                                        joint 2 disturbs the rocker more than joint 1, joint 1
//                                        the crank torque more than joint 2, both joints the most;
//                                        the lubricated joints with the wedge term stay within 1 %
//                                        of the ideal rocker acceleration, the dry ones do not
//   flores_slider_crank, c → 0           the dry compliant joint tends to the ideal response as
//                                        the clearance shrinks (100 µm, 10 µm, 1 µm)
//   lubricated_spherical_slider_crank    seed 000 with reference.md §6b's parameters: the squeeze
//                                        film cushions the impacts (peak force, penetration) but
//                                        does not keep the ball off the wall (§6b's feasibility
//                                        warning), so the slider stays far from the ideal
//   every *.yaml of these examples loads without warnings
// Numbers measured in Release at commits becd4f8 and f40e672 (generalized-α, h = 1e-5 s,
// ρ∞ = 0.8); the READMEs of the examples give the full runs. Chaotic contact histories (the dry
// slider–cranks) change with the compiler or the machine: their thresholds leave wide margins,
// stated at each. The whole file takes ≈ 3.5 s in Release.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/example_runs.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

using testing::ExampleRun;
using testing::max_of;
using testing::read_text;

ExampleRun run_loaded(LoadedModel lm, double end, const std::vector<std::string>& channels) {
  return testing::run_loaded(std::move(lm), end, 1, channels);
}

ExampleRun run_file(const std::string& name, const std::string& file, double end,
                    const std::vector<std::string>& channels) {
  return testing::run_file(name, file, end, 1, channels);
}

// Linear interpolation of (t, y) at time x (t increasing).
double interp(const std::vector<double>& t, const std::vector<double>& y, double x) {
  const auto it = std::lower_bound(t.begin(), t.end(), x);
  if (it == t.begin()) return y.front();
  if (it == t.end()) return y.back();
  const std::size_t k = static_cast<std::size_t>(it - t.begin());
  const double w = (x - t[k - 1]) / (t[k] - t[k - 1]);
  return (1.0 - w) * y[k - 1] + w * y[k];
}

// RMS over the rows with t0 ≤ t ≤ t1 of (column − reference(t)), and of the reference itself.
struct Rms {
  double distance = 0.0, reference = 0.0;
  double relative() const { return distance / reference; }
};
template <class Reference>
Rms rms_against(const ExampleRun& r, std::size_t column, double t0, double t1, Reference ref) {
  double d2 = 0.0, r2 = 0.0;
  int n = 0;
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    if (r.t[k] < t0 - 1e-12 || r.t[k] > t1 + 1e-12) continue;
    const double y = ref(r.t[k]);
    d2 += (r.columns[column][k] - y) * (r.columns[column][k] - y);
    r2 += y * y;
    ++n;
  }
  EXPECT_GT(n, 0);
  return {std::sqrt(d2 / std::max(n, 1)), std::sqrt(r2 / std::max(n, 1))};
}

constexpr double kPeriod = 2.0 * M_PI / testing::kOmega;  // slider–cranks: 12 ms

// Slider acceleration (column `col`) against the closed form (reference.md §8.1), t0..t1.
Rms slider_acceleration_rms(const ExampleRun& r, std::size_t col, double t0, double t1) {
  return rms_against(r, col, t0, t1, [](double t) { return testing::slider_closed_form(t).a; });
}
Rms slider_velocity_rms(const ExampleRun& r, std::size_t col, double t0, double t1) {
  return rms_against(r, col, t0, t1, [](double t) { return testing::slider_closed_form(t).v; });
}

TEST(CompliantExamples, FloresLubricatedJointStaysNearIdealDryJointDoesNot) {
  // Flores et al. 2006 (reference.md §6a, "what the published results show"): the lubricated
  // joint's response is close to the ideal one, the dry joint's carries spikes several times
  // the ideal peak. Six revolutions (7 200 steps each, ≈ 0.2 s each in Release); the numbers
  // over revolutions 5–6. Measured: lubricated 217 m/s² RMS from the ideal acceleration, 2.0 % of
  // the ideal RMS, journal never beyond 0.944 c (the film carries the load: no dry contact);
  // dry 12 924 m/s² (122 %; the README's ten revolutions: 131 % over the last two, single
  // revolutions 58 %–205 %, chaotic), impacts up to 43 kN. The thresholds 6 % and 30 %: the
  // lubricated response is the ideal one shifted by a slowly moving film eccentricity (a few %),
  // the dry one is dominated by impact spikes of the order of the ideal peak; a factor ≥ 2 from
  // each measured value.
  const double end = 6 * kPeriod, from = 4 * kPeriod;
  const std::vector<std::string> ch = {"slider.acceleration.x", "slider.velocity.x",
                                       "rod_slider.eccentricity1", "rod_slider.normal_force"};
  const ExampleRun lub = run_file("flores_slider_crank", "lubricated.yaml", end, ch);
  const ExampleRun dry = run_file("flores_slider_crank", "model.yaml", end, ch);
  ASSERT_TRUE(lub.stats.ok && dry.stats.ok);
  const Rms a_lub = slider_acceleration_rms(lub, 0, from, end);
  const Rms a_dry = slider_acceleration_rms(dry, 0, from, end);
  EXPECT_LT(a_lub.relative(), 0.06) << a_lub.distance << " m/s²";
  EXPECT_GT(a_dry.relative(), 0.30) << a_dry.distance << " m/s²";
  // Velocity (measured: lubricated 0.23 m/s, dry 0.92 m/s RMS from the ideal).
  EXPECT_LT(slider_velocity_rms(lub, 1, from, end).distance, 0.4);
  EXPECT_GT(slider_velocity_rms(dry, 1, from, end).distance, 0.5);
  // The film keeps the journal off the wall; the dry journal hits it (peak 43 kN measured).
  EXPECT_LT(max_of(lub.columns[2]), 0.5e-3 - 2e-6);
  EXPECT_EQ(max_of(lub.columns[3]), 0.0);
  EXPECT_GT(max_of(dry.columns[3]), 1.0e4);
}

TEST(CompliantExamples, FourBarTrendsOfSeed003) {
  // Seed 003's four-bar (reference.md §6d, "expected trends"). Two revolutions (0.2 s, 20 000
  // steps each, ≈ 0.5–1 s each in Release); the compared revolution is the second: the dry
  // cases are periodic from it on (the same RMS distances to the unit over revolutions 2, 3
  // and 4 of the README's 0.4 s runs). Measured RMS distances to the ideal run (ideal.yaml),
  // rocker angular acceleration α₄ [rad/s²] / crank torque [N·m]:
  //   joint 1 only  511 / 1 426     joint 2 only  590 / 1 314     both  1 005 / 1 907
  //   both lubricated, squeeze + wedge (lubricated_wedge.yaml)  3 / 7
  //   ideal RMS  2 434 / 4 999
  // Halving the step (h = 5e-6 s) changes these by < 1 % (507 / 1 416, 592 / 1 313,
  // 1 001 / 1 906). Peaks of α₄: ideal 5 968, joint 1 10 969, joint 2 12 849, both 15 915.
  // Not asserted (the runs do not show it): seed 003's lubricated case as printed — the squeeze
  // film alone (lubricated.yaml) — is not close to ideal here (7 918 rad/s² RMS, spikes of
  // 4×10⁵ rad/s²): README.
  const double end = 0.2, from = 0.1;
  const std::vector<std::string> ch = {"rocker.angular_acceleration.z", "crank_speed.torque"};
  const std::string ex = "four_bar_clearance";
  const ExampleRun ideal = run_file(ex, "ideal.yaml", end, ch);
  const ExampleRun j1 = run_file(ex, "joint1.yaml", end, ch);
  const ExampleRun j2 = run_file(ex, "joint2.yaml", end, ch);
  const ExampleRun both = run_file(ex, "model.yaml", end, ch);
  const ExampleRun lub = run_file(ex, "lubricated_wedge.yaml", end, ch);
  for (const ExampleRun* r : {&ideal, &j1, &j2, &both, &lub}) ASSERT_TRUE(r->stats.ok);
  auto against_ideal = [&](const ExampleRun& r, std::size_t c) {
    return rms_against(r, c, from, end,
                       [&](double t) { return interp(ideal.t, ideal.columns[c], t); });
  };
  auto peak = [&](const ExampleRun& r) {
    double m = 0.0;
    for (std::size_t k = 0; k < r.t.size(); ++k)
      if (r.t[k] >= from) m = std::max(m, std::abs(r.columns[0][k]));
    return m;
  };
  const Rms a1 = against_ideal(j1, 0), a2 = against_ideal(j2, 0), a12 = against_ideal(both, 0);
  const Rms q1 = against_ideal(j1, 1), q2 = against_ideal(j2, 1), q12 = against_ideal(both, 1);
  const Rms al = against_ideal(lub, 0), ql = against_ideal(lub, 1);
  // "Joint 2 produces larger rocker-acceleration spikes than joint 1": RMS 590 > 511 (+15 %),
  // peak 12 849 > 10 969 (+17 %). Margins: 5 %; the step changes them by < 1 %.
  EXPECT_GT(a2.distance, 1.05 * a1.distance) << a2.distance << " vs " << a1.distance;
  EXPECT_GT(peak(j2), 1.05 * peak(j1)) << peak(j2) << " vs " << peak(j1);
  // "Joint 1 disturbs the crank torque more than joint 2": RMS 1 426 > 1 314 (+8.5 %). (The
  // single most negative torque is the other way round: −24 080 against −24 821 N·m.)
  EXPECT_GT(q1.distance, 1.03 * q2.distance) << q1.distance << " vs " << q2.distance;
  // "Both joints together give the largest spikes": α₄ RMS 1 005 against 590 and 511, peak
  // 15 915 against 12 849; the torque RMS 1 907 against 1 426 and 1 314.
  EXPECT_GT(a12.distance, 1.3 * std::max(a1.distance, a2.distance));
  EXPECT_GT(peak(both), 1.1 * std::max(peak(j1), peak(j2)));
  EXPECT_GT(q12.distance, 1.2 * std::max(q1.distance, q2.distance));
  // "Lubrication brings the curves close to ideal" — with the long bearing's wedge term: 3 rad/s²
  // (0.1 % of the ideal RMS) and 7 N·m. Dry: 21 %–41 % of the ideal RMS. The threshold 1 %
  // separates a film that carries the load (the journals move by a fraction of c, smoothly)
  // from contacts that ring at ≈ 1.8 kHz after every load reversal.
  EXPECT_LT(al.distance, 0.01 * al.reference) << al.distance;
  EXPECT_LT(ql.distance, 0.01 * ql.reference) << ql.distance;
  for (const Rms* dry : {&a1, &a2, &a12}) EXPECT_GT(dry->distance, 0.1 * dry->reference);
  // The ideal dynamic run is the kinematic reference of examples/four_bar_ideal: α₄ from
  // −4 712 to 5 968 rad/s² (closed form −4 710 to 5 968).
  EXPECT_NEAR(peak(ideal), 5968.0, 10.0);
}

TEST(CompliantExamples, DryCompliantJointTendsToIdealAsClearanceShrinks) {
  // reference.md §6a: "exact agreement with §8.1 when c → 0". Flores' dry compliant joint
  // (model.yaml; the stiffness follows c through R* = R r/(R − r)) with c = 100, 10 and 1 µm,
  // four revolutions (4 800 steps, ≈ 0.3 s each); RMS over revolutions 3–4 relative to the ideal
  // RMS. Measured, acceleration / velocity: 100 µm 0.449 / 1.2e-2, 10 µm 0.040 / 7.4e-4,
  // 1 µm 0.015 / 8.9e-5 (0.5 mm: 1.31 / 0.05). What remains at 1 µm is the contact compliance
  // (3 µm of penetration under the 2.7 kN joint load) ringing at the contact frequency.
  const std::string base = read_text(testing::example_path("flores_slider_crank", "model.yaml"));
  const std::string from = "radial: 0.5e-3";
  ASSERT_NE(base.find(from), std::string::npos);
  std::vector<double> acc, vel;
  for (const char* c : {"1.0e-4", "1.0e-5", "1.0e-6"}) {
    std::string yaml = base;
    yaml.replace(yaml.find(from), from.size(), std::string("radial: ") + c);
    const ExampleRun r = run_loaded(load_model_string(yaml, std::string("flores_c") + c + ".yaml"),
                                    4 * kPeriod, {"slider.acceleration.x", "slider.velocity.x"});
    ASSERT_TRUE(r.stats.ok) << c;
    acc.push_back(slider_acceleration_rms(r, 0, 2 * kPeriod, 4 * kPeriod).relative());
    vel.push_back(slider_velocity_rms(r, 1, 2 * kPeriod, 4 * kPeriod).relative());
  }
  EXPECT_GT(acc[0], 1.5 * acc[1]);
  EXPECT_GT(acc[1], 1.5 * acc[2]);
  EXPECT_GT(vel[0], 2.0 * vel[1]);
  EXPECT_GT(vel[1], 2.0 * vel[2]);
  EXPECT_LT(acc[2], 0.05);
  EXPECT_LT(vel[2], 1e-3);
}

TEST(CompliantExamples, SphericalSqueezeFilmCushionsButDoesNotKeepTheBallOffTheWall) {
  // Seed 000 with reference.md §6b's parameters (c = 0.5 mm, r = 9.5 mm, 0.4 Pa·s; e0 = 2 µm):
  // §6b predicts that a squeeze-only film lets the ball reach the wall every cycle (the gap
  // closes in ≈ 1 ms under the ≈ 1–3 kN joint load; the cycle is 12 ms), so the paper's
  // "close to ideal" cannot hold. Ten revolutions (12 000 steps each, ≈ 0.3 s each in Release).
  // Measured over revolutions 3–10: the ball reaches c − e0 in every revolution (first at
  // 0.44 ms); slider acceleration RMS from the ideal 0.93 of the ideal RMS (dry 1.25; in the
  // README's 0.3 s run, two-revolution windows give 0.75–1.24, dry 1.27–1.79); peak contact
  // force 3.3 kN against 43 kN dry, penetration 11.8 µm against 73 µm.
  const double end = 10 * kPeriod, from = 2 * kPeriod;
  const std::vector<std::string> ch = {"slider.acceleration.x", "rod_slider.contact_state",
                                       "rod_slider.normal_force", "rod_slider.penetration"};
  const std::string ex = "lubricated_spherical_slider_crank";
  const ExampleRun lub = run_file(ex, "model.yaml", end, ch);
  const ExampleRun dry = run_file(ex, "dry.yaml", end, ch);
  ASSERT_TRUE(lub.stats.ok && dry.stats.ok);
  // The ball reaches the dry contact (c − e0) in every revolution.
  for (int rev = 0; rev < 10; ++rev) {
    double touched = 0.0;
    for (std::size_t k = 0; k < lub.t.size(); ++k)
      if (lub.t[k] >= rev * kPeriod && lub.t[k] < (rev + 1) * kPeriod)
        touched = std::max(touched, lub.columns[1][k]);
    EXPECT_EQ(touched, 1.0) << "revolution " << rev + 1;
  }
  // Not close to the ideal (threshold 0.4: about half the lowest two-revolution value
  // measured), but closer than the dry joint: ratio 0.75 here, 0.48–0.86 in two-revolution
  // windows and 0.65 over 0.1–0.3 s of the README's run (chaotic: the bound 0.95 is loose).
  const Rms a_lub = slider_acceleration_rms(lub, 0, from, end);
  const Rms a_dry = slider_acceleration_rms(dry, 0, from, end);
  EXPECT_GT(a_lub.relative(), 0.4);
  EXPECT_LT(a_lub.distance, 0.95 * a_dry.distance) << a_lub.distance << " vs " << a_dry.distance;
  // The film cushions the landings: peak force and penetration several times smaller.
  EXPECT_LT(max_of(lub.columns[2]), 0.25 * max_of(dry.columns[2]));
  EXPECT_LT(max_of(lub.columns[3]), 0.4 * max_of(dry.columns[3]));
}

TEST(CompliantExamples, SqueezeOnlyFourBarNeverLeavesItsBearings) {
  // The squeeze-only lubricated four-bar at a film spike: with h = 1.05e-5 s a Newton increment
  // once grew from 2e-4 m to 2.3 m, the iteration settled on a spurious root 14 iterations
  // later — a pin 0.55 m out of its 50 µm bearing, the kinetic energy multiplied by 4e7 — and
  // the run went on with it until it stopped at t = 0.090 s. A diverging increment is now
  // refused (GeneralizedAlpha::smooth_solve). Bounds: ‖e‖ ≤ 2c (the example's largest
  // is 1.17c, 1.44c with the full film; README), and the kinetic energy ≤ 2e4 J (its largest over
  // these 0.12 s is 8.3e3 J).
  LoadedModel lm = load_model_file(testing::example_path("four_bar_clearance", "lubricated.yaml"));
  ASSERT_EQ(lm.warnings.size(), 2u);  // squeeze film alone, one per joint (issue 29): expected
  lm.warnings.clear();
  lm.run.solver.step = 1.05e-5;
  const ExampleRun r = run_loaded(
      std::move(lm), 0.12,
      {"crank_coupler.eccentricity1", "coupler_rocker.eccentricity1", "system.kinetic_energy"});
  ASSERT_TRUE(r.stats.ok) << r.stats.message;
  const double c = 0.05e-3;
  EXPECT_LT(max_of(r.columns[0]), 2.0 * c);
  EXPECT_LT(max_of(r.columns[1]), 2.0 * c);
  EXPECT_LT(max_of(r.columns[2]), 2e4);
}

TEST(CompliantExamples, EveryModelFileOfTheExamplesLoadsWithoutWarnings) {
  for (const char* name :
       {"four_bar_clearance", "flores_slider_crank", "lubricated_spherical_slider_crank"}) {
    const std::filesystem::path dir =
        std::filesystem::path(CLEARSIM_SOURCE_DIR) / "examples" / name;
    int files = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
      if (f.path().extension() != ".yaml") continue;
      ++files;
      LoadedModel lm;
      ASSERT_NO_THROW(lm = load_model_file(f.path().string())) << f.path();
      // Only the squeeze-only films warn, and they must (issue 29: seed 003's squeeze-only
      // four-bar does not converge, and the run says why).
      const bool squeeze_only =
          read_text(f.path().string()).find("wedge: false") != std::string::npos;
      for (const std::string& w : lm.warnings)
        EXPECT_NE(w.find("leaves the squeeze film alone"), std::string::npos)
            << f.path() << ": " << w;
      EXPECT_EQ(lm.warnings.empty(), !squeeze_only) << f.path();
      System sys(lm.model);
      EXPECT_NO_THROW(ChannelSet(sys, lm.run.output.channels)) << f.path();
      EXPECT_TRUE(incompatible_settings(sys, lm.run.solver).empty()) << f.path();
    }
    EXPECT_GE(files, 3) << dir;
  }
}

}  // namespace
}  // namespace cs
