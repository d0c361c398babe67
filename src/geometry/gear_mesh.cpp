#include "clearsim/geometry/gear_mesh.hpp"

#include <cmath>
#include <functional>
#include <stdexcept>

namespace cs {

namespace {

// A generated gear mesh larger than this is refused (ship_reducer/mesh.yaml's wheel at the
// default resolution has about 4e6).
constexpr double kMaxGearTriangles = 2e7;

// A fan from the centre closes each end face; it is valid because the profile is star-shaped
// about the centre (the polar angle grows along it). Checked here, since a fan over a profile
// that folds back would overlap itself.
void require_star_shaped(const std::vector<Vec2>& points) {
  for (std::size_t k = 0; k < points.size(); ++k) {
    const Vec2& a = points[k];
    const Vec2& b = points[(k + 1) % points.size()];
    if (a.x() * b.y() - a.y() * b.x() <= 0.0)
      throw std::logic_error("gear profile is not star-shaped about its centre");
  }
}

// Sweeps the closed counter-clockwise `profile` through the sections at axial positions `z`
// (increasing), each turned by twist(z), and closes both ends with a fan from the axis.
TriangleMesh sweep(const std::vector<Vec2>& profile, const std::vector<double>& z,
                   const std::function<double(double)>& twist) {
  const int n = static_cast<int>(profile.size());
  const int sections = static_cast<int>(z.size());
  TriangleMesh mesh;
  mesh.vertices.reserve(static_cast<std::size_t>(n) * sections + 2);
  for (double zj : z) {
    const double c = std::cos(twist(zj)), s = std::sin(twist(zj));
    for (const Vec2& p : profile)
      mesh.vertices.emplace_back(c * p.x() - s * p.y(), s * p.x() + c * p.y(), zj);
  }
  mesh.triangles.reserve(2 * static_cast<std::size_t>(n) * sections);
  // Side quads, outward normal (profile tangent) × ẑ. The diagonal follows the twist's sense, so
  // the two helices of a double-helical gear are mirror images, triangles included.
  for (int j = 0; j + 1 < sections; ++j) {
    const bool turning_forward = twist(z[j + 1]) >= twist(z[j]);
    for (int i = 0; i < n; ++i) {
      const int a = j * n + i, b = j * n + (i + 1) % n, c = b + n, d = a + n;
      if (turning_forward) {
        mesh.triangles.push_back({a, b, c});
        mesh.triangles.push_back({a, c, d});
      } else {
        mesh.triangles.push_back({a, b, d});
        mesh.triangles.push_back({b, c, d});
      }
    }
  }
  const int bottom = mesh.num_vertices(), top = bottom + 1;
  mesh.vertices.emplace_back(0.0, 0.0, z.front());
  mesh.vertices.emplace_back(0.0, 0.0, z.back());
  const int last = (sections - 1) * n;
  for (int i = 0; i < n; ++i) {
    mesh.triangles.push_back({bottom, (i + 1) % n, i});             // normal −z
    mesh.triangles.push_back({top, last + i, last + (i + 1) % n});  // normal +z
  }
  return mesh;
}

std::vector<double> uniform(double from, double to, int intervals) {
  std::vector<double> z(intervals + 1);
  for (int j = 0; j <= intervals; ++j) z[j] = from + (to - from) * j / intervals;
  return z;
}

// Issue 14 (the fuzz test): a tooth count or a resolution a million times the intended one asked
// for billions of triangles, which ran the machine out of memory before any message. The mesh's
// size is estimated from the counts alone (side walls: two triangles per profile point and
// section; end faces: one per point) and refused past kMaxGearTriangles, before anything is made.
void require_reasonable_size(const GearParameters& p, const GearGeometry& g,
                             const GearResolution& res) {
  const ProfileResolution& r = res.profile;
  const double per_tooth = 2.0 * (r.flank_points + r.fillet_points + r.root_points) + r.tip_points +
                           4.0;  // + the corners
  const double points = static_cast<double>(p.teeth) * per_tooth;
  const double sections = (p.double_helical ? 2.0 : 1.0) * slices_per_helix(p, g, res);
  const double triangles = 2.0 * points * sections + 2.0 * points;
  if (!(triangles <= kMaxGearTriangles))
    throw_gear_error("resolution", "the mesh would have about ", triangles, " triangles (", points,
                     " profile points × ", sections, " sections), more than ", kMaxGearTriangles,
                     ": too many teeth, or a resolution finer than any contact needs");
}

}  // namespace

int slices_per_helix(const GearParameters& p, const GearGeometry& g, const GearResolution& res) {
  if (res.slices > 0) return res.slices;
  if (p.helix_angle == 0.0) return 1;
  if (!(res.chord_tolerance > 0.0))
    throw std::invalid_argument("gear resolution: chord_tolerance must be positive");
  const double twist = 2 * p.face_width * std::tan(p.helix_angle) / g.d;
  const double max_step = std::sqrt(8 * res.chord_tolerance / (g.d_a / 2));
  // In double first: chord_tolerance 1e-300 asks for 1e149 sections, which cast to int is
  // undefined (it gave one section, silently).
  const double needed = std::ceil(twist / max_step);
  if (!(needed <= kMaxGearTriangles))
    throw_gear_error("resolution", "chord_tolerance = ", res.chord_tolerance, " m needs ", needed,
                     " sections per helix, more than a mesh of ", kMaxGearTriangles,
                     " triangles can have: give a larger chord_tolerance or set slices");
  return std::max(1, static_cast<int>(needed));
}

double section_twist_rate(const GearParameters& p, const GearGeometry& g, double z) {
  const double hand = p.hand == HelixHand::kRight ? 1.0 : -1.0;
  const double rate = 2 * std::tan(p.helix_angle) / g.d;  // twist per unit length [rad/m]
  if (!p.double_helical) return hand * rate;
  return z < 0.0 ? hand * rate : -hand * rate;
}

double section_twist(const GearParameters& p, const GearGeometry& g, double z) {
  if (!p.double_helical) return section_twist_rate(p, g, z) * z;
  return -section_twist_rate(p, g, -1.0) * (std::abs(z) - p.helix_gap / 2);
}

TriangleMesh gear_mesh(const GearParameters& p, const GearResolution& res) {
  const GearGeometry g = gear_geometry(p);
  require_reasonable_size(p, g, res);
  const std::vector<Vec2> profile = transverse_profile(p, g, res.profile).points;
  require_star_shaped(profile);
  const int slices = slices_per_helix(p, g, res);
  const double b = p.face_width, gap = p.helix_gap;
  const auto twist = [&](double z) { return section_twist(p, g, z); };
  if (!p.double_helical) return sweep(profile, uniform(-b / 2, b / 2, slices), twist);
  const auto herringbone = twist;
  if (gap == 0.0) return sweep(profile, uniform(-b, b, 2 * slices), herringbone);
  TriangleMesh mesh = sweep(profile, uniform(-gap / 2 - b, -gap / 2, slices), herringbone);
  append_mesh(mesh, sweep(profile, uniform(gap / 2, gap / 2 + b, slices), herringbone));
  return mesh;
}

}  // namespace cs
