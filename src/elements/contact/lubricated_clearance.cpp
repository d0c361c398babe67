#include "clearsim/elements/contact/lubricated_clearance.hpp"

#include <stdexcept>

#include "clearsim/elements/contact/clearance_joints.hpp"

namespace cs::contact {

namespace {
// The geometry with its dry contact at c − e0 (the spherical geometry carries e0 itself); a
// film needs a journal, so a sphere–plane pair is refused.
Geometry with_asperity(Geometry g, double asperity, const std::string& name) {
  std::visit(
      overloaded{[&](SphericalClearanceGeometry& s) { s.asperity = asperity; },
                 [](RevoluteClearanceGeometry&) {},
                 [&](SpherePlaneGeometry&) {
                   throw std::invalid_argument("'" + name + "': a film needs a clearance joint");
                 }},
      g);
  return g;
}
}  // namespace

LubricatedClearance::LubricatedClearance(std::string name, int body_i, int body_j,
                                         Geometry geometry, Lubrication film, double asperity,
                                         double restitution, double mu, bool axial_ideal)
    : Element(std::move(name), body_i, body_j),
      geometry_(with_asperity(std::move(geometry), asperity, this->name())),
      film_(std::move(film)),
      e0_(asperity),
      e_n_(restitution),
      mu_(mu),
      axial_ideal_(axial_ideal) {
  prepare_lubrication(film_, geometry_);
}

std::string LubricatedClearance::kind() const {
  return std::string(std::visit(
             overloaded{[](const SphericalClearanceGeometry&) { return "spherical_clearance"; },
                        [](const RevoluteClearanceGeometry&) { return "revolute_clearance"; },
                        [](const SpherePlaneGeometry&) { return "sphere_plane"; }},
             geometry_)) +
         " (lubricated, unilateral)";
}

template <class S>
int LubricatedClearance::journals_of(const Pose<S>& i, const Pose<S>& j, Journal<S>* J) const {
  return std::visit(
      overloaded{[&](const SphericalClearanceGeometry& s) { return s.journals(i, j, J); },
                 [&](const RevoluteClearanceGeometry& r) { return r.journals(i, j, J); },
                 [](const SpherePlaneGeometry&) { return 0; }},
      geometry_);
}

// The film force of every journal as a generalized force on the two bodies: F on the journal
// (body j) at its centre, −F on the housing (body i) at the same point.
template <class S>
Eigen::Matrix<S, 12, 1> LubricatedClearance::film_force(const Pose<S>& i, const Pose<S>& j,
                                                        Evaluation* ev) const {
  Journal<S> J[kMaxJournals];
  const int n = journals_of(i, j, J);
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
  std::visit(
      overloaded{
          [&](const SphericalClearanceGeometry& s) { spherical_gap_rows(s, mu_, in, out); },
          [&](const RevoluteClearanceGeometry& r) { revolute_gap_rows(r, e0_, mu_, in, out); },
          [](const SpherePlaneGeometry&) {}},
      geometry_);
}

std::string LubricatedClearance::gap_name(int k) const {
  const auto* r = std::get_if<RevoluteClearanceGeometry>(&geometry_);
  if (r && r->num_ends() == 2)
    return k == 0 ? "film rupture, pin end +d" : "film rupture, pin end −d";
  return "film rupture";
}

int LubricatedClearance::num_ideal_rows() const { return geometry_ideal_row_count(geometry_); }

void LubricatedClearance::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  geometry_ideal_rows(geometry_, in, out);
}

void LubricatedClearance::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(num_constraints());
  if (const auto* r = axial_row_geometry()) revolute_axial_row(*r, in, out);
}

void LubricatedClearance::constraint_tangent(const ElementInput& in, const double* lambda,
                                             Mat12& K) const {
  if (const auto* r = axial_row_geometry()) revolute_axial_tangent(*r, in, lambda[0], K);
}

const RevoluteClearanceGeometry* LubricatedClearance::axial_row_geometry() const {
  return axial_ideal_ ? std::get_if<RevoluteClearanceGeometry>(&geometry_) : nullptr;
}

std::vector<std::string> LubricatedClearance::channel_names() const {
  std::vector<std::string> names = geometry_channel_names(geometry_);
  const int n = num_points(geometry_);
  for (int k = 0; k < n; ++k) {
    const std::string suffix = n > 1 ? std::to_string(k + 1) : "";
    names.push_back("film_force" + suffix);
    names.push_back("film_power" + suffix);
    for (int q = 0; q < film_.num_loss_channels(); ++q)
      names.push_back(Lubrication::loss_channel_names()[std::size_t(q)] + suffix);
  }
  return names;
}

double LubricatedClearance::channel_value(int k, const ElementInput& in, const double*) const {
  const int geometric = static_cast<int>(geometry_channel_names(geometry_).size());
  if (k < geometric) return geometry_channel_value(geometry_, e0_, k, in);
  const int per_journal = 2 + film_.num_loss_channels();
  const int a = (k - geometric) / per_journal, q = (k - geometric) % per_journal;
  if (q >= 2) {
    const Pose<double> pi = pose_of(*in.i), pj = pose_of(*in.j);
    Journal<double> J[kMaxJournals];
    journals_of(pi, pj, J);
    return film_.loss_channel(q - 2, J[a], pi, pj);
  }
  const Evaluation ev = evaluate(in);
  return q == 0 ? ev.force[a].norm() : ev.power[a];
}

}  // namespace cs::contact
