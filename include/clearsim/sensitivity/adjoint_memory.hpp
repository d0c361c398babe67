// The elements' memory (State::memory: a compliant contact's approach speed at its onset, a
// bristle's anchor, a bearing-loss model's reaction) in the adjoint's backward pass
// (adjoint_gradient.hpp). The direct sensitivities differentiate it twice
// (direct_sensitivity.cpp): the step's residual reads the memory of its start (R_m dm_n) and the
// memory after the step is the update U(S_{n+1}, m_n; p). Here the same derivatives, by the same
// central differences but one coordinate at a time, transposed:
//   R_mᵀ μ,  U_Sᵀ λ_m,  U_mᵀ λ_m.
#pragma once

#include "clearsim/assembly/system.hpp"
#include "clearsim/sensitivity/state_tangent.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"

namespace cs {

class MemoryAdjoint {
 public:
  MemoryAdjoint(const System& sys, const StepLinearization& lin) : sys_(sys), lin_(lin) {}

  // R_mᵀ μ for the step prev → s: the residual's derivative in the memory of the step's start.
  VecX residual_transposed(const State& prev, const State& s, const VecX& mu) const;
  // The update's derivatives transposed at the step prev → s: U_Sᵀ λ_m added to the covector w
  // of s's state and U_mᵀ λ_m into wm. False where the update has a kink (a contact closing at
  // the floor of its remembered approach speed): no derivative exists there.
  bool update_transposed(const State& prev, const State& s, const VecX& lm, StateTangent& w,
                         VecX& wm) const;

 private:
  const System& sys_;
  const StepLinearization& lin_;
};

}  // namespace cs
