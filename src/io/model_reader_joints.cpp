// The `joints` and `drivers` sections, and references to bodies and joints by name.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

#include "clearsim/model/model_builder.hpp"
#include "model_reader_laws.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

using joints::JointType;

const std::vector<std::pair<std::string, JointType>> kJointTypes = {
    {"fixed", JointType::kFixed},
    {"spherical", JointType::kSpherical},
    {"revolute", JointType::kRevolute},
    {"universal", JointType::kUniversal},
    {"cylindrical", JointType::kCylindrical},
    {"prismatic", JointType::kPrismatic},
    {"planar", JointType::kPlanar}};

constexpr std::size_t kMaxListedNames = 12;

// "ground, crank, rod" (shortened past kMaxListedNames).
std::string list_names(const std::vector<std::string>& names) {
  if (names.empty()) return "none defined";
  if (names.size() <= kMaxListedNames) return join(names);
  std::vector<std::string> head(names.begin(), names.begin() + kMaxListedNames);
  return join(head) + ", ... (" + std::to_string(names.size()) + " in all)";
}

std::vector<std::string> body_names(const Model& model) {
  std::vector<std::string> names = {"ground"};
  for (const Body& b : model.bodies) names.push_back(b.name);
  return names;
}

std::vector<std::string> joint_names(const Model& model) {
  std::vector<std::string> names;
  for (const auto& e : model.elements)
    if (dynamic_cast<const joints::IdealJoint*>(e.get()) != nullptr) names.push_back(e->name());
  return names;
}

// What a name that is not of the expected kind is ("a body", "a driver", ...), or "".
std::string kind_of_name(const Model& model, const std::string& name) {
  if (name == "ground") return "the ground";
  if (model.find_body(name)) return "a body";
  if (model.find_marker(name) != nullptr) return "a marker";
  if (const Element* e = model.find_element(name)) return "a " + e->kind() + " element";
  return "";
}

bool needs_axis(JointType t) {
  return t == JointType::kRevolute || t == JointType::kCylindrical || t == JointType::kPrismatic ||
         t == JointType::kPlanar;
}

bool can_carry_bearing_loss(JointType t) {
  return t == JointType::kRevolute || t == JointType::kCylindrical;
}

std::vector<std::string> joint_keys(JointType t) {
  if (t == JointType::kUniversal) return {"type", "bodies", "at", "axes"};
  if (t == JointType::kRevolute)
    return {"type", "bodies", "at", "axis", "clearance", "bearing_loss", "backlash", "limits"};
  if (t == JointType::kCylindrical) return {"type", "bodies", "at", "axis", "bearing_loss"};
  if (t == JointType::kPrismatic) return {"type", "bodies", "at", "axis", "limits"};
  if (needs_axis(t)) return {"type", "bodies", "at", "axis"};
  if (t == JointType::kSpherical) return {"type", "bodies", "at", "clearance"};
  return {"type", "bodies", "at"};
}

// The two axes of a universal joint, checked perpendicular.
std::pair<Vec3, Vec3> read_universal_axes(const Cursor& c) {
  const std::string what = "two perpendicular axes [[x, y, z], [x, y, z]]";
  const std::vector<Cursor> axes = c.items(what, 2);
  const Vec3 a1 = read_direction(axes[0]);
  const Vec3 a2 = read_direction(axes[1]);
  const double cosine = a1.normalized().dot(a2.normalized());
  if (std::abs(cosine) > 1e-9) {
    const double degrees = std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / std::numbers::pi;
    c.fail(c.path() + ": expected " + what + ", found axes " + format_number(degrees) +
           "° apart (cosine " + format_number(cosine) + ")");
  }
  return {a1, a2};
}

