// A scalar torque about a joint axis, shared by the rotational spring–damper and the speed
// torque. The axis is that of a revolute/cylindrical joint given by its two markers (z axes
// aligned) and θ is their relative angle (joints::relative_angle). A torque τ [N·m] acts on body j
// about +z of marker j and −τ on body i, so its generalized force is the virtual work of τ along θ:
//   f = τ ∇θᵀ,   ∂f/∂q = ∇θᵀ (∂τ/∂θ ∇θ + ∂τ/∂θ̇ ∂θ̇/∂q) + τ H,   ∂f/∂v = ∂τ/∂θ̇ ∇θᵀ∇θ,
// with H = ∂(∇θᵀ)/∂q (joints::relative_angle_tangent) and ∂θ̇/∂q = vᵀH since θ̇ = ∇θ·v.
#pragma once

#include "clearsim/elements/element.hpp"
#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::forces {

// Value and partial derivatives of a torque law τ(θ, θ̇).
struct AxialTorque {
  double torque = 0.0;          // τ [N·m], on body j about +z of its marker
  double dtorque_dangle = 0.0;  // ∂τ/∂θ [N·m/rad]
  double dtorque_drate = 0.0;   // ∂τ/∂θ̇ [N·m·s/rad]
};

// Adds f = τ ∇θᵀ and, when `tangents`, its exact tangents to `out`. `angle` is the result of
// joints::relative_angle for the same bodies and marker orientations.
void add_axial_torque(const ElementInput& in, const Mat3& R_BMi, const Mat3& R_BMj,
                      const joints::AngleResult& angle, const AxialTorque& law, ForceBlock& out,
                      bool tangents);

}  // namespace cs::forces
