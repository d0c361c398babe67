#include "clearsim/elements/contact/normal_laws.hpp"

namespace cs::contact {

const std::vector<std::pair<std::string, NormalLawKind>>& normal_law_names() {
  static const std::vector<std::pair<std::string, NormalLawKind>> names = {
      {"hertz", NormalLawKind::kHertz},
      {"kelvin_voigt", NormalLawKind::kKelvinVoigt},
      {"hunt_crossley", NormalLawKind::kHuntCrossley},
      {"lankarani_nikravesh", NormalLawKind::kLankaraniNikravesh},
      {"flores", NormalLawKind::kFlores},
      {"gonthier", NormalLawKind::kGonthier}};
  return names;
}

std::string to_string(NormalLawKind kind) {
  for (const auto& [name, k] : normal_law_names())
    if (k == kind) return name;
  return "?";
}

double NormalLaw::chi() const {
  const double e = restitution;
  switch (kind) {
    case NormalLawKind::kHertz:
    case NormalLawKind::kKelvinVoigt:
      return 0.0;
    case NormalLawKind::kHuntCrossley:
      return 1.5 * (1.0 - e);
    case NormalLawKind::kLankaraniNikravesh:
      return 0.75 * (1.0 - e * e);
    case NormalLawKind::kFlores:
      return 1.6 * (1.0 - e) / e;
    case NormalLawKind::kGonthier:
      return (1.0 - e * e) / e;
  }
  return 0.0;
}

double hertz_stiffness(double E1, double nu1, double E2, double nu2, double R_eff) {
  const double inv_E = (1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2;
  return (4.0 / 3.0) * std::sqrt(R_eff) / inv_E;
}

double conformal_radius(double r_inner, double R_outer) {
  return R_outer * r_inner / (R_outer - r_inner);
}

}  // namespace cs::contact
