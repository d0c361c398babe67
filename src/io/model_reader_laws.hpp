// Readers of the compliant/lubricated treatment maps (model_reader_laws.cpp).
#pragma once

#include <optional>
#include <string>

#include "clearsim/elements/contact/compliant_contact.hpp"
#include "clearsim/elements/joints/joint_bearing_loss.hpp"
#include "yaml_access.hpp"

namespace cs::model_file {

// What a law map needs to know about its geometry.
struct LawContext {
  bool spherical = false;         // spherical clearance (squeeze film) or revolute (bearing)
  double clearance = 0.0;         // c [m]
  double journal_radius = 0.0;    // r of the ball or pin [m] (0 if not given)
  double effective_radius = 0.0;  // R* for a stiffness from materials [m] (0 if unknown)
  double asperity = 0.0;          // e0 [m]
  std::string radius_key;         // "ball_radius", "pin_radius" or "sphere.radius"
};

// `contact:` map. `restitution` is the c_e of the Hunt–Crossley family (the sibling key).
contact::NormalLaw read_normal_law(const Cursor& c, const LawContext& ctx,
                                   std::optional<double> restitution);
// `friction:` a number (Ambrósio's Coulomb law) or a map with `law`.
contact::FrictionLaw read_friction_law(const Cursor& c);
// `lubricant:` squeeze film (spherical) or journal bearing (revolute).
contact::Lubrication read_lubricant(const Cursor& c, const LawContext& ctx);
// `cavitation:` of a journal bearing map: Reynolds (finite only), half_sommerfeld or sommerfeld;
// the default Reynolds for the finite bearing and the converging half film otherwise.
lubrication::Cavitation read_cavitation(const MapView& m, lubrication::BearingModel model);
// `bearing_loss:` of an ideal revolute or cylindrical joint (model_reader_bearing_loss.cpp).
joints::JointBearingLoss read_bearing_loss(const Cursor& c);

}  // namespace cs::model_file
