// Compliant contact, friction and squeeze-film lubrication against closed forms, run through the
// whole engine from model text (reference.md §3, §4.4, §5.1, §8.4, §8.5):
//   effective restitution of one impact for the Hunt–Crossley family (§3.4 table),
//   Hertz static indentation δ = (W/K)^(2/3),
//   the bristle law holds a particle on an incline below μ_s without creep and lets it slide above,
//   regularised friction laws never exceed μ F_N,
//   the quasi-static squeeze-film approach times of §8.5 (sphere in a cup, long journal).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "clearsim/elements/contact/friction_laws.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/channel_recorder.hpp"

namespace cs {
namespace {

struct RunResult {
  RunStats stats;
  std::vector<double> t;
  std::vector<std::vector<double>> col;
};

RunResult run_yaml(const std::string& yaml, const std::vector<std::string>& channels) {
  LoadedModel lm = load_model_string(yaml, "test.yaml");
  // The only warning these models may draw: a squeeze film without wedge (the approach-time
  // tests use one on purpose).
  for (const std::string& w : lm.warnings)
    EXPECT_NE(w.find("leaves the squeeze film alone"), std::string::npos) << w;
  lm.run.output.progress = false;
  System sys(lm.model);
  ChannelSet set(sys, channels);
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  RunResult r;
  r.stats = run_analysis(sys, lm.run, rec, s, notes);
  EXPECT_TRUE(r.stats.ok) << r.stats.message;
  r.t = rec.times;
  for (std::size_t k = 0; k < channels.size(); ++k) r.col.push_back(rec.column(k));
  return r;
}

// A 1 kg ball hitting the plane z = 0 at 1 m/s with no gravity.
std::string impact_model(const std::string& law, double e) {
  std::ostringstream os;
  os << R"(
gravity: [0, 0, 0]
bodies:
  ball: {mass: 1.0, inertia: [0.004, 0.004, 0.004], position: [0, 0, 0.1001], velocity: [0, 0, -1]}
contacts:
  floor:
    type: sphere_plane
    treatment: compliant
    plane: {body: ground, point: [0, 0, 0], normal: [0, 0, 1]}
    sphere: {body: ball, center: [0, 0, 0.1001], radius: 0.1}
    restitution: )"
     << e << "\n    contact: {law: " << law << R"(, stiffness: 1.0e8}
solver: {integrator: generalized_alpha, rho_inf: 1.0, step: 1.0e-6, end: 0.004}
output: {every: 1}
)";
  return os.str();
}

// Effective restitution of one impact, integrated to separation [V] (reference.md §3.4): it does
// not depend on m, K or v0 within the family, so the table applies to this case. The table has
// three digits; the integration error at 2000 steps per impact is far below that, so ±0.003
// checks the law's damping term to the table's precision.
TEST(CompliantImpact, EffectiveRestitutionMatchesTheIntegratedTable) {
  struct Row {
    const char* law;
    double e, e_eff;
  };
  const Row rows[] = {{"hunt_crossley", 0.5, 0.663},
                      {"hunt_crossley", 0.9, 0.909},
                      {"lankarani_nikravesh", 0.7, 0.796},
                      {"lankarani_nikravesh", 0.9, 0.913},
                      {"lankarani_nikravesh", 0.95, 0.954},
                      {"flores", 0.3, 0.256},
                      {"flores", 0.5, 0.470},
                      {"flores", 0.9, 0.894},
                      {"gonthier", 0.5, 0.488},
                      {"gonthier", 0.9, 0.876}};
  for (const Row& row : rows) {
    const RunResult r =
        run_yaml(impact_model(row.law, row.e), {"ball.velocity.z", "floor.normal_force"});
    const double v_out = r.col[0].back();
    EXPECT_GT(r.col[1].front(), -1.0);  // the run starts open
    EXPECT_EQ(r.col[1].back(), 0.0) << row.law << ": separated by the end";
    EXPECT_NEAR(v_out / 1.0, row.e_eff, 3e-3) << row.law << " e = " << row.e;
  }
}

