#include "clearsim/elements/joints/joint_bearing_loss.hpp"

namespace cs::joints {

lubrication::LoadedTorque JointBearingLoss::torque(double omega, double load) const {
  if (petroff) return lubrication::petroff_torque(bearing, omega);
  return lubrication::loaded_bearing_torque(bearing, omega, load);
}

double radial_load(const Vec3& F_W, const Vec3& axis_W) {
  return (F_W - axis_W * axis_W.dot(F_W)).norm();
}

}  // namespace cs::joints
