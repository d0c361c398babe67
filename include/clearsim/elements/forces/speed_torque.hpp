// Torque that is a polynomial of a joint's relative angular speed (seed 004's motor and
// propeller/brake curves):  T(n) = a0 + a1·n + a2·n² (+ … any degree),
// with n = θ̇ of a revolute/cylindrical joint (markers i, j; z aligned), in rad/s or rpm.
// T acts on body j about the joint axis (+z of marker j) and −T on body i. A positive T drives
// the joint forward. Optional `oppose_motion` makes the torque act against the sign of n
// (a brake given by magnitude): T_applied = −sign(n)·|T(|n|)|. So that Newton iterations see a
// smooth law, sign is regularised as tanh(θ̇/ω_ε) with ω_ε = kSignBand = 1e-3 rad/s (whatever
// the unit of n): within about ±3 ω_ε of rest the brake torque fades smoothly to zero (≈ linearly
// in θ̇ near rest; 99.5 % of the full torque at 3 ω_ε).
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
  // Regularisation band ω_ε [rad/s] of sign(θ̇) for `oppose_motion`.
  static constexpr double kSignBand = 1e-3;

  std::string kind() const override { return "speed_torque"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // "speed" [rad/s] (θ̇, whatever the unit of n), "torque" [N·m] (T_applied on body j about +z),
  // "power" [W] (T_applied·θ̇, delivered to the bodies).
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

 private:
  Marker mi_, mj_;
  std::vector<double> a_;
  SpeedUnit unit_;
  bool oppose_motion_;
};

}  // namespace cs::forces
