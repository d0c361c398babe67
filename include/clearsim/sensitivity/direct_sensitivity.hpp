// Direct (forward) sensitivities of a dynamic analysis: dS/dp of the computed discrete solution
// for each parameter p, a numeric scalar of the model file named as --set names it
// (docs/sensitivity.md).
//
// The derivative of the step, not of the continuous equations: at the converged step
// R(X; S_n, p) = 0, with X = (v̇_{n+1}, λ_{n+1}) the unknowns and R = (M v̇ − f + Bᵀλ, Φ) at the
// state the step's formulas make of them (alpha_update), the tangent dX solves
//   R_X dX = −(R_S dS_n + R_p),
// iterated as the Newton iteration itself is, with the step's own factorization A ≈ R_X:
//   dX ← dX − A⁻¹ (R_X dX + R_S dS_n + R_p)
// (the tangent linear model of the Newton iteration: it contracts at the Newton iteration's rate
// and converges to the exact discrete tangent whatever A leaves out). R_X dX + R_S dS_n is exact,
// from the elements' own tangents (∂f/∂q, ∂f/∂v, B, ∂(Bᵀλ)/∂q) and the step's formulas
// differentiated; R_p is the difference of the residual between the parameter's models
// p(1 ± 1e-3), p(1 ± 2e-3) (Richardson, O(δ⁴)). Differences of perturbed states would not do
// for R_X, R_S: the mass matrix's conditioning (a point mass's 1e-10 kg·m²) amplifies their
// round-off to 1e-5 relative. dS₀ is the same difference of the perturbed models' consistent
// initial states; a channel's derivative, of the channel along the state's tangent.
//
// A static analysis: each equilibrium x = (q, λ) solves r(x; p) = 0 (static_equilibrium.hpp), so
// S dx/dp = ∂r/∂p with S its Newton matrix at the converged point and ∂r/∂p by the same
// differences of the parameter's models (equilibrium()). A kinematic analysis of a fully driven
// mechanism: its solution at each time depends on (t, p) alone (kinematic_point()).
//
// NSGA (unilateral contacts, impacts): the smooth step is differentiated as above with its
// stabilized rows B v + Φ_t, then its corrections with their active sets frozen
// (correction_tangent.hpp); contacts are left to the corrections (no persistent contacts).
// ali3p: the index-3 step, then its projections (projection_tangent.hpp).
//
// Scope: generalized-α family (generalized-alpha, newmark, hht, trapezoidal) in body poses,
// every constraint formulation, fixed steps, forces of every kind (compliant and lubricated
// contacts included, their memory differentiated as a function of the state it is updated from),
// and frictionless NSGA; unsupported() says what else is refused and why.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/correction_tangent.hpp"
#include "clearsim/sensitivity/perturbed_models.hpp"
#include "clearsim/sensitivity/projection_tangent.hpp"
#include "clearsim/sensitivity/state_tangent.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/run_stats.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class Simulation;

class DirectSensitivity {
 public:
  // The parameters `paths` of the model text (with the run's `overrides`) around the nominal
  // system `sys` run with `run`, for the output channels `channels`. Throws ModelFileError
  // naming a path that is not a number, that is a setting (solver., output.), or whose change
  // alters the model's structure (bodies, rows).
  DirectSensitivity(const std::string& text, const std::string& name,
                    const std::vector<Override>& overrides, const std::vector<std::string>& paths,
                    const std::vector<std::string>& channels, const System& sys,
                    const RunSettings& run);
  ~DirectSensitivity();
  DirectSensitivity(const DirectSensitivity&) = delete;
  DirectSensitivity& operator=(const DirectSensitivity&) = delete;

  // Why this model with these settings has no sensitivities here (empty if it has).
  static std::string unsupported(const System& sys, const RunSettings& run);
  // Settings as a sensitivity run needs them: solver.coordinates auto becomes body poses (the
  // tangent is written there), and NSGA leaves every contact to its corrections
  // (solver.persistent_contacts: false); `note` says so when it changed anything.
  static RunSettings adapted(RunSettings run, std::string& note);

