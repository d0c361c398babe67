#include "clearsim/elements/forces/stop_law.hpp"

#include <algorithm>

namespace cs::forces {

StopResult dead_zone_stop(double x, double x_rate, double lower, double upper, double bounds_rate,
                          double stiffness, double damping) {
  StopResult r;
  const double above = x - upper, below = lower - x;
  r.penetration = std::max(above, below);
  if (r.penetration <= 0.0) return r;
  // side = +1 past the upper stop, −1 past the lower one: F_x = −side·F.
  const double side = above > 0.0 ? 1.0 : -1.0;
  const double rate = side * (x_rate - bounds_rate);
  const double push = stiffness * r.penetration + damping * rate;
  if (push <= 0.0) return r;  // separating faster than the spring pushes: the stop lets go
  r.law.torque = -side * push;
  r.law.dtorque_dangle = -stiffness;  // −side·k·side
  r.law.dtorque_drate = -damping;
  return r;
}

}  // namespace cs::forces
