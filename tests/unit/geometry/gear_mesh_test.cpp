// Generated gear profiles and meshes: flanks on the analytic involute, tooth thickness, closed and
// outward-oriented meshes, volume against the transverse area and its convergence.
#include "clearsim/geometry/gear_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "clearsim/geometry/mesh_check.hpp"
#include "unit/geometry/seed004_gears.hpp"

namespace cs {
namespace {

using test::kDeg;
using test::kMm;

GearParameters small_spur(int teeth, double shift) {
  GearParameters p;
  p.normal_module = 2 * kMm;
  p.teeth = teeth;
  p.normal_pressure_angle = 20 * kDeg;
  p.profile_shift = shift;
  p.face_width = 10 * kMm;
  return p;
}

// Largest |normal distance| from the analytic involute over the flank points of tooth 0's upper
// flank, and over the midpoints of consecutive flank points (the chordal error of the polygon).
struct FlankDeviation {
  double at_points = 0.0;
  double at_midpoints = 0.0;
  int points = 0;
};

FlankDeviation flank_deviation(const GearParameters& p, const ProfileResolution& res) {
  const GearGeometry g = gear_geometry(p);
  const TransverseProfile profile = transverse_profile(p, g, res);
  FlankDeviation dev;
  const Vec2* previous = nullptr;
  for (std::size_t k = 0; k < profile.points.size(); ++k) {
    const Vec2& q = profile.points[k];
    const bool upper_flank_of_tooth0 = profile.parts[k] == ProfilePart::kFlank && q.y() > 0 &&
                                       q.x() > 0 && std::atan2(q.y(), q.x()) < M_PI / p.teeth;
    if (!upper_flank_of_tooth0) {
      previous = nullptr;
      continue;
    }
    dev.at_points = std::max(dev.at_points, std::abs(involute_deviation(g, q)));
    if (previous != nullptr)
      dev.at_midpoints =
          std::max(dev.at_midpoints, std::abs(involute_deviation(g, 0.5 * (q + *previous))));
    previous = &q;
    ++dev.points;
  }
  return dev;
}

TEST(GearProfile, FlankPointsLieOnTheInvolute) {
  const ProfileResolution res;  // 40 points per flank
  for (const GearParameters& p :
       {test::seed004_pinion(), test::seed004_wheel(), small_spur(12, 0.3), small_spur(40, -0.2)}) {
    const FlankDeviation dev = flank_deviation(p, res);
    std::printf("z = %d: involute deviation %.3g m at flank points, %.3g m at chord midpoints\n",
                p.teeth, dev.at_points, dev.at_midpoints);
    EXPECT_EQ(dev.points, res.flank_points) << p.teeth;
    // The envelope construction puts every flank point on the involute up to round-off.
    EXPECT_LT(dev.at_points, 1e-9) << p.teeth;  // 1 nm, on radii up to 0.86 m
    // Chords between them: about L ΔL² / (8 r_b²) with roll length L; below the 1–2 µm that
    // reference.md §7.3 asks for (Q6 profile tolerance ≈ 10 µm).
    EXPECT_LT(dev.at_midpoints, 2e-6) << p.teeth;
  }
}

TEST(GearProfile, ChordalErrorFallsWithTheSquareOfTheSpacing) {
  ProfileResolution coarse, fine;
  coarse.flank_points = 11;
  fine.flank_points = 21;  // half the spacing
  const double e_coarse = flank_deviation(test::seed004_pinion(), coarse).at_midpoints;
  const double e_fine = flank_deviation(test::seed004_pinion(), fine).at_midpoints;
  EXPECT_NEAR(e_coarse / e_fine, 4.0, 0.2);
}

TEST(GearProfile, ToothThicknessAtTheReferenceCircle) {
  for (GearParameters p : {test::seed004_pinion(), test::seed004_wheel(), small_spur(17, 0.5)}) {
    p.thickness_allowance = 0.1 * kMm;
    const GearGeometry g = gear_geometry(p);
    // ψ(r) at the reference circle is s_t / d: the generated flank crosses it there.
    EXPECT_NEAR(half_tooth_angle(g, g.d / 2) * g.d, g.s_t, 1e-15);
    const TransverseProfile profile = transverse_profile(p, g, {});
    // Find the flank segment of tooth 0's upper flank that crosses r = d/2 and interpolate.
    for (std::size_t k = 0; k + 1 < profile.points.size(); ++k) {
      const Vec2 &a = profile.points[k], &b = profile.points[k + 1];
      const bool tooth0_upper = a.y() > 0 && a.x() > 0 && std::atan2(a.y(), a.x()) < M_PI / p.teeth;
      if (!tooth0_upper || profile.parts[k] != ProfilePart::kFlank) continue;
      if ((a.norm() - g.d / 2) * (b.norm() - g.d / 2) > 0) continue;
      const double t = (g.d / 2 - a.norm()) / (b.norm() - a.norm());
      const Vec2 q = a + t * (b - a);
      EXPECT_NEAR(2 * std::atan2(q.y(), q.x()) * g.d / 2, g.s_t, 2e-6) << p.teeth;
    }
  }
}

TEST(GearProfile, RootAndTipCirclesAreReached) {
  const GearParameters p = test::seed004_pinion();
  const GearGeometry g = gear_geometry(p);
  const TransverseProfile profile = transverse_profile(p, g, {});
  double r_min = 1e9, r_max = 0;
  for (const Vec2& q : profile.points) {
    r_min = std::min(r_min, q.norm());
    r_max = std::max(r_max, q.norm());
  }
  EXPECT_NEAR(r_min, g.d_f / 2, 1e-12);
  EXPECT_NEAR(r_max, g.d_a / 2, 1e-12);
  EXPECT_GT(polygon_area(profile.points), 0.0);  // counter-clockwise
}

// Bounds on the transverse area of the gear from the involute thickness formula: the root disc
// plus z teeth of angular width 2ψ(r) between the root and tip circles. Below the form circle,
// where the generated root fillet replaces the involute, the tooth is at least as wide as on the
// form circle (lower bound) and at most the whole pitch angle 2π/z (upper bound).
struct AreaBounds {
  double lower = 0.0, upper = 0.0;
};

AreaBounds analytic_section_area(const GearParameters& p, const GearGeometry& g) {
  const double r_f = g.d_f / 2, r_a = g.d_a / 2, r_form = std::max(g.d_form / 2, g.d_b / 2);
  const int n = 20000;
  AreaBounds teeth;
  for (int k = 0; k < n; ++k) {
    const double r = r_f + (r_a - r_f) * (k + 0.5) / n, dr = (r_a - r_f) / n;
    const double involute_width = 2 * half_tooth_angle(g, std::max(r, r_form));
    teeth.lower += involute_width * r * dr;
    teeth.upper += (r < r_form ? 2 * M_PI / p.teeth : involute_width) * r * dr;
  }
  const double disc = M_PI * r_f * r_f;
  return {disc + p.teeth * teeth.lower, disc + p.teeth * teeth.upper};
}

TEST(GearMesh, SpurHelicalAndDoubleHelicalMeshesAreClosedSolids) {
  GearParameters spur = small_spur(18, 0.0);  // 17 teeth without shift are undercut
  GearParameters helical = spur;
  helical.helix_angle = 15 * kDeg;
  GearParameters herringbone = helical;
  herringbone.double_helical = true;
  GearParameters with_gap = herringbone;
  with_gap.helix_gap = 5 * kMm;
  for (const GearParameters& p : {spur, helical, herringbone, with_gap}) {
    const GearGeometry g = gear_geometry(p);
    const TriangleMesh mesh = gear_mesh(p);
    const MeshReport report = check_mesh(mesh);
    EXPECT_TRUE(report.valid_solid()) << ::testing::PrintToString(report.problems());
    // The sections are turned copies of the profile, so the volume is its area times the width,
    // less the twist's chordal loss: at most the chord tolerance (2 µm) over the perimeter.
    const std::vector<Vec2> section = transverse_profile(p, g, {}).points;
    const double area = polygon_area(section);
    double perimeter = 0;
    for (std::size_t k = 0; k < section.size(); ++k)
      perimeter += (section[(k + 1) % section.size()] - section[k]).norm();
    const double width = p.double_helical ? 2 * p.face_width : p.face_width;
    EXPECT_LE(report.volume, area * width * (1 + 1e-12));
    EXPECT_GE(report.volume, (area - 2e-6 * perimeter) * width);
    // Between the analytic bounds (which differ by the fillet region, 5 % for these small gears).
    const AreaBounds bounds = analytic_section_area(p, g);
    EXPECT_GT(area, bounds.lower);
    EXPECT_LT(area, bounds.upper);
    const AxisAlignedBox box = bounding_box(mesh);
    EXPECT_NEAR(box.upper.z() - box.lower.z(), g.total_width, 1e-15);
    EXPECT_NEAR(box.upper.head<2>().norm(), g.d_a / 2 * std::sqrt(2.0), g.d_a / 2 * 0.02);
  }
}

TEST(GearMesh, Seed004GearsAreClosedAndConvergeInVolume) {
  for (const GearParameters& p : {test::seed004_pinion(), test::seed004_wheel()}) {
    const GearGeometry g = gear_geometry(p);
    GearResolution res;
    res.profile = {10, 4, 2, 2};
    res.slices = 4;
    std::vector<double> volumes;
    for (int level = 0; level < 3; ++level) {  // halve every spacing at each level
      const TriangleMesh mesh = gear_mesh(p, res);
      const MeshReport report = check_mesh(mesh);
      EXPECT_TRUE(report.valid_solid()) << ::testing::PrintToString(report.problems());
      volumes.push_back(report.volume);
      res.profile = {2 * res.profile.flank_points - 1, 2 * res.profile.fillet_points,
                     2 * res.profile.root_points, 2 * res.profile.tip_points + 1};
      res.slices *= 2;
    }
    // Second-order convergence: each halving shrinks the change about fourfold.
    const double change1 = volumes[1] - volumes[0], change2 = volumes[2] - volumes[1];
    EXPECT_LT(std::abs(change2), 0.35 * std::abs(change1)) << change1 << " " << change2;
    const AreaBounds bounds = analytic_section_area(p, g);
    std::printf("z = %d: volume %.9g m³ (levels %.9g %.9g), analytic bounds %.9g..%.9g m³\n",
                p.teeth, volumes[2], volumes[0], volumes[1], bounds.lower * 2 * p.face_width,
                bounds.upper * 2 * p.face_width);
    EXPECT_GT(volumes[2], bounds.lower * 2 * p.face_width);
    EXPECT_LT(volumes[2], bounds.upper * 2 * p.face_width);
    // The mesh is symmetric about z = 0 and under a turn by 2π/z: the centroid is on the axis
    // (to round-off of sums over ~10⁵ tetrahedra) and z is a principal axis.
    const MassProperties mp = mass_properties(gear_mesh(p, res));
    EXPECT_LT(mp.centroid.norm(), 1e-9 * g.d) << mp.centroid.transpose();
    EXPECT_LT(std::abs(mp.inertia_about_centroid(0, 2)), 1e-9 * mp.inertia_about_centroid(2, 2));
  }
}

TEST(GearMesh, AutomaticSlicesMeetTheChordTolerance) {
  const GearParameters p = test::seed004_pinion();
  const GearGeometry g = gear_geometry(p);
  GearResolution res;  // chord tolerance 2 µm
  const int slices = slices_per_helix(p, g, res);
  const double step = 2 * p.face_width * std::tan(p.helix_angle) / g.d / slices;
  EXPECT_LE(g.d_a / 2 * step * step / 8, res.chord_tolerance);
  EXPECT_EQ(slices_per_helix(small_spur(20, 0), gear_geometry(small_spur(20, 0)), res), 1);
}

}  // namespace
}  // namespace cs

