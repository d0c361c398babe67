// Consistent initial conditions (the "assembly" analysis):
//   positions     Φ(q, t₀) = 0, reached from the model's approximate poses by the smallest
//                 mass-weighted correction (Gauss–Newton on [M Bᵀ; B 0]);
//   velocities    B v = −Φ_t, closest (mass-weighted) to the given velocities, with the body
//                 velocities the model file gives imposed exactly where the joints allow;
//   accelerations [M Bᵀ; B 0][v̇; λ] = [f; −ζ] (also the reactions λ).
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

struct SolveReport {
  bool ok = true;
  int iterations = 0;
  double residual = 0.0;  // final ‖Φ‖∞ (positions) or equation residual
  std::string message;    // diagnostic when !ok, or a warning
};

// State at t₀ with the model's initial poses and velocity guesses (not yet consistent).
State initial_state(const System& sys, double t0 = 0.0);

// Solves Φ(q, t) = 0 in place; the step is the minimal-norm (M-weighted) correction.
SolveReport assemble_positions(const System& sys, State& s, double tol, int max_iterations,
                               LinearSystem& ls);

// Projects the velocities onto B v + Φ_t = 0 keeping prescribed body velocities (see Body).
// Without `use_prescribed`, the result is the velocity closest to s.v (mass-weighted).
SolveReport assemble_velocities(const System& sys, State& s, LinearSystem& ls,
                                bool use_prescribed = true);

// v̇ and λ from the dynamic equations with constraints at acceleration level.
SolveReport solve_accelerations(const System& sys, State& s, LinearSystem& ls);

// Where the state to make consistent comes from.
enum class StartFrom {
  kModel,  // the model's approximate poses and velocity guesses (initial_state)
  // A state given whole (Simulation::set_state): the model's prescribed initial velocities and
  // the clearance joints' ideal rows do not apply, and velocities that already satisfy
  // B v + Φ_t = 0 (‖·‖∞ ≤ tol) are kept exactly, as positions within tol always are.
  kGivenState,
};

// Does all three (and removes redundant constraint rows first); messages go to `notes`.
SolveReport make_consistent(System& sys, State& s, double tol, std::vector<std::string>& notes,
                            StartFrom from = StartFrom::kModel);

// Assembles [A Bᵀ; B 0] with A = M into ls (sized n + m) at the state's configuration.
void assemble_mass_saddle(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                          LinearSystem& ls);

// True if the system should use sparse storage for n unknowns.
bool use_sparse(int unknowns, LinearSolverKind kind);

}  // namespace cs
