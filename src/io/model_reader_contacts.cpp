// Clearance joints (the `clearance:` key of a spherical or revolute joint) and the `contacts`
// section (sphere–plane): unilateral contacts for the NSGA integrator, or compliant/lubricated
// contacts (smooth forces) with `treatment:`.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_laws.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

using joints::JointType;

namespace {
const std::vector<std::string> kSphericalKeys = {"radial",   "restitution", "asperity",
                                                 "friction", "ball_radius", "treatment",
                                                 "contact",  "lubricant"};
const std::vector<std::string> kRevoluteKeys = {"radial",  "restitution", "pin_length", "pin_axis",
                                                "axial",   "friction",    "pin_radius", "treatment",
                                                "contact", "asperity",    "lubricant"};

enum class Treatment { kUnilateral, kCompliant, kLubricated };

// `contact: unilateral` under `treatment: lubricated`: the film over rigid NSGA contact at c − e0
// (seed 000's model, contact::LubricatedClearance) instead of a compliant law.
bool rigid_under_film(const MapView& m) {
  const auto c = m.find("contact");
  return c && c->node().IsScalar() && c->node().Scalar() == "unilateral";
}

Treatment read_treatment(const MapView& m) {
  if (auto c = m.find("treatment"))
    return read_choice(
        *c, std::vector<std::pair<std::string, Treatment>>{{"unilateral", Treatment::kUnilateral},
                                                           {"compliant", Treatment::kCompliant},
                                                           {"lubricated", Treatment::kLubricated}});
  return Treatment::kUnilateral;
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

std::optional<double> read_restitution(const MapView& m, bool required) {
  const auto c = m.find("restitution");
  if (!c) {
    if (required) m.need("restitution", "Newton's restitution coefficient e_N in [0, 1]");
    return std::nullopt;
  }
  const double e = read_non_negative(*c, "");
  if (e > 1.0) c->fail(c->path() + ": expected a number in [0, 1], found " + format_number(e));
  return e;
}

// The unilateral treatment's keys that the others do not read, and the other way round.
void check_treatment_keys(const MapView& m, Treatment t) {
  if (t == Treatment::kUnilateral) {
    for (const char* key : {"contact", "lubricant"})
      if (auto c = m.find(key))
        c->fail_at_key(c->path() + ": '" + key +
                       "' belongs to treatment: compliant or lubricated (this joint is "
                       "unilateral, an NSGA contact)");
    if (auto f = m.find("friction"); f && f->node().IsMap())
      f->fail(f->path() +
              ": the unilateral treatment takes a Coulomb coefficient (a number); "
              "friction laws belong to treatment: compliant or lubricated");
    return;
  }
  const Cursor law = m.need("contact", t == Treatment::kLubricated
                                           ? "the dry contact under the film: unilateral, or a "
                                             "law {law: lankarani_nikravesh, stiffness: K, ...}"
                                           : "the contact law {law: lankarani_nikravesh, "
                                             "stiffness: K, ...}");
  if (t == Treatment::kLubricated)
    m.need("lubricant", "the lubricant {viscosity: μ [Pa·s], ...}");
  else if (auto c = m.find("lubricant"))
    c->fail_at_key(c->path() + ": 'lubricant' needs treatment: lubricated");
  if (!law.node().IsScalar()) return;
  if (t != Treatment::kLubricated || !rigid_under_film(m))
    law.expected(t == Treatment::kLubricated
                     ? "unilateral (rigid contact under the film, for nsga) or a contact law map"
                     : "a contact law map {law: ..., stiffness: K, ...}");
  if (auto f = m.find("friction"); f && f->node().IsMap())
    f->fail(f->path() +
            ": rigid contact under the film takes a Coulomb coefficient (a number); friction "
            "laws belong to a compliant contact law");
}

// The compliant or lubricated laws of a clearance joint.
contact::ContactLaws read_laws(const MapView& m, Treatment t, const LawContext& ctx) {
  contact::ContactLaws laws;
  laws.normal = read_normal_law(*m.find("contact"), ctx, read_restitution(m, false));
  if (auto f = m.find("friction")) laws.friction = read_friction_law(*f);
  if (t == Treatment::kLubricated) laws.lubrication = read_lubricant(*m.find("lubricant"), ctx);
  laws.asperity = ctx.asperity;
  return laws;
}

// Issue 28: a clearance four times the rod's length was accepted, and the joint flew apart. A
// body's size is estimated from what every body has: the length of a slender rod with its largest
// principal moment of inertia, 2√3·√(J_max/m), or twice the joint's distance from its centre of
// mass (a rod jointed at its end), whichever is larger. A radial clearance above a tenth of the
// larger body's size is refused: real ones are 1e-4 to 1e-2 of the journal.
constexpr double kMaxClearanceShare = 0.1;

double body_size(const Body& b, const Vec3& at_W) {
  const double j_max = Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia_B, Eigen::EigenvaluesOnly)
                           .eigenvalues()
                           .maxCoeff();
  const double rod = 2.0 * std::sqrt(3.0) * std::sqrt(std::max(j_max, 0.0) / b.mass);
  return std::max(rod, 2.0 * (at_W - b.x0_W).norm());
}

void check_clearance_size(const Cursor& radial, double c, int body_i, int body_j, const Vec3& at_W,
                          const Model& model) {
  double size = 0.0;
  std::string name;
  for (const int b : {body_i, body_j}) {
    if (b == kGround) continue;
    const double s = body_size(model.bodies[b], at_W);
    if (s > size) {
      size = s;
      name = model.bodies[b].name;
    }
  }
  if (!(size > 0.0) || c <= kMaxClearanceShare * size) return;
  std::ostringstream os;
  os.precision(3);
  os << "a radial clearance below " << kMaxClearanceShare * size
     << " m (a tenth of the larger body it joins: '" << name << "', about " << size
     << " m across by its inertia and the joint's distance from its centre of mass)";
  radial.expected(os.str());
}

LawContext law_context(const MapView& m, bool spherical, double c, double asperity) {
  LawContext ctx;
  ctx.spherical = spherical;
  ctx.clearance = c;
  ctx.asperity = asperity;
  ctx.radius_key = spherical ? "ball_radius" : "pin_radius";
  if (auto r = m.find(ctx.radius_key)) ctx.journal_radius = read_positive(*r, "m");
  if (ctx.journal_radius > 0.0)
    ctx.effective_radius = contact::conformal_radius(ctx.journal_radius, ctx.journal_radius + c);
  return ctx;
}
}  // namespace

