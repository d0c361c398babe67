// The transverse section of an involute gear, generated as the envelope of its basic rack
// (reference.md §7.3): the tool's straight flank generates the involute, its rounded tip the
// trochoidal root fillet and its tip line the root circle, so flank, fillet and root meet exactly
// as a hobbed gear's do.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "clearsim/geometry/gear_geometry.hpp"

namespace cs {

using Vec2 = Eigen::Vector2d;

// Sampling of one tooth's outline (each flank is sampled the same way).
struct ProfileResolution {
  int flank_points = 40;   // involute points per flank, form circle to tip circle, uniform in roll
  int fillet_points = 12;  // points per root fillet
  int root_points = 3;     // points on each half of the root land
  int tip_points = 4;      // points inside the tip land
};

enum class ProfilePart { kRoot, kFillet, kFlank, kTip };

// A closed polygon, counter-clockwise, tooth 0 centred on +x and tooth k rotated by 2πk/z.
struct TransverseProfile {
  std::vector<Vec2> points;        // [m], in the gear's transverse plane, centre at the origin
  std::vector<ProfilePart> parts;  // which part of the tooth each point samples
};

// Generates the section of `p` (geometry `g` = gear_geometry(p)) at the reference (untwisted)
// position. Throws std::invalid_argument if `resolution` asks for fewer than 2 flank points.
TransverseProfile transverse_profile(const GearParameters& p, const GearGeometry& g,
                                     const ProfileResolution& resolution = {});

// Signed normal distance [m] of a point on the upper flank of tooth 0 (polar angle > 0) from the
// analytic involute that flank should follow: r_y (θ − ψ(r_y)) cos α_y, positive outside the
// tooth. For points with r_y ≥ r_b only.
double involute_deviation(const GearGeometry& g, const Vec2& point);

// Area enclosed by a polygon [m²] (shoelace; positive when counter-clockwise).
double polygon_area(const std::vector<Vec2>& polygon);

}  // namespace cs
