// Static equilibrium: f(q, 0, t) = Bᵀλ and Φ(q, t) = 0, by Newton on
//   [ K_t  Bᵀ ] [Δq]   [ f − Bᵀλ ]          K_t = −∂f/∂q + ∂(Bᵀλ)/∂q,
//   [ B    0  ] [δλ] = [ −Φ      ],         q ← q ∘ exp(Δq),
// with backtracking on the residual norm. Solved at t = 0, or at `kinematic_steps` equally spaced
// times up to `end` (a quasi-static sweep under time-dependent loads and drivers).
#pragma once

#include "clearsim/solvers/simulation.hpp"

namespace cs {

RunStats run_static(const System& sys, const SolverSettings& settings, State& s,
                    StepObserver& observer);

// The residual r = [f − Bᵀλ; −Φ] at the state's configuration and multipliers (its velocities
// taken as zero), and ‖r‖∞.
double static_residual(const System& sys, const State& s, VecX& r);
// Its Newton matrix S = [K_t Bᵀ; B 0] (S Δx = r), also the tangent of the equilibrium:
// S dx/dp = ∂r/∂p (DirectSensitivity::equilibrium).
void static_tangent(const System& sys, const State& s, MatX& S);

// One equilibrium solve at s.t (velocities are set to zero). False with a diagnostic on failure.
bool solve_static(const System& sys, const SolverSettings& settings, State& s, int& iterations,
                  std::string& message);

}  // namespace cs