void read_clearance(const Entry& joint, const Cursor& c, JointType type, int body_i, int body_j,
                    const Vec3& at_W, const Vec3& axis_W, Model& model) {
  const bool spherical = type == JointType::kSpherical;
  const MapView m(c, "a map of clearance parameters (radial, restitution, ...)");
  m.allow_only("in the clearance of joint '" + joint.key + "'",
               spherical ? kSphericalKeys : kRevoluteKeys);
  const Treatment treatment = read_treatment(m);
  check_treatment_keys(m, treatment);
  ClearanceParams p;
  const Cursor radial = m.need("radial", "the radial clearance c = R − r [m]");
  p.clearance = read_positive(radial, "m");
  check_clearance_size(radial, p.clearance, body_i, body_j, at_W, model);
  if (auto a = m.find("asperity")) {
    if (!spherical && treatment == Treatment::kUnilateral)
      a->fail_at_key(a->path() +
                     ": 'asperity' of a revolute joint belongs to treatment: "
                     "compliant or lubricated");
    p.asperity = read_non_negative(*a, "m");
    if (p.asperity >= p.clearance)
      a->fail(a->path() + ": the asperity height e0 = " + format_number(p.asperity) +
              " m must be smaller than the radial clearance c = " + format_number(p.clearance) +
              " m (contact starts at ‖e‖ = c − e0)");
  }
  if (treatment == Treatment::kLubricated && rigid_under_film(m)) {
    // Seed 000's model: the film as a smooth force, rigid contact at c − e0 with Newton's e_N.
    p.restitution = *read_restitution(m, true);
    p.friction = read_friction(m, spherical ? "ball_radius" : "pin_radius", p.contact_radius);
    const LawContext ctx = law_context(m, spherical, p.clearance, p.asperity);
    p.contact_radius = ctx.journal_radius;
    p.film = read_lubricant(*m.find("lubricant"), ctx);
  } else if (treatment == Treatment::kUnilateral) {
    p.restitution = *read_restitution(m, true);
    p.friction = read_friction(m, spherical ? "ball_radius" : "pin_radius", p.contact_radius);
  } else {
    const LawContext ctx = law_context(m, spherical, p.clearance, p.asperity);
    p.contact_radius = ctx.journal_radius;
    p.laws = read_laws(m, treatment, ctx);
  }
  if (spherical) {
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
    p.axial = contact::RevoluteClearance::Axial::kClearance;
    p.axial_clearance = read_positive(am.need("clearance", "the axial clearance [m]"), "m");
  } else {
    p.axial = read_choice_index(ax, {"free", "ideal"}) == 0
                  ? contact::RevoluteClearance::Axial::kFree
                  : contact::RevoluteClearance::Axial::kIdeal;
  }
  build_at(c.source(), joint.value.key_pos(), [&] {
    return add_revolute_clearance(model, joint.key, body_i, body_j, at_W, axis_W, pin_axis, p);
  });
}

