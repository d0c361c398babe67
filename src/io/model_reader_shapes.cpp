// The `shapes` section: triangle meshes carried by bodies, read from STL/OBJ files or generated
// as involute gears (docs/model-format.md, docs/gears.md). Each mesh is built once and held by
// the Model through a shared pointer; shapes naming the same file in the same unit share it.
#include <filesystem>
#include <map>
#include <numbers>
#include <sstream>

#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/mesh_io.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

const std::vector<std::string> kShapeKeys = {"body", "position", "orientation", "mesh", "gear"};
const std::vector<std::string> kGearKeys = {
    "module",         "teeth",      "pressure_angle",     "helix_angle",
    "angle_unit",     "hand",       "double_helical",     "gap",
    "profile_shift",  "addendum",   "dedendum",           "root_fillet",
    "tip_shortening", "face_width", "backlash_allowance", "resolution"};
const std::vector<std::string> kResolutionKeys = {
    "flank_points", "fillet_points", "root_points", "tip_points", "slices", "chord_tolerance"};

using MeshCache = std::map<std::pair<std::string, double>, std::shared_ptr<const TriangleMesh>>;

// The mesh file named at `c`, relative to the model file's folder unless absolute.
std::string mesh_path(const Cursor& c, const std::string& file) {
  const std::filesystem::path p(file);
  if (p.is_absolute()) return file;
  return (std::filesystem::path(c.source().name()).parent_path() / p).string();
}

std::shared_ptr<const TriangleMesh> read_mesh(const Cursor& c, MeshCache& cache) {
  const MapView m(c, "a mesh map {file: <path>, unit: m | mm}");
  m.allow_only("in the mesh " + c.path(), {"file", "unit"});
  const Cursor file_cursor = m.need("file", "the mesh file (.stl or .obj)");
  const std::string path = mesh_path(c, read_text(file_cursor, "a file name"));
  MeshFileOptions options;
  if (auto u = m.find("unit")) options.scale = read_choice<double>(*u, {{"m", 1.0}, {"mm", 1e-3}});
  auto& cached = cache[{path, options.scale}];
  if (cached) return cached;
  try {
    cached = std::make_shared<const TriangleMesh>(load_mesh_file(path, options).mesh);
  } catch (const MeshFileError& e) {
    std::ostringstream os;
    os << file_cursor.path() << ": " << e.file() << ": " << e.message();
    file_cursor.fail(os.str());
  }
  return cached;
}

GearResolution read_resolution(const Cursor& c) {
  const MapView m(c, "a resolution map (" + join(kResolutionKeys) + ")");
  m.allow_only("in " + c.path(), kResolutionKeys);
  GearResolution r;
  if (auto v = m.find("flank_points")) r.profile.flank_points = read_integer(*v, 2);
  if (auto v = m.find("fillet_points")) r.profile.fillet_points = read_integer(*v, 1);
  if (auto v = m.find("root_points")) r.profile.root_points = read_integer(*v, 1);
  if (auto v = m.find("tip_points")) r.profile.tip_points = read_integer(*v, 0);
  if (auto v = m.find("slices")) r.slices = read_integer(*v, 0);
  if (auto v = m.find("chord_tolerance")) r.chord_tolerance = read_positive(*v, "m");
  return r;
}

