// A bearing loss model carried by an ideal revolute or cylindrical joint (docs/lubrication.md,
// *A loss model on an ideal joint*): the friction torque of a lubricated journal bearing without
// its clearance dynamics, applied between the joint's bodies as a torque about its axis that
// resists their relative rotation, with the joint's reaction force as the bearing's load.
//
// The journal is body j, the bush body i (as in a clearance joint); ω = θ̇ is the relative rate
// of the joint's markers (joints::relative_angle). The torque T_J(ω, W) is
// lubrication::loaded_bearing_torque (or petroff_torque), acting on body j about +z of marker j
// and −T_J on body i (forces::add_axial_torque, with its exact tangents in q and v).
//
// The load W is the joint's reaction force on body j across the axis, ‖F − u(u·F)‖, at the last
// accepted step (the element's memory): the reaction is the solution of the step the torque
// enters, and an element's force cannot depend on the multipliers, so the load lags the motion
// by one step. The memory keeps [t_n, W_{n−1}, W_n] after the step to t_n: the force uses W_n
// after t_n (the next step) and W_{n−1} at t_n itself, so that the state at t_n, its output
// channels and its power balance see the torque the step to t_n was solved with (P = −T_J ω ≥ 0
// is the same number everywhere, and the balance closes whatever the lag).
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/elements/lubrication/bearing_losses.hpp"

namespace cs::joints {

struct JointBearingLoss {
  bool petroff = false;                 // Petroff's torque (ε = 0) whatever the load
  lubrication::JournalBearing bearing;  // μ, R, L, c; model long/short/finite and its film

  // T_J and ∂T_J/∂ω at the relative rate ω [rad/s] under the load W [N].
  lubrication::LoadedTorque torque(double omega, double load) const;
};

// The part of a reaction force F (world) across the unit axis u (world): the bearing's load [N].
double radial_load(const Vec3& F_W, const Vec3& axis_W);

}  // namespace cs::joints