// The issue's acceptance: Lankarani–Nikravesh within 2 % of c_e for c_e ≥ 0.9 and Flores within
// 2 % for c_e ≥ 0.8 (both laws drift away from c_e below that, as §3.4's table says: LN gives
// 0.796 at 0.7 and Flores 0.256 at 0.3 — the nominal c_e is not what either law delivers there).
TEST(CompliantImpact, NominalRestitutionWhereTheLawsHoldIt) {
  for (double e : {0.9, 0.95, 1.0}) {
    const RunResult r = run_yaml(impact_model("lankarani_nikravesh", e), {"ball.velocity.z"});
    EXPECT_NEAR(r.col[0].back(), e, 0.02 * e) << "LN c_e = " << e;
  }
  for (double e : {0.8, 0.9, 1.0}) {
    const RunResult r = run_yaml(impact_model("flores", e), {"ball.velocity.z"});
    EXPECT_NEAR(r.col[0].back(), e, 0.02 * e) << "Flores c_e = " << e;
  }
}

// Hertz: a 1 kg ball resting on the plane under gravity: δ = (m g/K)^(2/3) (reference.md §3.1).
TEST(CompliantImpact, HertzStaticIndentation) {
  const double K = 1.5165e10, W = 9.81;
  const std::string yaml = R"(
gravity: [0, 0, -9.81]
bodies:
  ball: {mass: 1.0, inertia: [0.004, 0.004, 0.004], position: [0, 0, 0.009999]}
joints:     # only the vertical motion: the static stiffness must be regular
  guide: {type: prismatic, bodies: [ground, ball], axis: [0, 0, 1]}
contacts:
  floor:
    type: sphere_plane
    treatment: compliant
    plane: {body: ground, point: [0, 0, 0], normal: [0, 0, 1]}
    sphere: {body: ball, center: [0, 0, 0.009999], radius: 0.01}
    contact: {law: hertz, young_modulus: 207.0e9, poisson_ratio: 0.3}
solver: {analysis: static}
)";
  // K from materials: (4/3) E* √R with E* = E/(2(1 − ν²)) for two equal steels, R = 10 mm:
  // reference.md §3.1's example value.
  const double E_star = 207.0e9 / (2.0 * (1.0 - 0.09));
  EXPECT_NEAR((4.0 / 3.0) * E_star * std::sqrt(0.01), K, 1e-4 * K);
  const RunResult r = run_yaml(yaml, {"floor.penetration", "floor.normal_force"});
  const double delta = std::pow(W / K, 2.0 / 3.0);
  // The static Newton stops on increments below newton_tol = 1e-10 m; F = K δ^1.5 then carries
  // 1.5·1e-10/δ ≈ 2e-4 relative.
  EXPECT_NEAR(r.col[0].back(), delta, 1e-10);
  EXPECT_NEAR(r.col[1].back(), W, 2e-4 * W);
}

// A particle (radius 0: no rolling) on a plane tilted by θ, bristle friction μ_s = 0.3,
// μ_d = 0.25. Below μ_s (tan θ = 0.2) it must stick: no creep beyond the bristle's own
// deflection settling; above (tan θ = 0.4) it slides with a = g (sin θ − μ_d cos θ).
std::string incline_model(double tan_theta, double end) {
  const double th = std::atan(tan_theta);
  const Vec3 n(-std::sin(th), 0.0, std::cos(th));
  const Vec3 p = -(9.81 * std::cos(th) / 1e7) * n;  // static penetration, Kelvin–Voigt K = 1e7
  std::ostringstream os;
  os.precision(17);
  const auto v3 = [&os](const Vec3& v) {
    os << "[" << v.x() << ", " << v.y() << ", " << v.z() << "]";
  };
  os << "gravity: [0, 0, -9.81]\nbodies:\n  block: {mass: 1.0, inertia: [1, 1, 1], position: ";
  v3(p);
  os << "}\ncontacts:\n  slope:\n    type: sphere_plane\n    treatment: compliant\n"
     << "    plane: {body: ground, point: [0, 0, 0], normal: ";
  v3(n);
  os << "}\n    sphere: {body: block, center: ";
  v3(p);
  os << R"(, radius: 0}
    contact: {law: kelvin_voigt, stiffness: 1.0e7, exponent: 1, damping: 6.0e3}
    friction: {law: bristle, mu: 0.25, mu_static: 0.3, stiffness: 1.0e6, damping: 2.0e3, stick_speed: 1.0e-3}
solver: {integrator: generalized_alpha, rho_inf: 0.8, step: 1.0e-4, end: )"
     << end << "}\noutput: {every: 10}\n";
  return os.str();
}

