// Validation and construction of compliant and lubricated contact elements.
#include <cmath>

#include "clearsim/elements/contact/lubricated_clearance.hpp"
#include "clearsim/model/model_builder.hpp"

namespace cs {

namespace {
using contact::FrictionLawKind;
using contact::LubricationKind;
using contact::NormalLawKind;

void require(bool ok, const std::string& name, const std::string& what) {
  if (!ok) throw ModelError("'" + name + "': " + what);
}

bool positive(double x) { return x > 0.0 && std::isfinite(x); }
bool non_negative(double x) { return x >= 0.0 && std::isfinite(x); }

void check_normal(const std::string& name, const contact::NormalLaw& n,
                  const contact::Geometry& g) {
  if (n.kind == NormalLawKind::kJohnsonCylinder) {
    require(std::holds_alternative<contact::RevoluteClearanceGeometry>(g), name,
            "the johnson_cylinder law is the line contact of a pin in a bush: it fits a revolute "
            "clearance joint (use hertz or a Hunt–Crossley law for balls and spheres)");
    require(positive(n.johnson.a) && positive(n.johnson.b), name,
            "the johnson_cylinder law needs positive materials, contact length and clearance");
  } else {
    require(positive(n.stiffness), name, "contact stiffness must be positive and finite");
  }
  require(positive(n.exponent), name, "contact exponent must be positive");
  require(non_negative(n.damping), name, "contact damping must be ≥ 0");
  require(positive(n.min_approach_speed), name, "min_approach_speed must be positive");
  if (n.kind == NormalLawKind::kFlores || n.kind == NormalLawKind::kGonthier ||
      n.kind == NormalLawKind::kHuntCrossley || n.kind == NormalLawKind::kLankaraniNikravesh ||
      n.kind == NormalLawKind::kJohnsonCylinder)
    require(n.restitution > 0.0 && n.restitution <= 1.0, name,
            "the " + contact::to_string(n.kind) + " law needs a restitution in (0, 1]");
}

void check_friction(const std::string& name, const contact::FrictionLaw& f) {
  require(non_negative(f.mu_dynamic) && non_negative(f.mu_static), name,
          "friction coefficients must be ≥ 0");
  require(non_negative(f.viscous), name, "viscous friction must be ≥ 0");
  switch (f.kind) {
    case FrictionLawKind::kNone:
      return;
    case FrictionLawKind::kCoulomb:
      require(non_negative(f.v0) && positive(f.v1) && f.v1 > f.v0, name,
              "coulomb friction needs 0 ≤ v0 < v1 [m/s]");
      return;
    case FrictionLawKind::kStribeck:
      require(f.mu_static >= f.mu_dynamic, name, "stribeck friction needs mu_static ≥ mu");
      require(positive(f.stribeck_speed) && positive(f.regularization), name,
              "stribeck friction needs positive stribeck_speed and regularization [m/s]");
      return;
    case FrictionLawKind::kBristle:
      require(f.mu_static >= f.mu_dynamic, name, "bristle friction needs mu_static ≥ mu");
      require(positive(f.bristle_stiffness), name, "bristle friction needs stiffness > 0 [N/m]");
      require(non_negative(f.bristle_damping), name, "bristle damping must be ≥ 0 [N·s/m]");
      require(positive(f.stick_speed), name, "bristle friction needs stick_speed > 0 [m/s]");
      require(f.anchor_ratio > 0.0 && f.anchor_ratio <= 1.0, name,
              "bristle anchor_ratio must be in (0, 1]");
      return;
  }
}

void check_lubrication(const std::string& name, const contact::ContactLaws& laws,
                       const contact::Geometry& g) {
  const contact::Lubrication& lub = laws.lubrication;
  if (lub.kind == LubricationKind::kNone) return;
  const bool spherical = std::holds_alternative<contact::SphericalClearanceGeometry>(g);
  const bool revolute = std::holds_alternative<contact::RevoluteClearanceGeometry>(g);
  require(spherical || revolute, name, "lubrication needs a clearance joint (spherical/revolute)");
  require(lub.kind != LubricationKind::kSqueezeFilm || spherical, name,
          "the squeeze film of a ball in a cup fits a spherical joint; a revolute joint takes a "
          "journal bearing (model: long or short)");
  require(lub.kind != LubricationKind::kJournalBearing || revolute, name,
          "a journal bearing fits a revolute joint; a spherical joint takes the squeeze film");
  const double c = std::visit(
      contact::overloaded{[](const contact::SphericalClearanceGeometry& x) { return x.clearance; },
                          [](const contact::RevoluteClearanceGeometry& x) { return x.clearance; },
                          [](const contact::SpherePlaneGeometry&) { return 0.0; }},
      g);
  require(laws.asperity > 0.0, name,
          "a lubricated joint needs asperity e0 > 0 [m]: the film thickness where dry contact "
          "takes over (the film force is singular at zero thickness)");
  require(laws.asperity < c, name, "asperity must be smaller than the clearance");
  if (spherical) {
    const auto& s = lub.squeeze;
    require(positive(s.viscosity), name, "lubricant viscosity must be positive [Pa·s]");
    require(positive(s.radius), name, "the squeeze film needs the ball radius (ball_radius) [m]");
  } else {
    const auto& b = lub.bearing;
    require(positive(b.viscosity), name, "lubricant viscosity must be positive [Pa·s]");
    require(positive(b.radius), name, "a journal bearing needs the pin radius (pin_radius) [m]");
    require(positive(b.length), name, "a journal bearing needs its length (lubricant.length) [m]");
  }
}
}  // namespace

void check_contact_laws(const std::string& name, const contact::ContactLaws& laws,
                        const contact::Geometry& geometry) {
  check_normal(name, laws.normal, geometry);
  check_friction(name, laws.friction);
  check_lubrication(name, laws, geometry);
  const bool friction = laws.friction.kind != FrictionLawKind::kNone;
  if (friction) {
    // Friction acts at the journal's surface; a sphere–plane pair has its point already.
    const double r =
        std::visit(contact::overloaded{
                       [](const contact::SphericalClearanceGeometry& x) { return x.ball_radius; },
                       [](const contact::RevoluteClearanceGeometry& x) { return x.pin_radius; },
                       [](const contact::SpherePlaneGeometry&) { return 1.0; }},
                   geometry);
    require(r > 0.0, name, "friction needs the journal radius (ball_radius or pin_radius) [m]");
  }
}

int add_compliant_contact(Model& model, const std::string& name, int body_i, int body_j,
                          contact::Geometry geometry, contact::ContactLaws laws, bool axial_ideal) {
  check_contact_laws(name, laws, geometry);
  return add_element(
      model, std::make_unique<contact::CompliantContact>(name, body_i, body_j, std::move(geometry),
                                                         std::move(laws), axial_ideal));
}

int add_lubricated_clearance(Model& model, const std::string& name, int body_i, int body_j,
                             contact::Geometry geometry, contact::Lubrication film, double asperity,
                             double restitution, double mu, bool axial_ideal) {
  contact::ContactLaws laws;
  laws.lubrication = film;
  laws.asperity = asperity;
  require(film.kind != LubricationKind::kNone, name, "a lubricated joint needs a film law");
  check_lubrication(name, laws, geometry);
  require(restitution >= 0.0 && restitution <= 1.0, name, "restitution must be in [0, 1]");
  require(non_negative(mu), name, "friction must be ≥ 0");
  return add_element(model, std::make_unique<contact::LubricatedClearance>(
                                name, body_i, body_j, std::move(geometry), std::move(film),
                                asperity, restitution, mu, axial_ideal));
}

}  // namespace cs
