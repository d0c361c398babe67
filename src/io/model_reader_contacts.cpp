// Clearance joints (the `clearance:` key of a spherical or revolute joint) and the `contacts`
// section (sphere–plane). All are unilateral contacts for the NSGA integrator.
#include <cmath>

#include "clearsim/model/model_builder.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

using joints::JointType;

namespace {
const std::vector<std::string> kSphericalKeys = {"radial",   "restitution", "asperity",
                                                 "friction", "ball_radius", "treatment"};
const std::vector<std::string> kRevoluteKeys = {"radial", "restitution", "pin_length", "pin_axis",
                                                "axial",  "friction",    "pin_radius", "treatment"};

// Only the unilateral (NSGA) treatment exists so far; say so rather than ignore the key.
void read_treatment(const MapView& m) {
  if (auto c = m.find("treatment")) {
    const std::size_t k = read_choice_index(*c, {"unilateral", "compliant"});
    if (k == 1)
      c->fail(c->path() +
              ": the compliant treatment (a normal force law + a friction law) is "
              "not available yet; use 'unilateral' with integrator nsga");
  }
}

// Friction needs the radius at which it acts (its moment on the journal).
double read_friction(const MapView& m, const std::string& radius_key, double& radius) {
  const double mu = m.has("friction") ? read_non_negative(*m.find("friction"), "") : 0.0;
  radius = m.has(radius_key) ? read_non_negative(*m.find(radius_key), "m") : 0.0;
  if (mu > 0.0 && !m.has(radius_key))
    m.cursor().fail_at_key(m.cursor().path() + ": friction needs '" + radius_key +
                           "' (where the friction force acts) [m]");
  return mu;
}
}  // namespace

void read_clearance(const Entry& joint, const Cursor& c, JointType type, int body_i, int body_j,
                    const Vec3& at_W, const Vec3& axis_W, Model& model) {
  const bool spherical = type == JointType::kSpherical;
  const MapView m(c, "a map of clearance parameters (radial, restitution, ...)");
  m.allow_only("in the clearance of joint '" + joint.key + "'",
               spherical ? kSphericalKeys : kRevoluteKeys);
  read_treatment(m);
  ClearanceParams p;
  p.clearance = read_positive(m.need("radial", "the radial clearance c = R − r [m]"), "m");
  p.restitution = read_non_negative(
      m.need("restitution", "Newton's restitution coefficient e_N in [0, 1]"), "");
  if (p.restitution > 1.0)
    m.find("restitution")
        ->fail(m.find("restitution")->path() + ": expected a number in [0, 1], found " +
               format_number(p.restitution));
  if (spherical) {
    if (auto a = m.find("asperity")) p.asperity = read_non_negative(*a, "m");
    p.friction = read_friction(m, "ball_radius", p.contact_radius);
    build_at(c.source(), joint.value.key_pos(),
             [&] { return add_spherical_clearance(model, joint.key, body_i, body_j, at_W, p); });
    return;
  }
  p.pin_length = read_non_negative(
      m.need("pin_length", "the pin length L [m] (0 for a planar joint: one contact point)"), "m");
  const Vec3 pin_axis = m.has("pin_axis") ? read_direction(*m.find("pin_axis")) : axis_W;
  const Cursor ax = m.need("axial", "free, ideal, or {clearance: c_ax [m]} (thrust faces)");
  if (ax.node().IsMap()) {
    const MapView am(ax, "{clearance: c_ax [m]}");
    am.allow_only("in 'axial'", {"clearance"});
    p.axial = 2;
    p.axial_clearance = read_positive(am.need("clearance", "the axial clearance [m]"), "m");
  } else {
    p.axial = static_cast<int>(read_choice_index(ax, {"free", "ideal"}));
  }
  p.friction = read_friction(m, "pin_radius", p.contact_radius);
  build_at(c.source(), joint.value.key_pos(), [&] {
    return add_revolute_clearance(model, joint.key, body_i, body_j, at_W, axis_W, pin_axis, p);
  });
}

namespace {
void read_sphere_plane(const Entry& e, const MapView& m, Model& model) {
  m.allow_only("in sphere_plane contact '" + e.key + "'",
               {"type", "plane", "sphere", "restitution", "friction"});
  const MapView plane(m.need("plane", "{body:, point: [x, y, z], normal: [x, y, z]}"),
                      "a map {body:, point:, normal:}");
  plane.allow_only("in 'plane'", {"body", "point", "normal"});
  const MapView sphere(m.need("sphere", "{body:, center: [x, y, z], radius:}"),
                       "a map {body:, center:, radius:}");
  sphere.allow_only("in 'sphere'", {"body", "center", "radius"});
  const int pb = read_body_ref(plane.need("body", "a body name or ground"), model);
  const Vec3 point = read_vec3(plane.need("point", "a point of the plane [m]"), "m");
  const Vec3 normal = read_direction(plane.need("normal", "the plane normal (towards the sphere)"));
  const int sb = read_body_ref(sphere.need("body", "a body name"), model);
  const Vec3 centre = read_vec3(sphere.need("center", "the sphere centre [m]"), "m");
  const double radius =
      read_non_negative(sphere.need("radius", "the radius [m] (0: a point)"), "m");
  const Cursor ec = m.need("restitution", "Newton's restitution coefficient e_N in [0, 1]");
  const double e_n = read_non_negative(ec, "");
  if (e_n > 1.0) ec.fail(ec.path() + ": expected a number in [0, 1], found " + format_number(e_n));
  const double mu = m.has("friction") ? read_non_negative(*m.find("friction"), "") : 0.0;
  build_at(e.value.source(), e.value.key_pos(), [&] {
    return add_sphere_plane(model, e.key, pb, point, normal, sb, centre, radius, e_n, mu);
  });
}
}  // namespace

void read_contacts(const Cursor& section, Model& model) {
  for (const Entry& e : named_items(section, "contact")) {
    const MapView m(e.value, "a contact map {type: sphere_plane, ...}");
    read_choice_index(m.need("type", "the contact type: sphere_plane"), {"sphere_plane"});
    read_sphere_plane(e, m, model);
  }
}

}  // namespace cs::model_file
