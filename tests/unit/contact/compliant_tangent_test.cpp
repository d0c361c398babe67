// Exact tangents of the compliant and lubricated treatments (forward AD of the contact kernels)
// against central differences on R³ × SO(3), for every geometry and a spread of laws, with the
// journal placed so that the contact is penetrating (or, for the film-only case, inside the film).
#include <gtest/gtest.h>

#include <random>

#include "clearsim/elements/contact/compliant_contact.hpp"
#include "clearsim/math/finite_difference.hpp"
#include "clearsim/math/so3.hpp"
#include "support/journal_bearing.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

using testing::make_bearing;

using contact::CompliantContact;
using contact::ContactLaws;
using contact::FrictionLawKind;
using contact::NormalLawKind;

struct Case {
  std::string label;
  contact::Geometry geometry;
  ContactLaws laws;
  double offset;  // journal eccentricity (clearance joints) or sphere height above the plane [m]
};

ForceBlock eval(const CompliantContact& e, const BodyKinematics& bi, const BodyKinematics& bj,
                const std::vector<double>& memory, bool tangents) {
  ForceBlock fb;
  ElementInput in{0.0, &bi, &bj, memory.empty() ? nullptr : memory.data()};
  e.force(in, fb, tangents);
  return fb;
}

// Places body j so that its journal (ball centre, pin mid-point, sphere centre) sits at
// `offset` from the housing centre along a direction ⟂ the axis (or above the plane).
BodyKinematics place_journal(const contact::Geometry& g, const BodyKinematics& bi,
                             BodyKinematics bj, double offset, std::mt19937& rng) {
  Vec3 target;
  Vec3 p_j;
  if (const auto* s = std::get_if<contact::SphericalClearanceGeometry>(&g)) {
    target = bi.x_W + bi.R_WB * s->housing.p_B + offset * testing::random_vec(rng).normalized();
    p_j = s->ball.p_B;
  } else if (const auto* r = std::get_if<contact::RevoluteClearanceGeometry>(&g)) {
    const Vec3 u = bi.R_WB * r->bearing.R_BM.col(2);
    const Vec3 radial = u.cross(testing::random_vec(rng)).normalized();
    target = bi.x_W + bi.R_WB * r->bearing.p_B + offset * radial + 0.003 * u;
    p_j = r->pin.p_B;
    // Pin axis close to the bearing axis (a small misalignment), so both ends are inside.
    bj.R_WB = so3::exp(0.001 * testing::random_vec(rng)) * bi.R_WB * r->bearing.R_BM *
              r->pin.R_BM.transpose();
  } else {
    const auto& p = std::get<contact::SpherePlaneGeometry>(g);
    const Vec3 n = bi.R_WB * p.plane.R_BM.col(2);
    target = bi.x_W + bi.R_WB * p.plane.p_B + (p.radius + offset) * n;
    p_j = p.ball.p_B;
  }
  bj.x_W = target - bj.R_WB * p_j;
  return bj;
}

// Memory of a contact that has been closed for a while: approach speed and bristle anchors a
// little apart (a loaded, unsaturated bristle).
std::vector<double> closed_memory(const CompliantContact& e, const BodyKinematics& bi,
                                  const BodyKinematics& bj, std::mt19937& rng) {
  std::vector<double> m(e.num_memory(), 0.0);
  ElementInput in{0.0, &bi, &bj, nullptr};
  e.update_memory(in, m.data());  // onset: anchors at the contact points
  for (std::size_t k = 0; k < m.size(); k += CompliantContact::kMemoryPerPoint) {
    if (m[k] == 0.0) continue;
    m[k] = 0.7;
    const Vec3 shift = 2e-7 * testing::random_vec(rng);
    for (int c = 0; c < 3; ++c) m[k + 4 + c] += shift(c);
  }
  return m;
}

Marker marker(int body, Vec3 p, Mat3 R = Mat3::Identity()) { return {body, p, R}; }

