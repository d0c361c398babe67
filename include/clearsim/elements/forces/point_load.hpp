// A force and/or torque applied to one body, each component a function of time.
//   force:  F(t) [N] applied at the marker origin, world frame
//   torque: τ(t) [N·m], world frame
// Generalized force on the body: [F; R_WBᵀ(τ + (R_WB s̄) × F)] — so ∂f/∂q ≠ 0 through the
// rotation of the application point and the world-fixed directions. The loaded body is body i
// of the element (body j is ground, so the last 6 entries of the force block stay zero). The load
// does not depend on velocity (∂f/∂v = 0) and is not conservative (no potential energy).
#pragma once

#include <array>

#include "clearsim/elements/element.hpp"
#include "clearsim/math/time_function.hpp"
#include "clearsim/model/body.hpp"

namespace cs::forces {

// The generalized force of F_W [N] applied at the body point p_B [m] and τ_W [N·m] (world
// frame) on body b, added to the first 6 entries of `out` (with ∂f/∂q when `tangents`), and the
// power F·v_P + τ·ω_W [W] they deliver. Written once: the point_load element and the loads a
// Simulation holds between steps (System::set_external_load) agree bit for bit.
void add_point_load(const BodyKinematics& b, const Vec3& p_B, const Vec3& F_W, const Vec3& tau_W,
                    ForceBlock& out, bool tangents);
double point_load_power(const BodyKinematics& b, const Vec3& p_B, const Vec3& F_W,
                        const Vec3& tau_W);

class PointLoad final : public Element {
 public:
  // `at` is a marker on the loaded body (its orientation is unused). Components are x, y, z.
  PointLoad(std::string name, Marker at, std::array<TimeFunction, 3> force_W,
            std::array<TimeFunction, 3> torque_W);

  std::string kind() const override { return "point_load"; }
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // "force.x|y|z", "torque.x|y|z" (world), "power" [W].
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;
  bool delivers_power() const override { return true; }
  // F·v_P + τ·ω_W [W], v_P the velocity of the application point.
  double delivered_power(const ElementInput& in) const override;

 private:
  Marker at_;
  std::array<TimeFunction, 3> force_W_, torque_W_;
};

}  // namespace cs::forces
