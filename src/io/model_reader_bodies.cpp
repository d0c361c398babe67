// The `bodies` and `markers` sections.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

const std::vector<std::string> kBodyKeys = {"mass",        "inertia",  "position",
                                            "orientation", "velocity", "angular_velocity"};
const char* const kInertiaUnit = "kg·m²";
const char* const kInertiaForms =
    "an inertia: principal moments [Ixx, Iyy, Izz], a 3x3 matrix or a map {xx, yy, zz, xy, xz, "
    "yz} [kg·m²]";
const char* const kOrientationForms =
    "an orientation: {axis: [x, y, z], angle: θ [rad]} or a 3x3 rotation matrix (rows)";

// Inertia given as a map of matrix entries; the products default to 0.
Mat3 read_inertia_map(const Cursor& c) {
  const MapView m(c, kInertiaForms);
  m.allow_only("in the inertia map " + c.path(), {"xx", "yy", "zz", "xy", "xz", "yz"});
  const std::string moment = "a positive number [kg·m²]";
  const double xx = read_positive(m.need("xx", moment), kInertiaUnit);
  const double yy = read_positive(m.need("yy", moment), kInertiaUnit);
  const double zz = read_positive(m.need("zz", moment), kInertiaUnit);
  auto product = [&](const char* key) {
    const auto p = m.find(key);
    return p ? read_number(*p, kInertiaUnit) : 0.0;
  };
  const double xy = product("xy"), xz = product("xz"), yz = product("yz");
  Mat3 J;
  J << xx, xy, xz, xy, yy, yz, xz, yz, zz;
  return J;
}

// Checks J is symmetric positive definite (returning it exactly symmetric) and warns when its
// principal moments break the triangle inequality that every real mass distribution satisfies.
Mat3 check_inertia(const Cursor& c, const Mat3& J) {
  if ((J - J.transpose()).norm() > 1e-9 * J.norm())
    c.fail(c.path() + ": expected a symmetric inertia matrix [kg·m²], found entries (" +
           format_number(J(0, 1)) + " vs " + format_number(J(1, 0)) + ", " +
           format_number(J(0, 2)) + " vs " + format_number(J(2, 0)) + ", " +
           format_number(J(1, 2)) + " vs " + format_number(J(2, 1)) + ") that differ");
  const Mat3 S = 0.5 * (J + J.transpose());
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(S).eigenvalues();  // ascending
  const std::string found = format_number(moments[0]) + ", " + format_number(moments[1]) + ", " +
                            format_number(moments[2]);
  if (!(moments[0] > 0.0))
    c.fail(c.path() +
           ": expected a positive definite inertia matrix [kg·m²], found principal "
           "moments " +
           found);
  if (moments[2] > (moments[0] + moments[1]) * (1.0 + 1e-9))
    c.warn(c.path() + ": principal moments " + found +
           " break the triangle inequality I3 <= I1 + I2 that every real body satisfies");
  return S;
}

Mat3 read_inertia(const Cursor& c) {
  const YAML::Node& n = c.node();
  if (!c.is_null() && n.IsMap()) return check_inertia(c, read_inertia_map(c));
  if (c.is_null() || !n.IsSequence() || n.size() != 3) c.expected(kInertiaForms);
  if (n[0].IsSequence()) return check_inertia(c, read_mat3(c, kInertiaUnit));
  const std::vector<Cursor> items = c.items(kInertiaForms, 3);
  Vec3 principal;
  for (int k = 0; k < 3; ++k) principal[k] = read_positive(items[k], kInertiaUnit);
  return check_inertia(c, principal.asDiagonal());
}

}  // namespace

// [rad] beyond this an angle's rotation is round-off (read_orientation).
constexpr double kMaxAngle = 1e6;

// Also used by the shapes section (model_reader_sections.hpp).
Mat3 read_orientation(const Cursor& c) {
  const YAML::Node& n = c.node();
  if (!c.is_null() && n.IsMap()) {
    const MapView m(c, kOrientationForms);
    m.allow_only("in the orientation " + c.path(), {"axis", "angle"});
    const Vec3 axis = read_direction(m.need("axis", "a non-zero direction [x, y, z]"));
    const Cursor angle_at = m.need("angle", "a number [rad]");
    const double angle = read_number(angle_at, "rad");
    // Issue 14, item 4: an angle of 1e300 gave a NaN rotation, and check counted 13 degrees of
    // freedom. The rotation of an angle θ keeps only θ·1e-16 rad of accuracy (its remainder
    // mod 2π); past 1e6 rad that passes 1e-10 rad, the order of newton_tol: it is no rotation.
    if (!(std::abs(angle) <= kMaxAngle))
      angle_at.fail(angle_at.path() + ": expected an angle of at most " + format_number(kMaxAngle) +
                    " rad in magnitude, found " + format_number(angle) +
                    " (the rotation of so large an angle is round-off: give it modulo 2π)");
    return so3::exp(axis.normalized() * angle);
  }
  if (c.is_null() || !n.IsSequence()) c.expected(kOrientationForms);
  const Mat3 R = read_mat3(c, "");
  const double error = (R * R.transpose() - Mat3::Identity()).norm();
  if (!(error <= 1e-6) || !(R.determinant() > 0.0)) {
    c.fail(c.path() +
           ": expected a rotation matrix (orthonormal rows to 1e-6, determinant +1), "
           "found ‖R Rᵀ − I‖ = " +
           format_number(error) + " and det R = " + format_number(R.determinant()));
  }
  return so3::orthonormalize(R);
}

