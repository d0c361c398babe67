// Mesh contact on a generated spur pair (geometry/gear_mesh.hpp): the pinion turned past the
// backlash by a normal approach δ_n, the wheel following at the ratio, over one base pitch. Rigid
// involute teeth approach by the same δ_n along the line of action at every tooth pair, so a
// region on the flanks must have depth δ_n (within the vertex spacing) and its normal along the
// line of action; regions at full depth average the transverse contact ratio ε_α. Tip corners
// entering and leaving mesh touch with less depth (the overlap lengthens the path of contact).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/math/so3.hpp"

namespace cs::contact {
namespace {

GearParameters spur(int teeth) {
  GearParameters p;
  p.normal_module = 2e-3;
  p.teeth = teeth;
  p.normal_pressure_angle = 20.0 * std::numbers::pi / 180.0;
  p.face_width = 10e-3;
  p.thickness_allowance = 0.1e-3;
  return p;
}

// Eight sections along the face: a spur gear's default single slice has flank triangles running
// the whole face width with vertices only on the end faces, which lie in the mate's end-face
// planes; no vertex would then be inside the mate (docs/contact-meshes-and-gears.md, "Mesh
// contact").
Shape gear_shape(const std::string& name, int body, const GearParameters& p) {
  GearResolution resolution;
  resolution.slices = 8;
  Shape s;
  s.name = name;
  s.body = body;
  s.mesh = std::make_shared<const TriangleMesh>(gear_mesh(p, resolution));
  return s;
}

TEST(MeshContactGears, SpurPairRegionsFollowTheLineOfAction) {
  const GearParameters p1 = spur(20), p2 = spur(30);
  const GearPairGeometry pair = gear_pair_geometry(p1, p2, 0.0);
  const GearGeometry g1 = gear_geometry(p1);
  ContactLaws laws;
  laws.normal.kind = NormalLawKind::kHertz;
  laws.normal.stiffness = 1e10;
  const MeshContact mc("teeth", gear_shape("pinion", 0, p1), gear_shape("wheel", 1, p2), laws);
  const double delta_n = 20e-6, r_b1 = 0.5 * g1.d_b;
  const double theta0 = (delta_n + 0.5 * pair.j_bn) / r_b1;  // backlash closed, then δ_n
  const double sign = 1.0;
  const int samples = 60;
  double sum_regions = 0.0, worst_depth = 0.0, worst_angle = 0.0, worst_off = 0.0;
  int full_regions = 0, mixed_regions = 0;
  for (int k = 0; k < samples; ++k) {
    const double phi = 2.0 * std::numbers::pi / p1.teeth * k / samples;
    BodyKinematics pinion, wheel;
    pinion.R_WB = so3::exp(Vec3(0, 0, sign * (theta0 + phi)));
    wheel.x_W = Vec3(pair.a, 0, 0);
    wheel.R_WB = so3::exp(Vec3(
        0, 0, std::numbers::pi + std::numbers::pi / p2.teeth - sign * phi * p1.teeth / p2.teeth));
    const auto regions = mc.evaluate({static_cast<double>(k), &pinion, &wheel, nullptr});
    ASSERT_GE(regions.size(), 1u) << "phi = " << phi;
    ASSERT_LE(regions.size(), 2u) << "phi = " << phi;
    sum_regions += static_cast<double>(regions.size());
    for (const auto& r : regions) {
      // The line of action: tangent to both base circles, at α_wt to the pitch-circle tangent y.
      const double off = std::abs(std::acos(std::clamp(r.normal_W.y(), -1.0, 1.0)) - pair.alpha_wt);
      EXPECT_LT(std::abs(r.normal_W.z()), 1e-6);
      EXPECT_LE(r.depth, delta_n + 1e-7);
      worst_off = std::max(worst_off, off);
      if (r.depth < delta_n - 0.5e-6) continue;  // a tip corner entering or leaving
      ++full_regions;
      worst_depth = std::max(worst_depth, delta_n - r.depth);
      worst_angle = std::max(worst_angle, off);
      if (off > 0.005) ++mixed_regions;  // the tip corner joined to the flank contact
    }
  }
  const double mean = sum_regions / samples, mean_full = double(full_regions) / samples;
  std::printf(
      "[ measured ] spur 20/30, m = 2 mm, δ_n = 20 µm, %d samples of a base pitch: %.3f regions "
      "on average, %.3f at full depth (ε_α = %.3f); at full depth: depth error ≤ %.2g m, normal "
      "within 0.005 rad of the line of action but for %d of %d (≤ %.3g rad: a tip corner in the "
      "same region); tip corners ≤ %.3g rad off\n",
      samples, mean, mean_full, pair.eps_alpha, worst_depth, mixed_regions, full_regions,
      worst_angle, worst_off);
  // With δ_n of overlap the tip corners touch a little before and after the nominal path of
  // contact: more regions than ε_α on average, but those at full depth match it.
  EXPECT_GE(mean, pair.eps_alpha - 0.05);
  EXPECT_LE(mean, pair.eps_alpha + 0.25);
  EXPECT_NEAR(mean_full, pair.eps_alpha, 0.1);
  EXPECT_LT(worst_depth, 0.5e-6);
  EXPECT_LE(mixed_regions, full_regions / 10);
  EXPECT_LT(worst_angle, 0.1);
  EXPECT_LT(worst_off, 0.15);
}

// Line region force on a helical pair with an overlap ratio ε_β = 1: the total contact-line
// length of rigid involute teeth is then the same at every mesh phase, ε_α b/cos β_b, so the
// analytic mesh's weights Σ L_k/L_ref sum to ε_γ = ε_α + ε_β throughout. The mesh regions' weights
// (their length along the contact line over the same L_ref) must do the same within the vertex
// spacing along the lines, where a point force per region would jump with the region count.
TEST(MeshContactGears, HelicalPairLineWeightsSumToTheTotalContactRatio) {
  GearParameters p1 = spur(20), p2 = spur(30);
  const double b = 20e-3, beta = std::asin(std::numbers::pi * p1.normal_module / b);  // ε_β = 1
  for (GearParameters* p : {&p1, &p2}) {
    p->face_width = b;
    p->helix_angle = beta;
  }
  p2.hand = HelixHand::kLeft;
  const GearPairGeometry pair = gear_pair_geometry(p1, p2, 0.0);
  const GearGeometry g1 = gear_geometry(p1);
  const double eps_beta = b * std::tan(g1.beta_b) / g1.p_bt;
  ASSERT_NEAR(eps_beta, 1.0, 1e-12);
  const double eps_gamma = pair.eps_alpha + eps_beta;
  const double L_ref = pair.eps_alpha * b / (std::cos(g1.beta_b) * eps_gamma);
  auto shape = [](const std::string& name, int body, const GearParameters& p) {
    Shape s;
    s.name = name;
    s.body = body;
    s.mesh = std::make_shared<const TriangleMesh>(gear_mesh(p));  // default resolution
    return s;
  };
  ContactLaws laws;
  laws.normal.kind = NormalLawKind::kHertz;
  laws.normal.stiffness = 1e10;
  MeshContactOptions line;
  line.region_force = RegionForce::kLine;
  line.reference_length = L_ref;
  const MeshContact mc("teeth", shape("pinion", 0, p1), shape("wheel", 1, p2), laws, line);
  const double delta_n = 20e-6, r_b1 = 0.5 * g1.d_b;
  // Transverse rotation that closes the normal backlash and then approaches by δ_n.
  const double theta0 = (delta_n + 0.5 * pair.j_bn) / (r_b1 * std::cos(g1.beta_b));
  const int samples = 40;
  double lo = 1e9, hi = 0.0, sum = 0.0, regions_lo = 1e9, regions_hi = 0.0;
  for (int k = 0; k < samples; ++k) {
    const double phi = 2.0 * std::numbers::pi / p1.teeth * k / samples;
    BodyKinematics pinion, wheel;
    pinion.R_WB = so3::exp(Vec3(0, 0, theta0 + phi));
    wheel.x_W = Vec3(pair.a, 0, 0);
    wheel.R_WB = so3::exp(
        Vec3(0, 0, std::numbers::pi + std::numbers::pi / p2.teeth - phi * p1.teeth / p2.teeth));
    const auto regions = mc.evaluate({static_cast<double>(k), &pinion, &wheel, nullptr});
    double w = 0.0;
    for (const auto& r : regions) {
      EXPECT_LE(r.depth, delta_n + 1e-7);
      w += r.weight;
    }
    lo = std::min(lo, w);
    hi = std::max(hi, w);
    sum += w;
    regions_lo = std::min(regions_lo, static_cast<double>(regions.size()));
    regions_hi = std::max(regions_hi, static_cast<double>(regions.size()));
  }
  // The line ends are interpolated between the sections (mesh_contact.hpp), but a region is the
  // rigid overlap of the two meshes, which reaches past the nominal contact line where a tip
  // edge cuts it (the overlap strip is 2√(2ρδ_n) wide, and its cut end is oblique), so Σ L/L_ref
  // lies a little above ε_γ: measured +6 % here; bound +10 %. Its ripple over the phase must
  // stay within two section spacings s_t/L_ref (the vertex extents without interpolation
  // ripple by 2.5 of them: 2.09 to 2.50).
  const int slices = std::min(slices_per_helix(p1, g1, GearResolution{}),
                              slices_per_helix(p2, gear_geometry(p2), GearResolution{}));
  const double d1 = b / slices / std::cos(g1.beta_b) / L_ref;  // s_t/L_ref, coarser gear
  std::printf(
      "[ measured ] helical 20/30, m_n = 2 mm, b = 20 mm, ε_β = 1, ε_γ = %.4f, δ_n = 20 µm, %d "
      "phases of a base pitch: Σ L/L_ref mean %.4f, %.4f to %.4f (s_t/L_ref = %.3f); regions "
      "%.0f to %.0f\n",
      eps_gamma, samples, sum / samples, lo, hi, d1, regions_lo, regions_hi);
  EXPECT_GE(lo, eps_gamma - d1);
  EXPECT_LE(hi, 1.15 * eps_gamma);
  EXPECT_GE(sum / samples, eps_gamma);
  EXPECT_LE(sum / samples, 1.1 * eps_gamma);
  EXPECT_LT(hi - lo, 2.0 * d1);
  // A point force per region would jump by one whole pair's force as regions come and go.
  EXPECT_LT(hi - lo, 0.5 * (regions_hi - regions_lo));
}

// One section along the face: the flanks cross with no vertex inside; the contact reports it
// through unresolved_pairs (channel) instead of staying silent.
TEST(MeshContactGears, SingleSliceSpurPairReportsUnresolvedPairs) {
  const GearParameters p1 = spur(20), p2 = spur(30);
  const GearPairGeometry pair = gear_pair_geometry(p1, p2, 0.0);
  auto shape = [](const std::string& name, int body, const GearParameters& p) {
    Shape s;
    s.name = name;
    s.body = body;
    s.mesh = std::make_shared<const TriangleMesh>(gear_mesh(p));  // spur: one slice
    return s;
  };
  ContactLaws laws;
  laws.normal.kind = NormalLawKind::kHertz;
  laws.normal.stiffness = 1e10;
  const MeshContact mc("teeth", shape("pinion", 0, p1), shape("wheel", 1, p2), laws);
  BodyKinematics pinion, wheel;
  pinion.R_WB = so3::exp(Vec3(0, 0, (20e-6 + 0.5 * pair.j_bn) / (0.5 * gear_geometry(p1).d_b)));
  wheel.x_W = Vec3(pair.a, 0, 0);
  wheel.R_WB = so3::exp(Vec3(0, 0, std::numbers::pi + std::numbers::pi / p2.teeth));
  const ElementInput in{0.0, &pinion, &wheel, nullptr};
  const auto names = mc.channel_names();
  const auto at = [&](const char* n) {
    return static_cast<int>(std::find(names.begin(), names.end(), n) - names.begin());
  };
  EXPECT_EQ(mc.channel_value(at("regions"), in, nullptr), 0.0);
  EXPECT_GT(mc.channel_value(at("triangle_pairs"), in, nullptr), 0.0);
  EXPECT_EQ(mc.channel_value(at("unresolved_pairs"), in, nullptr),
            mc.channel_value(at("triangle_pairs"), in, nullptr));
}

}  // namespace
}  // namespace cs::contact
