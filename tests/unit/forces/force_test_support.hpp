// Shared checks for the force-element tests: the analytic tangents of a ForceBlock against
// central differences on R³ × SO(3) (fd::jacobian_q / fd::jacobian_v), and f = −∂V/∂q.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "clearsim/elements/element.hpp"
#include "clearsim/math/finite_difference.hpp"
#include "clearsim/model/body.hpp"
#include "support/random_state.hpp"

namespace cs::testing {

inline ForceBlock evaluate_force(const Element& e, const BodyKinematics& bi,
                                 const BodyKinematics& bj, double t, bool tangents) {
  ForceBlock fb;
  e.force({t, &bi, &bj}, fb, tangents);
  return fb;
}

inline bool all_finite(const ForceBlock& fb) {
  return fb.f.allFinite() && fb.df_dq.allFinite() && fb.df_dv.allFinite();
}

// Relative tolerance for a central-difference Jacobian with step ε = 1e-6: the truncation error
// is ε²/6·|f'''| ≈ 2e-13·|f'''| and the round-off is u·|f|/ε ≈ 2e-10·|f| per entry (u = 2.2e-16),
// so over the 144 entries of a 12×12 block the error norm stays below ~1e-8 of the scale
// (1 + ‖f‖ + ‖J‖) for the O(1) poses used here. A missing or mis-signed term is O(1) of that
// scale, so 1e-7 separates the two by orders of magnitude.
inline constexpr double kTangentRelTol = 1e-7;

// Checks df_dq and df_dv of `e` at (bi, bj, t) against central differences of f.
inline void expect_tangents_match_fd(const Element& e, const BodyKinematics& bi,
                                     const BodyKinematics& bj, double t, const std::string& label,
                                     double eps_v = 1e-6) {
  const ForceBlock fb = evaluate_force(e, bi, bj, t, true);
  ASSERT_TRUE(all_finite(fb)) << label;
  auto f_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
    return VecX(evaluate_force(e, a, b, t, false).f);
  };
  const MatX dq_fd = fd::jacobian_q(f_of, bi, bj);
  const MatX dv_fd = fd::jacobian_v(f_of, bi, bj, eps_v);
  const double scale_q = 1.0 + fb.f.norm() + fb.df_dq.norm();
  const double scale_v = 1.0 + fb.f.norm() + fb.df_dv.norm();
  EXPECT_LT((dq_fd - fb.df_dq).norm(), kTangentRelTol * scale_q) << label << "\nanalytic df_dq:\n"
                                                                 << fb.df_dq << "\nfd:\n"
                                                                 << dq_fd;
  EXPECT_LT((dv_fd - fb.df_dv).norm(), kTangentRelTol * scale_v) << label << "\nanalytic df_dv:\n"
                                                                 << fb.df_dv << "\nfd:\n"
                                                                 << dv_fd;
  // The value computed with tangents is the same as without.
  EXPECT_EQ((fb.f - evaluate_force(e, bi, bj, t, false).f).norm(), 0.0) << label;
}

// Checks f = −∂V/∂q (a conservative element at zero damping) by central differences of V.
inline void expect_force_is_minus_gradient(const Element& e, const BodyKinematics& bi,
                                           const BodyKinematics& bj, double t,
                                           const std::string& label) {
  const ForceBlock fb = evaluate_force(e, bi, bj, t, false);
  auto V_of = [&](const BodyKinematics& a, const BodyKinematics& b) {
    VecX V(1);
    V(0) = e.potential_energy({t, &a, &b});
    return V;
  };
  const MatX dV = fd::jacobian_q(V_of, bi, bj);
  const VecX minus_grad = -dV.transpose();
  EXPECT_LT((minus_grad - fb.f).norm(), kTangentRelTol * (1.0 + fb.f.norm()))
      << label << "\nf: " << fb.f.transpose() << "\n-dV/dq: " << minus_grad.transpose();
}

// A body at rest in the reference pose: what the assembly hands in for ground.
inline BodyKinematics ground() { return BodyKinematics{}; }

inline Marker marker_at(int body, const Vec3& p_B, const Mat3& R_BM = Mat3::Identity()) {
  Marker m;
  m.body = body;
  m.p_B = p_B;
  m.R_BM = R_BM;
  return m;
}

}  // namespace cs::testing
