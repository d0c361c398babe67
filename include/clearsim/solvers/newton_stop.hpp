// What the Newton iterations of an implicit step must reach, shared by the formulations behind
// GeneralizedAlpha and PenaltyAlpha so that they stop on the same accuracy.
#pragma once

#include <algorithm>
#include <cmath>

#include "clearsim/state/state.hpp"

namespace cs::newton_stop {

// Positions cannot be resolved below kRoundoffFloor·(1 + max|x|) [m, rad].
inline constexpr double kRoundoffFloor = 8.0 * 2.220446049250313e-16;
// A position error δq leaves β′δq in v̇ and in the reactions, which the outputs carry: the
// iteration stops no later than δq ≤ kAccelFraction·‖v̇‖∞/β′. Measured on the ideal
// slider–crank at h = 1e-5 s (slider acceleration, max difference from full Newton over its
// range): 1e-6 → 5.8e-5, 1e-7 → 4.0e-6, 1e-8 → 6.1e-7, against 7.5e-6 between full Newton at h
// and h/2; 3.55 iterations per step.
inline constexpr double kAccelFraction = 1e-8;

// Modified Newton stops when its remaining error in positions is below kStepErrorFraction times
// the step's own local error estimate h²|β − 1/6|‖a_{n+1} − a_n‖∞ (GeneralizedAlpha::smooth_solve
// says why 0.003), never above newton_tol and never below the round-off floor, and below the
// acceleration bound.
inline constexpr double kStepErrorFraction = 0.003;
// Increments that stop contracting within this factor of the round-off floor are round-off.
inline constexpr double kNoiseBand = 128.0;
// A Newton increment diverges when it is kDivergenceGrowth times the last one and
// kDivergenceMotion times the step's predicted motion (GeneralizedAlpha::smooth_solve).
inline constexpr double kDivergenceGrowth = 10.0;
inline constexpr double kDivergenceMotion = 100.0;
// Matrix refresh, one rule with a rate per kind of matrix: modified Newton refactorizes a matrix
// kept from an earlier iterate or step at the current iterate when an increment shrinks by less
// than the rate — the cheaper the factorization against a solve, the sooner.
//   kLuRefreshRate: the LU of the full iteration matrix (body poses, the penalty family), from
//   the third iteration on;
//   kMovingRowsRefreshRate: a matrix whose rows move with the configuration and whose solve is
//   cheap (the mass iteration's Schur complement, joint coordinates' JᵀMJ).
// A fresh factorization that still contracts slower than kFreshGiveUpRate is not the right
// matrix: the mass iteration gives way to the full LU, joint coordinates fail the attempt.
inline constexpr double kLuRefreshRate = 0.25;
inline constexpr double kMovingRowsRefreshRate = 1e-3;
inline constexpr double kFreshGiveUpRate = 0.5;
// True if the increment dx of iteration `it` diverges: kDivergenceGrowth times the last one and
// kDivergenceMotion times the step's own motion.
inline bool diverges(int it, double dx, double last_dx, double motion) {
  return it >= 1 && dx > kDivergenceGrowth * last_dx && dx > kDivergenceMotion * motion;
}

// The round-off floor of the positions of `s`.
inline double roundoff(const State& s) {
  double x_max = 0.0;
  for (const Vec3& xb : s.x_W) x_max = std::max(x_max, xb.lpNorm<Eigen::Infinity>());
  return kRoundoffFloor * (1.0 + x_max);
}

// kAccelFraction·‖v̇‖∞/β′ clamped to [floor, cap] (cap if not finite).
inline double accel_bound(const VecX& vdot, double beta_p, double floor, double cap) {
  const double est = kAccelFraction * vdot.lpNorm<Eigen::Infinity>() / beta_p;
  return std::isfinite(est) ? std::clamp(est, floor, cap) : cap;
}

}  // namespace cs::newton_stop