std::vector<Case> cases() {
  std::vector<Case> out;
  const double c = 5e-4;
  ContactLaws ln;
  ln.normal.kind = NormalLawKind::kLankaraniNikravesh;
  ln.normal.stiffness = 6.6e10;
  ln.normal.restitution = 0.9;
  ln.friction.kind = FrictionLawKind::kCoulomb;
  ln.friction.mu_dynamic = 0.05;
  ln.friction.viscous = 3.0;
  const Mat3 tilt = so3::exp(Vec3(0.3, -0.2, 0.1));
  out.push_back({"spherical LN + coulomb",
                 contact::SphericalClearanceGeometry{marker(0, {0.02, -0.01, 0.03}),
                                                     marker(1, {-0.05, 0.01, 0.0}), c, 0.0, 0.0095},
                 ln, c + 4e-5});
  ContactLaws fl = ln;
  fl.normal.kind = NormalLawKind::kFlores;
  fl.friction.kind = FrictionLawKind::kStribeck;
  fl.friction.mu_static = 0.12;
  fl.lubrication.kind = contact::LubricationKind::kJournalBearing;
  fl.lubrication.bearing =
      make_bearing(lubrication::BearingModel::kLong, 0.4, 0.0095, 0.04, c, 0.99);
  fl.asperity = 1e-6;
  out.push_back(
      {"revolute 3D Flores + stribeck + long bearing",
       contact::RevoluteClearanceGeometry{marker(0, {0.1, 0.0, 0.0}, tilt),
                                          marker(1, {0.0, 0.02, 0.0}, tilt), c, 0.01, 0.0095},
       fl, c + 3e-5});
  ContactLaws go = ln;
  go.normal.kind = NormalLawKind::kGonthier;
  go.friction.kind = FrictionLawKind::kBristle;
  go.friction.mu_static = 0.15;
  go.friction.bristle_stiffness = 1e7;
  go.friction.bristle_damping = 50.0;
  go.friction.stick_speed = 0.5;  // the random velocities are O(1): both blend terms active
  go.lubrication.kind = contact::LubricationKind::kJournalBearing;
  go.lubrication.bearing =
      make_bearing(lubrication::BearingModel::kShort, 0.4, 0.0095, 0.02, c, 0.99);
  go.asperity = 1e-6;
  out.push_back(
      {"revolute planar Gonthier + bristle + short bearing",
       contact::RevoluteClearanceGeometry{marker(0, {0.0, 0.0, 0.05}, tilt),
                                          marker(1, {0.03, 0.0, 0.0}, tilt), c, 0.0, 0.0095},
       go, c + 2e-5});
  ContactLaws fin = go;
  fin.lubrication.bearing.model = lubrication::BearingModel::kFinite;
  fin.lubrication.bearing.cavitation = lubrication::Cavitation::kHalfSommerfeld;
  out.push_back(
      {"revolute planar Gonthier + bristle + finite Reynolds bearing",
       contact::RevoluteClearanceGeometry{marker(0, {0.0, 0.0, 0.05}, tilt),
                                          marker(1, {0.03, 0.0, 0.0}, tilt), c, 0.0, 0.0095},
       fin, c + 2e-5});
  ContactLaws hc = go;
  hc.normal.kind = NormalLawKind::kHuntCrossley;
  hc.lubrication = {};
  out.push_back({"sphere-plane Hunt-Crossley + bristle",
                 contact::SpherePlaneGeometry{marker(0, {0.0, 0.1, 0.0}, tilt),
                                              marker(1, {0.01, 0.0, 0.0}), 0.02},
                 hc, -3e-5});
  ContactLaws kv = ln;
  kv.normal.kind = NormalLawKind::kKelvinVoigt;
  kv.normal.stiffness = 1e9;
  kv.normal.exponent = 1.0;
  kv.normal.damping = 2e3;
  kv.normal.restitution = 1.0;
  out.push_back(
      {"sphere-plane Kelvin-Voigt",
       contact::SpherePlaneGeometry{marker(0, {0.0, 0.0, 0.0}), marker(1, {0.0, 0.0, 0.0}), 0.05},
       kv, -1e-5});
  ContactLaws jo = ln;  // steel pin in a steel bush, 20 mm of line contact
  jo.normal.kind = NormalLawKind::kJohnsonCylinder;
  jo.normal.johnson = contact::JohnsonCylinder(2 * (1 - 0.09) / 207e9, 0.02, c);
  out.push_back(
      {"revolute 3D Johnson cylinder + coulomb",
       contact::RevoluteClearanceGeometry{marker(0, {0.1, 0.0, 0.0}, tilt),
                                          marker(1, {0.0, 0.02, 0.0}, tilt), c, 0.01, 0.0095},
       jo, c + 2e-5});
  ContactLaws sq;
  sq.normal = ln.normal;
  sq.lubrication.kind = contact::LubricationKind::kSqueezeFilm;
  sq.lubrication.squeeze = {0.4, 0.0095, c, 0.99};
  sq.asperity = 2e-6;
  out.push_back(
      {"spherical squeeze film, inside the film",
       contact::SphericalClearanceGeometry{marker(0, {0.02, -0.01, 0.03}),
                                           marker(1, {-0.05, 0.01, 0.0}), c, 2e-6, 0.0095},
       sq, 0.6 * c});
  return out;
}

// Central differences with steps suited to penetrations of 1e-5 m: ε = 1e-9 m (rad) keeps the
// truncation error (ε/δ)² ≈ 1e-8 relative, and the round-off u·|f|/ε ≈ 2e-7·|f| is 1e-10 of
// the stiffness scale |f|/δ. A wrong or missing term is O(1) of that scale; 1e-5 relative
// separates the two.
constexpr double kEps = 1e-9;
constexpr double kRelTol = 1e-5;