TEST(BristleFriction, HoldsBelowStaticFrictionWithoutCreep) {
  const RunResult r = run_yaml(incline_model(0.2, 2.0), {"block.position.x", "block.position.z"});
  // The bristle takes the load within a few ms (deflection m g sin θ/k ≈ 2e-6 m); after that the
  // block must not move: creep over the last second below 1e-12 m (round-off of a 1e-6 m
  // deflection held by a 1e6 N/m spring).
  const std::size_t half = r.t.size() / 2;
  EXPECT_LT(std::abs(r.col[0].back() - r.col[0][half]), 1e-12);
  EXPECT_LT(std::abs(r.col[0].back()), 1e-5);  // the initial settling only
}

TEST(BristleFriction, SlidesAboveStaticFrictionAtTheDynamicRate) {
  const double end = 0.5;
  const RunResult r = run_yaml(incline_model(0.4, end), {"block.velocity.x", "block.velocity.z"});
  const double th = std::atan(0.4);
  const double a = 9.81 * (std::sin(th) - 0.25 * std::cos(th));
  const double speed = std::hypot(r.col[0].back(), r.col[1].back());
  // Down-slope speed after 0.5 s: a·t less the short start-up while k = exp(−v²/v_stick²) still
  // blends in the stick force (v < a few v_stick: a few ms at this a); 1 % covers it.
  EXPECT_NEAR(speed, a * end, 0.01 * a * end);
}

TEST(FrictionLaws, RegularisedLawsStayWithinTheFrictionCone) {
  contact::FrictionLaw coulomb;
  coulomb.kind = contact::FrictionLawKind::kCoulomb;
  coulomb.mu_dynamic = 0.1;
  contact::FrictionLaw stribeck = coulomb;
  stribeck.kind = contact::FrictionLawKind::kStribeck;
  stribeck.mu_static = 0.15;
  const double F_N = 100.0;
  for (double s : {0.0, 5e-5, 2e-4, 1e-3, 1e-2, 1.0, 30.0}) {
    const Vec3 v(s, -0.5 * s, 0.0), zero = Vec3::Zero();
    EXPECT_LE(coulomb.force<double>(v, F_N, zero, zero).norm(), 0.1 * F_N * (1 + 1e-15)) << s;
    EXPECT_LE(stribeck.force<double>(v, F_N, zero, zero).norm(), 0.15 * F_N * (1 + 1e-15)) << s;
  }
}

// Quasi-static squeeze-film approach under a constant load W (reference.md §8.5): with a light
// journal the film force balances W at every instant, and ε goes 0 → 0.9 in
//   sphere: t = (C₀ c/W)[G(0.9) − G(0)] = 5.33 ms (μ = 0.4 Pa·s, r = 10 mm, c = 0.5 mm, W = 100 N);
//   long journal (squeeze only): t = (12πμLR³/(c²W)) ε/√(1 − ε²) = 49.8 ms (L = 40 mm).
// The journal's 1 g mass delays it by m/C ≈ 2.5 µs, 0.05 % of 5.33 ms: 0.5 % tolerance.
double time_to_reach(const RunResult& r, double ratio) {
  for (std::size_t k = 1; k < r.t.size(); ++k) {
    if (r.col[0][k] >= ratio) {
      const double f = (ratio - r.col[0][k - 1]) / (r.col[0][k] - r.col[0][k - 1]);
      return r.t[k - 1] + f * (r.t[k] - r.t[k - 1]);
    }
  }
  return -1.0;
}

