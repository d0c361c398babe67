// The coordinate of a one-degree-of-freedom joint and a scalar force along it: the angle θ of a
// revolute joint (joints::relative_angle, body j against body i about +z of the markers) or the
// slide s = (R_i z̄_i)·(p_j − p_i) of a prismatic joint (joints::dot2: marker j's origin along
// marker i's z axis, as a translation driver measures it). Both are 0 in the reference
// configuration. A generalized force F along x (a torque [N·m] for θ, a force [N] for s; on body
// j, −F on body i) is the virtual work of F along x:
//   f = F ∇xᵀ,   ∂f/∂q = ∇xᵀ (∂F/∂x ∇x + ∂F/∂ẋ ∂ẋ/∂q) + F H,   ∂f/∂v = ∂F/∂ẋ ∇xᵀ∇x,
// with H = ∂(∇xᵀ)/∂q the coordinate's own second derivative (relative_angle_tangent,
// dot2_tangent) and ∂ẋ/∂q = vᵀH since ẋ = ∇x·v.
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/elements/forces/axial_torque.hpp"
#include "clearsim/model/body.hpp"

namespace cs::forces {

struct CoordinateValue {
  double x = 0.0;                              // θ [rad] or s [m]
  joints::Row12 grad = joints::Row12::Zero();  // ∂x/∂q_loc
  double rate = 0.0;                           // ẋ = grad·v
};

class JointCoordinate {
 public:
  enum class Kind { kAngle, kSlide };
  JointCoordinate(Kind kind, Marker marker_i, Marker marker_j)
      : kind_(kind), mi_(marker_i), mj_(marker_j) {}

  Kind kind() const { return kind_; }
  const Marker& marker_i() const { return mi_; }
  const Marker& marker_j() const { return mj_; }
  // x and its gradient; an angle is unwrapped to within π of `reference`.
  CoordinateValue evaluate(const ElementInput& in, double reference) const;
  // Adds λ·∂(∇xᵀ)/∂q to K.
  void add_hessian(const ElementInput& in, double lambda, Mat12& K) const;

 private:
  Kind kind_;
  Marker mi_, mj_;
};

// Adds f = F ∇xᵀ (F = law.torque, its partials law.dtorque_dangle, law.dtorque_drate) and, when
// `tangents`, its exact tangents to `out`.
void add_coordinate_force(const ElementInput& in, const JointCoordinate& coordinate,
                          const CoordinateValue& x, const AxialTorque& law, ForceBlock& out,
                          bool tangents);

// The same with the gradient and H given: what add_axial_torque and add_coordinate_force share.
// `hessian` is read only when `tangents`.
void add_force_along(const ElementInput& in, const joints::Row12& grad, const Mat12& hessian,
                     const AxialTorque& law, ForceBlock& out, bool tangents);

}  // namespace cs::forces
