// A revolute or prismatic joint's `limits` map (docs/model-format.md, "Joint limits"): its range
// of motion, held by compliant stops (forces::JointLimit named <joint>_limits).
#include <numbers>

#include "clearsim/elements/forces/joint_limit.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

const std::vector<std::string> kLimitKeys = {"lower", "upper", "angle_unit", "stiffness",
                                             "damping"};

}  // namespace

void read_joint_limits(const Entry& joint, const Cursor& limits, int joint_index, Model& model) {
  const auto& ideal = static_cast<const joints::IdealJoint&>(*model.elements[joint_index]);
  const bool revolute = ideal.type() == joints::JointType::kRevolute;
  const MapView m(limits, "a limits map {lower: ..., upper: ..., stiffness: ..., damping: ...}");
  m.allow_only(
      "in the limits of joint '" + joint.key + "'",
      revolute ? kLimitKeys : std::vector<std::string>{"lower", "upper", "stiffness", "damping"});
  double scale = 1.0;
  std::string unit = revolute ? "rad" : "m";
  if (auto u = m.find("angle_unit")) {
    scale = read_choice<double>(*u, {{"rad", 1.0}, {"deg", std::numbers::pi / 180}});
    unit = scale == 1.0 ? "rad" : "deg";
  }
  const std::string k_unit = revolute ? "N·m/rad" : "N/m";
  const std::string c_unit = revolute ? "N·m·s/rad" : "N·s/m";
  forces::JointLimitParams p;
  const Cursor lower_c = m.need("lower", "the lower end of the range [" + unit + "]");
  const Cursor upper_c = m.need("upper", "the upper end of the range [" + unit + "]");
  p.lower = scale * read_number(lower_c, unit);
  p.upper = scale * read_number(upper_c, unit);
  if (!(p.upper >= p.lower))
    upper_c.fail(upper_c.path() + ": the upper end of the range must not be below the lower (" +
                 format_number(p.lower / scale) + " " + unit + ")");
  // The angle is measured within π of the middle of the range (joint_limit.cpp): a range of a
  // full turn or more would need a count of turns that the joint does not keep.
  if (revolute && p.upper - p.lower >= 2 * std::numbers::pi)
    upper_c.fail(upper_c.path() + ": a revolute joint's range must be less than a full turn " +
                 "(2π rad, 360°); for a joint that turns freely leave out `limits`");
  p.stiffness = read_positive(
      m.need("stiffness", "the stiffness of the stops, a positive number [" + k_unit + "]"),
      k_unit);
  if (auto c = m.find("damping")) p.damping = read_non_negative(*c, c_unit);
  const auto kind =
      revolute ? forces::JointCoordinate::Kind::kAngle : forces::JointCoordinate::Kind::kSlide;
  build_at(limits.source(), limits.key_pos(), [&] {
    return add_element(model,
                       std::make_unique<forces::JointLimit>(
                           joint.key + "_limits",
                           forces::JointCoordinate(kind, ideal.marker_i(), ideal.marker_j()), p));
  });
}

}  // namespace cs::model_file
