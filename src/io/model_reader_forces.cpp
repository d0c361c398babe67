// The `forces` section and <function>s of time.
#include <array>
#include <memory>

#include "clearsim/elements/forces/point_load.hpp"
#include "clearsim/elements/forces/speed_torque.hpp"
#include "clearsim/elements/forces/spring_damper.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

enum class ForceType { kPointLoad, kSpringDamper, kRotationalSpringDamper, kSpeedTorque };

const std::vector<std::pair<std::string, ForceType>> kForceTypes = {
    {"point_load", ForceType::kPointLoad},
    {"spring_damper", ForceType::kSpringDamper},
    {"rotational_spring_damper", ForceType::kRotationalSpringDamper},
    {"speed_torque", ForceType::kSpeedTorque}};

const std::vector<std::pair<std::string, TimeFunction::Kind>> kFunctionTypes = {
    {"constant", TimeFunction::Kind::kConstant},      {"ramp", TimeFunction::Kind::kRamp},
    {"polynomial", TimeFunction::Kind::kPolynomial},  {"harmonic", TimeFunction::Kind::kHarmonic},
    {"smooth_step", TimeFunction::Kind::kSmoothStep}, {"fourier", TimeFunction::Kind::kFourier}};

// The unit of a rate of a quantity in `unit`: "m" -> "m/s", "rad/s" -> "(rad/s)/s".
std::string per_second(const std::string& unit) {
  if (unit.empty()) return "1/s";
  return unit.find('/') == std::string::npos ? unit + "/s" : "(" + unit + ")/s";
}

std::vector<std::string> names_of(const auto& choices) {
  std::vector<std::string> names;
  for (const auto& [name, value] : choices) names.push_back(name);
  return names;
}

double optional_number(const MapView& m, const char* key, const std::string& unit,
                       double fallback) {
  const auto c = m.find(key);
  return c ? read_number(*c, unit) : fallback;
}

TimeFunction read_function_map(const Cursor& c, const std::string& unit, const std::string& what) {
  const MapView m(c, what);
  const std::vector<std::string> types = names_of(kFunctionTypes);
  const std::size_t k = read_choice_index(m.need("type", "one of " + join(types)), types);
  const TimeFunction::Kind kind = kFunctionTypes[k].second;
  const std::string where = "in the " + types[k] + " function " + c.path();
  const std::string value_what = with_unit("a number", unit);
  switch (kind) {
    case TimeFunction::Kind::kConstant:
      m.allow_only(where, {"type", "value"});
      return TimeFunction::constant(read_number(m.need("value", value_what), unit));
    case TimeFunction::Kind::kRamp: {
      m.allow_only(where, {"type", "initial", "slope", "start"});
      const double slope =
          read_number(m.need("slope", with_unit("a number", per_second(unit))), per_second(unit));
      return TimeFunction::ramp(optional_number(m, "initial", unit, 0.0), slope,
                                optional_number(m, "start", "s", 0.0));
    }
    case TimeFunction::Kind::kPolynomial:
      m.allow_only(where, {"type", "coefficients"});
      return TimeFunction::polynomial(read_numbers(
          m.need("coefficients",
                 "a non-empty list [c0, c1, ...] (c_k in " + (unit.empty() ? "1" : unit) + "/s^k)"),
          (unit.empty() ? "1" : unit) + "/s^k", 1));
    case TimeFunction::Kind::kHarmonic: {
      m.allow_only(where, {"type", "amplitude", "frequency", "phase", "offset"});
      const double amplitude = read_number(m.need("amplitude", value_what), unit);
      const double frequency =
          read_non_negative(m.need("frequency", "a non-negative number [Hz]"), "Hz");
      return TimeFunction::harmonic(amplitude, frequency, optional_number(m, "phase", "rad", 0.0),
                                    optional_number(m, "offset", unit, 0.0));
    }
    case TimeFunction::Kind::kSmoothStep: {
      m.allow_only(where, {"type", "t0", "v0", "t1", "v1"});
      const double t0 = read_non_negative(m.need("t0", "a non-negative time [s]"), "s");
      const double v0 = read_number(m.need("v0", value_what), unit);
      const Cursor t1_c = m.need("t1", "a time after t0 [s]");
      const double t1 = read_number(t1_c, "s");
      if (!(t1 > t0)) t1_c.expected("a time after t0 = " + format_number(t0) + " s");
      const double v1 = read_number(m.need("v1", value_what), unit);
      return TimeFunction::smooth_step(t0, v0, t1, v1);
    }
    case TimeFunction::Kind::kFourier: {
      m.allow_only(where, {"type", "frequency", "offset", "cosines", "sines"});
      const double frequency = read_positive(
          m.need("frequency", "the fundamental frequency, a positive number [Hz]"), "Hz");
      const auto coefficients = [&](const char* key) {
        const auto list = m.find(key);
        return list ? read_numbers(*list, unit, 1) : std::vector<double>{};
      };
      std::vector<double> cosines = coefficients("cosines"), sines = coefficients("sines");
      if (cosines.empty() && sines.empty())
        c.fail_at_key(c.path() +
                      ": a fourier function needs `cosines` or `sines` (the amplitudes of its "
                      "harmonics); a constant is `value`");
      return TimeFunction::fourier(frequency, optional_number(m, "offset", unit, 0.0),
                                   std::move(cosines), std::move(sines));
    }
  }
  c.expected(what);
}

