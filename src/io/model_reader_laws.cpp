// The compliant and lubricated treatments' maps inside a clearance joint or a contact:
// `contact:` (normal law), `friction:` (a number, or a map with a friction law) and `lubricant:`
// (format in docs/model-format.md, "Compliant and lubricated contact").
#include "model_reader_laws.hpp"

#include "clearsim/elements/contact/normal_laws.hpp"

namespace cs::model_file {

namespace {
using contact::FrictionLawKind;
using contact::NormalLawKind;

// The range of a normal law's exponent n (docs/model-format.md, `contact`).
constexpr double kMinExponent = 1.0, kMaxExponent = 3.0;

const std::vector<std::string> kContactKeys = {
    "law",      "stiffness", "young_modulus",      "poisson_ratio",
    "exponent", "damping",   "min_approach_speed", "length"};
const std::vector<std::string> kFrictionKeys = {"law",
                                                "mu",
                                                "mu_static",
                                                "v0",
                                                "v1",
                                                "stribeck_speed",
                                                "regularization",
                                                "viscous",
                                                "stiffness",
                                                "damping",
                                                "stick_speed",
                                                "anchor_ratio"};
const std::vector<std::string> kLubricantKeys = {"viscosity", "model", "length", "wedge",
                                                 "cavitation"};

// One value, or two values (one per body) [a, b].
std::pair<double, double> read_pair(const Cursor& c, const std::string& unit, bool positive) {
  if (c.node().IsSequence()) {
    const std::vector<double> v = read_numbers(c, unit, 2);
    if (v.size() != 2 || (positive && (v[0] <= 0.0 || v[1] <= 0.0)))
      c.expected(positive ? "one positive number or two [body 1, body 2]"
                          : "one number or two [body 1, body 2]");
    return {v[0], v[1]};
  }
  const double x = positive ? read_positive(c, unit) : read_non_negative(c, unit);
  return {x, x};
}

// σ_i + σ_j = (1 − ν_i²)/E_i + (1 − ν_j²)/E_j from `young_modulus` and `poisson_ratio`.
double read_compliance(const MapView& m, const std::string& why) {
  const auto [E1, E2] =
      read_pair(m.need("young_modulus", "Young's modulus E [Pa] " + why), "Pa", true);
  const Cursor nu_c = m.need("poisson_ratio", "Poisson's ratio ν, or two [body 1, body 2]");
  const auto [nu1, nu2] = read_pair(nu_c, "", false);
  if (nu1 >= 0.5 || nu2 >= 0.5) nu_c.expected("a Poisson ratio below 0.5");
  return (1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2;
}

// Johnson's pin-in-bush law: materials, the contact length L and the joint's radial clearance.
contact::JohnsonCylinder read_johnson(const MapView& m, const LawContext& ctx) {
  if (m.has("stiffness"))
    m.find("stiffness")
        ->fail_at_key(
            m.cursor().path() +
            ": the johnson_cylinder law computes its force from 'young_modulus', 'poisson_ratio' "
            "and 'length'; 'stiffness' does not apply");
  if (ctx.spherical || !(ctx.clearance > 0.0))
    m.cursor().fail_at_key(m.cursor().path() +
                           ": the johnson_cylinder law is the line contact of a pin in a bush: it "
                           "fits a revolute clearance joint only");
  const double sigma = read_compliance(m, "(the law's force follows from the materials)");
  const double L = read_positive(m.need("length", "the contact length L [m] along the pin"), "m");
  return contact::JohnsonCylinder(sigma, L, ctx.clearance);
}

double read_stiffness(const MapView& m, const LawContext& ctx) {
  if (auto k = m.find("stiffness")) {
    if (m.has("young_modulus"))
      k->fail_at_key(m.cursor().path() +
                     ": give either 'stiffness' or 'young_modulus' + 'poisson_ratio', not both");
    return read_positive(*k, "N/m^n");
  }
  const auto E_c = m.find("young_modulus");
  if (!E_c)
    m.cursor().fail_at_key(m.cursor().path() +
                           ": missing the contact stiffness: 'stiffness' [N/m^n], or "
                           "'young_modulus' [Pa] and 'poisson_ratio' (Hertz, from the radii)");
  const double sigma = read_compliance(m, "");
  if (!(ctx.effective_radius > 0.0))
    E_c->fail_at_key(m.cursor().path() + ": a stiffness from materials needs the contact radius (" +
                     ctx.radius_key + ")");
  return contact::hertz_stiffness(sigma, ctx.effective_radius);
}
}  // namespace

contact::NormalLaw read_normal_law(const Cursor& c, const LawContext& ctx,
                                   std::optional<double> restitution) {
  const MapView m(c, "a contact-law map {law: lankarani_nikravesh, stiffness: K, ...}");
  m.allow_only("in 'contact'", kContactKeys);
  contact::NormalLaw law;
  if (auto l = m.find("law")) law.kind = read_choice(*l, contact::normal_law_names());
  if (law.kind == NormalLawKind::kJohnsonCylinder) {
    law.johnson = read_johnson(m, ctx);
  } else {
    if (auto x = m.find("length"))
      x->fail_at_key(x->path() + ": 'length' belongs to the johnson_cylinder law");
    law.stiffness = read_stiffness(m, ctx);
  }
  if (auto e = m.find("exponent")) {
    // Issue 28: an exponent of 100 or 1e300 made δ^n underflow and the joint come apart.
    law.exponent = read_number(*e, "");
    if (!(law.exponent >= kMinExponent && law.exponent <= kMaxExponent))
      e->expected(
          "an exponent n in [1, 3] (1: linear, 1.5: Hertz point contact, about 1 to 1.1: line "
          "contact; below 1 the stiffness n K δ^(n−1) is infinite at first touch, above 3 no "
          "contact theory applies and the force of a small approach vanishes)");
  }
  if (auto d = m.find("damping")) {
    if (law.kind != NormalLawKind::kKelvinVoigt)
      d->fail_at_key(d->path() + ": 'damping' belongs to the kelvin_voigt law; the " +
                     contact::to_string(law.kind) + " law takes its damping from 'restitution'");
    law.damping = read_non_negative(*d, "N·s/m");
  }
  if (auto v = m.find("min_approach_speed")) law.min_approach_speed = read_positive(*v, "m/s");
  if (law.kind != NormalLawKind::kHertz && law.kind != NormalLawKind::kKelvinVoigt) {
    if (!restitution)
      c.fail_at_key(c.path() + ": the " + contact::to_string(law.kind) +
                    " law needs 'restitution' (the coefficient c_e in (0, 1]) beside 'contact'");
    if (!(*restitution > 0.0))
      c.expected("a restitution > 0 for the " + contact::to_string(law.kind) + " law");
    law.restitution = *restitution;
  }
  return law;
}

contact::FrictionLaw read_friction_law(const Cursor& c) {
  contact::FrictionLaw f;
  if (!c.node().IsMap()) {  // a number: Ambrósio's Coulomb law with its default v0, v1
    f.mu_dynamic = read_non_negative(c, "");
    f.kind = f.mu_dynamic > 0.0 ? FrictionLawKind::kCoulomb : FrictionLawKind::kNone;
    return f;
  }
  const MapView m(c, "a friction map {law: coulomb, mu: ...}");
  m.allow_only("in 'friction'", kFrictionKeys);
  f.kind = read_choice(m.need("law", "none, coulomb, stribeck or bristle"),
                       contact::friction_law_names());
  if (f.kind != FrictionLawKind::kNone)
    f.mu_dynamic = read_non_negative(m.need("mu", "the dynamic friction coefficient μ"), "");
  f.mu_static = f.mu_dynamic;
  if (auto x = m.find("mu_static")) f.mu_static = read_non_negative(*x, "");
  if (auto x = m.find("v0")) f.v0 = read_non_negative(*x, "m/s");
  if (auto x = m.find("v1")) f.v1 = read_positive(*x, "m/s");
  if (auto x = m.find("stribeck_speed")) f.stribeck_speed = read_positive(*x, "m/s");
  if (auto x = m.find("regularization")) f.regularization = read_positive(*x, "m/s");
  if (auto x = m.find("viscous")) f.viscous = read_non_negative(*x, "N·s/m");
  if (f.kind == FrictionLawKind::kBristle)
    f.bristle_stiffness =
        read_positive(m.need("stiffness", "the bristle stiffness k_stick [N/m]"), "N/m");
  if (auto x = m.find("damping")) f.bristle_damping = read_non_negative(*x, "N·s/m");
  if (auto x = m.find("stick_speed")) f.stick_speed = read_positive(*x, "m/s");
  if (auto x = m.find("anchor_ratio")) f.anchor_ratio = read_positive(*x, "");
  return f;
}

namespace {
// A squeeze film alone has no load capacity (docs/lubrication.md, seed 003's squeeze-only
// four-bar): say so, with the radial damping of the film capped at ε_max where the journal ends.
void warn_squeeze_only(const Cursor& at, const lubrication::JournalBearing& b) {
  std::string damping;
  if (b.model != lubrication::BearingModel::kFinite) {
    double F_r = 0.0, F_t = 0.0;
    b.film_forces(b.eps_max, 1.0 / b.clearance, 0.0, F_r, F_t);  // ė = 1 m/s at the cap
    damping = " of " + format_number(-F_r) + " N·s/m";
  }
  at.warn(at.path() +
          ": false leaves the squeeze film alone, which carries no steady load: a loaded journal "
          "crosses it into the dry contact, where the film capped at ε = 1 − e0/c = " +
          format_number(b.eps_max) + " is a radial damper" + damping +
          " and results may not converge as the step shrinks (docs/lubrication.md, seed 003's "
          "squeeze-only four-bar)");
}
}  // namespace

lubrication::Cavitation read_cavitation(const MapView& m, lubrication::BearingModel model) {
  const bool finite = model == lubrication::BearingModel::kFinite;
  const auto x = m.find("cavitation");
  // The default: Reynolds' condition (finite), the converging half film (long, short).
  if (!x)
    return finite ? lubrication::Cavitation::kReynolds : lubrication::Cavitation::kHalfSommerfeld;
  const auto cavitation =
      read_choice(*x, std::vector<std::pair<std::string, lubrication::Cavitation>>{
                          {"reynolds", lubrication::Cavitation::kReynolds},
                          {"half_sommerfeld", lubrication::Cavitation::kHalfSommerfeld},
                          {"sommerfeld", lubrication::Cavitation::kSommerfeld}});
  if (!finite && cavitation == lubrication::Cavitation::kReynolds)
    x->fail_at_key(x->path() +
                   ": 'reynolds' needs model: finite (the long and short bearings' closed forms "
                   "have the half film, half_sommerfeld, or the full film, sommerfeld)");
  return cavitation;
}

contact::Lubrication read_lubricant(const Cursor& c, const LawContext& ctx) {
  const MapView m(c, "a lubricant map {viscosity: μ [Pa·s], ...}");
  contact::Lubrication lub;
  const Cursor mu_c = m.need("viscosity", "the dynamic viscosity μ [Pa·s] (400 cP = 0.4)");
  const double mu = read_positive(mu_c, "Pa·s");
  if (ctx.spherical) {
    m.allow_only("in the lubricant of a spherical joint (squeeze film)", {"viscosity"});
    lub.kind = contact::LubricationKind::kSqueezeFilm;
    lub.squeeze = {mu, ctx.journal_radius, ctx.clearance, 1.0 - ctx.asperity / ctx.clearance};
    return lub;
  }
  m.allow_only("in the lubricant of a revolute joint (journal bearing)", kLubricantKeys);
  lub.kind = contact::LubricationKind::kJournalBearing;
  auto& b = lub.bearing;
  if (auto x = m.find("model"))
    b.model = read_choice(*x, std::vector<std::pair<std::string, lubrication::BearingModel>>{
                                  {"long", lubrication::BearingModel::kLong},
                                  {"short", lubrication::BearingModel::kShort},
                                  {"finite", lubrication::BearingModel::kFinite}});
  b.viscosity = mu;
  b.radius = ctx.journal_radius;
  b.length = read_positive(m.need("length", "the bearing length L [m]"), "m");
  b.clearance = ctx.clearance;
  b.eps_max = 1.0 - ctx.asperity / ctx.clearance;
  if (auto x = m.find("wedge")) b.wedge = read_bool(*x);
  b.cavitation = read_cavitation(m, b.model);
  if (auto x = m.find("wedge"); x && !b.wedge) warn_squeeze_only(*x, b);
  return lub;
}

}  // namespace cs::model_file
