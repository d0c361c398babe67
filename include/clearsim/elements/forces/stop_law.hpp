// A pair of compliant stops that bound a coordinate x to [lower, upper]: the law of a joint
// limit, and of backlash, whose bounds move with the motor (θ_m ∓ b/2). Past a bound by
// p (p = x − upper above, lower − x below, ṗ its rate against the bounds' rate),
//   F = k p + c ṗ   while p > 0 and F > 0   (a stop pushes, never pulls),
// acting along −x above and +x below; no force between the bounds. Where it acts,
// ∂F_x/∂x = −k and ∂F_x/∂ẋ = −c on either side (F_x the force along x).
#pragma once

#include "clearsim/elements/forces/axial_torque.hpp"

namespace cs::forces {

struct StopResult {
  AxialTorque law;           // F_x and its partials; zero between the bounds or when letting go
  double penetration = 0.0;  // p of the nearer stop: > 0 past it, ≤ 0 between the bounds
};

// `bounds_rate`: the rate at which both bounds move (θ̇_m for backlash, 0 for a fixed limit).
StopResult dead_zone_stop(double x, double x_rate, double lower, double upper, double bounds_rate,
                          double stiffness, double damping);

}  // namespace cs::forces
