#include "clearsim/elements/forces/joint_backlash.hpp"

#include <stdexcept>
#include <string>

#include "clearsim/elements/forces/axial_torque.hpp"
#include "clearsim/elements/forces/stop_law.hpp"
#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::forces {

double MotorMotion::angle(double t) const {
  return given_as_velocity ? function.integral(t) : function.value(t);
}

double MotorMotion::rate(double t) const {
  return given_as_velocity ? function.value(t) : function.d1(t);
}

// The joint angle and the stop's law at one configuration (joint_backlash.hpp).
struct JointBacklash::Stop {
  joints::AngleResult angle;
  double motor_angle = 0.0;
  double motor_rate = 0.0;
  double lost_motion = 0.0;  // δ = θ − θ_m
  StopResult stop;           // zero inside the play and while the stop would pull
};

JointBacklash::JointBacklash(std::string name, Marker joint_marker_i, Marker joint_marker_j,
                             BacklashParams p, MotorMotion motor)
    : Element(std::move(name), joint_marker_i.body, joint_marker_j.body),
      mi_(joint_marker_i),
      mj_(joint_marker_j),
      p_(p),
      motor_(std::move(motor)) {
  if (!(p_.play >= 0.0))
    throw std::invalid_argument("backlash '" + this->name() + "': the play must be >= 0");
  if (!(p_.stiffness > 0.0))
    throw std::invalid_argument("backlash '" + this->name() + "': the stiffness must be > 0");
  if (!(p_.damping >= 0.0))
    throw std::invalid_argument("backlash '" + this->name() + "': the damping must be >= 0");
}

JointBacklash::Stop JointBacklash::evaluate(const ElementInput& in) const {
  Stop s;
  s.motor_angle = motor_.angle(in.t);
  s.motor_rate = motor_.rate(in.t);
  // Unwrapped to within π of the motor angle, so a joint turned many times stays continuous.
  s.angle = joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, s.motor_angle, false);
  s.lost_motion = s.angle.theta - s.motor_angle;
  const double h = 0.5 * p_.play;
  s.stop = dead_zone_stop(s.angle.theta, s.angle.theta_dot, s.motor_angle - h, s.motor_angle + h,
                          s.motor_rate, p_.stiffness, p_.damping);
  return s;
}

void JointBacklash::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  const Stop s = evaluate(in);
  if (s.stop.law.torque == 0.0) return;
  add_axial_torque(in, mi_.R_BM, mj_.R_BM, s.angle, s.stop.law, out, tangents);
}

double JointBacklash::potential_energy(const ElementInput& in) const {
  const double p = evaluate(in).stop.penetration;
  return p > 0.0 ? 0.5 * p_.stiffness * p * p : 0.0;
}

double JointBacklash::delivered_power(const ElementInput& in) const {
  const Stop s = evaluate(in);
  return s.stop.law.torque * s.motor_rate;
}

std::vector<std::string> JointBacklash::channel_names() const {
  return {"angle", "angular_velocity", "torque", "power", "lost_motion"};
}

double JointBacklash::channel_value(int k, const ElementInput& in, const double*) const {
  const Stop s = evaluate(in);
  switch (k) {
    case 0:
      return s.motor_angle;
    case 1:
      return s.motor_rate;
    case 2:
      return s.stop.law.torque;
    case 3:
      return s.stop.law.torque * s.motor_rate;
    default:
      return s.lost_motion;
  }
}

}  // namespace cs::forces
