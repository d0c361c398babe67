// Watertight triangle meshes of involute gears: the transverse profile (gear_profile.hpp) swept
// along the axis with the helix twist, closed by flat end faces.
//
// Frame: the gear axis is z, the face width centred on z = 0, tooth 0 centred on +x in the
// reference section. A transverse section at axial position z is turned by
//   φ(z) = ± 2 z tan β / d              (single helix, + for a right hand),
//   φ(z) = ∓ 2 (|z| − gap/2) tan β / d  (double helix: the z < 0 helix has the gear's hand),
// so the reference section is the middle one (single) or the inner end of each helix (double).
// Two mating gears built this way with opposite hands mesh when their axes are a apart along x
// and the second is turned by π + π/z₂ about its axis (a tooth space faces tooth 0 of the first).
#pragma once

#include "clearsim/geometry/gear_profile.hpp"
#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs {

struct GearResolution {
  ProfileResolution profile;
  // Transverse sections per helix along the face (≥ 1). 0: the fewest sections for which the
  // straight segment between two sections departs from the helix at the tip circle by less
  // than `chord_tolerance`, i.e. r_a Δφ²/8 ≤ tolerance. A spur gear needs one.
  int slices = 0;
  double chord_tolerance = 2e-6;  // [m]
};

// The number of sections per helix that `resolution` gives for gear `p`.
int slices_per_helix(const GearParameters& p, const GearGeometry& g,
                     const GearResolution& resolution);

// The turn φ(z) [rad] of the transverse section at axial position z about the gear's z axis (the
// helix of the frame above), and its rate dφ/dz on the helix that holds z. Shared by the mesh and
// the analytic gear-mesh contact so the two agree on the tooth phase.
double section_twist(const GearParameters& p, const GearGeometry& g, double z);
double section_twist_rate(const GearParameters& p, const GearGeometry& g, double z);

// The gear as a closed, outward-oriented mesh in the frame above. A double-helical gear with a
// gap is two closed solids (one per helix) in one mesh. Throws GearError for invalid
// parameters (see gear_geometry.hpp).
TriangleMesh gear_mesh(const GearParameters& p, const GearResolution& resolution = {});

}  // namespace cs
