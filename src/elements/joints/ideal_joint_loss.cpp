// The bearing loss model of an ideal joint (joint_bearing_loss.hpp): its torque, its load (the
// joint's reaction, remembered after each accepted step) and its channels.
#include <stdexcept>
#include <utility>

#include "clearsim/elements/forces/axial_torque.hpp"
#include "clearsim/elements/joints/ideal_joint.hpp"

namespace cs::joints {

void IdealJoint::set_bearing_loss(JointBearingLoss loss) {
  if (type_ != JointType::kRevolute && type_ != JointType::kCylindrical)
    throw std::invalid_argument("joint '" + name() +
                                "': a bearing loss model needs a joint that "
                                "turns about its axis (revolute or cylindrical); a " +
                                kind() + " joint cannot rotate about it");
  lubrication::attach_finite_table(loss.bearing);
  loss_ = std::move(loss);
}

double IdealJoint::loss_load(const ElementInput& in) const {
  if (!in.memory) return 0.0;
  return in.t > in.memory[0] ? in.memory[2] : in.memory[1];
}

lubrication::LoadedTorque IdealJoint::loss_torque(const ElementInput& in, double theta_dot) const {
  return loss_->torque(theta_dot, loss_load(in));
}

void IdealJoint::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  if (!loss_) return;
  // Only ∇θ and θ̇ are used, so the unwrapping reference is irrelevant.
  const AngleResult a = relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, 0.0);
  const lubrication::LoadedTorque T = loss_torque(in, a.theta_dot);
  forces::AxialTorque law;
  law.torque = T.torque;
  law.dtorque_drate = T.dtorque_drate;
  forces::add_axial_torque(in, mi_.R_BM, mj_.R_BM, a, law, out, tangents);
}

void IdealJoint::update_memory(const ElementInput& in, double* memory) const {
  if (!loss_ || in.lambda == nullptr) return;  // keeps the last known load
  const Vec3 axis_W = in.j->R_WB * mj_.R_BM.col(2);
  // in.memory and memory are the same slots: the old values are read first.
  const double latest = in.memory ? in.memory[2] : 0.0;
  memory[2] = radial_load(reaction(in, in.lambda).first, axis_W);
  memory[1] = latest;
  memory[0] = in.t;
}

double IdealJoint::loss_channel(int k, const ElementInput& in) const {
  const double theta_dot = relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, 0.0).theta_dot;
  const lubrication::LoadedTorque T = loss_torque(in, theta_dot);
  switch (k) {
    case 0:
      return T.torque;
    case 1:
      return -T.torque * theta_dot;
    case 2:
      return loss_load(in);
    default:
      return T.eps;
  }
}

}  // namespace cs::joints
