#include "clearsim/elements/forces/joint_coordinate.hpp"

#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::forces {

CoordinateValue JointCoordinate::evaluate(const ElementInput& in, double reference) const {
  CoordinateValue c;
  if (kind_ == Kind::kAngle) {
    const joints::AngleResult a =
        joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, reference, false);
    c.x = a.theta;
    c.grad = a.grad;
  } else {
    const joints::ScalarResult s =
        joints::dot2(*in.i, mi_.R_BM.col(2), mi_.p_B, *in.j, mj_.p_B, false);
    c.x = s.phi;
    c.grad = s.B;
  }
  c.rate = (c.grad * joints::local_velocity(*in.i, *in.j)).value();
  return c;
}

void JointCoordinate::add_hessian(const ElementInput& in, double lambda, Mat12& K) const {
  if (kind_ == Kind::kAngle)
    joints::relative_angle_tangent(*in.i, mi_.R_BM, *in.j, mj_.R_BM, lambda, K);
  else
    joints::dot2_tangent(*in.i, mi_.R_BM.col(2), mi_.p_B, *in.j, mj_.p_B, lambda, K);
}

void add_coordinate_force(const ElementInput& in, const JointCoordinate& coordinate,
                          const CoordinateValue& x, const AxialTorque& law, ForceBlock& out,
                          bool tangents) {
  Mat12 H = Mat12::Zero();
  if (tangents) coordinate.add_hessian(in, 1.0, H);
  add_force_along(in, x.grad, H, law, out, tangents);
}

void add_force_along(const ElementInput& in, const joints::Row12& grad, const Mat12& hessian,
                     const AxialTorque& law, ForceBlock& out, bool tangents) {
  const Vec12 grad_T = grad.transpose();
  out.f += law.torque * grad_T;
  if (!tangents) return;
  // ẋ = ∇x·v with v held fixed, so ∂ẋ/∂q = vᵀH.
  const Vec12 v = joints::local_velocity(*in.i, *in.j);
  const joints::Row12 drate_dq = v.transpose() * hessian;
  out.df_dq +=
      grad_T * (law.dtorque_dangle * grad + law.dtorque_drate * drate_dq) + law.torque * hessian;
  out.df_dv += law.dtorque_drate * grad_T * grad;
}

}  // namespace cs::forces