namespace {
void read_sphere_plane(const Entry& e, const MapView& m, Model& model) {
  m.allow_only("in sphere_plane contact '" + e.key + "'",
               {"type", "plane", "sphere", "restitution", "friction", "treatment", "contact"});
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
  const Treatment treatment = read_treatment(m);
  if (treatment == Treatment::kLubricated)
    m.find("treatment")->expected("unilateral or compliant (lubrication needs a clearance joint)");
  check_treatment_keys(m, treatment);
  if (treatment == Treatment::kCompliant) {
    LawContext ctx;
    ctx.effective_radius = radius;
    ctx.radius_key = "sphere.radius";
    contact::ContactLaws laws;
    laws.normal = read_normal_law(*m.find("contact"), ctx, read_restitution(m, false));
    if (auto f = m.find("friction")) laws.friction = read_friction_law(*f);
    build_at(e.value.source(), e.value.key_pos(), [&] {
      const Vec3 n = normal.normalized();
      return add_compliant_contact(
          model, e.key, pb, sb,
          contact::SpherePlaneGeometry{marker_at(model, pb, point, so3::frame_with_z_axis(n)),
                                       marker_at(model, sb, centre, Mat3::Identity()), radius},
          laws);
    });
    return;
  }
  const double e_n = *read_restitution(m, true);
  const double mu = m.has("friction") ? read_non_negative(*m.find("friction"), "") : 0.0;
  build_at(e.value.source(), e.value.key_pos(), [&] {
    return add_sphere_plane(model, e.key, pb, point, normal, sb, centre, radius, e_n, mu);
  });
}
}  // namespace

void check_film_integrator(const Cursor& joints, const SolverSettings& solver) {
  if (solver.analysis == Analysis::kDynamic && solver.integrator == IntegratorKind::kNsga) return;
  static const char* const kNames[] = {
      "generalized_alpha", "newmark", "hht", "trapezoidal", "nsga", "rk4", "dormand_prince"};
  const std::string found =
      solver.analysis != Analysis::kDynamic
          ? std::string(solver.analysis == Analysis::kStatic ? "a static" : "a kinematic") +
                " analysis"
          : std::string("integrator: ") + kNames[static_cast<int>(solver.integrator)];
  for (const Entry& joint : named_items(joints, "joint")) {
    if (!joint.value.node().IsMap() || !joint.value.node()["clearance"]) continue;
    const MapView j(joint.value, "a joint map");
    const Cursor clearance = *j.find("clearance");
    if (!clearance.node().IsMap()) continue;
    const MapView m(clearance, "a map of clearance parameters");
    if (read_treatment(m) != Treatment::kLubricated || !rigid_under_film(m)) continue;
    const Cursor c = *m.find("contact");
    c.fail(c.path() +
           ": rigid contact under the film (seed 000's model: film rupture as an NSGA impact) "
           "needs a dynamic analysis with solver.integrator: nsga, found " +
           found + " (for a smooth integrator give a compliant law: contact: {law: ...})");
  }
}

void read_contacts(const Cursor& section, Model& model) {
  for (const Entry& e : named_items(section, "contact")) {
    const MapView m(e.value, "a contact map {type: sphere_plane | gear_mesh | mesh, ...}");
    const std::size_t type =
        read_choice_index(m.need("type", "the contact type: sphere_plane, gear_mesh or mesh"),
                          {"sphere_plane", "gear_mesh", "mesh"});
    if (type == 1)
      read_gear_mesh(e, m, model);
    else if (type == 2)
      read_mesh_contact(e, m, model);
    else
      read_sphere_plane(e, m, model);
  }
}

}  // namespace cs::model_file