void read_joint(const Entry& e, Model& model, BacklashJoints& backlash) {
  const MapView m(e.value, "a joint map {type: ..., bodies: [a, b], ...}");
  std::vector<std::string> type_names;
  for (const auto& [name, type] : kJointTypes) type_names.push_back(name);
  const JointType type = read_choice(m.need("type", "one of " + join(type_names)), kJointTypes);
  const std::string kind = joints::to_string(type);
  const auto loss_c = m.find("bearing_loss");
  if (loss_c && !can_carry_bearing_loss(type))
    loss_c->fail_at_key(loss_c->path() +
                        ": a bearing loss model needs a joint that turns about "
                        "its axis (revolute or cylindrical); a " +
                        kind + " joint cannot rotate about it");
  if (loss_c && m.has("clearance"))
    loss_c->fail_at_key(loss_c->path() +
                        ": a clearance joint carries its own film "
                        "(clearance.lubricant, with its losses); bearing_loss is for the ideal "
                        "joint");
  m.allow_only("in " + kind + " joint '" + e.key + "'", joint_keys(type));
  const auto backlash_c = m.find("backlash");
  if (backlash_c && m.has("clearance"))
    backlash_c->fail_at_key(backlash_c->path() +
                            ": a joint has either radial clearance (clearance) or angular play "
                            "in its transmission (backlash), not both");
  const auto limits_c = m.find("limits");
  if (limits_c && m.has("clearance"))
    limits_c->fail_at_key(limits_c->path() +
                          ": a clearance joint has no joint angle to limit; limits are for the "
                          "ideal joint");

  const Cursor bodies_c = m.need("bodies", "the two bodies it connects, [body_1, body_2]");
  const std::vector<Cursor> bodies = bodies_c.items("a list of two body names", 2);
  const int body_i = read_body_ref(bodies[0], model);
  const int body_j = read_body_ref(bodies[1], model);
  if (body_i == body_j)
    bodies_c.fail(bodies_c.path() + ": expected two different bodies, found '" +
                  bodies[0].node().Scalar() + "' twice");

  Vec3 at_W = Vec3::Zero();
  if (type == JointType::kPrismatic && !m.has("at")) {
    // Only the reaction moments depend on the point: take the second body's centre of mass.
    const int b = body_j != kGround ? body_j : body_i;
    if (b != kGround) at_W = model.bodies[b].x0_W;
  } else {
    at_W = read_vec3(m.need("at", "the joint location, a list of 3 numbers [m]"), "m");
  }
  Vec3 axis_W = Vec3::UnitZ(), axis2_W = Vec3::Zero();
  if (needs_axis(type))
    axis_W = read_direction(m.need("axis", type == JointType::kPlanar
                                               ? "the plane normal, a non-zero vector [x, y, z]"
                                               : "the joint axis, a non-zero vector [x, y, z]"));
  if (type == JointType::kUniversal) {
    std::tie(axis_W, axis2_W) = read_universal_axes(
        m.need("axes", "the cross axes on body 1 and body 2, [[x, y, z], [x, y, z]]"));
  }
  // With a `clearance` map the joint becomes a clearance joint (a unilateral contact element);
  // deleting that one key turns it back into the ideal joint.
  if (auto c = m.find("clearance")) {
    read_clearance(e, *c, type, body_i, body_j, at_W, axis_W, model);
    return;
  }
  const int index = build_at(e.value.source(), e.value.key_pos(), [&] {
    return add_joint(model, e.key, type, body_i, body_j, at_W, axis_W, axis2_W);
  });
  if (backlash_c) backlash.push_back(read_backlash(e, *backlash_c));
  if (limits_c) read_joint_limits(e, *limits_c, index, model);
  if (!loss_c) return;
  joints::JointBearingLoss loss = read_bearing_loss(*loss_c);
  auto& joint = static_cast<joints::IdealJoint&>(*model.elements[index]);
  build_at(loss_c->source(), loss_c->key_pos(), [&] { joint.set_bearing_loss(std::move(loss)); });
}

// The motion keys of a driver: what is driven and whether as a position or a velocity.
struct MotionKey {
  std::string key;
  joints::JointDriver::Motion motion;
  joints::JointDriver::Given given;
  std::string unit;
};

