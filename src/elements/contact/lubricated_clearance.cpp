#include "clearsim/elements/contact/lubricated_clearance.hpp"

#include "clearsim/elements/contact/clearance_joints.hpp"

namespace cs::contact {

namespace {
Geometry with_asperity(Geometry g, double asperity) {
  if (auto* s = std::get_if<SphericalClearanceGeometry>(&g)) s->asperity = asperity;
  return g;
}
}  // namespace

LubricatedClearance::LubricatedClearance(std::string name, int body_i, int body_j,
                                         Geometry geometry, Lubrication film, double asperity,
                                         double restitution, double mu, bool axial_ideal)
    : Element(std::move(name), body_i, body_j),
      geometry_(with_asperity(std::move(geometry), asperity)),
      film_(std::move(film)),
      e0_(asperity),
      e_n_(restitution),
      mu_(mu),
      axial_ideal_(axial_ideal) {
  prepare_lubrication(film_, geometry_);
}

std::string LubricatedClearance::kind() const {
  return std::string(std::holds_alternative<SphericalClearanceGeometry>(geometry_)
                         ? "spherical_clearance"
                         : "revolute_clearance") +
         " (lubricated, unilateral)";
}

// The film force of every journal as a generalized force on the two bodies: F on the journal
// (body j) at its centre, −F on the housing (body i) at the same point.
template <class S>
Eigen::Matrix<S, 12, 1> LubricatedClearance::film_force(const Pose<S>& i, const Pose<S>& j,
                                                        Evaluation* ev) const {
  Journal<S> J[kMaxJournals];
  int n = 0;
  if (const auto* s = std::get_if<SphericalClearanceGeometry>(&geometry_))
    n = s->journals(i, j, J);
  else if (const auto* r = std::get_if<RevoluteClearanceGeometry>(&geometry_))
    n = r->journals(i, j, J);
  Eigen::Matrix<S, 12, 1> f = Eigen::Matrix<S, 12, 1>::Zero();
  if (ev) ev->journals = n;
  for (int a = 0; a < n; ++a) {
    const V3<S> F = film_.force(J[a], i, j);
    Eigen::Matrix<S, 12, 1> fa;
    fa.template head<6>() = wrench_at(i, J[a].centre_j, V3<S>(-F));
    fa.template tail<6>() = wrench_at(j, J[a].centre_j, F);
    if (ev) {
      for (int c = 0; c < 3; ++c) ev->force[a](c) = value_of(F(c));
      // Power on the two bodies: fᵀ [v_i; w_i; v_j; w_j] (the layout of element.hpp).
      double P = 0.0;
      for (int c = 0; c < 3; ++c)
        P += value_of(fa(c)) * value_of(i.v(c)) + value_of(fa(3 + c)) * value_of(i.w_B(c)) +
             value_of(fa(6 + c)) * value_of(j.v(c)) + value_of(fa(9 + c)) * value_of(j.w_B(c));
      ev->power[a] = P;
    }
    f += fa;
  }
  return f;
}

void LubricatedClearance::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  if (!tangents) {
    out.f += film_force(pose_of(*in.i), pose_of(*in.j), nullptr);
    return;
  }
  unpack_force(film_force(seeded_pose(*in.i, 0), seeded_pose(*in.j, 1), nullptr), out);
}

LubricatedClearance::Evaluation LubricatedClearance::evaluate(const ElementInput& in) const {
  Evaluation ev;
  film_force(pose_of(*in.i), pose_of(*in.j), &ev);
  return ev;
}

void LubricatedClearance::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(num_gaps());
  if (const auto* s = std::get_if<SphericalClearanceGeometry>(&geometry_))
    spherical_gap_rows(*s, mu_, in, out);
  else if (const auto* r = std::get_if<RevoluteClearanceGeometry>(&geometry_))
    revolute_gap_rows(*r, e0_, mu_, in, out);
}

std::string LubricatedClearance::gap_name(int k) const {
  const auto* r = std::get_if<RevoluteClearanceGeometry>(&geometry_);
  if (r && r->num_ends() == 2)
    return k == 0 ? "film rupture, pin end +d" : "film rupture, pin end −d";
  return "film rupture";
}

int LubricatedClearance::num_ideal_rows() const {
  return std::holds_alternative<SphericalClearanceGeometry>(geometry_) ? 3 : 5;
}

void LubricatedClearance::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  if (const auto* s = std::get_if<SphericalClearanceGeometry>(&geometry_))
    spherical_ideal_rows(*s, in, out);
  else if (const auto* r = std::get_if<RevoluteClearanceGeometry>(&geometry_))
    revolute_ideal_rows(*r, in, out);
}

void LubricatedClearance::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(num_constraints());
  if (axial_ideal_) revolute_axial_row(std::get<RevoluteClearanceGeometry>(geometry_), in, out);
}

void LubricatedClearance::constraint_tangent(const ElementInput& in, const double* lambda,
                                             Mat12& K) const {
  if (axial_ideal_)
    revolute_axial_tangent(std::get<RevoluteClearanceGeometry>(geometry_), in, lambda[0], K);
}

std::vector<std::string> LubricatedClearance::channel_names() const {
  std::vector<std::string> names = geometry_channel_names(geometry_);
  const int n = num_points(geometry_);
  for (int k = 0; k < n; ++k) {
    const std::string suffix = n > 1 ? std::to_string(k + 1) : "";
    names.push_back("film_force" + suffix);
    names.push_back("film_power" + suffix);
  }
  return names;
}

double LubricatedClearance::channel_value(int k, const ElementInput& in, const double*) const {
  const int geometric = static_cast<int>(geometry_channel_names(geometry_).size());
  if (k < geometric) return geometry_channel_value(geometry_, e0_, k, in);
  const int a = (k - geometric) / 2;
  const Evaluation ev = evaluate(in);
  return (k - geometric) % 2 == 0 ? ev.force[a].norm() : ev.power[a];
}

}  // namespace cs::contact
