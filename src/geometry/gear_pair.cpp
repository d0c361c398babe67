// The geometry of an external gear pair (reference.md §7.1): working pressure angle by inverting
// the involute function, centre distance, contact ratios, backlash and the checks that the two
// gears mesh.
#include <cmath>
#include <sstream>

#include "clearsim/geometry/gear_geometry.hpp"
#include "clearsim/geometry/involute.hpp"

namespace cs {

namespace {

bool nearly_equal(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a));
}

void check_mates(const GearParameters& p1, const GearParameters& p2) {
  if (!nearly_equal(p1.normal_module, p2.normal_module))
    throw_gear_error("module", "the two gears have different normal modules (", p1.normal_module,
                     " and ", p2.normal_module, " m)");
  if (!nearly_equal(p1.normal_pressure_angle, p2.normal_pressure_angle))
    throw_gear_error("pressure_angle", "the two gears have different normal pressure angles");
  if (!nearly_equal(p1.helix_angle, p2.helix_angle))
    throw_gear_error("helix_angle", "the two gears have different helix angles");
  if (p1.helix_angle > 0 && p1.hand == p2.hand)
    throw_gear_error("hand", "the gears of an external helical pair need opposite hands");
  if (p1.double_helical != p2.double_helical)
    throw_gear_error("double_helical", "one gear is double-helical and the other is not");
}

// The working transverse pressure angle at which the two flanks close without backlash:
// z₁ s_t1/d₁ + z₂ s_t2/d₂ + (z₁ + z₂)(inv α_t − inv α_w) = π (thicknesses at the working circles
// filling the working pitch). With nominal thicknesses this is inv α_wt = inv α_t +
// 2 (x₁ + x₂) tan α_n / (z₁ + z₂).
double zero_backlash_angle(double z_sum, double thickness_sum_over_m_t, double alpha_t) {
  const double inv_w = involute(alpha_t) + (thickness_sum_over_m_t - M_PI) / z_sum;
  if (inv_w <= 0.0)
    throw_gear_error("profile_shift",
                     "the sum of the profile shifts is too negative for the pair to mesh");
  return inverse_involute(inv_w);
}

// Roll length along the line of action from gear k's base tangent point to radius r.
double roll_length(double r, double r_b) { return std::sqrt(std::max(0.0, r * r - r_b * r_b)); }

void check_engagement(const GearGeometry& g1, const GearGeometry& g2, GearPairGeometry& pair) {
  const double line = pair.a * std::sin(pair.alpha_wt);  // T₁T₂
  const double r_b1 = g1.d_b / 2, r_b2 = g2.d_b / 2;
  if (pair.c_12 <= 0.0)
    throw_gear_error("centre_distance", "at a = ", pair.a,
                     " m the tip of gear 1 reaches the root of gear 2");
  if (pair.c_21 <= 0.0)
    throw_gear_error("centre_distance", "at a = ", pair.a,
                     " m the tip of gear 2 reaches the root of gear 1");
  if (line - roll_length(g2.d_a / 2, r_b2) < roll_length(g1.d_form / 2, r_b1))
    throw_gear_error("centre_distance", "at a = ", pair.a,
                     " m the tip of gear 2 meets gear 1 below its involute (in the root fillet)");
  if (line - roll_length(g1.d_a / 2, r_b1) < roll_length(g2.d_form / 2, r_b2))
    throw_gear_error("centre_distance", "at a = ", pair.a,
                     " m the tip of gear 1 meets gear 2 below its involute (in the root fillet)");
  if (pair.eps_alpha < 1.0)
    throw_gear_error("centre_distance", "at a = ", pair.a, " m the transverse contact ratio is ",
                     pair.eps_alpha, " < 1: the pair cannot mesh continuously");
}

