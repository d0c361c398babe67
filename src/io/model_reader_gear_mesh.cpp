// A `contacts` entry of type gear_mesh: the analytic gear-mesh contact between two bodies that
// carry gear shapes (elements/contact/gear_mesh.hpp; keys in docs/model-format.md).
#include <cmath>
#include <sstream>

#include "clearsim/elements/contact/gear_mesh.hpp"
#include "clearsim/model/model_builder.hpp"
#include "model_reader_laws.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

// The generated gear shape named at `c`.
const Shape& read_gear_shape(const Cursor& c, const Model& model) {
  const std::string name = read_text(c, "the name of a gear shape (from 'shapes')");
  const Shape* s = model.find_shape(name);
  if (!s)
    c.fail(c.path() + ": no shape named '" + name + "' (gear shapes are defined in 'shapes')");
  if (!s->gear) c.fail(c.path() + ": shape '" + name + "' is a mesh file, not a generated gear");
  if (s->body == kGround) c.fail(c.path() + ": shape '" + name + "' is on the ground");
  return *s;
}

struct WorldFrame {
  Vec3 p;
  Mat3 R;
};
WorldFrame world_frame(const Model& model, const Shape& s) {
  const Body& b = model.bodies[s.body];
  return {b.x0_W + b.R0_WB * s.p_BS, b.R0_WB * s.R_BS};
}

[[noreturn]] void fail_gear(const Cursor& at, const GearError& e) {
  std::ostringstream os;
  os << at.path() << ": " << e.parameter() << ": " << e.message();
  at.fail(os.str());
}

struct PairPlacement {
  contact::GearMeshPlacement placement;
  GearPairGeometry pair;
  std::vector<contact::GearHelix> helices;
  double axis_sign = 1.0;
};

// The pair geometry and helices of gear shapes s1 (pinion) and s2 (wheel) at the model's initial
// poses; errors at `at`.
PairPlacement place_pair(const Cursor& at, const Model& model, const Shape& s1, const Shape& s2) {
  const WorldFrame f1 = world_frame(model, s1), f2 = world_frame(model, s2);
  const Vec3 n = f1.R.col(2), d = f2.p - f1.p;
  PairPlacement pp;
  pp.axis_sign = n.dot(f2.R.col(2)) >= 0.0 ? 1.0 : -1.0;
  if (std::abs(n.dot(f2.R.col(2))) < 1.0 - 1e-9)
    at.fail(at.path() + ": the gear axes (the shapes' z axes) are not parallel");
  const double a = (d - n * n.dot(d)).norm();
  contact::GearMeshPlacement& pl = pp.placement;
  pl.pinion = *s1.gear;
  pl.wheel = *s2.gear;
  pl.p_pinion = s1.p_BS;
  pl.R_pinion = s1.R_BS;
  pl.p_wheel = s2.p_BS;
  pl.R_wheel = s2.R_BS;
  try {
    pp.pair = gear_pair_geometry(pl.pinion, pl.wheel, a);
    pp.helices = contact::gear_mesh_helices(pl.pinion, pl.wheel, pp.pair, n.dot(d), pp.axis_sign);
  } catch (const GearError& err) {
    fail_gear(at, err);
  }
  return pp;
}

}  // namespace

double gear_reference_length(const Cursor& at, const Model& model, const Shape& s1,
                             const Shape& s2) {
  const PairPlacement pp = place_pair(at, model, s1, s2);
  const double L_ref = pp.helices.front().L_ref;
  for (const contact::GearHelix& hx : pp.helices)
    if (std::abs(hx.L_ref - L_ref) > 1e-9 * L_ref)
      at.fail(at.path() + ": the helices of gears '" + s1.name + "' and '" + s2.name +
              "' have different reference contact lengths; give 'reference_length'");
  return L_ref;
}

std::unique_ptr<contact::GearMeshContact> analytic_gear_mesh(const std::string& name,
                                                             const Cursor& at, const Model& model,
                                                             const Shape& s1, const Shape& s2,
                                                             const contact::ContactLaws& laws) {
  const PairPlacement pp = place_pair(at, model, s1, s2);
  return std::make_unique<contact::GearMeshContact>(name, s1.body, s2.body, pp.placement, pp.pair,
                                                    pp.helices, laws);
}

void read_gear_mesh(const Entry& e, const MapView& m, Model& model) {
  m.allow_only("in gear_mesh contact '" + e.key + "'",
               {"type", "pinion", "wheel", "restitution", "contact", "friction"});
  const Cursor pc = m.need("pinion", "the name of the driving gear's shape");
  const Cursor wc = m.need("wheel", "the name of the driven gear's shape");
  const Shape& s1 = read_gear_shape(pc, model);
  const Shape& s2 = read_gear_shape(wc, model);
  if (s1.body == s2.body) wc.fail(wc.path() + ": the two gears are on the same body");
  const Cursor law_c = m.need("contact", "the normal law {law: hunt_crossley, stiffness: K, ...}");
  LawContext ctx;
  ctx.radius_key = "a radius (give 'stiffness' for a gear mesh)";
  contact::ContactLaws laws;
  // Issue 28: a restitution of 2 multiplied the kinetic energy by 1e17 without a word.
  std::optional<double> restitution;
  if (auto r = m.find("restitution")) {
    restitution = read_non_negative(*r, "");
    if (*restitution > 1.0) r->expected("a number in [0, 1]");
  }
  laws.normal = read_normal_law(law_c, ctx, restitution);
  if (auto f = m.find("friction")) laws.friction = read_friction_law(*f);
  std::unique_ptr<contact::GearMeshContact> element =
      analytic_gear_mesh(e.key, wc, model, s1, s2, laws);
  // The teeth must not interpenetrate at the start by more than an elastic preload could: a
  // quarter of the base pitch means a wheel turned so that its teeth face the pinion's.
  BodyKinematics k1, k2;
  k1.x_W = model.bodies[s1.body].x0_W;
  k1.R_WB = model.bodies[s1.body].R0_WB;
  k2.x_W = model.bodies[s2.body].x0_W;
  k2.R_WB = model.bodies[s2.body].R0_WB;
  const auto ev = element->evaluate(ElementInput{0.0, &k1, &k2, nullptr});
  const GearGeometry g1 = gear_geometry(*s1.gear);
  if (!ev.pairs.empty() && ev.pairs.front().delta > 0.25 * g1.p_bt * std::cos(g1.beta_b)) {
    std::ostringstream os;
    os << wc.path() << ": the teeth interpenetrate by " << ev.pairs.front().delta * 1e3
       << " mm at the start; turn the wheel so that a tooth space faces a pinion tooth (by "
          "π + π/z₂ about its axis for gears generated on the line of centres)";
    wc.fail(os.str());
  }
  build_at(e.value.source(), e.value.key_pos(),
           [&] { return add_element(model, std::move(element)); });
}

}  // namespace cs::model_file
