// The one step interface behind which every time integrator sits (DESIGN.md "Integrators behind
// one interface"): generalized-α and NSGA, the explicit Runge–Kutta schemes with Baumgarte
// stabilisation, and whatever comes next. The run loop (Simulation) owns time, step-size
// control, output and element memory; an integrator only advances a State by one step.
#pragma once

#include <string>

#include "clearsim/state/state.hpp"

namespace cs {

struct StepResult {
  bool converged = false;
  int iterations = 0;
  int factorizations = 0;       // smooth step and NSGA corrections
  int position_iterations = 0;  // NSGA position correction (0 without contacts)
  int velocity_iterations = 0;  // NSGA velocity jump
  int plastic_impacts = 0;      // NSGA: jumps re-solved with e = 0 (see NonsmoothReport)
  double error_estimate = 0.0;  // scaled local error (≤ 1 acceptable) for step control
  std::string message;          // diagnostic when !converged
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  // Advances `s` by h (s.t += h). On failure (converged = false) `s` is left unchanged.
  // error_estimate is the local error scaled by the tolerances, ≤ 1 when acceptable; integrators
  // without an estimate leave it at 0.
  virtual StepResult step(State& s, double h) = 0;
  // Order of accuracy of the step, used by the step-size controller (h ∝ err^(−1/(order+1))).
  virtual int order() const = 0;
  // Short name for messages ("generalized-alpha", "rk4", ...).
  virtual std::string name() const = 0;
  // The System re-chose which constraint rows it keeps (System::rechoose_rows; same number):
  // anything factorized or extrapolated for the old rows must be dropped.
  virtual void rows_changed() {}
  // Fills what a step leaves out of `s` for speed and the outputs read (the joint-coordinate
  // integrator's reactions λ). Called before every output of an accepted step.
  virtual void complete_outputs(State& /*s*/) {}
  // The tangent of the last accepted step (sensitivities): solves its iteration matrix in place,
  // rhs = [−r_q/β′; −Φ] → [ξ; δλ/β′] in generalized-α's scaling (generalized_alpha.hpp). False
  // when the integrator offers none.
  virtual bool solve_step_matrix(VecX& /*rhs*/) { return false; }
};

}  // namespace cs
