#include "clearsim/elements/forces/spring_damper.hpp"

#include "clearsim/elements/forces/axial_torque.hpp"
#include "clearsim/elements/joints/constraint_primitives.hpp"
#include "clearsim/math/so3.hpp"

namespace cs::forces {

using so3::skew;

namespace {

// Below this length [m] the spring direction is undefined and taken as zero (spring_damper.hpp).
constexpr double kMinLength = 1e-12;

// Column offsets of the rotation blocks in the local coordinates.
constexpr int kTi = 3, kTj = 9;

// Geometry and rate of the segment from p_i to p_j.
struct Span {
  Vec3 d_W;                        // p_j − p_i [m], world
  Eigen::Matrix<double, 3, 12> D;  // ∂d/∂q_loc, so ḋ = D v
  Vec3 d_dot_W;                    // ḋ [m/s], world
  double length = 0.0;             // ℓ = ‖d‖ [m]
  Vec3 u_W = Vec3::Zero();         // d/ℓ, or zero below kMinLength
  double length_rate = 0.0;        // ℓ̇ = u·ḋ [m/s]
};

Span evaluate_span(const ElementInput& in, const Marker& mi, const Marker& mj) {
  const joints::PointResult p = joints::point_coincidence(*in.i, mi.p_B, *in.j, mj.p_B);
  Span s;
  s.d_W = p.phi;
  s.D = p.B;
  s.d_dot_W = p.B * joints::local_velocity(*in.i, *in.j);
  s.length = s.d_W.norm();
  if (s.length >= kMinLength) s.u_W = s.d_W / s.length;
  s.length_rate = s.u_W.dot(s.d_dot_W);
  return s;
}

}  // namespace

// --- translational --------------------------------------------------------------------------

TranslationalSpringDamper::TranslationalSpringDamper(std::string name, Marker at_i, Marker at_j,
                                                     SpringDamperParams p)
    : Element(std::move(name), at_i.body, at_j.body), mi_(at_i), mj_(at_j), p_(p) {}

void TranslationalSpringDamper::force(const ElementInput& in, ForceBlock& out,
                                      bool tangents) const {
  const Span s = evaluate_span(in, mi_, mj_);
  if (s.length < kMinLength) return;  // u = 0: no force and no tangent
  const double k = p_.stiffness, c = p_.damping;
  const double tension = k * (s.length - p_.free_length) + c * s.length_rate + p_.preload;
  // f = −F ∂ℓ/∂qᵀ = −F Dᵀu.
  const Vec12 Dt_u = s.D.transpose() * s.u_W;
  out.f -= tension * Dt_u;
  if (!tangents) return;
  const BodyKinematics& bi = *in.i;
  const BodyKinematics& bj = *in.j;
  // ∂u/∂q = (I − uuᵀ) D / ℓ.
  const Mat3 P = Mat3::Identity() - s.u_W * s.u_W.transpose();
  const Eigen::Matrix<double, 3, 12> du_dq = P * s.D / s.length;
  // ∂ḋ/∂q at fixed v: R(Ω × s̄) varies as −R (Ω × s̄)~ δΘ.
  Eigen::Matrix<double, 3, 12> dd_dot_dq = Eigen::Matrix<double, 3, 12>::Zero();
  dd_dot_dq.block<3, 3>(0, kTi) = bi.R_WB * skew(bi.w_B.cross(mi_.p_B));
  dd_dot_dq.block<3, 3>(0, kTj) = -bj.R_WB * skew(bj.w_B.cross(mj_.p_B));
  const joints::Row12 dlength_dq = s.u_W.transpose() * s.D;
  const joints::Row12 drate_dq = s.d_dot_W.transpose() * du_dq + s.u_W.transpose() * dd_dot_dq;
  // ∂(Dᵀu)/∂q = Dᵀ ∂u/∂q + (∂Dᵀ/∂q) u; the second term is the point-coincidence tangent at λ = u.
  Mat12 dDt_u_dq = s.D.transpose() * du_dq;
  joints::point_coincidence_tangent(bi, mi_.p_B, bj, mj_.p_B, s.u_W, dDt_u_dq);
  out.df_dq -= Dt_u * (k * dlength_dq + c * drate_dq) + tension * dDt_u_dq;
  out.df_dv -= c * Dt_u * dlength_dq;
}

double TranslationalSpringDamper::potential_energy(const ElementInput& in) const {
  const double stretch = evaluate_span(in, mi_, mj_).length - p_.free_length;
  return 0.5 * p_.stiffness * stretch * stretch + p_.preload * stretch;
}

std::vector<std::string> TranslationalSpringDamper::channel_names() const {
  return {"length", "length_rate", "force", "power"};
}

double TranslationalSpringDamper::channel_value(int k, const ElementInput& in,
                                                const double*) const {
  const Span s = evaluate_span(in, mi_, mj_);
  switch (k) {
    case 0:
      return s.length;
    case 1:
      return s.length_rate;
    case 2:
      if (s.length < kMinLength) return 0.0;
      return p_.stiffness * (s.length - p_.free_length) + p_.damping * s.length_rate + p_.preload;
    default:
      return p_.damping * s.length_rate * s.length_rate;
  }
}

// --- rotational -----------------------------------------------------------------------------

RotationalSpringDamper::RotationalSpringDamper(std::string name, Marker joint_marker_i,
                                               Marker joint_marker_j, SpringDamperParams p)
    : Element(std::move(name), joint_marker_i.body, joint_marker_j.body),
      mi_(joint_marker_i),
      mj_(joint_marker_j),
      p_(p) {}

void RotationalSpringDamper::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  // θ unwrapped to within π of θ0; T acts as −T on j about +z, so the axial torque is τ = −T.
  const joints::AngleResult a =
      joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, p_.free_length);
  AxialTorque law;
  law.torque = -(p_.stiffness * (a.theta - p_.free_length) + p_.damping * a.theta_dot + p_.preload);
  law.dtorque_dangle = -p_.stiffness;
  law.dtorque_drate = -p_.damping;
  add_axial_torque(in, mi_.R_BM, mj_.R_BM, a, law, out, tangents);
}

double RotationalSpringDamper::potential_energy(const ElementInput& in) const {
  const joints::AngleResult a =
      joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, p_.free_length);
  const double twist = a.theta - p_.free_length;
  return 0.5 * p_.stiffness * twist * twist + p_.preload * twist;
}

std::vector<std::string> RotationalSpringDamper::channel_names() const {
  return {"angle", "angular_velocity", "torque", "power"};
}

double RotationalSpringDamper::channel_value(int k, const ElementInput& in, const double*) const {
  const joints::AngleResult a =
      joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, p_.free_length);
  switch (k) {
    case 0:
      return a.theta;
    case 1:
      return a.theta_dot;
    case 2:
      return p_.stiffness * (a.theta - p_.free_length) + p_.damping * a.theta_dot + p_.preload;
    default:
      return p_.damping * a.theta_dot * a.theta_dot;
  }
}

}  // namespace cs::forces
