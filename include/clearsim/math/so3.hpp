// SO(3) tools: skew matrix, exponential and logarithm maps, and the tangent operator of exp.
//
// Convention (reference.md §1.9): rotations are updated on the right, R⁺ = R·exp(Θ̃), so Θ is a
// rotation increment expressed in the body (material) frame. T(Ψ) is the right tangent operator:
// if R(s) = exp(Ψ(s)~) then R⁻¹ dR/ds = (T(Ψ) dΨ/ds)~.
#pragma once

#include "clearsim/math/types.hpp"

namespace cs::so3 {

// ã such that ã b = a × b.
Mat3 skew(const Vec3& a);

// Rodrigues formula; exact for every angle, Taylor series near zero.
Mat3 exp(const Vec3& psi);

// Rotation vector of R with angle in [0, π]; robust near 0 and near π.
Vec3 log(const Mat3& R);

// Right tangent operator T(Ψ) = I − ((1 − cos φ)/φ²) Ψ̃ + ((φ − sin φ)/φ³) Ψ̃², φ = ‖Ψ‖.
Mat3 tangent(const Vec3& psi);

// T(Ψ)⁻¹ = I + ½Ψ̃ + (1/φ²)(1 − (φ/2) cot(φ/2)) Ψ̃²  (used by the log-based error checks).
Mat3 tangent_inverse(const Vec3& psi);

// Projects a nearly orthonormal matrix back to SO(3) (polar decomposition by SVD).
Mat3 orthonormalize(const Mat3& R);

// Rotation that maps unit vector e_z to the unit vector `axis` (shortest arc).
Mat3 frame_with_z_axis(const Vec3& axis);

}  // namespace cs::so3
