// A direction in the state space of body poses: what a sensitivity dS/dp is. Positions are on
// the group: per body [δx_W; δθ_B], the body-frame rotation R ∘ exp(δθ), as the step's
// increments are (integrate_configuration).
#pragma once

#include "clearsim/state/state.hpp"

namespace cs {

struct StateTangent {
  VecX q;  // 6 per body: δx_W, δθ_B
  VecX v, a, vdot, lambda;
  VecX memory;  // the elements' memory (State::memory): what a contact remembers of its onset
  // NSGA's corrections of the last step (State::v_jump, lambda_jump, Lambda): the velocity jump
  // W, the joints' impulses μ and the normal impulses Λ_N, which the acceleration, reaction and
  // contact channels read. Empty for a model without unilateral contacts.
  VecX v_jump, lambda_jump, Lambda;

  static StateTangent zero(const State& s);
  bool all_finite() const;
  void fill_nan();
};

// Many tangents of a state at once, one per column: StateTangent's q, v, a, v̇ and λ blocks as
// matrices (memory and NSGA's corrections excepted). A Kalman filter's covariance root goes
// through a step this way in one pass (matrix products and one multi-column solve) instead of
// column by column.
struct TangentColumns {
  MatX q, v, a, vdot, lambda;
  Eigen::Index cols() const { return q.cols(); }
};

// s displaced by eps·d: x_W + eps δx, R exp(eps δθ), v + eps δv, ...
State displaced(const State& s, const StateTangent& d, double eps);
// The same into x, reusing its storage (no allocation when x already has s's sizes): for loops
// that displace one state along many directions.
void displace(const State& s, const StateTangent& d, double eps, State& x);

// The central difference (plus ⊖ minus)/(2 eps), rotations by log(R₋ᵀR₊) (exact to O(eps²) at
// the midpoint).
StateTangent central_difference(const State& plus, const State& minus, double eps);

}  // namespace cs
