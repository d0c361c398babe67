#include "clearsim/elements/contact/compliant_contact.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/elements/lubrication/bearing_losses.hpp"

namespace cs::contact {

namespace {
using ConstVec3Map = Eigen::Map<const Vec3>;

std::string geometry_kind(const Geometry& g) {
  return std::visit(
      overloaded{[](const SphericalClearanceGeometry&) { return "spherical_clearance"; },
                 [](const RevoluteClearanceGeometry&) { return "revolute_clearance"; },
                 [](const SpherePlaneGeometry&) { return "sphere_plane"; }},
      g);
}
}  // namespace

CompliantContact::CompliantContact(std::string name, int body_i, int body_j, Geometry geometry,
                                   ContactLaws laws, bool axial_ideal)
    : Element(std::move(name), body_i, body_j),
      geometry_(std::move(geometry)),
      laws_(std::move(laws)),
      axial_ideal_(axial_ideal) {
  if (axial_ideal_ && !std::holds_alternative<RevoluteClearanceGeometry>(geometry_))
    throw std::invalid_argument("'" + this->name() +
                                "': an ideal axial row needs a revolute clearance geometry");
  prepare_lubrication(laws_.lubrication, geometry_);
}

void prepare_lubrication(Lubrication& lubrication, const Geometry& geometry) {
  // A pin with two ends carries one half of the bearing length at each end.
  auto& bearing = lubrication.bearing;
  if (num_points(geometry) == 2) bearing.length *= 0.5;
  // The table covers the capped ε of this joint (its largest allowed value is 0.995).
  if (lubrication.kind == LubricationKind::kJournalBearing)
    lubrication::attach_finite_table(bearing);
}

std::string CompliantContact::kind() const {
  return geometry_kind(geometry_) +
         (laws_.lubrication.kind == LubricationKind::kNone ? " (compliant)" : " (lubricated)");
}

template <class S>
Eigen::Matrix<S, 12, 1> CompliantContact::generalized_force(const Pose<S>& i, const Pose<S>& j,
                                                            const double* memory,
                                                            Evaluation* ev) const {
  ContactPoint<S> cp[kMaxContactPoints];
  Journal<S> J[kMaxContactPoints];
  const int n = contact_points(geometry_, laws_.asperity, i, j, cp, J);
  Eigen::Matrix<S, 12, 1> f = Eigen::Matrix<S, 12, 1>::Zero();
  if (ev) ev->points = n;
  for (int k = 0; k < n; ++k) {
    if (ev) ev->g[k] = value_of(cp[k].g);
    const S delta = -cp[k].g;
    if (value_of(delta) <= 0.0 || value_of(cp[k].N.squaredNorm()) == 0.0) continue;
    const double* mem = memory ? memory + kMemoryPerPoint * k : nullptr;
    const S delta_dot = -cp[k].normal_rate();
    // δ̇⁻: remembered since onset; a contact that starts within this step takes its current rate
    // (with its derivatives: the step's tangent, and the sensitivities, differentiate it).
    const S F_N = (mem && mem[0] > 0.0)
                      ? laws_.normal.force(delta, delta_dot, mem[0])
                      : laws_.normal.force(delta, delta_dot,
                                           value_of(delta_dot) > 0.0 ? delta_dot : S(0.0));
    V3<S> F = F_N * cp[k].N;
    const FrictionLaw& fr = laws_.friction;
    if (fr.kind != FrictionLawKind::kNone || fr.viscous > 0.0) {
      const V3<S> v_T = cp[k].tangential_velocity();
      V3<S> d = V3<S>::Zero(), d_dot = v_T;
      if (fr.has_bristle() && mem && mem[0] > 0.0) {
        const V3<S> A_i = i.point(ConstVec3Map(mem + 1)), A_j = j.point(ConstVec3Map(mem + 4));
        const M3<S> P = M3<S>::Identity() - cp[k].N * cp[k].N.transpose();
        d = P * (A_j - A_i);
        d_dot = P * (j.velocity_at(A_j) - i.velocity_at(A_i));
      }
      const V3<S> F_T = fr.force(v_T, F_N, d, d_dot);
      F += F_T;
      if (ev) {
        for (int c = 0; c < 3; ++c) ev->F_T[k](c) = value_of(F_T(c));
      }
    }
    if (ev) ev->F_N[k] = value_of(F_N);
    f.template head<6>() += wrench_at(i, cp[k].p_i, V3<S>(-F));
    f.template tail<6>() += wrench_at(j, cp[k].p_j, F);
  }
  const Lubrication& lub = laws_.lubrication;
  if (lub.kind == LubricationKind::kNone) return f;
  for (int a = 0; a < n; ++a) {
    const V3<S> F = lub.force(J[a], i, j);
    if (ev) {
      for (int c = 0; c < 3; ++c) ev->film[a](c) = value_of(F(c));
    }
    f.template head<6>() += wrench_at(i, J[a].centre_j, V3<S>(-F));
    f.template tail<6>() += wrench_at(j, J[a].centre_j, F);
  }
  return f;
}

void CompliantContact::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  if (!tangents) {
    out.f += generalized_force(pose_of(*in.i), pose_of(*in.j), in.memory, nullptr);
    return;
  }
  unpack_force(generalized_force(seeded_pose(*in.i, 0), seeded_pose(*in.j, 1), in.memory, nullptr),
               out);
}

CompliantContact::Evaluation CompliantContact::evaluate(const ElementInput& in) const {
  Evaluation ev;
  generalized_force(pose_of(*in.i), pose_of(*in.j), in.memory, &ev);
  return ev;
}

