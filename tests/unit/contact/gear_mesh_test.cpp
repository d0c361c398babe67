// The analytic gear-mesh contact on seed 004's herringbone pair (reference.md §6e, §7): exact
// tangents against central differences, the torque ratio z₂/z₁ and the force per helix at the
// nominal torque with friction off, pairs in contact, and memory re-arming.
#include "clearsim/elements/contact/gear_mesh.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "clearsim/math/finite_difference.hpp"
#include "clearsim/math/so3.hpp"
#include "unit/geometry/seed004_gears.hpp"

namespace cs {
namespace {

using contact::GearMeshContact;

constexpr double kPi = std::numbers::pi;

// Seed 004's pair with 0.1 mm thickness allowance per gear, pinion (body 0) on the z axis, wheel
// (body 1) at a_w along x turned by π + π/z₂: e = 0, both flanks open by j/2.
struct Reducer {
  GearParameters p1 = test::seed004_pinion(), p2 = test::seed004_wheel();
  GearPairGeometry pair;
  BodyKinematics pinion, wheel;
  Reducer() {
    p1.thickness_allowance = p2.thickness_allowance = 0.1e-3;
    pair = gear_pair_geometry(
        p1, p2, gear_pair_geometry(test::seed004_pinion(), test::seed004_wheel()).a_w);
    wheel.x_W = Vec3(pair.a, 0, 0);
    wheel.R_WB = so3::exp(Vec3(0, 0, kPi + kPi / p2.teeth));
  }
  GearMeshContact element(const contact::ContactLaws& laws) const {
    contact::GearMeshPlacement pl;
    pl.pinion = p1;
    pl.wheel = p2;
    return GearMeshContact("mesh", 0, 1, pl, pair,
                           contact::gear_mesh_helices(p1, p2, pair, 0.0, 1.0), laws);
  }
  // The pinion turned by θ about +z from the centred position (the wheel held).
  BodyKinematics pinion_at(double theta) const {
    BodyKinematics b = pinion;
    b.R_WB = so3::exp(Vec3(0, 0, theta));
    return b;
  }
};

contact::ContactLaws hunt_crossley(double mu) {
  contact::ContactLaws laws;
  laws.normal.kind = contact::NormalLawKind::kHuntCrossley;
  laws.normal.stiffness = 4.56e10;  // reference.md §6e
  laws.normal.exponent = 1.5;
  laws.normal.restitution = 0.9;
  if (mu > 0.0) {
    laws.friction.kind = contact::FrictionLawKind::kCoulomb;
    laws.friction.mu_dynamic = mu;
  }
  return laws;
}

GearMeshContact::Evaluation evaluate(const GearMeshContact& e, const BodyKinematics& bi,
                                     const BodyKinematics& bj, const double* memory = nullptr) {
  return e.evaluate(ElementInput{0.0, &bi, &bj, memory});
}

ForceBlock eval(const GearMeshContact& e, const BodyKinematics& bi, const BodyKinematics& bj,
                const std::vector<double>& memory, bool tangents) {
  ForceBlock fb;
  e.force(ElementInput{0.0, &bi, &bj, memory.data()}, fb, tangents);
  return fb;
}

TEST(GearMeshContact, TorqueRatioAndForcePerHelixAtNominalTorqueWithoutFriction) {
  const Reducer r;
  const GearMeshContact e = r.element(hunt_crossley(0.0));
  const double T1 = 62600.94;  // nominal pinion torque [N·m], reference.md §6e
  // Bisection on the pinion's turn for the nominal torque (forward flank).
  double lo = 0.0, hi = 2e-3;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (evaluate(e, r.pinion_at(mid), r.wheel).pinion_torque < T1 ? lo : hi) = mid;
  }
  const auto ev = evaluate(e, r.pinion_at(hi), r.wheel);
  EXPECT_NEAR(ev.pinion_torque, T1, 1.0);
  // Frictionless: the torques are in the ratio of the base radii, z₂/z₁, exactly.
  EXPECT_NEAR(ev.wheel_torque / ev.pinion_torque, 151.0 / 27.0, 1e-9);
  // Transverse tangential force at the working pitch circle per helix: 206.4 kN (§6e), i.e.
  // ΣF_N cos α_wt cos β_b; the two helices share it equally (mirror images).
  const double k = std::cos(r.pair.alpha_wt) * std::cos(gear_geometry(r.p1).beta_b);
  for (int h = 0; h < 2; ++h) {
    EXPECT_NEAR(ev.F_N[h] * k, 206.4e3, 0.2e3) << "helix " << h;
    EXPECT_GE(ev.count[h], 3);
    EXPECT_LE(ev.count[h], 4);
  }
  std::printf(
      "nominal torque: theta %.4g rad, delta %.4g m, F_N per helix %.5g %.5g N, pairs %d %d\n", hi,
      ev.pairs.front().delta, ev.F_N[0], ev.F_N[1], ev.count[0], ev.count[1]);
  EXPECT_GT(ev.pairs.front().delta, 50e-6);
  EXPECT_LT(ev.pairs.front().delta, 250e-6);
  // Axial forces of the two helices cancel.
  Vec3 F = Vec3::Zero();
  for (const auto& p : ev.pairs) F += p.F_N * p.N;
  EXPECT_LT(std::abs(F.z()), 1e-6 * F.norm());
}

TEST(GearMeshContact, ReversedTorqueLoadsTheOtherFlankAndBacklashIsFree) {
  const Reducer r;
  const GearMeshContact e = r.element(hunt_crossley(0.0));
  const double half_play = r.pair.j_t / r.pair.d_w1;  // j_bt/2 over r_b1
  EXPECT_TRUE(evaluate(e, r.pinion_at(0.9 * half_play), r.wheel).pairs.empty());
  EXPECT_TRUE(evaluate(e, r.pinion_at(-0.9 * half_play), r.wheel).pairs.empty());
  const auto fwd = evaluate(e, r.pinion_at(half_play + 5e-4), r.wheel);
  const auto back = evaluate(e, r.pinion_at(-half_play - 5e-4), r.wheel);
  ASSERT_FALSE(fwd.pairs.empty());
  ASSERT_FALSE(back.pairs.empty());
  for (const auto& p : fwd.pairs) EXPECT_EQ(p.flank, 1);
  for (const auto& p : back.pairs) EXPECT_EQ(p.flank, -1);
  EXPECT_GT(fwd.pinion_torque, 0.0);
  EXPECT_LT(back.pinion_torque, 0.0);
}

// Pairs over one base pitch of pinion rotation: 3 or 4 per helix (ε_γ = 3.40), and the sum of
// the weights averages ε_γ.
TEST(GearMeshContact, PairsInContactFollowTheContactRatio) {
  const Reducer r;
  const GearMeshContact e = r.element(hunt_crossley(0.0));
  const double step = 2 * kPi / 27 / 200, theta0 = 1e-3;
  double weight_sum = 0.0;
  int min_count = 99, max_count = 0;
  for (int k = 0; k < 200; ++k) {
    BodyKinematics p = r.pinion_at(theta0 + k * step);
    BodyKinematics w = r.wheel;
    w.R_WB = so3::exp(Vec3(0, 0, -k * step * 27.0 / 151.0)) * r.wheel.R_WB;
    const auto ev = evaluate(e, p, w);
    min_count = std::min(min_count, ev.count[0]);
    max_count = std::max(max_count, ev.count[0]);
    for (const auto& q : ev.pairs) weight_sum += q.helix == 0 ? q.weight : 0.0;
  }
  EXPECT_EQ(min_count, 3);
  EXPECT_EQ(max_count, 4);
  EXPECT_NEAR(weight_sum / 200, r.pair.eps_gamma, 0.02);
}

// Central differences on the group, at a loaded state with velocities and remembered
// approach speeds / bristle anchors, for Coulomb and bristle friction.
TEST(GearMeshContact, TangentsMatchCentralDifferences) {
  const Reducer r;
  contact::ContactLaws bristle = hunt_crossley(0.0);
  bristle.friction.kind = contact::FrictionLawKind::kBristle;
  bristle.friction.mu_dynamic = 0.05;
  bristle.friction.mu_static = 0.08;
  bristle.friction.bristle_stiffness = 1e9;
  bristle.friction.bristle_damping = 1e4;
  bristle.friction.stick_speed = 2.0;  // sliding speeds are O(1) m/s: both blend terms active
  for (const contact::ContactLaws& laws : {hunt_crossley(0.05), bristle}) {
    const GearMeshContact e = r.element(laws);
    BodyKinematics bi = r.pinion_at(1.2e-3), bj = r.wheel;
    bi.w_B = Vec3(0.01, -0.02, 75.0);
    bj.w_B = Vec3(0.0, 0.01, -75.0 * 27 / 151 + 0.02);
    bi.v_W = Vec3(1e-3, 2e-3, -1e-3);
    bj.v_W = Vec3(-2e-3, 1e-3, 0.0);
    std::vector<double> mem(e.num_memory(), 0.0);
    e.update_memory(ElementInput{0.0, &bi, &bj, nullptr}, mem.data());
    for (std::size_t k = 0; k < mem.size(); k += GearMeshContact::kSlotSize)
      if (mem[k] > 0.0) mem[k + 1] = 0.3, mem[k + 2] -= 2e-7;
    const ForceBlock fb = eval(e, bi, bj, mem, true);
    ASSERT_GT(fb.f.norm(), 1e4);
    auto f_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
      return VecX(eval(e, a, b, mem, false).f);
    };
    const MatX dq = fd::jacobian_q(f_of, bi, bj, 1e-9);
    const MatX dv = fd::jacobian_v(f_of, bi, bj, 1e-7);
    EXPECT_LT((dq - fb.df_dq).norm(), 1e-5 * fb.df_dq.norm()) << "AD:\n"
                                                              << fb.df_dq << "\nFD:\n"
                                                              << dq;
    EXPECT_LT((dv - fb.df_dv).norm(), 1e-5 * (1.0 + fb.df_dv.norm())) << "AD:\n"
                                                                      << fb.df_dv << "\nFD:\n"
                                                                      << dv;
  }
}

