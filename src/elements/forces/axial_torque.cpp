#include "clearsim/elements/forces/axial_torque.hpp"

namespace cs::forces {

void add_axial_torque(const ElementInput& in, const Mat3& R_BMi, const Mat3& R_BMj,
                      const joints::AngleResult& angle, const AxialTorque& law, ForceBlock& out,
                      bool tangents) {
  const Vec12 grad_T = angle.grad.transpose();
  out.f += law.torque * grad_T;
  if (!tangents) return;
  // H = ∂(∇θᵀ)/∂q; θ̇ = ∇θ·v with v held fixed, so ∂θ̇/∂q = vᵀH.
  Mat12 H = Mat12::Zero();
  joints::relative_angle_tangent(*in.i, R_BMi, *in.j, R_BMj, 1.0, H);
  const Vec12 v = joints::local_velocity(*in.i, *in.j);
  const joints::Row12 dthetadot_dq = v.transpose() * H;
  out.df_dq += grad_T * (law.dtorque_dangle * angle.grad + law.dtorque_drate * dthetadot_dq) +
               law.torque * H;
  out.df_dv += law.dtorque_drate * grad_T * angle.grad;
}

}  // namespace cs::forces
