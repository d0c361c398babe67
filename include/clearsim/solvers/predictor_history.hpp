// The predictor of the generalized-α steps (GeneralizedAlpha, TreeAlpha, PenaltyAlpha): the
// step's unknowns (accelerations, multipliers) at its end extrapolated from their values at the
// ends of the last accepted steps, by the polynomial through three points when the last two
// steps continued one another, through two after a restart. Newton only starts there, so the
// predictor sets the iterations, not the result: the quadratic one is O(h³) from the solution
// where the linear one is O(h²), which leaves the step-tied stop (newton_stop.hpp) one iteration
// more rarely and ages a kept matrix more slowly (docs/time-integration.md, *Predictor*).
#pragma once

#include <array>
#include <cmath>
#include <initializer_list>

#include "clearsim/math/types.hpp"

namespace cs {

class PredictorHistory {
 public:
  static constexpr int kMaxQuantities = 3;
  // Steps whose sizes differ by more than this factor from the last one's do not extrapolate
  // (a split or a grown adaptive step): the polynomial's weights grow as the ratio's powers.
  static constexpr double kMaxRatio = 4.0;
  // The quadratic is taken when it predicted the last step's accelerations this much better than
  // the linear would have (squared norms; a third in the norm): where both are about as poor (a
  // compliant contact's onset, an impact), the quadratic's larger weights on older points
  // overshoot (seed 003's dry four-bar split a step at h = 1e-5 s with a bound of 1).
  static constexpr double kQuadraticGain = 0.1;

  // y(t + h) ≈ y₀ + c01 (y₀ − y₁) − c12 (y₁ − y₂): y₀ at t, y₁ at t − h₁, y₂ at t − h₁ − h₂
  // (c12 = 0: linear). Written on the differences so that the linear predictor rounds as it did.
  struct Weights {
    double c01 = 0.0, c12 = 0.0;
  };

  // Whether the quadratic may be taken at all (ali3p: penalty_alpha.cpp). Not under NSGA: its
  // corrections move the state a little at every step, the smooth step's first increment is then
  // not the predictor's error, and a smaller one made modified Newton judge its kept matrix slow
  // and refactorize (Flores' slider–crank: 6 % more factorizations, 3 % more instructions, for 0.4
  // % fewer iterations).
  void allow_quadratic(bool allowed) { allowed_ = allowed; }

  // Forgets the history (a restart, rows that changed).
  void clear() {
    end_t_ = -INFINITY;
    depth_ = 0;
  }

  // Whether the last accepted step ended at t.
  bool ended_at(double t) const { return depth_ >= 1 && t == end_t_; }

  // Whether a step of size h from `t` extrapolates: the last accepted step ended at t, h is
  // within kMaxRatio of it, and each quantity has the size it had then.
  bool continues(double t, double h, std::initializer_list<const VecX*> now) const {
    if (!ended_at(t) || h > kMaxRatio * h1_) return false;
    int k = 0;
    for (const VecX* y : now)
      if (y->size() != back_[0][k++].size()) return false;
    return true;
  }

  // After the step of size h that ended at t_end: `starts` are the quantities at its start (its
  // predictor's y₀), `end0` quantity 0 at its end; `extrapolated` says whether its predictor used
  // this history, so that the points chain into a quadratic.
  void accept(double h, double t_end, bool extrapolated, std::initializer_list<const VecX*> starts,
              const VecX& end0) {
    const bool deeper = extrapolated && depth_ >= 1;
    quadratic_ = allowed_ && deeper && quadratic_pays(h, **starts.begin(), end0);
    int k = 0;
    for (const VecX* y : starts) {
      if (deeper) back_[1][k].swap(back_[0][k]);
      back_[0][k++] = *y;
    }
    h2_ = deeper ? h1_ : 0.0;
    h1_ = h;
    depth_ = deeper ? 2 : 1;
    end_t_ = t_end;
  }

  // The weights for a step of size h from the end of the last one (continues() true): quadratic
  // when three points are known, the last two steps are within kMaxRatio of each other and the
  // quadratic predicted the last step better (quadratic_pays); else linear.
  Weights weights(double h) const {
    const bool three = quadratic_ && h1_ <= kMaxRatio * h2_ && h2_ <= kMaxRatio * h1_;
    return three ? quadratic_weights(h, h1_, h2_) : Weights{h / h1_, 0.0};
  }
  Weights linear_weights(double h) const { return {h / h1_, 0.0}; }

  // Quantity k extrapolated with weights w from its value y0 at the end of the last step (out
  // may be y0).
  void extrapolate(int k, const Weights& w, const VecX& y0, VecX& out) const {
    if (w.c12 != 0.0) {
      out = y0 + w.c01 * (y0 - back_[0][k]) - w.c12 * (back_[0][k] - back_[1][k]);
    } else {
      out = y0 + w.c01 * (y0 - back_[0][k]);
    }
  }
  // Its value at the start of the last step (y₁).
  const VecX& last_start(int k) const { return back_[0][k]; }

 private:
  // Newton's divided differences through (0, y₀), (−h₁, y₁), (−h₁ − h₂, y₂), at h.
  static Weights quadratic_weights(double h, double h1, double h2) {
    const double c = h * (h + h1) / (h1 + h2);
    return {h / h1 + c / h1, c / h2};
  }
  // Whether the quadratic through the three points before the step just taken (of size h, from
  // y₀ = start to `end`) predicted quantity 0 at its end by kQuadraticGain better than the linear.
  bool quadratic_pays(double h, const VecX& start, const VecX& end) const {
    if (depth_ < 2 || back_[1][0].size() != start.size() || end.size() != start.size())
      return false;
    const Weights q = quadratic_weights(h, h1_, h2_);
    const double r = h / h1_;
    const double e_q =
        (start + q.c01 * (start - back_[0][0]) - q.c12 * (back_[0][0] - back_[1][0]) - end)
            .squaredNorm();
    const double e_l = (start + r * (start - back_[0][0]) - end).squaredNorm();
    return e_q < kQuadraticGain * e_l;
  }

  std::array<std::array<VecX, kMaxQuantities>, 2> back_;  // y₁, y₂ of each quantity
  double h1_ = 0.0, h2_ = 0.0, end_t_ = -INFINITY;
  int depth_ = 0;           // points known before the end of the last step: 0, 1 or 2
  bool quadratic_ = false;  // the next step may extrapolate through three points
  bool allowed_ = true;
};

}  // namespace cs
