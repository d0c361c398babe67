// LubricatedClearance (film over rigid contact, seed 000's model): the film force's exact tangents
// against central differences on R³ × SO(3) for the squeeze film and the three journal bearings,
// the gaps at c − e0 and their gradients, and the film force continuous up to film rupture.
#include "clearsim/elements/contact/lubricated_clearance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/math/finite_difference.hpp"
#include "clearsim/math/so3.hpp"
#include "support/journal_bearing.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

using contact::LubricatedClearance;
using contact::Lubrication;
using contact::LubricationKind;

constexpr double kC = 5e-4;  // clearance [m]
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kE0 = 2e-6;  // asperity e0 [m]
constexpr double kR = 9.5e-3;

Marker marker(int body, Vec3 p, Mat3 R = Mat3::Identity()) { return {body, p, R}; }

struct Case {
  std::string label;
  contact::Geometry geometry;
  Lubrication film;
};

Lubrication squeeze() {
  Lubrication l;
  l.kind = LubricationKind::kSqueezeFilm;
  l.squeeze = {0.4, kR, kC, 1.0 - kE0 / kC};
  return l;
}

Lubrication bearing(lubrication::BearingModel model) {
  Lubrication l;
  l.kind = LubricationKind::kJournalBearing;
  l.bearing = testing::make_bearing(model, 0.4, kR, 0.02, kC, 1.0 - kE0 / kC);
  l.bearing.cavitation = lubrication::Cavitation::kHalfSommerfeld;
  return l;
}

std::vector<Case> cases() {
  const Mat3 tilt = so3::exp(Vec3(0.3, -0.2, 0.1));
  const contact::Geometry sph = contact::SphericalClearanceGeometry{
      marker(0, {0.02, -0.01, 0.03}), marker(1, {-0.05, 0.01, 0.0}), kC, 0.0, kR};
  const contact::Geometry rev3d = contact::RevoluteClearanceGeometry{
      marker(0, {0.1, 0.0, 0.0}, tilt), marker(1, {0.0, 0.02, 0.0}, tilt), kC, 0.01, kR};
  const contact::Geometry planar = contact::RevoluteClearanceGeometry{
      marker(0, {0.0, 0.0, 0.05}, tilt), marker(1, {0.03, 0.0, 0.0}, tilt), kC, 0.0, kR};
  return {{"spherical squeeze film", sph, squeeze()},
          {"revolute 3D long bearing", rev3d, bearing(lubrication::BearingModel::kLong)},
          {"planar revolute short bearing", planar, bearing(lubrication::BearingModel::kShort)},
          {"planar revolute finite bearing", planar, bearing(lubrication::BearingModel::kFinite)}};
}

// Places body j so that its journal sits at eccentricity `offset` from the housing centre
// (revolute: ⟂ the bearing axis, the pin nearly aligned with it).
BodyKinematics place_journal(const contact::Geometry& g, const BodyKinematics& bi,
                             BodyKinematics bj, double offset, std::mt19937& rng) {
  Vec3 target, p_j;
  if (const auto* s = std::get_if<contact::SphericalClearanceGeometry>(&g)) {
    target = bi.x_W + bi.R_WB * s->housing.p_B + offset * testing::random_vec(rng).normalized();
    p_j = s->ball.p_B;
  } else {
    const auto& r = std::get<contact::RevoluteClearanceGeometry>(g);
    const Vec3 u = bi.R_WB * r.bearing.R_BM.col(2);
    target = bi.x_W + bi.R_WB * r.bearing.p_B +
             offset * u.cross(testing::random_vec(rng)).normalized() + 0.003 * u;
    p_j = r.pin.p_B;
    bj.R_WB = so3::exp(0.02 * offset / kC * testing::random_vec(rng).normalized()) * bi.R_WB *
              r.bearing.R_BM * r.pin.R_BM.transpose();
  }
  bj.x_W = target - bj.R_WB * p_j;
  return bj;
}

ForceBlock eval(const LubricatedClearance& e, const BodyKinematics& bi, const BodyKinematics& bj,
                bool tangents) {
  ForceBlock fb;
  const ElementInput in{0.0, &bi, &bj, nullptr};
  e.force(in, fb, tangents);
  return fb;
}

