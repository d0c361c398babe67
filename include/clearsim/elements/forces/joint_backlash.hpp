// Backlash between a revolute joint's motor and its link: an angular free play of total width b
// in the transmission, closed by a compliant stop at each end.
//
// The joint itself stays an ideal revolute (its five rows hold the axis); what is compliant is
// the rotation about the axis. θ is the relative angle of the joint's markers (body j against
// body i, 0 in the reference configuration) and θ_m(t) the motor angle (the driver's prescribed
// angle, or 0 for a motor held at rest). With the lost motion δ = θ − θ_m, the half play h = b/2
// and s = sign δ:
//   p = |δ| − h                     (penetration of the stop; inside the play p ≤ 0),
//   F = k p + c ṗ,  ṗ = s (θ̇ − θ̇_m)   (Kelvin–Voigt stop, only while p > 0 and F > 0:
//                                     a stop pushes, never pulls),
//   τ = −s F                        (torque on body j about +z of its marker; −τ on body i).
// Inside the play no torque is transmitted. ∂τ/∂θ = −k and ∂τ/∂θ̇ = −c where the stop acts,
// 0 elsewhere; the generalized force and its exact tangents come from forces::add_axial_torque.
// Potential V = ½ k p² (p > 0); the motor delivers τ θ̇_m (the energy watch's source).
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/math/time_function.hpp"
#include "clearsim/model/body.hpp"

namespace cs::forces {

struct BacklashParams {
  double play = 0.0;       // b [rad] ≥ 0: total free play (±b/2 about the motor angle)
  double stiffness = 0.0;  // k [N·m/rad] > 0: stiffness of the stop
  double damping = 0.0;    // c [N·m·s/rad] ≥ 0: damping of the stop while it is closed
};

// The motor angle θ_m(t): a driver's function given as an angle or as an angular velocity (whose
// integral from 0 is the angle), or 0.
struct MotorMotion {
  TimeFunction function = TimeFunction::constant(0.0);
  bool given_as_velocity = false;
  double angle(double t) const;
  double rate(double t) const;
};

class JointBacklash final : public Element {
 public:
  // `joint_marker_i`, `joint_marker_j`: the revolute joint's markers (z along its axis).
  JointBacklash(std::string name, Marker joint_marker_i, Marker joint_marker_j, BacklashParams p,
                MotorMotion motor);
  std::string kind() const override { return "backlash"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  double potential_energy(const ElementInput& in) const override;
  bool delivers_power() const override { return true; }
  double delivered_power(const ElementInput& in) const override;
  // "angle" [rad] and "angular_velocity" [rad/s] of the motor, "torque" [N·m] (τ, what the
  // motor applies to the link; 0 inside the play), "power" [W] (τ θ̇_m, delivered by the motor),
  // "lost_motion" [rad] (δ = θ − θ_m; |δ| ≤ b/2 while the stops are open).
  std::vector<std::string> channel_names() const override;
  std::vector<Marker> attachments() const override { return {mi_, mj_}; }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

  const BacklashParams& params() const { return p_; }

 private:
  struct Stop;
  Stop evaluate(const ElementInput& in) const;

  Marker mi_, mj_;
  BacklashParams p_;
  MotorMotion motor_;
};

}  // namespace cs::forces