// A pair that leaves the path frees its slot; one that enters takes δ̇⁻ from its own onset.
TEST(GearMeshContact, MemoryIsReArmedWhenAPairEnters) {
  const Reducer r;
  const GearMeshContact e = r.element(hunt_crossley(0.0));
  BodyKinematics bi = r.pinion_at(1.2e-3), bj = r.wheel;
  bi.w_B.z() = 1e-2;  // slowly closing: δ̇ > 0
  std::vector<double> mem(e.num_memory(), 0.0);
  e.update_memory(ElementInput{0.0, &bi, &bj, nullptr}, mem.data());
  const auto ev = evaluate(e, bi, bj, mem.data());
  int armed = 0;
  for (std::size_t k = 0; k < mem.size(); k += GearMeshContact::kSlotSize) armed += mem[k] > 0.0;
  EXPECT_EQ(armed, static_cast<int>(ev.pairs.size()));
  bi = r.pinion_at(-1.2e-3);  // the other flank only
  e.update_memory(ElementInput{0.0, &bi, &bj, mem.data()}, mem.data());
  for (int g = 0; g < 4; g += 2) {  // the forward flank's groups of both helices are freed
    for (int s = 0; s < e.slots(); ++s) {
      EXPECT_EQ(mem[(g * e.slots() + s) * GearMeshContact::kSlotSize], 0.0);
    }
  }
}

