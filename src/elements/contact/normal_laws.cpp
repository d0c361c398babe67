#include "clearsim/elements/contact/normal_laws.hpp"

namespace cs::contact {

const std::vector<std::pair<std::string, NormalLawKind>>& normal_law_names() {
  static const std::vector<std::pair<std::string, NormalLawKind>> names = {
      {"hertz", NormalLawKind::kHertz},
      {"kelvin_voigt", NormalLawKind::kKelvinVoigt},
      {"hunt_crossley", NormalLawKind::kHuntCrossley},
      {"lankarani_nikravesh", NormalLawKind::kLankaraniNikravesh},
      {"flores", NormalLawKind::kFlores},
      {"gonthier", NormalLawKind::kGonthier},
      {"johnson_cylinder", NormalLawKind::kJohnsonCylinder}};
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
    case NormalLawKind::kJohnsonCylinder:
      return 0.75 * (1.0 - e * e);
    case NormalLawKind::kFlores:
      return 1.6 * (1.0 - e) / e;
    case NormalLawKind::kGonthier:
      return (1.0 - e * e) / e;
  }
  return 0.0;
}

double NormalLaw::elastic_energy(double delta) const {
  if (delta <= 0.0) return 0.0;
  if (kind == NormalLawKind::kJohnsonCylinder) return johnson.energy(delta);
  return stiffness * std::pow(delta, exponent + 1.0) / (exponent + 1.0);
}

double NormalLaw::elastic_stiffness(double delta) const {
  if (delta <= 0.0) return 0.0;
  if (kind == NormalLawKind::kJohnsonCylinder)
    return 1.0 / johnson.compliance_at(std::min(johnson.force(delta), johnson.force_limit()));
  return exponent * stiffness * std::pow(delta, exponent - 1.0);
}

double NormalLaw::damping_rate(double delta, double approach_speed) const {
  if (delta <= 0.0) return 0.0;
  if (kind == NormalLawKind::kKelvinVoigt) return damping;
  return elastic_force(delta) * chi() / std::max(approach_speed, min_approach_speed);
}

JohnsonCylinder::JohnsonCylinder(double compliance, double length, double clearance)
    : a(compliance / (M_PI * length)), b(4.0 * M_PI * length * clearance / compliance) {}

double JohnsonCylinder::force(double delta) const {
  if (delta <= 0.0) return 0.0;
  const double F_c = force_limit(), delta_c = penetration(F_c);
  if (delta >= delta_c) return F_c + (delta - delta_c) / compliance_at(F_c);
  // δ(F) is increasing and concave on (0, F_c]. The fixed point F ← δ/(a[ln(b/F) − 1]) contracts
  // by 1/(ln(b/F) − 1) per pass (≈ 0.1 for joint data); Newton then finishes: after its first
  // step the concavity keeps every iterate below the root (the halving guards that first step).
  double F = std::min(F_c, delta / (a * (std::log(b / (1e-6 * F_c)) - 1.0)));
  for (int k = 0; k < 3; ++k) F = std::min(F_c, delta / (a * (std::log(b / F) - 1.0)));
  for (int k = 0; k < 50; ++k) {
    const double step = (delta - penetration(F)) / compliance_at(F);
    F = std::min(F_c, F + step > 0.0 ? F + step : 0.5 * F);
    if (std::abs(step) <= 1e-15 * F) break;
  }
  return F;
}

double JohnsonCylinder::energy(double delta) const {
  // ∫ F dδ = ∫ F a (ln(b/F) − 2) dF = a F²/2 (ln(b/F) − 3/2), plus the linear tail past F_c.
  const auto integral = [&](double F) { return 0.5 * a * F * F * (std::log(b / F) - 1.5); };
  const double F_c = force_limit(), delta_c = penetration(F_c);
  if (delta < delta_c) return integral(force(delta));
  const double s = delta - delta_c;
  return integral(F_c) + F_c * s + 0.5 * s * s / compliance_at(F_c);
}

double hertz_stiffness(double compliance, double R_eff) {
  return (4.0 / 3.0) * std::sqrt(R_eff) / compliance;
}

double conformal_radius(double r_inner, double R_outer) {
  return R_outer * r_inner / (R_outer - r_inner);
}

}  // namespace cs::contact
