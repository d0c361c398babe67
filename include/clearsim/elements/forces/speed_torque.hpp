// Torque that is a polynomial of a joint's relative angular speed (seed 004's motor and
// propeller/brake curves):  T(n) = a0 + a1·n + a2·n² (+ … any degree),
// with n = θ̇ of a revolute/cylindrical joint (markers i, j; z aligned), in rad/s or rpm.
// T acts on body j about the joint axis (+z of marker j) and −T on body i. A positive T drives
// the joint forward. Optional `oppose_motion` makes the torque act against the sign of n
// (a brake given by magnitude): T_applied = −sign(n)·|T(|n|)|.
#pragma once

#include <vector>

#include "clearsim/elements/element.hpp"
#include "clearsim/model/body.hpp"

namespace cs::forces {

enum class SpeedUnit { kRadPerSecond, kRpm };

class SpeedTorque final : public Element {
 public:
  SpeedTorque(std::string name, Marker joint_marker_i, Marker joint_marker_j,
              std::vector<double> coefficients, SpeedUnit unit, bool oppose_motion);
  std::string kind() const override { return "speed_torque"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // "speed" [rad/s], "torque" [N·m], "power" [W] (T·θ̇).
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

 private:
  Marker mi_, mj_;
  std::vector<double> a_;
  SpeedUnit unit_;
  bool oppose_motion_;
};

}  // namespace cs::forces
