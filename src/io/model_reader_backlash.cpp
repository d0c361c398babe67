// A revolute joint's `backlash` map (docs/model-format.md, "Backlash"): angular free play between
// the joint's motor and its link, built as a forces::JointBacklash once the drivers are read.
#include <numbers>

#include "clearsim/model/model_builder.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

const std::vector<std::string> kBacklashKeys = {"play", "angle_unit", "stiffness", "damping"};

const joints::IdealJoint& joint_named(const Model& model, const std::string& name) {
  return static_cast<const joints::IdealJoint&>(*model.find_element(name));
}

void add_backlash(const BacklashSpec& spec, const std::string& name, forces::MotorMotion motor,
                  Position at, Model& model) {
  const joints::IdealJoint& joint = joint_named(model, spec.joint);
  build_at(spec.at.source(), at, [&] {
    return add_element(
        model, std::make_unique<forces::JointBacklash>(name, joint.marker_i(), joint.marker_j(),
                                                       spec.params, std::move(motor)));
  });
}

}  // namespace

BacklashSpec read_backlash(const Entry& joint, const Cursor& backlash) {
  const MapView m(backlash, "a backlash map {play: ..., stiffness: ..., damping: ...}");
  m.allow_only("in the backlash of joint '" + joint.key + "'", kBacklashKeys);
  double scale = 1.0;
  std::string unit = "rad";
  if (auto u = m.find("angle_unit")) {
    scale = read_choice<double>(*u, {{"rad", 1.0}, {"deg", std::numbers::pi / 180}});
    unit = scale == 1.0 ? "rad" : "deg";
  }
  BacklashSpec spec{joint.key, backlash, {}, false};
  spec.params.play =
      scale * read_non_negative(m.need("play", "the total free play b [" + unit + "]"), unit);
  spec.params.stiffness = read_positive(
      m.need("stiffness", "the stiffness of the stops, a positive number [N·m/rad]"), "N·m/rad");
  if (auto c = m.find("damping")) spec.params.damping = read_non_negative(*c, "N·m·s/rad");
  return spec;
}

void add_driven_backlash(const Entry& e, BacklashSpec& spec, const Cursor& motion_c,
                         const TimeFunction& f, bool given_as_velocity, Model& model) {
  spec.driven = true;
  add_backlash(spec, e.key, forces::MotorMotion{f, given_as_velocity}, motion_c.key_pos(), model);
}

void add_held_backlash(const BacklashJoints& backlash, Model& model) {
  for (const BacklashSpec& spec : backlash)
    if (!spec.driven)
      add_backlash(spec, spec.joint + "_backlash", forces::MotorMotion{}, spec.at.key_pos(), model);
}

}  // namespace cs::model_file