namespace cs {
namespace {

// Distance from q to segment ab.
double segment_distance(const Vec2& q, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const double t = std::clamp((q - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return (a + t * ab - q).norm();
}

bool inside(const Vec2& q, const std::vector<Vec2>& polygon) {  // crossing number
  bool in = false;
  for (std::size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const Vec2 &a = polygon[i], &b = polygon[j];
    if ((a.y() > q.y()) != (b.y() > q.y()) &&
        q.x() < (b.x() - a.x()) * (q.y() - a.y()) / (b.y() - a.y()) + a.x())
      in = !in;
  }
  return in;
}

// Smallest distance from the pinion's section points near the mesh to the wheel's section, and
// whether any of them lies inside the wheel, with the wheel placed as gear_mesh.hpp says.
struct Engagement {
  double min_distance = 1e9;
  int points_inside = 0;
};

Engagement engagement(const GearParameters& p1, const GearParameters& p2) {
  const GearPairGeometry pair = gear_pair_geometry(p1, p2);
  const GearGeometry g1 = gear_geometry(p1), g2 = gear_geometry(p2);
  const std::vector<Vec2> pinion = transverse_profile(p1, g1, {}).points;
  std::vector<Vec2> wheel = transverse_profile(p2, g2, {}).points;
  const double turn = M_PI + M_PI / p2.teeth;
  for (Vec2& q : wheel)
    q = Vec2(std::cos(turn) * q.x() - std::sin(turn) * q.y() + pair.a,
             std::sin(turn) * q.x() + std::cos(turn) * q.y());
  Engagement e;
  for (const Vec2& q : pinion) {
    if (q.x() < g1.d_f / 2 || std::abs(q.y()) > 3 * g1.p_t) continue;  // teeth near the mesh
    if (inside(q, wheel)) ++e.points_inside;
    for (std::size_t k = 0; k < wheel.size(); ++k) {
      const Vec2 &a = wheel[k], &b = wheel[(k + 1) % wheel.size()];
      if (a.x() > g1.d_a / 2 + g1.p_t) continue;
      e.min_distance = std::min(e.min_distance, segment_distance(q, a, b));
    }
  }
  return e;
}

TEST(GearMesh, Seed004SectionsMeshAtTheCentreDistance) {
  // Nominal teeth (zero backlash): the flanks touch, sampled points within the chordal error.
  const Engagement nominal = engagement(test::seed004_pinion(), test::seed004_wheel());
  EXPECT_EQ(nominal.points_inside, 0);
  EXPECT_LT(nominal.min_distance, 2e-6);
  // With an allowance each flank pair opens by half the normal backlash, in the transverse
  // section j_bn / (2 cos β_b).
  GearParameters p1 = test::seed004_pinion(), p2 = test::seed004_wheel();
  p1.thickness_allowance = p2.thickness_allowance = 0.15 * kMm;
  const GearPairGeometry pair = gear_pair_geometry(p1, p2);
  const Engagement loose = engagement(p1, p2);
  std::printf("closest flanks: %.3g m nominal, %.6g m with allowance (expected %.6g m)\n",
              nominal.min_distance, loose.min_distance,
              pair.j_bn / (2 * std::cos(gear_geometry(p1).beta_b)));
  EXPECT_EQ(loose.points_inside, 0);
  EXPECT_NEAR(loose.min_distance, pair.j_bn / (2 * std::cos(gear_geometry(p1).beta_b)), 3e-6);
}

}  // namespace
}  // namespace cs

namespace cs {
namespace {

// Every gear that gear_geometry accepts meshes into a valid solid, across tooth counts, shifts,
// helix angles and racks; the rest are rejected with a GearError (never another exception).
TEST(GearMesh, EveryAcceptedGearIsAValidSolid) {
  GearResolution coarse;
  coarse.profile = {6, 3, 1, 1};
  coarse.slices = 2;
  int accepted = 0, rejected = 0;
  for (int z : {3, 5, 8, 12, 17, 25, 40, 80, 151}) {
    for (double x : {-0.8, -0.3, 0.0, 0.4, 0.9, 1.5}) {
      for (double beta_deg : {0.0, 15.0, 35.0}) {
        for (const BasicRack& rack : {BasicRack{1.0, 1.25, 0.38}, BasicRack{1.0, 1.4, 0.35},
                                      BasicRack{1.2, 1.5, 0.0}, BasicRack{0.8, 1.0, 0.25}}) {
          GearParameters p = small_spur(z, x);
          p.helix_angle = beta_deg * kDeg;
          p.rack = rack;
          p.double_helical = beta_deg > 0;
          try {
            gear_geometry(p);
          } catch (const GearError&) {
            ++rejected;
            continue;
          }
          ++accepted;
          const MeshReport r = check_mesh(gear_mesh(p, coarse));
          EXPECT_TRUE(r.valid_solid()) << "z " << z << " x " << x << " beta " << beta_deg
                                       << ::testing::PrintToString(r.problems());
        }
      }
    }
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 50);
}

}  // namespace
}  // namespace cs
