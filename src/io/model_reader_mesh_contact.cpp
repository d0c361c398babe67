// `contacts: NAME: {type: mesh, shapes: [A, B], contact: {...}, friction: {...}}`: compliant
// contact between two shapes' triangle meshes (elements/contact/mesh_contact.hpp). The shapes'
// bodies are the contact's bodies; the meshes must be closed and outward oriented. Between two
// generated gears `pinion: A, wheel: B` may name them as the analytic gear mesh does, so that
// `type` alone switches a gear pair between the two contact models.
#include <sstream>

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_laws.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {
const std::vector<std::string> kMeshContactKeys = {
    "type",           "shapes",           "pinion",           "wheel",
    "contact",        "restitution",      "friction",         "max_regions",
    "match_distance", "candidate_margin", "hold_contact_set", "hold_distance",
    "region_force",   "reference_length", "patch_tracking",   "tracking_margin",
    "fcl_collide"};

// The shape named at `c`, checked for use as a contact mesh (errors and warnings at `c`).
const Shape& read_contact_shape(const Cursor& c, const Model& model) {
  const std::string name = read_text(c, "a shape name");
  const Shape* s = model.find_shape(name);
  if (!s) {
    std::ostringstream os;
    os << c.path() << ": no shape '" << name << "' (shapes are declared in section 'shapes')";
    c.fail(os.str());
  }
  std::vector<std::string> warnings;
  try {
    contact::check_contact_mesh(*s, warnings);
  } catch (const std::invalid_argument& e) {
    c.fail(c.path() + ": " + e.what());
  }
  for (const std::string& w : warnings) c.warn(c.path() + ": " + w);
  return *s;
}
// The two shapes' names: `shapes: [A, B]`, or `pinion: A, wheel: B` (the analytic gear mesh's
// keys), never both.
std::vector<Cursor> contact_shapes(const MapView& m) {
  const auto pinion = m.find("pinion"), wheel = m.find("wheel");
  if (!pinion && !wheel)
    return m.need("shapes", "the two shapes in contact [shape_i, shape_j]")
        .items("a list of two shape names [shape_i, shape_j]", 2);
  if (auto s = m.find("shapes"))
    s->fail(s->path() +
            ": give the meshes either as shapes: [A, B] or as pinion: and wheel:, "
            "not both");
  if (!pinion) m.need("pinion", "the pinion's gear shape, named with wheel:");
  if (!wheel) m.need("wheel", "the wheel's gear shape, named with pinion:");
  return {*pinion, *wheel};
}
}  // namespace

void read_mesh_contact(const Entry& e, const MapView& m, Model& model) {
  m.allow_only("in mesh contact '" + e.key + "'", kMeshContactKeys);
  const std::vector<Cursor> shapes = contact_shapes(m);
  const Shape& a = read_contact_shape(shapes[0], model);
  const Shape& b = read_contact_shape(shapes[1], model);
  if (!m.has("shapes")) {
    for (int k = 0; k < 2; ++k)
      if (!(k == 0 ? a : b).gear)
        shapes[k].fail(shapes[k].path() + ": shape '" + (k == 0 ? a : b).name +
                       "' is not a generated gear; name other meshes with shapes: [A, B]");
  }
  if (a.body == b.body) {
    std::ostringstream os;
    os << shapes[1].path() << ": shapes '" << a.name << "' and '" << b.name
       << "' are on the same body; a mesh contact joins two bodies";
    shapes[1].fail(os.str());
  }
  const LawContext ctx;  // no radius: the stiffness is given (`stiffness:`)
  m.need("contact", "the contact law {law: hunt_crossley, stiffness: K, ...}");
  contact::ContactLaws laws;
  std::optional<double> restitution;
  if (auto r = m.find("restitution")) {
    restitution = read_non_negative(*r, "");
    if (*restitution > 1.0) r->expected("a number in [0, 1]");
  }
  laws.normal = read_normal_law(*m.find("contact"), ctx, restitution);
  if (auto f = m.find("friction")) laws.friction = read_friction_law(*f);
  contact::MeshContactOptions options;
  // Region force: `line` by default between two generated gears (L_ref that of the analytic gear
  // mesh, so `stiffness` means the same in both), `point` otherwise.
  const bool gears = a.gear && b.gear;
  options.region_force = gears ? contact::RegionForce::kLine : contact::RegionForce::kPoint;
  if (auto c = m.find("region_force")) {
    const std::string v = read_text(*c, "point or line");
    if (v == "point") {
      options.region_force = contact::RegionForce::kPoint;
    } else if (v == "line") {
      options.region_force = contact::RegionForce::kLine;
    } else {
      c->expected("point or line");
    }
  }
  if (auto c = m.find("reference_length")) {
    if (options.region_force != contact::RegionForce::kLine)
      c->fail(c->path() + ": a reference length is only read with region_force: line");
    options.reference_length = read_positive(*c, "m");
  } else if (options.region_force == contact::RegionForce::kLine) {
    if (!gears)
      m.need("reference_length", "the contact-line length L_ref [m] the law's stiffness is for");
    options.reference_length = gear_reference_length(shapes[1], model, a, b);
  }
  if (auto c = m.find("max_regions")) options.max_regions = read_integer(*c, 1);
  if (auto c = m.find("match_distance")) options.match_distance = read_positive(*c, "m");
  // 0: 5 % of the mean edge length; < 0: no reuse (FCL's collide at every evaluation).
  if (auto c = m.find("candidate_margin")) options.candidate_margin = read_number(*c, "m");
  // Patch tracking: the broad phase with temporal coherence (off by default, MeshContactOptions);
  // false: the candidates above, or FCL's collide at every evaluation.
  if (auto c = m.find("patch_tracking")) options.patch_tracking = read_bool(*c);
  // true: FCL's own collide rather than the traversal written here (the same pairs).
  if (auto c = m.find("fcl_collide")) options.fcl_collide = read_bool(*c);
  if (auto c = m.find("tracking_margin")) options.tracking_margin = read_positive(*c, "m");
  if (auto c = m.find("hold_contact_set")) options.hold_contact_set = read_bool(*c);
  if (auto c = m.find("hold_distance")) options.hold_distance = read_positive(*c, "m");
  // Between two gears that mesh as placed, the analytic mesh of the pair gives the helix spans
  // (the split at the apex, the gear channels) and the transmission error; gears that do not
  // (crossed axes) go without them.
  std::shared_ptr<const contact::GearMeshContact> gear_pair;
  if (gears) {
    try {
      gear_pair = analytic_gear_mesh(e.key, shapes[1], model, a, b, laws);
    } catch (const ModelFileError&) {
    }
  }
  build_at(e.value.source(), e.value.key_pos(), [&] {
    check_contact_laws(e.key, laws, contact::SpherePlaneGeometry{});
    auto element = std::make_unique<contact::MeshContact>(e.key, a, b, laws, options);
    element->set_gear_pair(gear_pair);
    return add_element(model, std::move(element));
  });
}

}  // namespace cs::model_file