namespace {

// Issue 14, item 5: inertia [1e-300, ...] ran without a word. A radius of gyration √(I/m) below
// a micrometre is no body's (a microgram at a micrometre is 1e-21 kg·m², beside a 1 kg body
// 1e-12 kg·m²): the unit is likely wrong, and next to ordinary inertias the rotation equations
// lose their digits, as with a tiny mass.
void warn_if_tiny_inertia(const Cursor& c, const std::string& name, const Body& body) {
  constexpr double kMinGyrationRadius = 1e-6;  // [m]
  const double smallest = Eigen::SelfAdjointEigenSolver<Mat3>(body.inertia_B).eigenvalues()[0];
  const double radius = std::sqrt(smallest / body.mass);
  if (radius >= kMinGyrationRadius) return;
  std::ostringstream os;
  os << "bodies." << name << ".inertia: the smallest principal moment " << smallest
     << " kg·m² of a " << body.mass << " kg body is a radius of gyration of " << radius
     << " m, below 1e-6 m (a micrometre): is the unit kg·m²? Beside ordinary inertias it leaves "
        "the equations ill-conditioned";
  c.warn(os.str());
}

void read_body(const Entry& e, Model& model) {
  const MapView m(e.value, "a map of body properties (" + join(kBodyKeys) + ")");
  m.allow_only("in body '" + e.key + "'", kBodyKeys);
  Body body;
  body.name = e.key;
  const Cursor mass = m.need("mass", "a positive number [kg]");
  body.mass = read_positive(mass, "kg");
  // Issue 14, item 5: mass 1e-300 ran without a word. Below a microgram the unit is likely
  // wrong, and next to ordinary masses the equations lose all their digits.
  if (body.mass < 1e-9)
    mass.warn("bodies." + e.key + ".mass: " + format_number(body.mass) +
              " kg is below 1e-9 kg (a microgram): is the unit kg? Beside ordinary masses it "
              "leaves the equations ill-conditioned");
  const Cursor inertia = m.need("inertia", kInertiaForms);
  body.inertia_B = read_inertia(inertia);
  warn_if_tiny_inertia(inertia, e.key, body);
  body.x0_W = read_vec3(m.need("position", "the centre of mass, a list of 3 numbers [m]"), "m");
  if (auto c = m.find("orientation")) body.R0_WB = read_orientation(*c);
  if (auto c = m.find("velocity")) {
    body.v0_W = read_vec3(*c, "m/s");
    body.v0_prescribed = true;
  }
  if (auto c = m.find("angular_velocity")) {
    body.w0_W = read_vec3(*c, "rad/s");
    body.w0_prescribed = true;
  }
  build_at(e.value.source(), e.value.key_pos(), [&] { return add_body(model, std::move(body)); });
}

void read_marker(const Entry& e, Model& model) {
  const MapView m(e.value, "a marker map {body: <name>, position: [x, y, z]}");
  m.allow_only("in marker '" + e.key + "'", {"body", "position"});
  const int body = read_body_ref(m.need("body", "a body name"), model);
  const Vec3 p_W =
      read_vec3(m.need("position", "a point in world coordinates, a list of 3 numbers [m]"), "m");
  build_at(e.value.source(), e.value.key_pos(), [&] { add_marker(model, e.key, body, p_W); });
}

}  // namespace

void read_bodies(const Cursor& section, Model& model) {
  const std::vector<Entry> bodies = named_items(section, "body");
  if (bodies.empty()) section.expected("a map with at least one body");
  for (const Entry& e : bodies) read_body(e, model);
}

void read_markers(const Cursor& section, Model& model) {
  for (const Entry& e : named_items(section, "marker")) read_marker(e, model);
}

std::vector<Entry> named_items(const Cursor& section, const std::string& what) {
  if (section.is_null()) return {};
  return MapView(section, "a map from " + what + " names to " + what + " definitions").entries();
}

}  // namespace cs::model_file
