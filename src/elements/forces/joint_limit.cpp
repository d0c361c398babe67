#include "clearsim/elements/forces/joint_limit.hpp"

#include <stdexcept>

#include "clearsim/elements/forces/stop_law.hpp"

namespace cs::forces {

struct JointLimit::Stop {
  CoordinateValue x;
  StopResult stop;
};

JointLimit::JointLimit(std::string name, JointCoordinate coordinate, JointLimitParams p)
    : Element(std::move(name), coordinate.marker_i().body, coordinate.marker_j().body),
      coordinate_(coordinate),
      p_(p) {
  const std::string what = "joint limit '" + this->name() + "': ";
  if (!(p_.upper >= p_.lower))
    throw std::invalid_argument(what + "the upper bound must be >= the lower bound");
  if (!(p_.stiffness > 0.0)) throw std::invalid_argument(what + "the stiffness must be > 0");
  if (!(p_.damping >= 0.0)) throw std::invalid_argument(what + "the damping must be >= 0");
}

JointLimit::Stop JointLimit::evaluate(const ElementInput& in) const {
  Stop s;
  // An angle is unwrapped to within π of the middle of the range, which a limited joint (whose
  // range is below 2π) never leaves by more than π.
  s.x = coordinate_.evaluate(in, 0.5 * (p_.lower + p_.upper));
  s.stop = dead_zone_stop(s.x.x, s.x.rate, p_.lower, p_.upper, 0.0, p_.stiffness, p_.damping);
  return s;
}

void JointLimit::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  const Stop s = evaluate(in);
  if (s.stop.law.torque == 0.0) return;
  add_coordinate_force(in, coordinate_, s.x, s.stop.law, out, tangents);
}

double JointLimit::potential_energy(const ElementInput& in) const {
  const double p = evaluate(in).stop.penetration;
  return p > 0.0 ? 0.5 * p_.stiffness * p * p : 0.0;
}

std::vector<std::string> JointLimit::channel_names() const {
  if (coordinate_.kind() == JointCoordinate::Kind::kAngle)
    return {"angle", "angular_velocity", "torque", "overtravel_angle"};
  return {"displacement", "velocity", "force", "overtravel"};
}

double JointLimit::channel_value(int k, const ElementInput& in, const double*) const {
  const Stop s = evaluate(in);
  switch (k) {
    case 0:
      return s.x.x;
    case 1:
      return s.x.rate;
    case 2:
      return s.stop.law.torque;
    default:
      return s.stop.penetration;
  }
}

}  // namespace cs::forces
