// Translational spring–damper between a point on body i and a point on body j:
//   ℓ = ‖p_j − p_i‖, u = (p_j − p_i)/ℓ, F = k(ℓ − ℓ0) + c ℓ̇ + F0 (tension positive),
//   force on j: −F u, on i: +F u. Potential energy V = ½k(ℓ − ℓ0)² + F0(ℓ − ℓ0): the
//   conservative part (spring and preload), so f = −∂V/∂q when c = 0; the damper has none.
//   Below ℓ = 1e-12 m the direction u is undefined; the element then uses u = 0, i.e. applies no
//   force and no tangent (a spring with ℓ0 > 0 squeezed to a point has no preferred direction).
// Rotational spring–damper about the axis of a revolute or cylindrical joint (markers of that
// joint; z axes aligned):
//   θ = relative angle of the markers about z (0 in the reference configuration), unwrapped to
//   within π of θ0 (the element is stateless, so a twist beyond θ0 ± π wraps round),
//   T = k(θ − θ0) + c θ̇ + T0, torque on j about z: −T, on i: +T.
//   Potential V = ½k(θ − θ0)² + T0(θ − θ0) (spring and preload).
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/model/body.hpp"

namespace cs::forces {

struct SpringDamperParams {
  double stiffness = 0.0;    // k [N/m] or [N·m/rad], ≥ 0
  double damping = 0.0;      // c [N·s/m] or [N·m·s/rad], ≥ 0
  double free_length = 0.0;  // ℓ0 [m] or θ0 [rad]
  double preload = 0.0;      // F0 [N] or T0 [N·m]
};

class TranslationalSpringDamper final : public Element {
 public:
  TranslationalSpringDamper(std::string name, Marker at_i, Marker at_j, SpringDamperParams p);
  std::string kind() const override { return "spring_damper"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  double potential_energy(const ElementInput& in) const override;
  // "length" [m], "length_rate" [m/s], "force" [N] (tension positive), "power" [W] (dissipated
  // by the damper, ≥ 0).
  std::vector<std::string> channel_names() const override;
  std::vector<Marker> attachments() const override { return {mi_, mj_}; }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

 private:
  Marker mi_, mj_;
  SpringDamperParams p_;
};

class RotationalSpringDamper final : public Element {
 public:
  RotationalSpringDamper(std::string name, Marker joint_marker_i, Marker joint_marker_j,
                         SpringDamperParams p);
  std::string kind() const override { return "rotational_spring_damper"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  double potential_energy(const ElementInput& in) const override;
  // "angle" [rad], "angular_velocity" [rad/s], "torque" [N·m] (T above), "power" [W] (dissipated
  // by the damper, c θ̇² ≥ 0).
  std::vector<std::string> channel_names() const override;
  std::vector<Marker> attachments() const override { return {mi_, mj_}; }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

 private:
  Marker mi_, mj_;
  SpringDamperParams p_;
};

}  // namespace cs::forces