// The gear's parameters as written; their validity is checked by gear_geometry.
GearParameters read_gear_parameters(const MapView& m) {
  double angle = 1.0;  // radians per angle unit
  std::string unit = "rad";
  if (auto u = m.find("angle_unit")) {
    angle = read_choice<double>(*u, {{"rad", 1.0}, {"deg", std::numbers::pi / 180}});
    unit = angle == 1.0 ? "rad" : "deg";
  }
  GearParameters p;
  p.normal_module = read_positive(m.need("module", "the normal module m_n [m]"), "m");
  p.teeth = read_integer(m.need("teeth", "the number of teeth z"), 3);
  p.normal_pressure_angle =
      angle * read_positive(m.need("pressure_angle", "the normal pressure angle α_n"), unit);
  if (auto v = m.find("helix_angle")) p.helix_angle = angle * read_non_negative(*v, unit);
  if (auto v = m.find("hand"))
    p.hand = read_choice<HelixHand>(*v, {{"right", HelixHand::kRight}, {"left", HelixHand::kLeft}});
  if (auto v = m.find("double_helical")) p.double_helical = read_bool(*v);
  if (auto v = m.find("gap")) p.helix_gap = read_non_negative(*v, "m");
  if (auto v = m.find("profile_shift")) p.profile_shift = read_number(*v, "");
  if (auto v = m.find("addendum")) p.rack.addendum = read_positive(*v, "");
  if (auto v = m.find("dedendum")) p.rack.dedendum = read_positive(*v, "");
  if (auto v = m.find("root_fillet")) p.rack.root_fillet_radius = read_non_negative(*v, "");
  if (auto v = m.find("tip_shortening")) p.tip_shortening = read_number(*v, "");
  p.face_width = read_positive(m.need("face_width", "the face width per helix b [m]"), "m");
  if (auto v = m.find("backlash_allowance")) p.thickness_allowance = read_non_negative(*v, "m");
  return p;
}

std::shared_ptr<const TriangleMesh> read_gear(const Cursor& c, GearParameters& p) {
  const MapView m(c, "a gear map (" + join(kGearKeys) + ")");
  m.allow_only("in the gear " + c.path(), kGearKeys);
  p = read_gear_parameters(m);
  GearResolution resolution;
  if (auto r = m.find("resolution")) resolution = read_resolution(*r);
  try {
    return std::make_shared<const TriangleMesh>(gear_mesh(p, resolution));
  } catch (const GearError& e) {
    const std::optional<Cursor> key = m.find(e.parameter());
    const Cursor& at = key ? *key : c;
    std::ostringstream os;
    os << c.path() << '.' << e.parameter() << ": " << e.message();
    key ? at.fail(os.str()) : at.fail_at_key(os.str());
  } catch (const std::exception& e) {  // not expected: an accepted gear always meshes
    c.fail_at_key(c.path() + ": cannot generate the gear: " + e.what());
  }
}

void read_shape(const Entry& e, Model& model, MeshCache& cache) {
  const MapView m(e.value, "a shape map (" + join(kShapeKeys) + ")");
  m.allow_only("in shape '" + e.key + "'", kShapeKeys);
  const int body = read_body_ref(m.need("body", "a body name"), model);
  Vec3 p_W = body == kGround ? Vec3::Zero() : model.bodies[body].x0_W;
  Mat3 R_WS = body == kGround ? Mat3::Identity() : model.bodies[body].R0_WB;
  if (auto c = m.find("position")) p_W = read_vec3(*c, "m");
  if (auto c = m.find("orientation")) R_WS = read_orientation(*c);
  const auto mesh_key = m.find("mesh"), gear_key = m.find("gear");
  if (mesh_key.has_value() == gear_key.has_value())
    e.value.fail_at_key(e.value.path() + ": expected exactly one of 'mesh' and 'gear'");
  std::optional<GearParameters> gear;
  std::shared_ptr<const TriangleMesh> mesh;
  std::string source;
  if (mesh_key) {
    mesh = read_mesh(*mesh_key, cache);
    source = mesh_path(*mesh_key, read_text(MapView(*mesh_key, "").need("file", ""), ""));
  } else {
    gear.emplace();
    mesh = read_gear(*gear_key, *gear);
  }
  build_at(e.value.source(), e.value.key_pos(), [&] {
    add_shape(model, e.key, body, p_W, R_WS, std::move(mesh), std::move(gear), source);
  });
}

}  // namespace

void read_shapes(const Cursor& section, Model& model) {
  MeshCache cache;
  for (const Entry& e : named_items(section, "shape")) read_shape(e, model, cache);
}

}  // namespace cs::model_file
