// Involute cylindrical gears (spur, helical, double-helical) described by their basic rack, as in
// ISO 21771 / DIN 3960 (reference.md §7.1): the gear's parameters, its derived circles and tooth
// thicknesses, and the geometry of an external pair (working pressure angle, centre distance,
// contact ratios, backlash). All lengths in metres, angles in radians.
//
// Invalid or unusable parameters (non-positive module, undercut, pointed tip, a pair that cannot
// mesh, ...) throw GearError naming the parameter, so a reader can point at the key.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace cs {

// A problem with a gear parameter. parameter() is the key name used in model files and on the
// command line (e.g. "profile_shift"); what() is "PARAMETER: MESSAGE".
class GearError : public std::invalid_argument {
 public:
  GearError(std::string parameter, std::string message);
  const std::string& parameter() const { return parameter_; }
  const std::string& message() const { return message_; }

 private:
  std::string parameter_;
  std::string message_;
};

// Throws GearError(parameter, the stream arguments written out with 10 significant digits).
template <class... Args>
[[noreturn]] void throw_gear_error(const std::string& parameter, const Args&... args) {
  std::ostringstream os;
  os.precision(10);
  (os << ... << args);
  throw GearError(parameter, os.str());
}

enum class HelixHand { kRight, kLeft };  // right: the tooth trace turns like a right-hand screw

// The basic rack of the gear (ISO 53 / ISO 21771), as factors of the normal module m_n. The
// cutting tool is its complement: tool addendum = h_fP, tool tip radius = ρ_fP.
struct BasicRack {
  double addendum = 1.0;             // h_aP* (gear addendum)
  double dedendum = 1.25;            // h_fP* (gear dedendum)
  double root_fillet_radius = 0.38;  // ρ_fP* (radius of the tool tip, i.e. of the root fillet)
};

struct GearParameters {
  double normal_module = 0.0;          // m_n [m], > 0
  int teeth = 0;                       // z, ≥ 3
  double normal_pressure_angle = 0.0;  // α_n [rad], in (0, 45°)
  double helix_angle = 0.0;            // β [rad], in [0, 45°]; 0 is a spur gear
  HelixHand hand = HelixHand::kRight;  // of the helix; for a double-helical gear, of the z < 0 one
  double profile_shift = 0.0;          // x (the tool datum line moves x·m_n outward)
  BasicRack rack;
  double tip_shortening = 0.0;  // k: d_a = d + 2 m_n (h_aP* + x − k)
  double face_width = 0.0;      // b [m] per helix, > 0
  bool double_helical = false;  // two helices of opposite hand (herringbone)
  double helix_gap = 0.0;       // gap between the two helices [m], ≥ 0
  // Backlash allowance: reduction E_sn [m] ≥ 0 of the normal tooth thickness at the reference
  // circle (both flanks together). A pair's normal backlash is about (E_sn1 + E_sn2) cos α_n.
  double thickness_allowance = 0.0;
};

// Derived quantities of one gear (reference.md §7.1). Lengths [m], angles [rad].
struct GearGeometry {
  double m_t = 0.0;          // transverse module m_n / cos β
  double alpha_t = 0.0;      // transverse pressure angle atan(tan α_n / cos β)
  double beta_b = 0.0;       // base helix angle asin(sin β cos α_n)
  double d = 0.0;            // reference (pitch) diameter z m_t
  double d_b = 0.0;          // base diameter d cos α_t
  double d_a = 0.0;          // tip diameter d + 2 m_n (h_aP* + x − k)
  double d_f = 0.0;          // root diameter d − 2 m_n (h_fP* − x)
  double p_t = 0.0;          // transverse pitch π m_t
  double p_bt = 0.0;         // transverse base pitch π m_t cos α_t
  double p_z = 0.0;          // lead π d / tan β (infinite for a spur gear)
  double s_t = 0.0;          // transverse tooth thickness at d, allowance included
  double s_at = 0.0;         // transverse tooth thickness at the tip circle
  double x_min = 0.0;        // smallest profile shift without undercut
  double d_form = 0.0;       // diameter where the generated involute begins (above: involute)
  double total_width = 0.0;  // axial length of the gear: b, or 2 b + gap when double-helical
};

// Checks `p` and computes its geometry. Throws GearError naming the offending parameter.
GearGeometry gear_geometry(const GearParameters& p);

// Half the angular tooth thickness at radius r_y ≥ r_b, on the involute part of the flank:
// ψ(r_y) = s_t/d + inv α_t − inv α_y with cos α_y = r_b / r_y. The tooth of the generated
// profile is centred on +x, so its upper flank lies at polar angle +ψ(r_y).
double half_tooth_angle(const GearGeometry& g, double r_y);

// An external pair of gears (1 drives 2, or the other way round).
struct GearPairGeometry {
  double u = 0.0;         // gear ratio z₂/z₁
  double a_0 = 0.0;       // reference centre distance (d₁ + d₂)/2
  double a = 0.0;         // the centre distance used (given, or a_w)
  double a_w = 0.0;       // zero-backlash centre distance of the nominal (allowance-free) teeth
  double alpha_wt = 0.0;  // working transverse pressure angle at a
  double d_w1 = 0.0, d_w2 = 0.0;    // working pitch diameters at a
  double eps_1 = 0.0, eps_2 = 0.0;  // addendum contact ratios ε₁, ε₂
  double eps_alpha = 0.0;           // transverse contact ratio ε_α
  double eps_beta = 0.0;   // overlap ratio ε_β per helix, b sin β / (π m_n) with the narrower b
  double eps_gamma = 0.0;  // total contact ratio ε_α + ε_β (per helix)
  double j_t = 0.0;   // circumferential backlash at the working pitch circle p_wt − s_w1 − s_w2
  double j_bn = 0.0;  // normal backlash j_t cos α_wt cos β_b
  double c_12 = 0.0;  // tip clearance: a − r_a1 − r_f2 (tip of gear 1 to root of gear 2)
  double c_21 = 0.0;  // a − r_a2 − r_f1
  double k_nominal = 0.0;  // the tip shortening that keeps the basic rack's tip clearance at a
};

// The pair at centre distance `centre_distance` [m], or at a_w when it is 0. Throws GearError
// (parameter "centre_distance", or the mismatched gear parameter) when the pair cannot mesh:
// unequal module, pressure angle or helix angle, equal hands on a helical pair, a centre distance
// at which the teeth interfere, the tips touch the roots or the contact ratio falls below 1.
GearPairGeometry gear_pair_geometry(const GearParameters& gear1, const GearParameters& gear2,
                                    double centre_distance = 0.0);

}  // namespace cs