// --- force elements -------------------------------------------------------------------------

std::array<TimeFunction, 3> zero_functions() {
  return {TimeFunction::constant(0.0), TimeFunction::constant(0.0), TimeFunction::constant(0.0)};
}

// A vector [x, y, z] whose components are <function>s.
std::array<TimeFunction, 3> read_function_vec3(const Cursor& c, const std::string& unit) {
  const std::vector<Cursor> items =
      c.items(with_unit("a list of 3 components (numbers or functions)", unit), 3);
  return {read_time_function(items[0], unit), read_time_function(items[1], unit),
          read_time_function(items[2], unit)};
}

double optional_non_negative(const MapView& m, const char* key, const std::string& unit,
                             double fallback) {
  const auto c = m.find(key);
  return c ? read_non_negative(*c, unit) : fallback;
}

// Two different bodies, from a list [body_1, body_2].
std::pair<int, int> read_body_pair(const Cursor& c, const Model& model) {
  const std::vector<Cursor> names = c.items("a list of two body names", 2);
  const int body_i = read_body_ref(names[0], model);
  const int body_j = read_body_ref(names[1], model);
  if (body_i == body_j)
    c.fail(c.path() + ": expected two different bodies, found '" + names[0].node().Scalar() +
           "' twice");
  return {body_i, body_j};
}

// A revolute or cylindrical joint, whose markers carry a rotational force element.
const joints::IdealJoint& read_rotation_joint(const Cursor& c, const Model& model) {
  const joints::IdealJoint& joint = read_joint_ref(c, model);
  if (joint.type() != joints::JointType::kRevolute &&
      joint.type() != joints::JointType::kCylindrical)
    c.fail(c.path() + ": expected a revolute or cylindrical joint, found '" + joint.name() +
           "', which is " + joints::to_string(joint.type()));
  return joint;
}

Marker marker_on(const Cursor& c, const Model& model, int body, const Vec3& p_W) {
  return build_at(c.source(), c.pos(),
                  [&] { return marker_at(model, body, p_W, Mat3::Identity()); });
}

std::unique_ptr<Element> read_point_load(const Entry& e, const MapView& m, const Model& model) {
  const Cursor body_c = m.need("body", "the name of the loaded body");
  const int body = read_body_ref(body_c, model);
  if (body == kGround)
    body_c.fail(body_c.path() +
                ": expected a moving body, found 'ground' (a load on the ground has no effect)");
  Vec3 at_W = model.bodies[body].x0_W;
  if (auto c = m.find("at")) at_W = read_vec3(*c, "m");
  const auto force_c = m.find("force");
  const auto torque_c = m.find("torque");
  if (!force_c && !torque_c)
    e.value.fail_at_key(e.value.path() +
                        ": missing required key 'force' or 'torque' (at least one, each a list "
                        "of 3 numbers or functions [N] or [N·m])");
  const auto force_W = force_c ? read_function_vec3(*force_c, "N") : zero_functions();
  const auto torque_W = torque_c ? read_function_vec3(*torque_c, "N·m") : zero_functions();
  const Marker marker = marker_on(m.find("at").value_or(body_c), model, body, at_W);
  return build_at(e.value.source(), e.value.key_pos(), [&] {
    return std::make_unique<forces::PointLoad>(e.key, marker, force_W, torque_W);
  });
}

std::unique_ptr<Element> read_spring_damper(const Entry& e, const MapView& m, const Model& model) {
  const auto [body_i, body_j] =
      read_body_pair(m.need("bodies", "the two bodies it connects, [body_1, body_2]"), model);
  const Cursor points_c = m.need("points", "the attachment points [[x, y, z], [x, y, z]] [m]");
  const std::vector<Cursor> points =
      points_c.items("a list of two points [[x, y, z], [x, y, z]]", 2);
  const Vec3 p_i = read_vec3(points[0], "m");
  const Vec3 p_j = read_vec3(points[1], "m");
  forces::SpringDamperParams p;
  p.stiffness = read_non_negative(m.need("stiffness", "a non-negative number [N/m]"), "N/m");
  p.damping = optional_non_negative(m, "damping", "N·s/m", 0.0);
  p.free_length = optional_non_negative(m, "free_length", "m", (p_j - p_i).norm());
  p.preload = optional_number(m, "preload", "N", 0.0);
  const Marker mi = marker_on(points[0], model, body_i, p_i);
  const Marker mj = marker_on(points[1], model, body_j, p_j);
  return build_at(e.value.source(), e.value.key_pos(), [&] {
    return std::make_unique<forces::TranslationalSpringDamper>(e.key, mi, mj, p);
  });
}