// Central differences. Inside the film (film thickness h_f ≥ 0.65 c = 325 µm) a position step
// of 1e-10 m (rad) has truncation error (ε/h_f)² ≈ 1e-13 relative and round-off u·|f|/ε far
// below the tangent scale. Near rupture (h_f = 5 µm down to e0 = 2 µm, where the short bearing's
// force goes as (1 − ε²)^(−5/2)) round-off dominates: measured there, the FD error falls as 1/ε
// (5e-5 relative at 1e-10 m, 5e-6 at 1e-9 m), so 1e-9 m is used, whose truncation
// (1e-9/2e-6)² = 2.5e-7 is still negligible and which stays clear of the cap 1e-8 m away. The
// same from 0.8 c: the long bearing's half film there (revolute 3D, trial 2) gave 1.35e-5
// relative at 1e-10 m built by Clang without FMA and 1.2e-6 at 1e-9 m (round-off, ∝ 1/ε).
// A wrong or missing term is O(1) of the tangent's scale; 1e-5 relative separates the two.
// Velocity steps 1e-6 m/s: the force is linear in ė except through the bearing's ω̄ and the
// half films' edges (which turn with ε̇/(εω̄)), smooth on that scale. Round-off u·|f|/ε_v limits
// smaller steps: on the long bearing's half film at 0.8 c (revolute 3D, the seed's trial 2) the
// FD error is 1.4e-4 relative at 1e-8 m/s, 1.3e-5 at 1e-7 and below 1e-5 at 1e-6 (the AD
// derivatives of long_film_forces agree with central differences of it to 1e-9 or better). Near
// rupture the force is large (|f| ~ 1e5 N, the short bearing's (1 − ε²)^(−5/2)) while ∂f/∂v stays
// moderate, so round-off u·|f|/ε_v dominates (measured: the FD error grows tenfold from 1e-7 to
// 1e-8 m/s): 1e-6 m/s there. The AD and plain evaluations of f agree to round-off amplified by the
// film's conditioning near rupture (1/(1 − ε) = 250 for the squeeze film, (1 − ε²)^(−5/2) for the
// short bearing): 1e-10 relative.
constexpr double kEpsQ = 1e-10;
constexpr double kEpsNearWall = 1e-9;
constexpr double kEpsV = 1e-6;
constexpr double kEpsVNearWall = 1e-6;
constexpr double kRelTol = 1e-5;
// Velocity tangents within 0.1 c of the wall: there the central difference itself is off by
// about 1e-5 relative on the planar short bearing 1e-8 m from rupture (0.99e-5 built by GCC
// with fused multiply–adds, 1.04e-5 by Clang without; a Richardson extrapolation made it worse,
// 1.6e-5, so it is not h² truncation but the film's edges turning with ė). 3e-5 keeps the check
// four orders below an O(1) wrong or missing term.
constexpr double kRelTolNearWallV = 3e-5;

TEST(LubricatedClearance, FilmTangentsMatchCentralDifferences) {
  std::mt19937 rng(31);
  for (const Case& c : cases()) {
    const LubricatedClearance e("j", 0, 1, c.geometry, c.film, kE0, 0.9);
    // Inside the film, near rupture (the capped ε), and at rupture exactly less a hair.
    for (double offset : {0.35 * kC, 0.8 * kC, 0.95 * kC, 0.99 * kC, kC - kE0 - 1e-8}) {
      for (int trial = 0; trial < 3; ++trial) {
        const BodyKinematics bi = testing::random_body(rng, 0.1);
        const BodyKinematics bj =
            place_journal(c.geometry, bi, testing::random_body(rng, 0.1), offset, rng);
        const ForceBlock fb = eval(e, bi, bj, true);
        ASSERT_TRUE(fb.f.allFinite() && fb.df_dq.allFinite() && fb.df_dv.allFinite()) << c.label;
        ASSERT_GT(fb.f.norm(), 0.0) << c.label;
        auto f_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
          return VecX(eval(e, a, b, false).f);
        };
        const MatX dq = fd::jacobian_q(f_of, bi, bj, offset > 0.7 * kC ? kEpsNearWall : kEpsQ);
        const MatX dv = fd::jacobian_v(f_of, bi, bj, offset > 0.9 * kC ? kEpsVNearWall : kEpsV);
        EXPECT_LT((dq - fb.df_dq).norm(), kRelTol * fb.df_dq.norm())
            << c.label << " offset " << offset << " trial " << trial << "\nAD:\n"
            << fb.df_dq << "\nFD:\n"
            << dq;
        EXPECT_LT((dv - fb.df_dv).norm(),
                  (offset > 0.9 * kC ? kRelTolNearWallV : kRelTol) * fb.df_dv.norm())
            << c.label << " offset " << offset << " trial " << trial;
        EXPECT_LT((fb.f - eval(e, bi, bj, false).f).norm(), 1e-10 * fb.f.norm()) << c.label;
      }
    }
  }
}

