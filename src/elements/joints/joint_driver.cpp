#include "clearsim/elements/joints/joint_driver.hpp"

#include <cmath>
#include <numbers>

#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::joints {

JointDriver::JointDriver(std::string name, std::string joint_name, Motion motion, Given given,
                         TimeFunction f, Marker marker_i, Marker marker_j)
    : Element(std::move(name), marker_i.body, marker_j.body),
      joint_name_(std::move(joint_name)),
      motion_(motion),
      given_(given),
      f_(std::move(f)),
      mi_(marker_i),
      mj_(marker_j) {}

double JointDriver::target(double t) const {
  return given_ == Given::kPosition ? f_.value(t) : f_.integral(t);
}
double JointDriver::target_d1(double t) const {
  return given_ == Given::kPosition ? f_.d1(t) : f_.value(t);
}
double JointDriver::target_d2(double t) const {
  return given_ == Given::kPosition ? f_.d2(t) : f_.d1(t);
}

void JointDriver::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(1);
  const double td = target(in.t);
  const bool jac = out.want_jacobian;
  if (motion_ == Motion::kRotation) {
    // Φ = θ − θ_d with θ unwrapped to within π of θ_d, so many turns never jump by 2π.
    const AngleResult a = relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, td, out.want_zeta, jac);
    out.phi(0) = a.theta - td;
    if (jac) out.B.row(0) = a.grad;
    if (jac) out.zeta(0) = a.zeta;
  } else {
    const ScalarResult s =
        dot2(*in.i, mi_.R_BM.col(2), mi_.p_B, *in.j, mj_.p_B, out.want_zeta, jac);
    out.phi(0) = s.phi - td;
    if (jac) out.B.row(0) = s.B;
    if (jac) out.zeta(0) = s.zeta;
  }
  out.phi_t(0) = -target_d1(in.t);
  if (jac) out.zeta(0) -= target_d2(in.t);
}

void JointDriver::constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const {
  if (motion_ == Motion::kRotation) {
    relative_angle_tangent(*in.i, mi_.R_BM, *in.j, mj_.R_BM, lambda[0], K);
  } else {
    dot2_tangent(*in.i, mi_.R_BM.col(2), mi_.p_B, *in.j, mj_.p_B, lambda[0], K);
  }
}

std::string JointDriver::constraint_row_name(int) const {
  return (motion_ == Motion::kRotation ? "prescribed angle of joint "
                                       : "prescribed slide of joint ") +
         joint_name_;
}

std::vector<std::string> JointDriver::channel_names() const {
  if (motion_ == Motion::kRotation) return {"torque", "power", "angle", "angular_velocity"};
  return {"force", "power", "displacement", "velocity"};
}

double JointDriver::channel_value(int k, const ElementInput& in, const double* lambda) const {
  // The reaction on the bodies is −Bᵀλ and B is the gradient of the driven coordinate, so the
  // effort along the driven coordinate is −λ.
  const double effort = -lambda[0];
  switch (k) {
    case 0:
      return effort;
    case 1:
      return effort * target_d1(in.t);
    case 2:
      return target(in.t);
    default:
      return target_d1(in.t);
  }
}

}  // namespace cs::joints