// A spur pair (the contact line parallel to the axis: no cut at the pitch point, one weight per
// pair) and a single-helical pair: the torque ratio is z₂/z₁ without friction, the pair count
// alternates between ⌊ε_γ⌋ and ⌈ε_γ⌉, the weights average ε_γ, and the tangents are exact.
TEST(GearMeshContact, SpurAndSingleHelicalPairs) {
  for (const double beta : {0.0, 15 * test::kDeg}) {
    GearParameters p1, p2;
    p1.normal_module = p2.normal_module = 2e-3;
    p1.normal_pressure_angle = p2.normal_pressure_angle = 20 * test::kDeg;
    p1.helix_angle = p2.helix_angle = beta;
    p2.hand = HelixHand::kLeft;
    p1.teeth = 20;
    p2.teeth = 40;
    p1.face_width = p2.face_width = 0.02;
    p1.thickness_allowance = p2.thickness_allowance = 5e-5;
    const GearPairGeometry pair = gear_pair_geometry(p1, p2);
    contact::GearMeshPlacement pl;
    pl.pinion = p1;
    pl.wheel = p2;
    contact::ContactLaws laws = hunt_crossley(0.0);
    laws.normal.stiffness = 1e10;
    const GearMeshContact e("m", 0, 1, pl, pair, contact::gear_mesh_helices(p1, p2, pair, 0.0, 1.0),
                            laws);
    BodyKinematics wheel;
    wheel.x_W = Vec3(pair.a, 0, 0);
    const double play = pair.j_t / pair.d_w1;  // pinion turn that closes the backlash
    double weight_sum = 0.0;
    int lo = 99, hi = 0;
    const int n = 300;
    for (int k = 0; k < n; ++k) {
      const double turn = 2 * kPi / 20 * k / n;
      BodyKinematics pin;
      pin.R_WB = so3::exp(Vec3(0, 0, play + 2e-4 + turn));
      BodyKinematics w = wheel;
      w.R_WB = so3::exp(Vec3(0, 0, kPi + kPi / 40 - turn * 20 / 40));
      const auto ev = evaluate(e, pin, w);
      ASSERT_FALSE(ev.pairs.empty());
      EXPECT_NEAR(ev.wheel_torque / ev.pinion_torque, 2.0, 1e-9);
      lo = std::min(lo, ev.count[0]);
      hi = std::max(hi, ev.count[0]);
      for (const auto& q : ev.pairs) weight_sum += q.weight;
    }
    EXPECT_EQ(lo, static_cast<int>(std::floor(pair.eps_gamma))) << "β = " << beta;
    EXPECT_EQ(hi, static_cast<int>(std::ceil(pair.eps_gamma))) << "β = " << beta;
    EXPECT_NEAR(weight_sum / n, pair.eps_gamma, 0.02) << "β = " << beta;
    // Tangents at a loaded, moving state with Coulomb friction.
    contact::ContactLaws fl = laws;
    fl.friction.kind = contact::FrictionLawKind::kCoulomb;
    fl.friction.mu_dynamic = 0.06;
    const GearMeshContact ef("m", 0, 1, pl, pair,
                             contact::gear_mesh_helices(p1, p2, pair, 0.0, 1.0), fl);
    BodyKinematics pin;
    pin.R_WB = so3::exp(Vec3(0, 0, play + 3e-4));
    pin.w_B = Vec3(0.0, 0.0, 30.0);
    BodyKinematics w = wheel;
    w.R_WB = so3::exp(Vec3(0, 0, kPi + kPi / 40));
    w.w_B = Vec3(0.0, 0.0, -15.0 + 0.01);
    std::vector<double> mem(ef.num_memory(), 0.0);
    ef.update_memory(ElementInput{0.0, &pin, &w, nullptr}, mem.data());
    const ForceBlock fb = eval(ef, pin, w, mem, true);
    ASSERT_GT(fb.f.norm(), 1.0);
    auto f_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
      return VecX(eval(ef, a, b, mem, false).f);
    };
    const MatX dq = fd::jacobian_q(f_of, pin, w, 1e-9);
    const MatX dv = fd::jacobian_v(f_of, pin, w, 1e-7);
    EXPECT_LT((dq - fb.df_dq).norm(), 1e-5 * fb.df_dq.norm()) << "β = " << beta;
    EXPECT_LT((dv - fb.df_dv).norm(), 1e-5 * (1.0 + fb.df_dv.norm())) << "β = " << beta;
  }
}