  // dS₀/dp at the nominal initial state s0; false with `why` if a perturbed model cannot start.
  bool start(const State& s0, std::string& why);
  // Propagates every dS/dp over the accepted step of `sim` from prev to s (one step of size
  // s.t − prev.t; `split`: the run loop split it, and the tangents become NaN from here, with a
  // warning).
  void step(const State& prev, const State& s, Simulation& sim, bool split);
  // Every dS/dp at the point s a static or kinematic analysis just solved: equilibrium() or
  // kinematic_point().
  void solved_point(const State& s);
  // At a static equilibrium: S dx/dp = ∂r/∂p with S and r those of static_equilibrium.hpp,
  // ∂r/∂p by the parameter's models.
  void equilibrium(const State& s);
  // At a point of a kinematic analysis of a fully driven mechanism: B dq/dp = −∂Φ/∂p, then the
  // velocities and accelerations by Richardson's difference of the parameter's models' own
  // velocity and acceleration solves at the configuration moved along dq/dp.
  void kinematic_point(const State& s);
  // Column names d(<channel>)/d(<path>), parameter-major.
  std::vector<std::string> column_names() const;
  // d(channel)/dp at s for every parameter and channel (column_names' order) appended to out.
  void channel_derivatives(const State& s, const RunStats& stats, std::vector<double>& out) const;

  const std::vector<std::string>& paths() const { return paths_; }
  const StateTangent& tangent(std::size_t k) const;
  // What went wrong without stopping the run (a tangent that did not converge, a split step):
  // each said once, with its time.
  const std::vector<std::string>& warnings() const { return warnings_; }

 public:
  struct Parameter;  // a path, its perturbed models and its tangent (direct_sensitivity.cpp)

 private:
  // The tangent of one step for parameter k: exact, unconverged, or none (a kink).
  enum class TangentOutcome { kExact, kUnconverged, kKink };
  // `smooth`: the end of the step's Newton iteration (s itself unless projections follow it).
  TangentOutcome step_tangent(Parameter& par, const State& prev, const State& s,
                              const State& smooth, Simulation& sim);
  // Every parameter in `live` at once with the exact R_X: their R_p as the columns of one
  // matrix, one pass of its factorization for all (StepLinearization::propagate), then each
  // one's corrections, projections and memory. False if R_X is singular.
  bool step_tangents_exactly(const std::vector<Parameter*>& live, const State& prev, const State& s,
                             const State& smooth, std::vector<TangentOutcome>& outcomes);
  // The step has no matrix of index-3 rows to iterate the tangent with: it is solved with the
  // exact R_X (NSGA, the stabilized, ali3p and penalty formulations).
  bool iteration_impossible() const;
  // R_p and the forces' dependence on the memory of the step's start: the constant part of
  // the tangent's equation.
  VecX constant_term(Parameter& par, const State& prev, const State& smooth);
  // The step's end tangent `next` (the smooth step's) through the corrections or projections
  // and the memory update, into par.d.
  TangentOutcome finish_tangent(Parameter& par, const State& prev, const State& s,
                                StateTangent& next);
  // R_X dX = −(R_S dS + R_p) by the run's own step matrix, iterated (it leaves terms of R_X
  // out; β' = beta_p scales its rows); false when the iteration does not converge.
  bool iterate_tangent(const Parameter& par, double beta_p, const VecX& R_p, VecX& dvdot,
                       VecX& dlambda, Simulation& sim);
  // True when one factorization of the exact R_X per step, shared by the parameters, costs
  // less than each parameter's iteration with the step matrix.
  static bool solve_exactly_for(std::size_t parameters, int unknowns);
  // R's derivative along the tangent dm of the memory at the start of the step prev → s.
  VecX memory_term(const State& prev, const State& s, const VecX& dm) const;
  // The tangent of the elements' memory after the step prev → s whose state tangent is next.
  // `kink`: the update has none there (NaN returned).
  VecX memory_tangent(const Parameter& par, const State& prev, const State& s,
                      const StateTangent& next, bool& kink) const;
  void warn(const std::string& message);

  const System& sys_;
  RunSettings run_;
  AlphaParameters p_;
  std::vector<std::string> paths_, channels_;
  std::vector<std::unique_ptr<Parameter>> params_;
  std::vector<std::string> warnings_;
  bool broken_ = false;           // a split step: every tangent is NaN from there
  bool exact_ = false;            // solve_exactly_for: the exact R_X for every parameter
  bool kinematic_ready_ = false;  // the perturbed systems' redundant rows removed
  StepLinearization step_;        // the step's exact tangent (step_linearization.hpp)
  // NSGA: the corrections' tangent, linearized once per step for every parameter.
  std::unique_ptr<CorrectionTangent> corrections_;
  // ali3p: its projections' tangent, and the smooth end they started from (per step).
  std::unique_ptr<ProjectionTangent> projections_;
  State smooth_;
};

// A dynamic run with sensitivities: run_analysis's dynamic run with every dS/dp of `sens`
// propagated over each accepted step before `observer` sees it (its on_output may read
// sens.channel_derivatives). `settings` as DirectSensitivity::adapted made them.
RunStats run_with_sensitivities(System& sys, const RunSettings& settings, DirectSensitivity& sens,
                                StepObserver& observer, State& s, std::vector<std::string>& notes);

}  // namespace cs