std::unique_ptr<Element> read_rotational_spring_damper(const Entry& e, const MapView& m,
                                                       const Model& model) {
  const joints::IdealJoint& joint =
      read_rotation_joint(m.need("joint", "the name of a revolute or cylindrical joint"), model);
  forces::SpringDamperParams p;
  p.stiffness =
      read_non_negative(m.need("stiffness", "a non-negative number [N·m/rad]"), "N·m/rad");
  p.damping = optional_non_negative(m, "damping", "N·m·s/rad", 0.0);
  p.free_length = optional_number(m, "free_angle", "rad", 0.0);
  p.preload = optional_number(m, "preload", "N·m", 0.0);
  return build_at(e.value.source(), e.value.key_pos(), [&] {
    return std::make_unique<forces::RotationalSpringDamper>(e.key, joint.marker_i(),
                                                            joint.marker_j(), p);
  });
}

std::unique_ptr<Element> read_speed_torque(const Entry& e, const MapView& m, const Model& model) {
  const joints::IdealJoint& joint =
      read_rotation_joint(m.need("joint", "the name of a revolute or cylindrical joint"), model);
  forces::SpeedUnit unit = forces::SpeedUnit::kRadPerSecond;
  if (auto c = m.find("speed_unit"))
    unit = read_choice(
        *c, std::vector<std::pair<std::string, forces::SpeedUnit>>{
                {"rad/s", forces::SpeedUnit::kRadPerSecond}, {"rpm", forces::SpeedUnit::kRpm}});
  const std::string n_unit = unit == forces::SpeedUnit::kRpm ? "rpm" : "rad/s";
  std::vector<double> a = read_numbers(
      m.need("coefficients", "a non-empty list [a0, a1, ...] (a_k in N·m/(" + n_unit + ")^k)"),
      "N·m/(" + n_unit + ")^k", 1);
  bool oppose_motion = false;
  if (auto c = m.find("oppose_motion")) oppose_motion = read_bool(*c);
  forces::SpeedTorqueOptions o;
  if (auto c = m.find("ratio")) o.ratio = read_positive(*c, "");
  if (auto c = m.find("min_speed")) o.min_speed = read_non_negative(*c, n_unit);
  if (auto c = m.find("below")) {
    if (!m.has("min_speed"))
      c->fail_at_key(c->path() + ": 'below' needs 'min_speed' (where the curve's fit ends)");
    o.below = read_choice(*c, std::vector<std::pair<std::string, forces::BelowMinSpeed>>{
                                  {"hold", forces::BelowMinSpeed::kHold},
                                  {"propeller", forces::BelowMinSpeed::kPropeller}});
  }
  if (auto c = m.find("ramp")) o.ramp = read_time_function(*c, "");
  return build_at(e.value.source(), e.value.key_pos(), [&] {
    return std::make_unique<forces::SpeedTorque>(e.key, joint.marker_i(), joint.marker_j(),
                                                 std::move(a), unit, oppose_motion, o);
  });
}

std::vector<std::string> force_keys(ForceType t) {
  switch (t) {
    case ForceType::kPointLoad:
      return {"type", "body", "at", "force", "torque"};
    case ForceType::kSpringDamper:
      return {"type", "bodies", "points", "stiffness", "damping", "free_length", "preload"};
    case ForceType::kRotationalSpringDamper:
      return {"type", "joint", "stiffness", "damping", "free_angle", "preload"};
    case ForceType::kSpeedTorque:
      return {"type",  "joint",     "coefficients", "speed_unit", "oppose_motion",
              "ratio", "min_speed", "below",        "ramp"};
  }
  return {};
}

void read_force(const Entry& e, Model& model) {
  const MapView m(e.value, "a force map {type: ..., ...}");
  const std::vector<std::string> types = names_of(kForceTypes);
  const std::size_t k = read_choice_index(m.need("type", "one of " + join(types)), types);
  const ForceType type = kForceTypes[k].second;
  m.allow_only("in " + types[k] + " force '" + e.key + "'", force_keys(type));
  std::unique_ptr<Element> element;
  switch (type) {
    case ForceType::kPointLoad:
      element = read_point_load(e, m, model);
      break;
    case ForceType::kSpringDamper:
      element = read_spring_damper(e, m, model);
      break;
    case ForceType::kRotationalSpringDamper:
      element = read_rotational_spring_damper(e, m, model);
      break;
    case ForceType::kSpeedTorque:
      element = read_speed_torque(e, m, model);
      break;
  }
  build_at(e.value.source(), e.value.key_pos(),
           [&] { return add_element(model, std::move(element)); });
}

}  // namespace

TimeFunction read_time_function(const Cursor& c, const std::string& unit) {
  const std::string what = with_unit("a number", unit) +
                           " or a function map {type: " + join(names_of(kFunctionTypes), " | ") +
                           ", ...}";
  if (!c.is_null() && c.node().IsMap()) return read_function_map(c, unit, what);
  if (!number_of(c.node())) c.expected(what);
  return TimeFunction::constant(read_number(c, unit));  // with the unit's magnitude limit
}

void read_forces(const Cursor& section, Model& model) {
  for (const Entry& e : named_items(section, "force")) read_force(e, model);
}

}  // namespace cs::model_file
