// The herringbone pair of seed 004 (reference.md §6e): pinion z = 27, wheel z = 151.
#pragma once

#include <cmath>

#include "clearsim/geometry/gear_geometry.hpp"

namespace cs::test {

inline constexpr double kDeg = M_PI / 180.0;
inline constexpr double kMm = 1e-3;

// `thickness_allowance` [m]: examples/ship_reducer's model files take 0.15 mm (their
// backlash_allowance); the geometry tests, the nominal 0.
inline GearParameters seed004_gear(int teeth, double profile_shift, HelixHand hand,
                                   double thickness_allowance = 0.0) {
  GearParameters p;
  p.normal_module = 10 * kMm;
  p.teeth = teeth;
  p.normal_pressure_angle = 20 * kDeg;
  p.helix_angle = 27.12 * kDeg;
  p.hand = hand;
  p.profile_shift = profile_shift;
  p.rack = {1.0, 1.4, 0.35};  // h_aP*, h_fP*, ρ_fP*
  p.face_width = 135 * kMm;
  p.double_helical = true;
  p.thickness_allowance = thickness_allowance;
  return p;
}

inline GearParameters seed004_pinion() { return seed004_gear(27, 0.2360, HelixHand::kRight); }
inline GearParameters seed004_wheel() { return seed004_gear(151, -0.2299, HelixHand::kLeft); }

}  // namespace cs::test
