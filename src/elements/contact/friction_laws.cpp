#include "clearsim/elements/contact/friction_laws.hpp"

namespace cs::contact {

const std::vector<std::pair<std::string, FrictionLawKind>>& friction_law_names() {
  static const std::vector<std::pair<std::string, FrictionLawKind>> names = {
      {"none", FrictionLawKind::kNone},
      {"coulomb", FrictionLawKind::kCoulomb},
      {"stribeck", FrictionLawKind::kStribeck},
      {"bristle", FrictionLawKind::kBristle}};
  return names;
}

std::string to_string(FrictionLawKind kind) {
  for (const auto& [name, k] : friction_law_names())
    if (k == kind) return name;
  return "?";
}

Vec3 FrictionLaw::settled_deflection(const Vec3& v_T, double F_N, const Vec3& d,
                                     const Vec3& d_dot) const {
  const Vec3 F_stick = -bristle_stiffness * d - bristle_damping * d_dot;
  const double cap = mu_static * F_N;
  if (F_stick.norm() <= cap) return d;
  const double reach = anchor_ratio * cap / bristle_stiffness;
  const double speed = v_T.norm();
  if (speed > 0.0) return (reach / speed) * v_T;
  const double dn = d.norm();
  return dn > 0.0 ? Vec3((reach / dn) * d) : Vec3::Zero();
}

}  // namespace cs::contact
