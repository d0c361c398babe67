// Prescribed motion of a joint (a rheonomic constraint). A rotation driver imposes the relative
// angle θ of the joint markers about their common z axis; a translation driver imposes the
// displacement z_i·(p_j − p_i) along it. Both are measured from the reference configuration of
// the model, where the two markers coincide (θ = 0, s = 0).
//
// The motion is given either as a position function (θ_d(t) = f(t)) or as a velocity function
// (θ_d(t) = ∫₀ᵗ f), so "angular_velocity: 523.6" drives a crank at exactly 5000 rpm.
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/math/time_function.hpp"
#include "clearsim/model/body.hpp"

namespace cs::joints {

class JointDriver final : public Element {
 public:
  enum class Motion { kRotation, kTranslation };
  enum class Given { kPosition, kVelocity };

  JointDriver(std::string name, std::string joint_name, Motion motion, Given given, TimeFunction f,
              Marker marker_i, Marker marker_j);

  std::string kind() const override { return "driver"; }
  int num_constraints() const override { return 1; }
  void constraint(const ElementInput& in, ConstraintBlock& out) const override;
  void constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const override;
  std::string constraint_row_name(int) const override;

  Motion motion() const { return motion_; }
  DrivenMotion driven_motion() const override {
    return motion_ == Motion::kRotation ? DrivenMotion::kRotation : DrivenMotion::kSlide;
  }
  double driven_target(double t) const override { return target(t); }
  double driven_target_rate(double t) const override { return target_d1(t); }
  bool rows_depend_on_time() const override { return true; }
  // Prescribed position, velocity and acceleration at time t.
  double target(double t) const;
  double target_d1(double t) const;
  double target_d2(double t) const;

  // "torque" (rotation) or "force" (translation): effort the driver applies to body j along the
  // axis [N·m or N]; "power" [W]; "angle"/"displacement" and "angular_velocity"/"velocity".
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

 private:
  std::string joint_name_;
  Motion motion_;
  Given given_;
  TimeFunction f_;
  Marker mi_, mj_;
};

}  // namespace cs::joints