TEST(CompliantTangents, MatchCentralDifferencesOnTheGroup) {
  std::mt19937 rng(17);
  for (const Case& cs_ : cases()) {
    for (int trial = 0; trial < 4; ++trial) {
      const BodyKinematics bi = testing::random_body(rng, 0.1);
      const BodyKinematics bj =
          place_journal(cs_.geometry, bi, testing::random_body(rng, 0.1), cs_.offset, rng);
      const CompliantContact e("c", 0, 1, cs_.geometry, cs_.laws);
      const std::vector<double> mem = closed_memory(e, bi, bj, rng);
      const ForceBlock fb = eval(e, bi, bj, mem, true);
      ASSERT_TRUE(fb.f.allFinite() && fb.df_dq.allFinite() && fb.df_dv.allFinite()) << cs_.label;
      ASSERT_GT(fb.f.norm(), 0.0) << cs_.label << ": the case must load the contact";
      auto f_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
        return VecX(eval(e, a, b, mem, false).f);
      };
      const MatX dq = fd::jacobian_q(f_of, bi, bj, kEps);
      const MatX dv = fd::jacobian_v(f_of, bi, bj, 1e-7);
      EXPECT_LT((dq - fb.df_dq).norm(), kRelTol * fb.df_dq.norm())
          << cs_.label << " trial " << trial << "\nAD:\n"
          << fb.df_dq << "\nFD:\n"
          << dq;
      EXPECT_LT((dv - fb.df_dv).norm(), kRelTol * (1.0 + fb.df_dv.norm()))
          << cs_.label << " trial " << trial << "\nAD:\n"
          << fb.df_dv << "\nFD:\n"
          << dv;
      // The AD evaluation carries the same value up to round-off of its rotation seed (R·I).
      EXPECT_LT((fb.f - eval(e, bi, bj, mem, false).f).norm(), 1e-12 * fb.f.norm()) << cs_.label;
    }
  }
}

// The contact force obeys action and reaction: the generalized forces on the two bodies have
// zero resultant and zero moment about any point (the film force acts at one point; the dry force
// at two points a penetration apart along the normal, so their moments cancel too).
TEST(CompliantTangents, ForcesBalance) {
  std::mt19937 rng(5);
  for (const Case& cs_ : cases()) {
    const BodyKinematics bi = testing::random_body(rng, 0.1);
    const BodyKinematics bj =
        place_journal(cs_.geometry, bi, testing::random_body(rng, 0.1), cs_.offset, rng);
    const CompliantContact e("c", 0, 1, cs_.geometry, cs_.laws);
    const std::vector<double> mem = closed_memory(e, bi, bj, rng);
    const Vec12 f = eval(e, bi, bj, mem, false).f;
    const Vec3 F_i = f.segment<3>(0), F_j = f.segment<3>(6);
    EXPECT_LT((F_i + F_j).norm(), 1e-12 * F_j.norm()) << cs_.label;
    const Vec3 M = bi.R_WB * f.segment<3>(3) + bj.R_WB * f.segment<3>(9) + bi.x_W.cross(F_i) +
                   bj.x_W.cross(F_j);
    // Friction acts at the two contact points a penetration δ ≈ 3e-5 m apart: moment ≤ δ·F_T.
    EXPECT_LT(M.norm(), 1e-4 * F_j.norm() + 1e-12) << cs_.label;
  }
}

// Degenerate states never give a non-finite force or tangent: a centred journal (ε = 0), the
// film's limit ε = ε_max and a journal pressed through it (ε → 1 and past), a deep penetration,
// each with bodies at rest (zero relative velocity: the friction direction is undefined) and
// moving, with fresh memory (onset) and with closed-contact memory.
TEST(CompliantTangents, DegenerateStatesStayFinite) {
  std::mt19937 rng(23);
  for (const Case& cs_ : cases()) {
    const bool plane = std::holds_alternative<contact::SpherePlaneGeometry>(cs_.geometry);
    const double c = plane ? 0.0 : 5e-4;
    const std::vector<double> offsets =
        plane ? std::vector<double>{1e-3, 0.0, -1e-12, -1e-4}
              : std::vector<double>{0.0, 1e-15, 0.99 * c, c - 1e-15, c, c + 1e-12, c + 1e-4};
    for (double offset : offsets) {
      for (bool at_rest : {true, false}) {
        BodyKinematics bi = testing::random_body(rng, 0.1);
        BodyKinematics bj =
            place_journal(cs_.geometry, bi, testing::random_body(rng, 0.1), offset, rng);
        if (at_rest) {
          for (BodyKinematics* b : {&bi, &bj}) b->v_W.setZero(), b->w_B.setZero();
        }
        const CompliantContact e("c", 0, 1, cs_.geometry, cs_.laws);
        for (const std::vector<double>& mem :
             {std::vector<double>(e.num_memory(), 0.0), closed_memory(e, bi, bj, rng)}) {
          const ForceBlock fb = eval(e, bi, bj, mem, true);
          EXPECT_TRUE(fb.f.allFinite() && fb.df_dq.allFinite() && fb.df_dv.allFinite())
              << cs_.label << ", offset " << offset << (at_rest ? ", at rest" : "");
        }
      }
    }
  }
}

}  // namespace
}  // namespace cs
