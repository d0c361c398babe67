// Gear and gear-pair geometry against reference.md §7.2 (seed 004's pair, checked there against
// KISSsoft), and every bad-input case naming its parameter.
#include "clearsim/geometry/gear_geometry.hpp"

#include <gtest/gtest.h>

#include "clearsim/geometry/involute.hpp"
#include "unit/geometry/seed004_gears.hpp"

namespace cs {
namespace {

using test::kDeg;
using test::kMm;

// §7.2 prints lengths to 0.1 µm (4 decimals in mm), so a correct computation agrees within half
// that; 1e-4 mm allows for the rounding of the table. Angles are printed to 1e-5°.
constexpr double kTableMm = 1e-4 * kMm;
constexpr double kTableDeg = 1e-5 * kDeg;

TEST(Involute, InverseRecoversTheAngle) {
  for (double deg : {0.5, 5.0, 20.0, 22.2497, 40.0, 60.0, 80.0}) {
    const double alpha = deg * kDeg;
    EXPECT_NEAR(inverse_involute(involute(alpha)), alpha, 1e-13) << deg;
  }
  EXPECT_EQ(inverse_involute(0.0), 0.0);
}

TEST(GearGeometry, Seed004PinionAndWheelMatchTheReference) {
  const GearGeometry g1 = gear_geometry(test::seed004_pinion());
  const GearGeometry g2 = gear_geometry(test::seed004_wheel());
  EXPECT_NEAR(g1.m_t, 11.23528 * kMm, kTableMm);
  EXPECT_NEAR(g1.alpha_t, 22.24116 * kDeg, kTableDeg);
  EXPECT_NEAR(g1.beta_b, 25.36379 * kDeg, kTableDeg);
  EXPECT_NEAR(g1.d, 303.3525 * kMm, kTableMm);
  EXPECT_NEAR(g2.d, 1696.5268 * kMm, kTableMm);
  EXPECT_NEAR(g1.d_b, 280.7827 * kMm, kTableMm);
  EXPECT_NEAR(g2.d_b, 1570.3034 * kMm, kTableMm);
  EXPECT_NEAR(g1.d_a, 328.0725 * kMm, kTableMm);
  EXPECT_NEAR(g2.d_a, 1711.9288 * kMm, kTableMm);
  EXPECT_NEAR(g1.d_f, 280.0725 * kMm, kTableMm);
  EXPECT_NEAR(g2.d_f, 1663.9288 * kMm, kTableMm);
  EXPECT_NEAR(g1.s_t, 19.579 * kMm, 1e-3 * kMm);  // printed to 1 µm
  EXPECT_NEAR(g2.s_t, 15.768 * kMm, 1e-3 * kMm);
  EXPECT_NEAR(g1.s_at, 8.06 * kMm, 0.01 * kMm);  // printed to 10 µm
  EXPECT_NEAR(g2.s_at, 9.39 * kMm, 0.01 * kMm);
  EXPECT_NEAR(g1.p_z, 1860.7 * kMm, 0.1 * kMm);
  EXPECT_NEAR(g2.p_z, 10406.4 * kMm, 0.1 * kMm);
  EXPECT_NEAR(g1.x_min, -1.0, 0.05);  // "≈ −1.0"
  EXPECT_NEAR(g1.total_width, 270 * kMm, 1e-12);
  // The pinion's root circle lies 0.35 mm inside its base circle (§7.2); its involute starts
  // above the base circle, where the trochoidal fillet ends.
  EXPECT_NEAR((g1.d_b - g1.d_f) / 2, 0.355 * kMm, 0.01 * kMm);
  EXPECT_GT(g1.d_form, g1.d_b);
  EXPECT_NEAR(g1.p_bt, M_PI * g1.m_t * std::cos(g1.alpha_t), 1e-15);
}

TEST(GearPairGeometry, Seed004PairMatchesTheReference) {
  const GearPairGeometry pair = gear_pair_geometry(test::seed004_pinion(), test::seed004_wheel());
  EXPECT_NEAR(pair.u, 151.0 / 27.0, 1e-14);
  EXPECT_NEAR(pair.a_0, 999.9396 * kMm, kTableMm);
  EXPECT_NEAR(pair.alpha_wt, 22.24970 * kDeg, kTableDeg);
  EXPECT_NEAR(pair.a_w, 1000.0006 * kMm, kTableMm);
  EXPECT_EQ(pair.a, pair.a_w);
  EXPECT_NEAR(pair.d_w1, 303.3710 * kMm, kTableMm);
  EXPECT_NEAR(pair.d_w2, 1696.6303 * kMm, kTableMm);
  // Contact ratios are printed to 1e-4.
  EXPECT_NEAR(pair.eps_1, 0.8389, 1e-4);
  EXPECT_NEAR(pair.eps_2, 0.6027, 1e-4);
  EXPECT_NEAR(pair.eps_alpha, 1.4416, 1e-4);
  EXPECT_NEAR(pair.eps_beta, 1.9589, 1e-4);
  EXPECT_NEAR(pair.eps_gamma, 3.4005, 1e-4);
  // Nominal KISSsoft geometry has zero backlash at a_w (§6e trap): s_w1 + s_w2 = p_wt.
  EXPECT_NEAR(pair.j_t, 0.0, 1e-12);
  EXPECT_NEAR(pair.c_12, 4.0 * kMm, 1e-3 * kMm);  // tip–root clearance 4 mm
  EXPECT_NEAR(pair.c_21, 4.0 * kMm, 1e-3 * kMm);
  EXPECT_NEAR(pair.k_nominal, 0.0, 1e-5);  // k ≈ 1e-6 m_n
}

TEST(GearPairGeometry, ThicknessAllowanceGivesTheBacklash) {
  GearParameters p1 = test::seed004_pinion(), p2 = test::seed004_wheel();
  p1.thickness_allowance = p2.thickness_allowance = 0.15 * kMm;
  const GearPairGeometry pair = gear_pair_geometry(p1, p2);
  // j_t = (E_st1 + E_st2) d_w/d at the working circle; j_bn = j_t cos α_wt cos β_b, which for
  // this nearly unshifted pair is close to (E_sn1 + E_sn2) cos α_n.
  const double e_t = 0.30 * kMm / std::cos(p1.helix_angle);
  EXPECT_NEAR(pair.j_t, e_t * pair.d_w1 / gear_geometry(p1).d, 1e-9);
  EXPECT_NEAR(pair.j_bn, 0.30 * kMm * std::cos(20 * kDeg), 2e-3 * kMm);
  EXPECT_NEAR(pair.a, 1000.0006 * kMm, kTableMm);  // the centre distance is unchanged
}

TEST(GearPairGeometry, SpurPairWithoutShiftIsAtTheReferenceDistance) {
  GearParameters p;
  p.normal_module = 2 * kMm;
  p.teeth = 20;
  p.normal_pressure_angle = 20 * kDeg;
  p.face_width = 10 * kMm;
  GearParameters q = p;
  q.teeth = 40;
  const GearPairGeometry pair = gear_pair_geometry(p, q);
  EXPECT_NEAR(pair.a, 60 * kMm, 1e-15);
  EXPECT_NEAR(pair.alpha_wt, 20 * kDeg, 1e-12);
  EXPECT_NEAR(pair.eps_beta, 0.0, 1e-15);
  // Textbook value for 20/40 teeth, α = 20°, h_a* = 1: ε_α = 1.6 (closed form here).
  const double r1 = 20 * kMm, r2 = 40 * kMm, rb1 = r1 * std::cos(20 * kDeg),
               rb2 = r2 * std::cos(20 * kDeg);
  const double expected =
      (std::sqrt(std::pow(r1 + 2 * kMm, 2) - rb1 * rb1) +
       std::sqrt(std::pow(r2 + 2 * kMm, 2) - rb2 * rb2) - 60 * kMm * std::sin(20 * kDeg)) /
      (M_PI * 2 * kMm * std::cos(20 * kDeg));
  EXPECT_NEAR(pair.eps_alpha, expected, 1e-12);
  EXPECT_NEAR(expected, 1.635, 1e-3);
}

// Runs `f` and returns the GearError's parameter name ("" if none was thrown).
template <class F>
std::string error_parameter(F f) {
  try {
    f();
  } catch (const GearError& e) {
    EXPECT_NE(std::string(e.what()).find(e.parameter() + ": "), std::string::npos);
    return e.parameter();
  }
  return "";
}

TEST(GearGeometry, BadParametersNameTheParameter) {
  const GearParameters good = test::seed004_pinion();
  auto with = [&](auto change) {
    GearParameters p = good;
    change(p);
    return error_parameter([&] { gear_geometry(p); });
  };
  EXPECT_EQ(with([](GearParameters&) {}), "");
  EXPECT_EQ(with([](GearParameters& p) { p.normal_module = 0; }), "module");
  EXPECT_EQ(with([](GearParameters& p) { p.normal_module = -1e-3; }), "module");
  EXPECT_EQ(with([](GearParameters& p) { p.normal_module = NAN; }), "module");
  EXPECT_EQ(with([](GearParameters& p) { p.teeth = 2; }), "teeth");
  EXPECT_EQ(with([](GearParameters& p) { p.normal_pressure_angle = 0; }), "pressure_angle");
  EXPECT_EQ(with([](GearParameters& p) { p.helix_angle = -0.1; }), "helix_angle");
  EXPECT_EQ(with([](GearParameters& p) { p.face_width = 0; }), "face_width");
  EXPECT_EQ(with([](GearParameters& p) { p.helix_gap = -1e-3; }), "gap");
  EXPECT_EQ(with([](GearParameters& p) { p.rack.addendum = -1; }), "addendum");
  EXPECT_EQ(with([](GearParameters& p) { p.rack.root_fillet_radius = 0.6; }), "root_fillet");
  EXPECT_EQ(with([](GearParameters& p) {  // the fillet rises above the tip: no involute left
              p.rack = {0.1, 0.4, 0.9};
              p.profile_shift = 0.0;
            }),
            "root_fillet");
  EXPECT_EQ(with([](GearParameters& p) { p.thickness_allowance = -1e-4; }), "backlash_allowance");
  EXPECT_EQ(with([](GearParameters& p) { p.thickness_allowance = 0.03; }), "backlash_allowance");
  // Undercut: 27 teeth need x ≥ −1.0; 8 teeth without shift are undercut.
  EXPECT_EQ(with([](GearParameters& p) { p.profile_shift = -1.1; }), "profile_shift");
  EXPECT_EQ(with([](GearParameters& p) {
              p.teeth = 8;
              p.profile_shift = 0;
              p.helix_angle = 0;
              p.double_helical = false;
            }),
            "profile_shift");
  // Pointed tip: a large positive shift on a small gear.
  EXPECT_EQ(with([](GearParameters& p) {
              p.teeth = 12;
              p.profile_shift = 1.5;
            }),
            "profile_shift");
  EXPECT_EQ(with([](GearParameters& p) {
              p.helix_angle = 0;  // a spur gear cannot be double-helical
            }),
            "helix_angle");
}

TEST(GearPairGeometry, PairsThatCannotMeshNameTheParameter) {
  const GearParameters p1 = test::seed004_pinion(), p2 = test::seed004_wheel();
  auto pair_error = [&](GearParameters a, GearParameters b, double centre_distance) {
    return error_parameter([&] { gear_pair_geometry(a, b, centre_distance); });
  };
  EXPECT_EQ(pair_error(p1, p2, 0.0), "");
  EXPECT_EQ(pair_error(p1, p2, 1.0003), "");  // 0.3 mm wider: backlash, still meshing
  EXPECT_EQ(pair_error(p1, p2, 0.9995), "centre_distance");  // teeth interfere
  EXPECT_EQ(pair_error(p1, p2, 0.95), "centre_distance");    // tips in the roots
  EXPECT_EQ(pair_error(p1, p2, 1.02), "centre_distance");    // ε_α < 1
  EXPECT_EQ(pair_error(p1, p2, 0.5), "centre_distance");     // inside the base circles
  EXPECT_EQ(pair_error(p1, p2, -1.0), "centre_distance");
  GearParameters same_hand = p2;
  same_hand.hand = p1.hand;
  EXPECT_EQ(pair_error(p1, same_hand, 0.0), "hand");
  GearParameters other_module = p2;
  other_module.normal_module = 12 * kMm;
  EXPECT_EQ(pair_error(p1, other_module, 0.0), "module");
  GearParameters other_beta = p2;
  other_beta.helix_angle = 20 * kDeg;
  EXPECT_EQ(pair_error(p1, other_beta, 0.0), "helix_angle");
}

TEST(GearPairGeometry, InterferenceMessageSaysWhereTheTeethFit) {
  GearParameters p1 = test::seed004_pinion(), p2 = test::seed004_wheel();
  try {
    gear_pair_geometry(p1, p2, 0.9995);
    FAIL() << "expected a GearError";
  } catch (const GearError& e) {
    EXPECT_NE(std::string(e.what()).find("they fit from a = 1.000000"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cs
