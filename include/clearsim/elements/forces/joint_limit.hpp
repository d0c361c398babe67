// The range of motion of a revolute or prismatic joint: compliant stops at x = lower and
// x = upper on the joint coordinate (forces::JointCoordinate: the angle θ or the slide s, 0 in the
// reference configuration), with the dead-zone law of forces::dead_zone_stop:
//   p = x − upper (above) or lower − x (below),  F = k p + c ṗ  while p > 0 and F > 0,
// along −x above and +x below (a torque [N·m] for θ, a force [N] for s; on body j, −F on body i).
// Between the bounds the joint moves freely. The tangents are exact (joint_coordinate.hpp);
// potential V = ½ k p² past a stop.
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/elements/forces/joint_coordinate.hpp"

namespace cs::forces {

struct JointLimitParams {
  double lower = 0.0;      // [rad] or [m]
  double upper = 0.0;      // ≥ lower
  double stiffness = 0.0;  // k > 0 [N·m/rad] or [N/m]
  double damping = 0.0;    // c ≥ 0 [N·m·s/rad] or [N·s/m]
};

class JointLimit final : public Element {
 public:
  // Throws std::invalid_argument for upper < lower, k ≤ 0 or c < 0.
  JointLimit(std::string name, JointCoordinate coordinate, JointLimitParams p);
  std::string kind() const override { return "joint_limit"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  double potential_energy(const ElementInput& in) const override;
  // Revolute: "angle" [rad], "angular_velocity" [rad/s], "torque" [N·m] (on body 2 about the
  // axis, 0 between the stops), "overtravel_angle" [rad] (p of the nearer stop, ≤ 0 inside).
  // Prismatic: "displacement" [m], "velocity" [m/s], "force" [N], "overtravel" [m].
  std::vector<std::string> channel_names() const override;
  std::vector<Marker> attachments() const override {
    return {coordinate_.marker_i(), coordinate_.marker_j()};
  }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

  const JointLimitParams& params() const { return p_; }

 private:
  struct Stop;
  Stop evaluate(const ElementInput& in) const;

  JointCoordinate coordinate_;
  JointLimitParams p_;
};

}  // namespace cs::forces