double CompliantContact::potential_energy(const ElementInput& in) const {
  const NormalLaw& law = laws_.normal;
  const Evaluation ev = evaluate(in);
  double V = 0.0;
  for (int k = 0; k < ev.points; ++k) {
    V += law.elastic_energy(-ev.g[k]);
  }
  return V;
}

Element::ContactRates CompliantContact::contact_rates(const ElementInput& in) const {
  const Evaluation ev = evaluate(in);
  ContactRates r;
  for (int p = 0; p < ev.points; ++p) {
    const double delta = -ev.g[p];
    const double v_minus = in.memory ? in.memory[kMemoryPerPoint * p] : 0.0;
    r.stiffness = std::max(r.stiffness, laws_.normal.elastic_stiffness(delta));
    r.damping = std::max(r.damping, laws_.normal.damping_rate(delta, v_minus));
  }
  return r;
}

void CompliantContact::update_memory(const ElementInput& in, double* memory) const {
  const Pose<double> pi = pose_of(*in.i), pj = pose_of(*in.j);
  ContactPoint<double> cp[kMaxContactPoints];
  Journal<double> J[kMaxContactPoints];
  const int n = contact_points(geometry_, laws_.asperity, pi, pj, cp, J);
  const Evaluation ev = evaluate(in);
  for (int k = 0; k < n; ++k) {
    double* mem = memory + kMemoryPerPoint * k;
    if (cp[k].g >= 0.0 || cp[k].N.squaredNorm() == 0.0) {
      std::fill(mem, mem + kMemoryPerPoint, 0.0);
      continue;
    }
    const Vec3 anchor_W = cp[k].p_j;
    if (mem[0] <= 0.0) {  // onset: remember the approach speed, anchor the bristle here
      mem[0] = std::max(-cp[k].normal_rate(), laws_.normal.min_approach_speed);
      Eigen::Map<Vec3>(mem + 1) = pi.R.transpose() * (anchor_W - pi.x);
      Eigen::Map<Vec3>(mem + 4) = pj.R.transpose() * (anchor_W - pj.x);
      continue;
    }
    const FrictionLaw& fr = laws_.friction;
    if (!fr.has_bristle()) continue;
    const Vec3 A_i = pi.point(ConstVec3Map(mem + 1)), A_j = pj.point(ConstVec3Map(mem + 4));
    const Mat3 P = Mat3::Identity() - cp[k].N * cp[k].N.transpose();
    const Vec3 d = P * (A_j - A_i);
    const Vec3 d_dot = P * (pj.velocity_at(A_j) - pi.velocity_at(A_i));
    const Vec3 settled = fr.settled_deflection(cp[k].tangential_velocity(), ev.F_N[k], d, d_dot);
    if (settled == d) continue;
    // Slipping beyond the static limit: the anchor follows, η μ_s F_N/k_stick behind.
    Eigen::Map<Vec3>(mem + 1) = pi.R.transpose() * (anchor_W - settled - pi.x);
    Eigen::Map<Vec3>(mem + 4) = pj.R.transpose() * (anchor_W - pj.x);
  }
}

int CompliantContact::num_ideal_rows() const { return geometry_ideal_row_count(geometry_); }

void CompliantContact::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  geometry_ideal_rows(geometry_, in, out);
}

void CompliantContact::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(num_constraints());
  if (const auto* r = axial_row_geometry()) revolute_axial_row(*r, in, out);
}

void CompliantContact::constraint_tangent(const ElementInput& in, const double* lambda,
                                          Mat12& K) const {
  if (const auto* r = axial_row_geometry()) revolute_axial_tangent(*r, in, lambda[0], K);
}

const RevoluteClearanceGeometry* CompliantContact::axial_row_geometry() const {
  return axial_ideal_ ? std::get_if<RevoluteClearanceGeometry>(&geometry_) : nullptr;
}

std::vector<std::string> CompliantContact::channel_names() const {
  std::vector<std::string> names = geometry_channel_names(geometry_);
  const int n = num_points(geometry_);
  for (int k = 0; k < n; ++k) {
    const std::string suffix = n > 1 ? std::to_string(k + 1) : "";
    for (const char* q : {"normal_force", "friction_force", "penetration", "contact_state"})
      names.push_back(q + suffix);
    if (laws_.lubrication.kind != LubricationKind::kNone) names.push_back("film_force" + suffix);
    if (laws_.lubrication.num_loss_channels() > 0)
      for (const std::string& q : Lubrication::loss_channel_names()) names.push_back(q + suffix);
  }
  return names;
}

double CompliantContact::channel_value(int k, const ElementInput& in, const double*) const {
  const int geometric = static_cast<int>(geometry_channel_names(geometry_).size());
  if (k < geometric) return geometry_channel_value(geometry_, laws_.asperity, k, in);
  const Lubrication& lub = laws_.lubrication;
  const int per_point = (lub.kind != LubricationKind::kNone ? 5 : 4) + lub.num_loss_channels();
  const int p = (k - geometric) / per_point, q = (k - geometric) % per_point;
  if (q >= 5) {
    const Pose<double> pi = pose_of(*in.i), pj = pose_of(*in.j);
    ContactPoint<double> cp[kMaxContactPoints];
    Journal<double> J[kMaxContactPoints];
    contact_points(geometry_, laws_.asperity, pi, pj, cp, J);
    return lub.loss_channel(q - 5, J[p], pi, pj);
  }
  const Evaluation ev = evaluate(in);
  switch (q) {
    case 0:
      return ev.F_N[p];
    case 1:
      return ev.F_T[p].norm();
    case 2:
      return std::max(0.0, -ev.g[p]);
    case 3:
      return ev.g[p] < 0.0 ? 1.0 : 0.0;
    default:
      return ev.film[p].norm();
  }
}

}  // namespace cs::contact