TEST(SqueezeFilm, SphereApproachTimeUnderConstantLoad) {
  const std::string yaml = R"(
gravity: [0, 0, 0]
bodies:
  ball: {mass: 0.001, inertia: [1e-7, 1e-7, 1e-7], position: [0, 0, 0]}
joints:
  cup:
    type: spherical
    bodies: [ground, ball]
    at: [0, 0, 0]
    clearance: {radial: 0.5e-3, treatment: lubricated, asperity: 1.0e-6, ball_radius: 0.01,
                restitution: 0.9, contact: {stiffness: 1.0e10}, lubricant: {viscosity: 0.4}}
forces:
  load: {type: point_load, body: ball, force: [100, 0, 0]}
solver: {integrator: generalized_alpha, rho_inf: 0.8, step: 1.0e-6, end: 0.006}
output: {every: 1}
)";
  const RunResult r = run_yaml(yaml, {"cup.eccentricity_ratio", "cup.normal_force"});
  const double c = 0.5e-3, mu = 0.4, rb = 0.01, W = 100.0;
  const double C0 = 6.0 * std::numbers::pi * mu * std::pow(rb, 4) / std::pow(c, 3);
  // G(ε) = −ln(1−ε)/(2ε²) − 1/(2ε) − ½ ln(1−ε), G′ = f, with G(0⁺) = 1/4 (reference.md §5.1).
  auto G = [](double e) {
    return -std::log(1.0 - e) / (2.0 * e * e) - 1.0 / (2.0 * e) - 0.5 * std::log(1.0 - e);
  };
  const double expected = C0 * c / W * (G(0.9) - 0.25);
  EXPECT_NEAR(expected, 5.33e-3, 0.01e-3);  // the reference's number
  EXPECT_NEAR(time_to_reach(r, 0.9), expected, 5e-3 * expected);
  EXPECT_EQ(*std::max_element(r.col[1].begin(), r.col[1].end()), 0.0);  // never dry contact
}

TEST(SqueezeFilm, LongJournalApproachTimeUnderConstantLoad) {
  const std::string yaml = R"(
gravity: [0, 0, 0]
bodies:
  pin: {mass: 0.001, inertia: [1e-7, 1e-7, 1e-7], position: [0, 0, 0]}
joints:
  bearing:
    type: revolute
    bodies: [ground, pin]
    at: [0, 0, 0]
    axis: [0, 0, 1]
    clearance: {radial: 0.5e-3, treatment: lubricated, asperity: 1.0e-6, pin_radius: 0.01,
                pin_length: 0, axial: ideal, restitution: 0.9, contact: {stiffness: 1.0e10},
                lubricant: {viscosity: 0.4, model: long, length: 0.04, wedge: false,
                           cavitation: sommerfeld}}
forces:
  load: {type: point_load, body: pin, force: [100, 0, 0]}
solver: {integrator: generalized_alpha, rho_inf: 0.8, step: 1.0e-5, end: 0.055}
output: {every: 1}
)";
  const RunResult r = run_yaml(yaml, {"bearing.eccentricity1", "bearing.normal_force"});
  std::vector<double> ratio = r.col[0];
  for (double& x : ratio) x /= 0.5e-3;
  RunResult rr = r;
  rr.col[0] = ratio;
  const double expected =
      12.0 * std::numbers::pi * 0.4 * 0.04 * 1e-6 / (0.25e-6 * 100.0) * 0.9 / std::sqrt(1.0 - 0.81);
  EXPECT_NEAR(expected, 49.8e-3, 0.1e-3);
  EXPECT_NEAR(time_to_reach(rr, 0.9), expected, 5e-3 * expected);
}

}  // namespace
}  // namespace cs
