// Torque that is a polynomial of a joint's relative angular speed (seed 004's motor and
// propeller/brake curves):  T(n) = a0 + a1·n + a2·n² (+ … any degree),
// with n = θ̇ of a revolute/cylindrical joint (markers i, j; z aligned), in rad/s or rpm.
// T acts on body j about the joint axis (+z of marker j) and −T on body i. A positive T drives
// the joint forward. Optional `oppose_motion` makes the torque act against the sign of n
// (a brake given by magnitude): T_applied = −sign(n)·|T(|n|)|. So that Newton iterations see a
// smooth law, sign is regularised as tanh(θ̇/ω_ε) with ω_ε = kSignBand = 1e-3 rad/s (whatever
// the unit of n): within about ±3 ω_ε of rest the brake torque fades smoothly to zero (≈ linearly
// in θ̇ near rest; 99.5 % of the full torque at 3 ω_ε).
//
// Options (seed 004's reducer, reference.md §6e "defensible implementation"):
//  * ratio ρ: the curve is written for another shaft turning at n = ρ θ̇ (a pinion-referred brake
//    applied to the wheel, ρ = z₂/z₁); by power equivalence the joint gets ρ·T(ρ θ̇).
//  * min_speed n_min with `below`: the curve's fit holds for n ≥ n_min only; below it the torque
//    is held at T(n_min) (hold: a motor) or follows the propeller law T(n_min)(n/n_min)²
//    (propeller: a load that vanishes at rest).
//  * ramp r(t) multiplies the torque (a motor brought in progressively).
#pragma once

#include <vector>

#include "clearsim/elements/element.hpp"
#include "clearsim/math/time_function.hpp"
#include "clearsim/model/body.hpp"

namespace cs::forces {

enum class SpeedUnit { kRadPerSecond, kRpm };
enum class BelowMinSpeed { kHold, kPropeller };

struct SpeedTorqueOptions {
  double ratio = 1.0;      // ρ > 0
  double min_speed = 0.0;  // n_min ≥ 0, in the curve's unit (0: the curve everywhere)
  BelowMinSpeed below = BelowMinSpeed::kHold;
  TimeFunction ramp = TimeFunction::constant(1.0);
};

class SpeedTorque final : public Element {
 public:
  SpeedTorque(std::string name, Marker joint_marker_i, Marker joint_marker_j,
              std::vector<double> coefficients, SpeedUnit unit, bool oppose_motion,
              SpeedTorqueOptions options = {});
  // Regularisation band ω_ε [rad/s] of sign(θ̇) for `oppose_motion`.
  static constexpr double kSignBand = 1e-3;

  std::string kind() const override { return "speed_torque"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // "speed" [rad/s] (θ̇, whatever the unit of n), "torque" [N·m] (T_applied on body j about +z),
  // "power" [W] (T_applied·θ̇, delivered to the bodies).
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;
  bool delivers_power() const override { return true; }
  // T_applied·θ̇ [W] (the "power" channel).
  double delivered_power(const ElementInput& in) const override {
    return channel_value(2, in, nullptr);
  }

 private:
  Marker mi_, mj_;
  std::vector<double> a_;
  SpeedUnit unit_;
  bool oppose_motion_;
  SpeedTorqueOptions options_;
};

}  // namespace cs::forces