void set_contact_ratios(const GearParameters& p1, const GearParameters& p2, const GearGeometry& g1,
                        const GearGeometry& g2, GearPairGeometry& pair) {
  const double tan_w = std::tan(pair.alpha_wt);
  pair.eps_1 = (roll_length(g1.d_a / 2, g1.d_b / 2) - g1.d_b / 2 * tan_w) / g1.p_bt;
  pair.eps_2 = (roll_length(g2.d_a / 2, g2.d_b / 2) - g2.d_b / 2 * tan_w) / g1.p_bt;
  pair.eps_alpha = pair.eps_1 + pair.eps_2;
  const double b = std::min(p1.face_width, p2.face_width);
  pair.eps_beta = b * std::sin(p1.helix_angle) / (M_PI * p1.normal_module);
  pair.eps_gamma = pair.eps_alpha + pair.eps_beta;
}

}  // namespace

GearPairGeometry gear_pair_geometry(const GearParameters& p1, const GearParameters& p2,
                                    double centre_distance) {
  check_mates(p1, p2);
  const GearGeometry g1 = gear_geometry(p1), g2 = gear_geometry(p2);
  GearPairGeometry pair;
  const double z_sum = p1.teeth + p2.teeth;
  pair.u = static_cast<double>(p2.teeth) / p1.teeth;
  pair.a_0 = (g1.d + g2.d) / 2;
  const double tan_n = std::tan(p1.normal_pressure_angle);
  const double nominal_sum = M_PI + 2 * (p1.profile_shift + p2.profile_shift) * tan_n;
  const double cos_ref = pair.a_0 * std::cos(g1.alpha_t);  // a cos α_wt is constant
  pair.a_w = cos_ref / std::cos(zero_backlash_angle(z_sum, nominal_sum, g1.alpha_t));
  if (!std::isfinite(centre_distance) || centre_distance < 0.0)
    throw_gear_error("centre_distance", "expected a positive distance [m], found ",
                     centre_distance);
  pair.a = centre_distance > 0.0 ? centre_distance : pair.a_w;
  if (pair.a <= (g1.d_b + g2.d_b) / 2)
    throw_gear_error("centre_distance", "a = ", pair.a,
                     " m is not larger than the sum of the base radii (", (g1.d_b + g2.d_b) / 2,
                     " m): the gears cannot mesh");
  pair.alpha_wt = std::acos(cos_ref / pair.a);
  pair.d_w1 = 2 * pair.a / (1 + pair.u);
  pair.d_w2 = pair.u * pair.d_w1;
  const double inv_diff = involute(g1.alpha_t) - involute(pair.alpha_wt);
  const double s_w1 = pair.d_w1 * (g1.s_t / g1.d + inv_diff);
  const double s_w2 = pair.d_w2 * (g2.s_t / g2.d + inv_diff);
  pair.j_t = M_PI * pair.d_w1 / p1.teeth - s_w1 - s_w2;
  pair.j_bn = pair.j_t * std::cos(pair.alpha_wt) * std::cos(g1.beta_b);
  if (pair.j_t < -1e-9 * p1.normal_module) {
    const double fitting_sum = g1.s_t / g1.m_t + g2.s_t / g2.m_t;
    const double a_fit = cos_ref / std::cos(zero_backlash_angle(z_sum, fitting_sum, g1.alpha_t));
    throw_gear_error("centre_distance", "at a = ", pair.a,
                     " m the teeth interfere (backlash j_t = ", pair.j_t,
                     " m); they fit from a = ", a_fit, " m on");
  }
  pair.c_12 = pair.a - g1.d_a / 2 - g2.d_f / 2;
  pair.c_21 = pair.a - g2.d_a / 2 - g1.d_f / 2;
  pair.k_nominal = (pair.a_0 + (p1.profile_shift + p2.profile_shift) * p1.normal_module - pair.a) /
                   p1.normal_module;
  set_contact_ratios(p1, p2, g1, g2, pair);
  check_engagement(g1, g2, pair);
  return pair;
}

}  // namespace cs