// The gaps sit at c − e0 (one per journal) and their gradients are those of ‖e‖ on the group.
// Gradient steps 1e-9 m on a gap that is linear in position up to the curvature 1/‖e‖ (‖e‖ ≥
// 0.1 mm): truncation (1e-9)²/1e-4 = 1e-14 m against gradients of order 1 → 1e-6 is loose.
TEST(LubricatedClearance, GapsAtReducedClearanceWithTheirGradients) {
  std::mt19937 rng(7);
  for (const Case& c : cases()) {
    const LubricatedClearance e("j", 0, 1, c.geometry, c.film, kE0, 0.9);
    const BodyKinematics bi = testing::random_body(rng, 0.1);
    const BodyKinematics bj =
        place_journal(c.geometry, bi, testing::random_body(rng, 0.1), 0.7 * kC, rng);
    GapBlock gb;
    const ElementInput in{0.0, &bi, &bj, nullptr};
    e.gaps(in, gb);
    ASSERT_EQ(gb.p, contact::num_points(c.geometry)) << c.label;
    auto g_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
      GapBlock g;
      const ElementInput x{0.0, &a, &b, nullptr};
      e.gaps(x, g);
      return VecX(g.g.head(g.p));
    };
    const MatX dg = fd::jacobian_q(g_of, bi, bj, 1e-9);
    EXPECT_LT((dg - gb.G.topRows(gb.p)).norm(), 1e-6) << c.label;
    // The gap channel and the gap rows agree, and both are c − e0 − ‖e‖, to round-off: the two
    // paths evaluate ‖e‖ in code the compiler may contract (fused multiply–add) differently, so
    // they may differ by a few ulps of the clearance (ε·c ≈ 1.1e-19 m); 50 of them are allowed.
    {
      contact::Journal<double> J[2];
      if (const auto* s = std::get_if<contact::SphericalClearanceGeometry>(&c.geometry))
        s->journals(pose_of(bi), pose_of(bj), J);
      else
        std::get<contact::RevoluteClearanceGeometry>(c.geometry)
            .journals(pose_of(bi), pose_of(bj), J);
      for (int k = 0; k < gb.p; ++k)
        EXPECT_NEAR(gb.g(k), kC - kE0 - J[k].e.norm(), 50 * kEps * kC) << c.label;
      EXPECT_NEAR(e.channel_value(0, in, nullptr), gb.g(0), 50 * kEps * kC) << c.label;
    }
    EXPECT_EQ(e.restitution(0), 0.9);
  }
}

