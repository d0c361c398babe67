// The Newton loop of every implicit step, written once. A formulation (generalized-α in body
// poses or in joint coordinates, the penalty family) is a NewtonProblem: it evaluates its
// residual in its own coordinate space, keeps its iteration matrix and applies an increment on
// its group; newton_solve owns the iteration itself — evaluate, test, make the matrix ready,
// solve, refuse a diverging increment, update, accept on the contraction rate — and the trace of
// increment sizes every decision reads (DESIGN.md "The step, written once").
//
// One iteration, as data:
//   evaluate → [converged at this evaluation?] → prepare_matrix → solve → [diverges?] → apply
//   → [accept on the contraction rate?]
#pragma once

#include <cmath>

#include "clearsim/solvers/integrator.hpp"

namespace cs {

// The sizes ‖ξ‖∞ of the last two increments and the iteration whose matrix was factorized at
// its own iterate (−1: none in this solve): what the rules below read.
struct NewtonTrace {
  double last_dx = INFINITY, prev_dx = INFINITY;
  int fresh_at = -1;

  void push(double dx) {
    prev_dx = last_dx;
    last_dx = dx;
  }
  bool contracting() const { return last_dx < prev_dx; }
  // The contraction rate ρ = ‖ξ_k‖/‖ξ_{k−1}‖ (0 when not contracting).
  double rate() const { return contracting() ? last_dx / prev_dx : 0.0; }
  // The last increment shrank by less than `factor` (from iteration `from` on).
  bool slower_than(double factor) const { return last_dx > factor * prev_dx; }
  bool stalled(int it, int from) const { return it >= from && last_dx >= 0.5 * prev_dx; }
  // The usual stopping rule of simplified Newton (Hairer & Wanner IV.8): the remaining error,
  // bounded by ρ/(1 − ρ)·‖ξ‖, is within a tenth of tol.
  bool remaining_error_within(double tol) const {
    const double rho = rate();
    return rho / (1.0 - rho) * last_dx <= 0.1 * tol;
  }
};

// What one evaluation says: whether the residual is finite, the constraint residual in position
// units, and the tolerances of the increments and of that residual.
struct NewtonCheck {
  bool finite = true;
  double phi = 0.0;
  double tol = 0.0;
  double phi_tol = 0.0;
};

class NewtonProblem {
 public:
  virtual ~NewtonProblem() = default;
  // Evaluates the residual at the current iterate (the it-th evaluation).
  virtual NewtonCheck evaluate_iterate(int it, const NewtonTrace& trace) = 0;
  // The iterate is accepted at its evaluation (last increment and residual within tolerance).
  virtual void converged_at_evaluation() {}
  // Makes the iteration matrix ready for iteration it (refreshing or refactorizing it, setting
  // trace.fresh_at when factorized here); false, with res.message, stops the solve.
  virtual bool prepare_matrix(int it, NewtonTrace& trace, StepResult& res) = 0;
  // Solves for the increment at the last evaluation and returns its size ‖ξ‖∞.
  virtual double solve() = 0;
  // A non-finite increment ends the attempt at once (else it is left to the next evaluation).
  virtual bool stops_on_nonfinite_increment() const { return false; }
  // Whether a diverging increment is looked for, and the step's own motion it is judged by
  // (newton_stop::diverges).
  virtual bool watches_divergence() const { return true; }
  virtual double motion() const { return 0.0; }
  // A diverging increment is not applied: true if the matrix was stale and is dropped, to be
  // refactorized at this iterate; false if it was fresh (the attempt fails).
  virtual bool drop_stale_matrix(int it, const NewtonTrace& trace) = 0;
  // Applies the solved increment to the iterate.
  virtual void apply() = 0;
  // After the increment: accept without another evaluation (the contraction rate bounds the
  // remaining error). `check` is the evaluation before the increment.
  virtual bool accept(int it, NewtonTrace& trace, const NewtonCheck& check) = 0;
};

// Iterates `problem` up to max_iterations times: res.converged, res.iterations (increments
// computed) and, on failure, res.message (empty when the residual became non-finite).
void newton_solve(NewtonProblem& problem, int max_iterations, StepResult& res);

}  // namespace cs
