// The step of the generalized-α family, written once for both coordinate spaces (body poses,
// GeneralizedAlpha; joint coordinates, TreeAlpha): smooth generalized-α, and NSGA composing that
// smooth step with its contact corrections (seed 000; reference.md §2; docs/time-integration.md).
//
// One step, as data:
//   start state → NSGA: persistent contacts chosen, accelerations restarted at an onset
//   → smooth step (predictor, newton_solve; a modified-Newton failure retried once with full
//     Newton where the space has it) → NSGA: a persistent contact whose λ_N pulls is released and
//     the smooth step solved again
//   → corrections (NSGA: position correction and velocity jump, NonsmoothCorrection; the
//     stabilized formulation: projections onto Φ = 0 and B v + Φ_t = 0)
//   → accepted: error estimate, predictor history, the state moves on.
// A failed step leaves the start state as it was.
//
// A coordinate space implements AlphaStepper: what the step does in its coordinates. The order
// of the phases, the release loop, the retry and the failure messages live here only.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class AlphaStepper {
 public:
  // The start's accelerations, kept before anything changes them and restored when a restart
  // is undone or the step fails.
  virtual void keep_start(const State& s) = 0;
  virtual void restore_start(State& s) = 0;
  // NSGA: the persistent contacts of the step from s (see choose_persistent_contacts); true if any.
  virtual bool choose_persistent(const State& s) = 0;
  // NSGA: a and v̇ of s made consistent with contacts that become persistent in this step; true
  // if they changed.
  virtual bool restart_accelerations(State& s) = 0;
  // Whether the predictor extrapolates from the last accepted step (never after a restart).
  virtual void plan_predictor(const State& s, double h, bool restarted) = 0;
  // One smooth solve from s (predictor and Newton) into the stepper's trial state.
  virtual void smooth_solve(const State& s, double h, StepResult& res) = 0;
  // After a modified-Newton failure: one more attempt with full Newton into `res`; false if the
  // space has no full Newton (TreeAlpha's matrix leaves out the derivatives of J).
  virtual bool retry_full_newton(const State& s, double h, StepResult& res) = 0;
  // NSGA: persistent contacts whose smooth force λ_N pulls leave the set; true if any left.
  virtual bool release_pulling() = 0;
  // The corrections of the converged smooth step (none: true); false with res.message.
  virtual bool apply_corrections(const State& s, double h, StepResult& res) = 0;
  // "NSGA correction" or "projection", for the failure message.
  virtual const char* correction_name() const = 0;
  // The iteration matrix kept across steps is not to be trusted after a failure.
  virtual void discard_matrix() = 0;
  // Why the smooth step failed, from the start s.
  virtual std::string failure_report(const State& s, double h) const = 0;
  // The step is accepted: error estimate into res, predictor history, s ← the step's result.
  virtual void accept_step(State& s, double h, StepResult& res) = 0;

 protected:
  ~AlphaStepper() = default;
};

// Advances s by h through `stepper`; on failure s is left unchanged and res.message says why.
StepResult alpha_step(AlphaStepper& stepper, State& s, double h);

// NSGA's persistent contacts, the same in every coordinate space. The contacts of s that the
// smooth step carries as rows: closed after the last step with no normal velocity (to
// 100 newton_tol) and frictionless. Into `persistent`; true if any.
bool choose_persistent_contacts(const System& sys, const SolverSettings& settings, const State& s,
                                std::vector<char>& persistent);
// A persistent contact whose smooth force λ_N came out pulling is separating: it leaves the
// persistent set (the step is then solved again). True if any left.
bool release_pulling_contacts(const VecX& lambda_N, std::vector<char>& persistent);

}  // namespace cs
