#include "clearsim/geometry/gear_geometry.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "clearsim/geometry/involute.hpp"

namespace cs {

namespace {

std::string joined(const std::string& parameter, const std::string& message) {
  std::ostringstream os;
  os << parameter << ": " << message;
  return os.str();
}

constexpr double kDeg = M_PI / 180.0;

void require_finite_in(const std::string& name, double value, double lo, double hi,
                       bool lo_inclusive, const char* unit) {
  const bool above = lo_inclusive ? value >= lo : value > lo;
  if (!std::isfinite(value) || !above || !(value < hi))
    throw_gear_error(name, "expected a value in ", lo_inclusive ? "[" : "(", lo, ", ", hi, ")",
                     unit, ", found ", value);
}

void check_inputs(const GearParameters& p) {
  const double inf = std::numeric_limits<double>::infinity();
  require_finite_in("module", p.normal_module, 0.0, inf, false, " m");
  if (p.teeth < 3) throw_gear_error("teeth", "expected at least 3 teeth, found ", p.teeth);
  require_finite_in("pressure_angle", p.normal_pressure_angle, 0.0, 45 * kDeg, false, " rad");
  if (!std::isfinite(p.helix_angle) || p.helix_angle < 0.0 || p.helix_angle > 45 * kDeg)
    throw_gear_error("helix_angle",
                     "expected a value in [0, 45°] (the hand gives the direction), found ",
                     p.helix_angle, " rad");
  require_finite_in("profile_shift", p.profile_shift, -inf, inf, false, "");
  require_finite_in("addendum", p.rack.addendum, 0.0, inf, false, " (factor of m_n)");
  require_finite_in("dedendum", p.rack.dedendum, 0.0, inf, false, " (factor of m_n)");
  require_finite_in("root_fillet", p.rack.root_fillet_radius, 0.0, inf, true, " (factor of m_n)");
  require_finite_in("tip_shortening", p.tip_shortening, -inf, inf, false, "");
  require_finite_in("face_width", p.face_width, 0.0, inf, false, " m");
  require_finite_in("gap", p.helix_gap, 0.0, inf, true, " m");
  require_finite_in("backlash_allowance", p.thickness_allowance, 0.0, inf, true, " m");
  if (p.helix_angle == 0.0 && p.double_helical)
    throw_gear_error("helix_angle", "a double-helical gear needs a helix angle > 0");
}

// The tool tip (the gear's root land) must leave room for the two fillets: along the tip line a
// fillet of radius ρ tangent to the flank takes ρ tan((90° − α_n)/2) of the tool's half width.
void check_fillet_fits(const GearParameters& p) {
  const double m = p.normal_module, alpha_n = p.normal_pressure_angle;
  const double tool_tip_half_width =
      M_PI * m / 4 + p.thickness_allowance / 2 - p.rack.dedendum * m * std::tan(alpha_n);
  const double fillet_length = p.rack.root_fillet_radius * m * std::tan((M_PI_2 - alpha_n) / 2);
  if (fillet_length > tool_tip_half_width)
    throw_gear_error("root_fillet", "a root fillet radius of ", p.rack.root_fillet_radius,
                     " m_n does not fit on the tool tip (at most ",
                     std::max(0.0, tool_tip_half_width) / (m * std::tan((M_PI_2 - alpha_n) / 2)),
                     " m_n with this dedendum and pressure angle)");
}

// Undercut (reference.md §6e/§7.2): the lowest point of the tool's straight flank, where the tip
// fillet begins, must not reach below the interference point of the line of action, which lies
// r sin²α_t inside the rolling line.
void set_undercut_limit(const GearParameters& p, GearGeometry& g) {
  const double m = p.normal_module;
  const double flank_end_depth =
      m * (p.rack.dedendum - p.rack.root_fillet_radius * (1 - std::sin(p.normal_pressure_angle)));
  const double r = g.d / 2;
  const double interference_depth = r * std::pow(std::sin(g.alpha_t), 2);
  g.x_min = (flank_end_depth - interference_depth) / m;
  if (p.profile_shift < g.x_min - 1e-12)
    throw_gear_error("profile_shift", "x = ", p.profile_shift, " undercuts a ", p.teeth,
                     "-tooth gear: the smallest profile shift without undercut is x_min = ",
                     g.x_min, " (raise the profile shift or the number of teeth)");
  // Where the generated involute begins: the point the flank's end generates.
  const double roll =
      r * std::sin(g.alpha_t) + (p.profile_shift * m - flank_end_depth) / std::sin(g.alpha_t);
  g.d_form = 2 * std::sqrt(std::pow(g.d_b / 2, 2) + roll * roll);
}

void set_circles(const GearParameters& p, GearGeometry& g) {
  const double m = p.normal_module, x = p.profile_shift;
  g.m_t = m / std::cos(p.helix_angle);
  g.alpha_t = std::atan(std::tan(p.normal_pressure_angle) / std::cos(p.helix_angle));
  g.beta_b = std::asin(std::sin(p.helix_angle) * std::cos(p.normal_pressure_angle));
  g.d = p.teeth * g.m_t;
  g.d_b = g.d * std::cos(g.alpha_t);
  g.d_a = g.d + 2 * m * (p.rack.addendum + x - p.tip_shortening);
  g.d_f = g.d - 2 * m * (p.rack.dedendum - x);
  g.p_t = M_PI * g.m_t;
  g.p_bt = g.p_t * std::cos(g.alpha_t);
  g.p_z = p.helix_angle > 0 ? M_PI * g.d / std::tan(p.helix_angle)
                            : std::numeric_limits<double>::infinity();
  g.s_t = g.m_t * (M_PI / 2 + 2 * x * std::tan(p.normal_pressure_angle)) -
          p.thickness_allowance / std::cos(p.helix_angle);
  g.total_width = p.double_helical ? 2 * p.face_width + p.helix_gap : p.face_width;
  if (g.d_f <= 0.0)
    throw_gear_error("dedendum", "the root diameter d_f = ", g.d_f, " m is not positive");
  if (g.d_a <= g.d_b)
    throw_gear_error("addendum", "the tip circle (d_a = ", g.d_a,
                     " m) lies inside the base circle (d_b = ", g.d_b,
                     " m): the tooth has no involute flank");
}

}  // namespace

GearError::GearError(std::string parameter, std::string message)
    : std::invalid_argument(joined(parameter, message)),
      parameter_(std::move(parameter)),
      message_(std::move(message)) {}

double half_tooth_angle(const GearGeometry& g, double r_y) {
  const double alpha_y = std::acos(std::min(1.0, g.d_b / (2 * r_y)));
  return g.s_t / g.d + involute(g.alpha_t) - involute(alpha_y);
}

GearGeometry gear_geometry(const GearParameters& p) {
  check_inputs(p);
  GearGeometry g;
  set_circles(p, g);
  if (g.s_t <= 0.0)
    throw_gear_error("backlash_allowance", "an allowance of ", p.thickness_allowance,
                     " m removes the whole tooth");
  check_fillet_fits(p);
  set_undercut_limit(p, g);
  if (g.d_form >= g.d_a)
    throw_gear_error("root_fillet", "the root fillet reaches the tip circle (form diameter ",
                     g.d_form, " m ≥ d_a = ", g.d_a, " m): no involute flank is left");
  g.s_at = g.d_a * half_tooth_angle(g, g.d_a / 2);
  if (g.s_at <= 0.0)
    throw_gear_error("profile_shift", "the tooth tip is pointed (tip thickness ", g.s_at,
                     " m ≤ 0) with x = ", p.profile_shift, " and h_aP* = ", p.rack.addendum,
                     ": lower the profile shift or the addendum");
  return g;
}

}  // namespace cs
