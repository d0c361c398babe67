#include "clearsim/geometry/gear_profile.hpp"

#include <cmath>
#include <stdexcept>

namespace cs {

namespace {

Vec2 rotated(const Vec2& v, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return {c * v.x() - s * v.y(), s * v.x() + c * v.y()};
}

// A point of the tool's transverse profile: position (X along the pitch line, Y outward from the
// rolling line) and the normal pointing out of the tool, into the gear's material.
struct RackPoint {
  Vec2 position;
  Vec2 normal;
  ProfilePart part;
};

// The right half of the tool tooth that cuts the tooth space centred on X = 0, in the normal
// section (reference.md §7.3 step 1), from the middle of its tip line up to height Y_top.
std::vector<RackPoint> normal_rack_half(const GearParameters& p, double y_top,
                                        const ProfileResolution& res) {
  const double m = p.normal_module, alpha = p.normal_pressure_angle;
  const double rho = p.rack.root_fillet_radius * m;
  const double y_tip = (p.profile_shift - p.rack.dedendum) * m;  // the tool's tip line
  auto half_width = [&](double y) {  // tool tooth half width at height y
    return M_PI * m / 4 + p.thickness_allowance / 2 + (y - p.profile_shift * m) * std::tan(alpha);
  };
  const double y_tangent = y_tip + rho * (1 - std::sin(alpha));  // flank meets fillet
  const Vec2 centre(half_width(y_tangent) - rho * std::cos(alpha), y_tip + rho);
  std::vector<RackPoint> half;
  for (int k = 0; k < res.root_points; ++k)  // tip line, X from 0 to the fillet start
    half.push_back({{centre.x() * k / res.root_points, y_tip}, {0, -1}, ProfilePart::kRoot});
  const double theta_end = M_PI_2 - alpha;  // the fillet's normal turns from −Y to the flank's
  for (int k = 0; k < res.fillet_points; ++k) {
    const double theta = theta_end * k / res.fillet_points;
    const Vec2 n(std::sin(theta), -std::cos(theta));
    half.push_back({centre + rho * n, n, ProfilePart::kFillet});
  }
  const Vec2 flank_normal(std::cos(alpha), -std::sin(alpha));
  for (int k = 0; k < res.flank_points; ++k) {
    const double y = y_tangent + (y_top - y_tangent) * k / (res.flank_points - 1);
    half.push_back({{half_width(y), y}, flank_normal, ProfilePart::kFlank});
  }
  return half;
}

// Envelope condition (reference.md §7.3 step 3): the rack, moved by d along the pitch line while
// the gear turns by φ = d/r, touches the gear at a point whose normal passes through the pitch
// point I = (0, r): d = Y N_X/N_Y − X. The contact point, in gear coordinates, is the rack point
// turned back by the gear's rotation.
Vec2 generated_point(const RackPoint& q, double r) {
  const double d = q.position.y() * q.normal.x() / q.normal.y() - q.position.x();
  return rotated(Vec2(q.position.x() + d, r + q.position.y()), d / r);
}

// The upper flank of tooth 0 (centred on +x), from the middle of the space above it down to the
// tip corner: the tooth space generated around +y, turned by −(π/2 − π/z).
TransverseProfile upper_half_tooth(const GearParameters& p, const GearGeometry& g,
                                   const ProfileResolution& res) {
  const double r = g.d / 2, r_a = g.d_a / 2, r_b = g.d_b / 2;
  // Rack height whose flank point generates the tip circle: the contact point lies on the line
  // of action at roll length r sin α_t + Y / sin α_t from the base tangent point.
  const double sin_t = std::sin(g.alpha_t);
  const double y_top = sin_t * (std::sqrt(r_a * r_a - r_b * r_b) - r * sin_t);
  // Transverse rack: pitch-direction lengths stretched by 1/cos β, normals by the inverse.
  const double cos_b = std::cos(p.helix_angle);
  TransverseProfile half;
  for (RackPoint q : normal_rack_half(p, y_top, res)) {
    q.position.x() /= cos_b;
    q.normal = Vec2(q.normal.x() * cos_b, q.normal.y()).normalized();
    const Vec2 point = rotated(generated_point(q, r), -(M_PI_2 - M_PI / p.teeth));
    if (!half.points.empty() && (point - half.points.back()).norm() <= 1e-12 * r) continue;
    half.points.push_back(point);
    half.parts.push_back(q.part);
  }
  return half;
}

}  // namespace

TransverseProfile transverse_profile(const GearParameters& p, const GearGeometry& g,
                                     const ProfileResolution& res) {
  if (res.flank_points < 2 || res.fillet_points < 1 || res.root_points < 1 || res.tip_points < 0)
    throw std::invalid_argument(
        "gear resolution: at least 2 flank, 1 fillet and 1 root point are needed");
  const TransverseProfile upper = upper_half_tooth(p, g, res);
  // One tooth, counter-clockwise: lower flank (the mirror image, root to tip), tip land, upper
  // flank (tip to root); the upper flank's last point, mid-space, is the next tooth's first.
  TransverseProfile tooth;
  for (std::size_t k = 0; k < upper.points.size(); ++k) {
    tooth.points.emplace_back(upper.points[k].x(), -upper.points[k].y());
    tooth.parts.push_back(upper.parts[k]);
  }
  const double tip_angle = std::atan2(upper.points.back().y(), upper.points.back().x());
  for (int k = 1; k <= res.tip_points; ++k) {
    const double angle = -tip_angle + 2 * tip_angle * k / (res.tip_points + 1);
    tooth.points.emplace_back(g.d_a / 2 * std::cos(angle), g.d_a / 2 * std::sin(angle));
    tooth.parts.push_back(ProfilePart::kTip);
  }
  for (std::size_t k = upper.points.size() - 1; k >= 1; --k) {
    tooth.points.push_back(upper.points[k]);
    tooth.parts.push_back(upper.parts[k]);
  }
  TransverseProfile profile;
  for (int t = 0; t < p.teeth; ++t) {
    for (std::size_t k = 0; k < tooth.points.size(); ++k) {
      profile.points.push_back(rotated(tooth.points[k], 2 * M_PI * t / p.teeth));
      profile.parts.push_back(tooth.parts[k]);
    }
  }
  return profile;
}

double involute_deviation(const GearGeometry& g, const Vec2& point) {
  const double r_y = point.norm();
  const double cos_y = std::min(1.0, g.d_b / (2 * r_y));
  return r_y * (std::atan2(point.y(), point.x()) - half_tooth_angle(g, r_y)) * cos_y;
}

double polygon_area(const std::vector<Vec2>& polygon) {
  double twice = 0.0;
  for (std::size_t k = 0; k < polygon.size(); ++k) {
    const Vec2& a = polygon[k];
    const Vec2& b = polygon[(k + 1) % polygon.size()];
    twice += a.x() * b.y() - a.y() * b.x();
  }
  return 0.5 * twice;
}

}  // namespace cs