// A single-helical gear is the same solid turned end for end (a right-hand helix stays right-
// handed), so a wheel whose shape axis points against the pinion's (axis sign −1) meshes exactly
// as the one along it.
TEST(GearMeshContact, WheelShapeAxisAgainstThePinions) {
  GearParameters p1, p2;
  p1.normal_module = p2.normal_module = 2e-3;
  p1.normal_pressure_angle = p2.normal_pressure_angle = 20 * test::kDeg;
  p1.helix_angle = p2.helix_angle = 15 * test::kDeg;
  p2.hand = HelixHand::kLeft;
  p1.teeth = 20;
  p2.teeth = 40;
  p1.face_width = p2.face_width = 0.02;
  p1.thickness_allowance = p2.thickness_allowance = 5e-5;
  const GearPairGeometry pair = gear_pair_geometry(p1, p2);
  const double offset = 0.004;  // the wheel's face 4 mm along the axis: the overlap is clipped
  contact::GearMeshPlacement along, against;
  along.pinion = against.pinion = p1;
  along.wheel = against.wheel = p2;
  against.R_wheel = so3::exp(Vec3(kPi, 0, 0));  // shape z = −body z, shape x = body x
  contact::ContactLaws laws = hunt_crossley(0.03);
  laws.normal.stiffness = 1e10;
  const GearMeshContact e1("m", 0, 1, along, pair,
                           contact::gear_mesh_helices(p1, p2, pair, offset, 1.0), laws);
  const GearMeshContact e2("m", 0, 1, against, pair,
                           contact::gear_mesh_helices(p1, p2, pair, offset, -1.0), laws);
  BodyKinematics pin, wheel;
  pin.R_WB = so3::exp(Vec3(0, 0, pair.j_t / pair.d_w1 + 3e-4));
  pin.w_B = Vec3(0, 0, 30.0);
  wheel.x_W = Vec3(pair.a, 0, offset);
  wheel.R_WB = so3::exp(Vec3(0, 0, kPi + kPi / 40));
  wheel.w_B = Vec3(0, 0, -15.0);
  const auto a = evaluate(e1, pin, wheel), b = evaluate(e2, pin, wheel);
  ASSERT_FALSE(a.pairs.empty());
  EXPECT_EQ(a.count[0], b.count[0]);
  EXPECT_NEAR(a.F_N[0], b.F_N[0], 1e-9 * a.F_N[0]);
  EXPECT_NEAR(a.wheel_torque, b.wheel_torque, 1e-9 * std::abs(a.wheel_torque));
  EXPECT_NEAR(a.friction_power, b.friction_power, 1e-9 * std::abs(a.friction_power) + 1e-9);
}

}  // namespace
}  // namespace cs
