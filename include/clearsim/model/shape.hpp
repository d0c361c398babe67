// A shape carried by a body: a closed triangle mesh (from a file or generated, e.g. a gear) fixed
// in the body at a given pose. The mesh is held once, through a shared pointer, and read by the
// contact elements and output writers that use it; nothing changes it during a run.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "clearsim/geometry/gear_geometry.hpp"
#include "clearsim/geometry/triangle_mesh.hpp"
#include "clearsim/math/types.hpp"

namespace cs {

struct Shape {
  std::string name;
  int body = kGround;                        // carrying body (kGround: fixed in the world)
  Vec3 p_BS = Vec3::Zero();                  // shape-frame origin in the body frame [m]
  Mat3 R_BS = Mat3::Identity();              // shape-frame axes in the body frame
  std::shared_ptr<const TriangleMesh> mesh;  // in the shape frame [m]; closed, outward
  std::optional<GearParameters> gear;        // the gear it was generated from, if any
  std::string source;                        // the mesh file it was read from, or "" (generated)
};

}  // namespace cs
