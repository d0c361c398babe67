#include "gear_command.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/mesh_check.hpp"
#include "clearsim/geometry/mesh_io.hpp"
#include "clearsim/io/model_reader.hpp"

namespace cs::cli {

namespace {

constexpr double kMm = 1e-3;
constexpr double kDeg = M_PI / 180.0;

// Command-line values in the units gear data come in (mm, degrees), converted once to SI.
struct GearOptions {
  double module_mm = 0, face_width_mm = 0, gap_mm = 0, allowance_mm = 0;
  double pressure_angle_deg = 20, helix_angle_deg = 0;
  int teeth = 0;
  std::string hand = "right";
  bool double_helical = false;
  double shift = 0, addendum = 1.0, dedendum = 1.25, root_fillet = 0.38, tip_shortening = 0;
  int flank_points = 40, fillet_points = 12, slices = 0;
  double chord_tolerance_um = 2;
  std::string output, stl_unit = "mm";
  int mate_teeth = 0;
  double mate_shift = 0, centre_distance_mm = 0;
  std::string mate_output;
  std::string model, shape;  // or: a shape of a model file
};

GearOptions options;
// The options whose absence is a missing option (a value given, even 0, is checked as a value).
CLI::Option *module_option = nullptr, *teeth_option = nullptr, *face_width_option = nullptr;

// The option that sets each GearError parameter, for the message.
std::string option_for(const std::string& parameter) {
  static const std::map<std::string, std::string> names = {
      {"module", "--module-mm"},
      {"face_width", "--face-width-mm"},
      {"gap", "--gap-mm"},
      {"backlash_allowance", "--backlash-allowance-mm"},
      {"pressure_angle", "--pressure-angle-deg"},
      {"helix_angle", "--helix-angle-deg"},
      {"centre_distance", "--centre-distance-mm"}};
  const auto it = names.find(parameter);
  if (it != names.end()) return it->second;
  std::string option = "--" + parameter;
  for (char& c : option)
    if (c == '_') c = '-';
  return option;
}

GearParameters gear_parameters(const GearOptions& o) {
  GearParameters p;
  p.normal_module = o.module_mm * kMm;
  p.teeth = o.teeth;
  p.normal_pressure_angle = o.pressure_angle_deg * kDeg;
  p.helix_angle = o.helix_angle_deg * kDeg;
  p.hand = o.hand == "left" ? HelixHand::kLeft : HelixHand::kRight;
  p.profile_shift = o.shift;
  p.rack = {o.addendum, o.dedendum, o.root_fillet};
  p.tip_shortening = o.tip_shortening;
  p.face_width = o.face_width_mm * kMm;
  p.double_helical = o.double_helical;
  p.helix_gap = o.gap_mm * kMm;
  p.thickness_allowance = o.allowance_mm * kMm;
  return p;
}

// The mate: same rack and module, opposite hand, its own teeth and shift.
GearParameters mate_parameters(const GearParameters& p, const GearOptions& o) {
  GearParameters q = p;
  q.teeth = o.mate_teeth;
  q.profile_shift = o.mate_shift;
  q.hand = p.hand == HelixHand::kRight ? HelixHand::kLeft : HelixHand::kRight;
  return q;
}

void print_gear(const char* name, const GearParameters& p, const GearGeometry& g) {
  std::printf("%s: z = %d, m_n = %g mm, alpha_n = %g deg, beta = %g deg (%s%s), x = %+g\n", name,
              p.teeth, p.normal_module / kMm, p.normal_pressure_angle / kDeg, p.helix_angle / kDeg,
              p.hand == HelixHand::kRight ? "right" : "left",
              p.double_helical ? ", double-helical" : "", p.profile_shift);
  std::printf("  m_t = %.5f mm  alpha_t = %.5f deg  beta_b = %.5f deg\n", g.m_t / kMm,
              g.alpha_t / kDeg, g.beta_b / kDeg);
  std::printf("  d = %.4f  d_b = %.4f  d_a = %.4f  d_f = %.4f  d_form = %.4f mm\n", g.d / kMm,
              g.d_b / kMm, g.d_a / kMm, g.d_f / kMm, g.d_form / kMm);
  std::printf(
      "  p_t = %.4f  p_bt = %.4f  s_t = %.4f  s_at = %.4f mm  lead = %.1f mm  x_min = %.3f\n",
      g.p_t / kMm, g.p_bt / kMm, g.s_t / kMm, g.s_at / kMm, g.p_z / kMm, g.x_min);
}

void print_pair(const GearPairGeometry& pr) {
  std::printf("pair: u = %.5f  a_0 = %.4f mm  a = %.4f mm  (zero-backlash a_w = %.4f mm)\n", pr.u,
              pr.a_0 / kMm, pr.a / kMm, pr.a_w / kMm);
  std::printf("  alpha_wt = %.5f deg  d_w1 = %.4f  d_w2 = %.4f mm\n", pr.alpha_wt / kDeg,
              pr.d_w1 / kMm, pr.d_w2 / kMm);
  std::printf(
      "  eps_alpha = %.4f (eps_1 = %.4f, eps_2 = %.4f)  eps_beta = %.4f  eps_gamma = %.4f\n",
      pr.eps_alpha, pr.eps_1, pr.eps_2, pr.eps_beta, pr.eps_gamma);
  std::printf("  backlash j_t = %.4f mm, j_bn = %.4f mm  tip clearances %.4f / %.4f mm\n",
              pr.j_t / kMm, pr.j_bn / kMm, pr.c_12 / kMm, pr.c_21 / kMm);
}

GearResolution resolution(const GearOptions& o) {
  GearResolution r;
  r.profile.flank_points = o.flank_points;
  r.profile.fillet_points = o.fillet_points;
  r.slices = o.slices;
  r.chord_tolerance = o.chord_tolerance_um * 1e-6;
  return r;
}

// Generates the mesh, optionally placed (turned by `turn` about z, moved by `shift_x` along x),
// and writes it.
void write_gear(const GearParameters& p, const std::string& path, double turn, double shift_x) {
  const auto start = std::chrono::steady_clock::now();
  TriangleMesh mesh = gear_mesh(p, resolution(options));
  const double c = std::cos(turn), s = std::sin(turn);
  for (Vec3& v : mesh.vertices)
    v = Vec3(c * v.x() - s * v.y() + shift_x, s * v.x() + c * v.y(), v.z());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const MeshReport report = check_mesh(mesh);
  write_stl_binary(mesh, path, options.stl_unit == "mm" ? 1e3 : 1.0);
  std::printf(
      "%s: %d triangles, %d vertices, %d sections per helix, volume %.6g m^3, %s, "
      "generated in %.3f s\n",
      path.c_str(), mesh.num_triangles(), mesh.num_vertices(),
      slices_per_helix(p, gear_geometry(p), resolution(options)), report.volume,
      report.valid_solid() ? "closed and outward" : "NOT a valid solid", seconds);
}

}  // namespace

CLI::App* add_gear_command(CLI::App& app) {
  GearOptions& o = options;
  auto* cmd = app.add_subcommand(
      "gear", "print an involute gear's geometry (and its mate's) and write it as binary STL");
  cmd->add_option("--model", o.model,
                  "model file whose shape --shape to write (instead of the "
                  "gear options)");
  cmd->add_option("--shape", o.shape, "name of the shape in --model");
  module_option = cmd->add_option("--module-mm", o.module_mm, "normal module m_n [mm]");
  teeth_option = cmd->add_option("--teeth", o.teeth, "number of teeth z");
  face_width_option =
      cmd->add_option("--face-width-mm", o.face_width_mm, "face width b per helix [mm]");
  cmd->add_option("--pressure-angle-deg", o.pressure_angle_deg, "normal pressure angle [deg]")
      ->capture_default_str();
  cmd->add_option("--helix-angle-deg", o.helix_angle_deg, "helix angle [deg], 0: spur")
      ->capture_default_str();
  cmd->add_option("--hand", o.hand, "helix hand (of the first helix)")
      ->check(CLI::IsMember({"right", "left"}))
      ->capture_default_str();
  cmd->add_flag("--double-helical", o.double_helical, "two helices of opposite hand");
  cmd->add_option("--gap-mm", o.gap_mm, "gap between the helices [mm]")->capture_default_str();
  cmd->add_option("--profile-shift", o.shift, "profile shift coefficient x")->capture_default_str();
  cmd->add_option("--addendum", o.addendum, "basic rack addendum h_aP*")->capture_default_str();
  cmd->add_option("--dedendum", o.dedendum, "basic rack dedendum h_fP*")->capture_default_str();
  cmd->add_option("--root-fillet", o.root_fillet, "root fillet radius rho_fP*")
      ->capture_default_str();
  cmd->add_option("--tip-shortening", o.tip_shortening, "tip shortening k")->capture_default_str();
  cmd->add_option("--backlash-allowance-mm", o.allowance_mm,
                  "normal tooth-thickness reduction E_sn [mm]")
      ->capture_default_str();
  cmd->add_option("--flank-points", o.flank_points, "points per flank")->capture_default_str();
  cmd->add_option("--fillet-points", o.fillet_points, "points per root fillet")
      ->capture_default_str();
  cmd->add_option("--slices", o.slices, "sections per helix (0: from --chord-tolerance-um)")
      ->capture_default_str();
  cmd->add_option("--chord-tolerance-um", o.chord_tolerance_um, "helix chord tolerance [um]")
      ->capture_default_str();
  cmd->add_option("-o,--output", o.output, "STL file for the gear");
  cmd->add_option("--stl-unit", o.stl_unit, "length unit of the STL files")
      ->check(CLI::IsMember({"mm", "m"}))
      ->capture_default_str();
  cmd->add_option("--mate-teeth", o.mate_teeth, "teeth of a mating gear: print the pair");
  cmd->add_option("--mate-profile-shift", o.mate_shift, "profile shift of the mate");
  cmd->add_option("--centre-distance-mm", o.centre_distance_mm,
                  "centre distance [mm] (default: zero backlash of the nominal teeth)");
  cmd->add_option("--mate-output", o.mate_output,
                  "STL file for the mate, placed in mesh at the centre distance along +x");
  return cmd;
}

namespace {

// A gear from the command-line options, and optionally its mate.
int run_from_options(const GearOptions& o) {
  // Issue 28: --teeth 0 was reported as a missing option; a value given is checked as a value
  // (gear_geometry: "--teeth: expected at least 3 teeth, found 0").
  if (module_option->count() == 0 || teeth_option->count() == 0 ||
      face_width_option->count() == 0) {
    std::fprintf(stderr,
                 "clearsim gear: error: give --module-mm, --teeth and --face-width-mm, or --model "
                 "and --shape\n");
    return 1;
  }
  if (!o.mate_output.empty() && o.mate_teeth <= 0) {
    std::fprintf(stderr, "clearsim gear: error: --mate-output needs --mate-teeth\n");
    return 1;
  }
  const GearParameters p = gear_parameters(o);
  print_gear("gear", p, gear_geometry(p));
  double centre_distance = 0;
  GearParameters q;
  if (o.mate_teeth > 0) {
    q = mate_parameters(p, o);
    print_gear("mate", q, gear_geometry(q));
    const GearPairGeometry pair = gear_pair_geometry(p, q, o.centre_distance_mm * kMm);
    print_pair(pair);
    centre_distance = pair.a;
  }
  if (!o.output.empty()) write_gear(p, o.output, 0.0, 0.0);
  if (!o.mate_output.empty()) write_gear(q, o.mate_output, M_PI + M_PI / q.teeth, centre_distance);
  return 0;
}

// A shape of a model file (a gear or a mesh file) written in its own frame. Model-file errors
// propagate as ModelFileError (FILE:LINE:COL), printed by main.
int run_from_model(const GearOptions& o) {
  const LoadedModel lm = load_model_file(o.model);
  const Shape* shape = lm.model.find_shape(o.shape);
  if (shape == nullptr) {
    std::string names;
    for (const Shape& s : lm.model.shapes) names += (names.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "%s: error: no shape '%s' (shapes: %s)\n", o.model.c_str(),
                 o.shape.c_str(), names.empty() ? "none" : names.c_str());
    return 1;
  }
  if (shape->gear) print_gear(o.shape.c_str(), *shape->gear, gear_geometry(*shape->gear));
  if (!o.output.empty()) {
    write_stl_binary(*shape->mesh, o.output, o.stl_unit == "mm" ? 1e3 : 1.0);
    std::printf("%s: %d triangles, %d vertices\n", o.output.c_str(), shape->mesh->num_triangles(),
                shape->mesh->num_vertices());
  }
  return 0;
}

}  // namespace

// Resolution counts that cannot be (--slices -5 was taken as "from the chord tolerance").
std::string bad_resolution(const GearOptions& o) {
  const auto check = [](const char* option, int value, int min, const char* what) {
    if (value >= min) return std::string();
    return std::string(option) + ": expected " + what + ", found " + std::to_string(value);
  };
  for (const std::string& why :
       {check("--slices", o.slices, 0,
              "a number of sections per helix >= 0 (0: from --chord-tolerance-um)"),
        check("--flank-points", o.flank_points, 2, "a number of points per flank >= 2"),
        check("--fillet-points", o.fillet_points, 1, "a number of points per root fillet >= 1")})
    if (!why.empty()) return why;
  if (!(std::isfinite(o.chord_tolerance_um) && o.chord_tolerance_um > 0.0))
    return "--chord-tolerance-um: expected a positive length [um], found " +
           CLI::detail::to_string(o.chord_tolerance_um);
  return {};
}

int run_gear_command() {
  const GearOptions& o = options;
  if (const std::string why = bad_resolution(o); !why.empty()) {
    std::fprintf(stderr, "clearsim gear: error: %s\n", why.c_str());
    return 1;
  }
  if (o.model.empty() != o.shape.empty()) {
    std::fprintf(stderr, "clearsim gear: error: --model and --shape go together\n");
    return 1;
  }
  try {
    return o.model.empty() ? run_from_options(o) : run_from_model(o);
  } catch (const GearError& e) {
    std::fprintf(stderr, "clearsim gear: error: %s: %s\n", option_for(e.parameter()).c_str(),
                 e.message().c_str());
    return 1;
  } catch (const MeshFileError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace cs::cli
