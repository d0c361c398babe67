#include "clearsim/elements/forces/axial_torque.hpp"

#include "clearsim/elements/forces/joint_coordinate.hpp"

namespace cs::forces {

void add_axial_torque(const ElementInput& in, const Mat3& R_BMi, const Mat3& R_BMj,
                      const joints::AngleResult& angle, const AxialTorque& law, ForceBlock& out,
                      bool tangents) {
  Mat12 H = Mat12::Zero();
  if (tangents) joints::relative_angle_tangent(*in.i, R_BMi, *in.j, R_BMj, 1.0, H);
  add_force_along(in, angle.grad, H, law, out, tangents);
}

}  // namespace cs::forces
