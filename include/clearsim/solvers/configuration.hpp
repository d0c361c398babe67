// Moves a configuration on R³ × SO(3) along a tangent vector: x⁺ = x + Δx, R⁺ = R exp(ΔΘ̃).
#pragma once

#include "clearsim/state/state.hpp"

namespace cs {

// out.x/R = base.x/R ∘ exp(dq); dq has 6 entries per body [Δx_W; ΔΘ_B]. out may alias base.
void integrate_configuration(const State& base, const VecX& dq, State& out);

}  // namespace cs