// Film force continuous up to rupture: along a radial approach at ė_n = 0.5 m/s the squeeze force
// grows smoothly to its value at ‖e‖ = c − e0, which is the closed form C₀ f(1 − e0/c) ė_n
// (reference.md §5.1), finite; the force at c − e0 − δ differs from it by O(δ) (no jump where the
// rigid contact takes over). The bound: |dF/de| ≤ C₀ f′(ε_max) ė_n / c at the cap, so a step δ
// changes F by at most that times δ; a jump would be O(F).
TEST(LubricatedClearance, SqueezeForceContinuousUpToRupture) {
  const contact::Geometry g = contact::SphericalClearanceGeometry{
      marker(0, Vec3::Zero()), marker(1, Vec3::Zero()), kC, 0.0, kR};
  const LubricatedClearance e("j", 0, 1, g, squeeze(), kE0, 0.9);
  const double speed = 0.5;  // approach [m/s]
  const double C0 = 6.0 * std::numbers::pi * 0.4 * std::pow(kR, 4) / std::pow(kC, 3);
  const double eps_max = 1.0 - kE0 / kC;
  const double F_rupture = C0 * lubrication::squeeze_factor(eps_max) * speed;
  auto force_at = [&](double ecc) {
    BodyKinematics bi, bj;
    bj.x_W = Vec3(ecc, 0.0, 0.0);
    bj.v_W = Vec3(speed, 0.0, 0.0);
    const ElementInput in{0.0, &bi, &bj, nullptr};
    return e.evaluate(in).force[0].norm();
  };
  EXPECT_NEAR(force_at(kC - kE0), F_rupture, 1e-12 * F_rupture);
  EXPECT_TRUE(std::isfinite(F_rupture));
  // f'(ε) by central differences of the closed form, at the cap: the slope bound.
  const double h = 1e-9;
  const double slope =
      C0 * speed / kC *
      (lubrication::squeeze_factor(eps_max) - lubrication::squeeze_factor(eps_max - h)) / h;
  double previous = 0.0;
  for (double delta : {1e-7, 1e-8, 1e-9, 1e-10, 1e-11}) {
    const double F = force_at(kC - kE0 - delta);
    EXPECT_LT(F, F_rupture) << delta;
    EXPECT_LE(F_rupture - F, 1.01 * slope * delta) << delta;
    EXPECT_GT(F, previous) << delta;  // monotone towards rupture
    previous = F;
  }
  // And from the centre on: monotone in ‖e‖ on a fine grid, no step larger than the local
  // slope bound allows (a jump would exceed it).
  double last = force_at(0.0);
  for (int k = 1; k <= 2000; ++k) {
    const double ecc = (kC - kE0) * k / 2000.0;
    const double F = force_at(ecc);
    EXPECT_GE(F, last) << ecc;
    last = F;
  }
}

// The bearing-loss channels of a lubricated journal (issue 29) against the element's own film
// power, computed from the wrench and the bodies' velocities: the film dissipates
// P = −(film_power + T_J (ω_J − ω_B)·u) with T_J the friction_torque channel. Round-off of
// the two evaluations: 1e-9 relative. Also min_film < c and a Couette share of the
// torque opposing the relative rotation.
TEST(LubricatedClearance, BearingLossChannelsCloseTheFilmPower) {
  std::mt19937 rng(29);
  for (const Case& c : cases()) {
    const auto* r = std::get_if<contact::RevoluteClearanceGeometry>(&c.geometry);
    if (!r) continue;
    const LubricatedClearance e("j", 0, 1, c.geometry, c.film, kE0, 0.9);
    const std::vector<std::string> names = e.channel_names();
    const auto index = [&](const std::string& n) {
      const auto it = std::find(names.begin(), names.end(), n);
      EXPECT_NE(it, names.end()) << n;
      return static_cast<int>(it - names.begin());
    };
    const std::string sfx = r->num_ends() == 2 ? "1" : "";
    for (double offset : {0.35 * kC, 0.8 * kC}) {
      const BodyKinematics bi = testing::random_body(rng, 0.1);
      const BodyKinematics bj =
          place_journal(c.geometry, bi, testing::random_body(rng, 0.1), offset, rng);
      const ElementInput in{0.0, &bi, &bj, nullptr};
      const double T_J = e.channel_value(index("friction_torque" + sfx), in, nullptr);
      const double T_c = e.channel_value(index("couette_torque" + sfx), in, nullptr);
      const double T_p = e.channel_value(index("poiseuille_torque" + sfx), in, nullptr);
      const double P = e.channel_value(index("power_loss" + sfx), in, nullptr);
      const double film = e.channel_value(index("film_power" + sfx), in, nullptr);
      const double h_min = e.channel_value(index("min_film" + sfx), in, nullptr);
      const Vec3 u = bi.R_WB * r->bearing.R_BM.col(2);
      const double dw = u.dot(bj.R_WB * bj.w_B - bi.R_WB * bi.w_B);
      SCOPED_TRACE(::testing::Message() << c.label << " offset " << offset);
      EXPECT_NEAR(T_J, T_c + T_p, 1e-12 * std::abs(T_J));
      EXPECT_NEAR(P, -(film + T_J * dw), 1e-9 * (std::abs(P) + std::abs(film)));
      EXPECT_GE(P, 0.0);
      EXPECT_LT(T_c * dw, 0.0);
      EXPECT_LT(h_min, kC);
    }
  }
}

}  // namespace
}  // namespace cs