const std::vector<MotionKey> kMotionKeys = {
    {"angle", joints::JointDriver::Motion::kRotation, joints::JointDriver::Given::kPosition, "rad"},
    {"angular_velocity", joints::JointDriver::Motion::kRotation,
     joints::JointDriver::Given::kVelocity, "rad/s"},
    {"displacement", joints::JointDriver::Motion::kTranslation,
     joints::JointDriver::Given::kPosition, "m"},
    {"velocity", joints::JointDriver::Motion::kTranslation, joints::JointDriver::Given::kVelocity,
     "m/s"}};

void read_driver(const Entry& e, Model& model, BacklashJoints& backlash) {
  const MapView m(e.value, "a driver map {joint: <name>, <motion>: <function>}");
  std::vector<std::string> motion_names;
  for (const MotionKey& k : kMotionKeys) motion_names.push_back(k.key);
  std::vector<std::string> allowed = {"joint"};
  allowed.insert(allowed.end(), motion_names.begin(), motion_names.end());
  m.allow_only("in driver '" + e.key + "'", allowed);

  const Cursor joint_c = m.need("joint", "the name of the driven joint");
  const joints::IdealJoint& joint = read_joint_ref(joint_c, model);
  const MotionKey* chosen = nullptr;
  std::optional<Cursor> chosen_c;
  for (const MotionKey& k : kMotionKeys) {
    const auto c = m.find(k.key);
    if (!c) continue;
    if (chosen != nullptr)
      c->fail_at_key(e.value.path() + ": expected exactly one of " + join(motion_names) +
                     ", found both '" + chosen->key + "' and '" + k.key + "'");
    chosen = &k;
    chosen_c = c;
  }
  if (chosen == nullptr)
    e.value.fail_at_key(e.value.path() + ": missing the prescribed motion (expected exactly " +
                        "one of " + join(motion_names) + ")");
  TimeFunction f = read_time_function(*chosen_c, chosen->unit);
  for (BacklashSpec& spec : backlash) {
    if (spec.joint != joint.name()) continue;
    if (chosen->motion != joints::JointDriver::Motion::kRotation)
      chosen_c->fail_at_key(chosen_c->path() + ": joint '" + joint.name() +
                            "' has backlash; its driver must give an angle or angular_velocity");
    add_driven_backlash(e, spec, *chosen_c, f,
                        chosen->given == joints::JointDriver::Given::kVelocity, model);
    return;
  }
  build_at(e.value.source(), chosen_c->key_pos(), [&] {
    return add_driver(model, e.key, joint.name(), chosen->motion, chosen->given, std::move(f));
  });
}

}  // namespace

int read_body_ref(const Cursor& c, const Model& model) {
  const std::string name = read_text(c, "a body name");
  if (const auto b = model.find_body(name)) return *b;
  const std::vector<std::string> names = body_names(model);
  const std::string kind = kind_of_name(model, name);
  if (!kind.empty())
    c.fail(c.path() + ": expected a body name, found '" + name + "', which is " + kind);
  c.fail(c.path() + ": unknown body '" + name + "' (bodies: " + list_names(names) + ")" +
         did_you_mean(name, names));
}

const joints::IdealJoint& read_joint_ref(const Cursor& c, const Model& model) {
  const std::string name = read_text(c, "a joint name");
  if (const auto* j = dynamic_cast<const joints::IdealJoint*>(model.find_element(name))) return *j;
  const std::vector<std::string> names = joint_names(model);
  const std::string kind = kind_of_name(model, name);
  if (!kind.empty())
    c.fail(c.path() + ": expected a joint name, found '" + name + "', which is " + kind);
  c.fail(c.path() + ": unknown joint '" + name + "' (joints: " + list_names(names) + ")" +
         did_you_mean(name, names));
}

void read_joints(const Cursor& section, Model& model, BacklashJoints& backlash) {
  for (const Entry& e : named_items(section, "joint")) read_joint(e, model, backlash);
}

void read_drivers(const Cursor& section, Model& model, BacklashJoints& backlash) {
  for (const Entry& e : named_items(section, "driver")) read_driver(e, model, backlash);
}

}  // namespace cs::model_file
