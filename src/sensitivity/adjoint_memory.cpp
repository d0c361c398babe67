#include "clearsim/sensitivity/adjoint_memory.hpp"

#include <algorithm>
#include <cmath>

namespace cs {

namespace {
// As direct_sensitivity.cpp: the memory's step relative to its largest entry (at least 1), and
// the state's displacement at most 1e-9 m (rad) in poses, 1e-6 m/s (relative) elsewhere, so
// that a contact that has just closed does not open in it; one-sided differences that differ by
// more than kKinkTolerance of their size mark a kink.
constexpr double kMemoryStep = 1e-6;
constexpr double kPoseReach = 1e-9;
constexpr double kRateReach = 1e-6;
constexpr double kKinkTolerance = 1e-3;
constexpr double kRoundoffFloor = 1e-12;  // a thousand ulps of the memory's size
}  // namespace

VecX MemoryAdjoint::residual_transposed(const State& prev, const State& s, const VecX& mu) const {
  const Eigen::Index nm = prev.memory.size();
  VecX out = VecX::Zero(nm);
  const double h = kMemoryStep * std::max(1.0, prev.memory.lpNorm<Eigen::Infinity>());
  State ahead = prev, behind = prev, x = s;
  VecX r_ahead, r_behind;
  for (Eigen::Index i = 0; i < nm; ++i) {
    ahead.memory(i) += h;
    behind.memory(i) -= h;
    lin_.residual(sys_, ahead, s.t - prev.t, s.vdot, s.lambda, x, r_ahead);
    lin_.residual(sys_, behind, s.t - prev.t, s.vdot, s.lambda, x, r_behind);
    out(i) = mu.dot(r_ahead - r_behind) / (2.0 * h);
    ahead.memory(i) = prev.memory(i);
    behind.memory(i) = prev.memory(i);
  }
  return out;
}

bool MemoryAdjoint::update_transposed(const State& prev, const State& s, const VecX& lm,
                                      StateTangent& w, VecX& wm) const {
  // The update reads s's state with the memory of the step's start (s holds the updated one).
  State start = s;
  start.memory = prev.memory;
  State here = start;
  sys_.update_memory(here);
  StateTangent unit = StateTangent::zero(start);
  VecX* wb[] = {&w.q, &w.v, &w.a, &w.vdot, &w.lambda, &wm};
  VecX* ub[] = {&unit.q, &unit.v, &unit.a, &unit.vdot, &unit.lambda, &unit.memory};
  const VecX* sb[] = {nullptr, &s.v, &s.a, &s.vdot, &s.lambda, &prev.memory};
  wm = VecX::Zero(lm.size());
  for (int b = 0; b < 6; ++b)
    for (Eigen::Index i = 0; i < ub[b]->size(); ++i) {
      // A memory entry at exactly zero remembers nothing (a contact that is open): the update
      // does not read it, its tangent in the direct method is zero, and moving it off zero
      // would make the element believe in a contact (a false kink at the Flores slider–crank's
      // onsets). Its column of U_m is not needed.
      if (b == 5 && prev.memory(i) == 0.0) continue;
      const double h = b == 0   ? kPoseReach
                       : b == 5 ? kMemoryStep * std::max(1.0, prev.memory.lpNorm<Eigen::Infinity>())
                                : kRateReach * std::max(1.0, std::abs((*sb[b])(i)));
      (*ub[b])(i) = 1.0;
      State ahead = displaced(start, unit, h), behind = displaced(start, unit, -h);
      (*ub[b])(i) = 0.0;
      sys_.update_memory(ahead);
      sys_.update_memory(behind);
      const VecX forward = (ahead.memory - here.memory) / h;
      const VecX backward = (here.memory - behind.memory) / h;
      // A disagreement at the round-off of the memory's difference is no kink (one coordinate
      // may move the memory by nothing but round-off; the direct method's tangent, by more).
      const double noise =
          kRoundoffFloor * std::max(1.0, here.memory.lpNorm<Eigen::Infinity>()) / h;
      const double gap = (forward - backward).lpNorm<Eigen::Infinity>();
      if (gap > noise && gap > kKinkTolerance * std::max(forward.lpNorm<Eigen::Infinity>(),
                                                         backward.lpNorm<Eigen::Infinity>()))
        return false;
      (*wb[b])(i) += lm.dot(0.5 * (forward + backward));
    }
  return true;
}

}  // namespace cs
