// What to run and how: the `solver` and `output` sections of a model file.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cs {

enum class Analysis {
  kDynamic,    // time integration of the equations of motion
  kKinematic,  // positions, velocities, accelerations of a driven mechanism (+ reactions)
  kStatic,     // static equilibrium under the loads
};

enum class IntegratorKind {
  kGeneralizedAlpha,  // Chung–Hulbert parameters from ρ∞ (reference.md §1.7)
  kNewmark,           // α_m = α_f = 0, user β and γ
  kHht,               // Hilber–Hughes–Taylor: α_m = 0, α_f from ρ∞ ∈ [1/2, 1]
  kTrapezoidal,       // Newmark β = 1/4, γ = 1/2 (average acceleration, no dissipation)
  kNsga,              // nonsmooth generalized-α: ρ∞ parameters, stabilized constraints, and
                      // unilateral contacts with exact non-penetration and Newton's impact law
  kRk4,               // classical explicit Runge–Kutta, 4th order, fixed step; index-1
                      // constraints with Baumgarte stabilisation (seed 003; explicit_rk.hpp)
  kDormandPrince,     // explicit DOPRI5(4): 5th order with an embedded 4th-order error
                      // estimate for adaptive steps; index-1 constraints with Baumgarte
};

enum class NewtonMode {
  kFull,      // new iteration matrix at every Newton iteration (exact Newton)
  kModified,  // keep the factorised matrix across iterations and steps while it converges fast
};

enum class ConstraintFormulation {
  kIndex3,      // Φ(q_{n+1}) = 0 inside the Newton loop (fast; needs ρ∞ < 1)
  kStabilized,  // smooth step with B v = −Φ_t, then projection of q onto Φ = 0 and of v onto
                // B v = −Φ_t (exact at both levels; stable for ρ∞ = 1; the NSGA smooth part)
  kAli3p,       // index-3 augmented Lagrangian with velocity and acceleration projections
                // (seed 004's MBSLIM; penalty_alpha.hpp): n × n iteration matrix, regular with
                // redundant rows and at singular positions
  kPenalty,     // Bayo's penalty formulation λ = α(Φ̈ + 2μωΦ̇ + ω²Φ): no multipliers as
                // unknowns; the joints hold to O(F/(αω²)) (penalty_alpha.hpp)
};

enum class LinearSolverKind { kAuto, kDense, kSparse };

// The coordinates a dynamic analysis integrates (solver.coordinates).
enum class CoordinateChoice {
  kAuto,      // joint coordinates where the model allows them with the generalized-α family and
              // modified Newton (tree_alpha.hpp), over to body poses if they prove dearer;
              // body poses otherwise
  kJoint,     // joint coordinates for the whole run; a model that does not allow them is refused
  kAbsolute,  // body poses and joint rows always
};

struct SolverSettings {
  Analysis analysis = Analysis::kDynamic;
  IntegratorKind integrator = IntegratorKind::kGeneralizedAlpha;
  double rho_inf = 0.9;        // spectral radius at infinite frequency, [0, 1]
  double newmark_beta = 0.25;  // β, for kNewmark
  double newmark_gamma = 0.5;  // γ, for kNewmark
  double step = 1e-3;          // h [s]; the initial step when adaptive
  double end = 1.0;            // final time [s]
  bool adaptive = false;       // step-size control from a local error estimate
  double rtol = 1e-6;          // adaptive: relative tolerance on positions (dormand_prince:
                               // positions and velocities)
  double atol = 1e-8;          // adaptive: absolute tolerance on positions [m, rad] (and, for
                               // dormand_prince, on velocities [m/s, rad/s])
  double min_step = 1e-9;      // adaptive: smallest step before giving up [s]
  double max_step = 0.0;       // adaptive: largest step [s]; 0 = no limit
  double newton_tol = 1e-10;   // Newton: tolerance on the scaled correction and on ‖Φ‖∞
  int max_newton_iterations = 25;
  // Generalized-α family (not NSGA) with modified Newton: the iteration also stops no later than
  // its remaining error in positions is 0.003× the step's own local error estimate and small
  // enough not to show in the accelerations (floored at round-off), so the integrator keeps its
  // order at small h; newton_tol stays the upper bound. false: newton_tol alone (C++ only, for
  // comparisons in the convergence-order test and the benchmarks). Full Newton and NSGA use
  // newton_tol alone.
  bool newton_step_error_stop = true;
  // Modified by default: as accurate as full Newton with the stop above, and 2.5–4× faster.
  NewtonMode newton = NewtonMode::kModified;
  ConstraintFormulation formulation = ConstraintFormulation::kIndex3;
  // ali3p and penalty only (penalty_alpha.hpp). α: ali3p [N/m], λ = λ* + αΦ; penalty [kg],
  // λ = α(Φ̈ + 2μωΦ̇ + ω²Φ). ≤ 0 (`auto` in model files) chooses it from the masses and the
  // step: ali3p 1e5·β′·m_i per row i (m_i the mean mass the row moves), penalty 1e3·m̄ (m̄ the
  // largest body mass; penalty_alpha.cpp).
  double penalty_factor = -1.0;
  double penalty_omega = -1.0;   // penalty: ω [rad/s]; ≤ 0 (`auto`): 1/h
  double penalty_damping = 1.0;  // penalty: damping ratio μ of the constraint error
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  CoordinateChoice coordinates = CoordinateChoice::kAuto;
  int kinematic_steps = 0;  // kinematic analysis: number of output intervals (0 = end/step)
  // NSGA only. Impacts approaching slower than this close plastically (e = 0) [m/s]; negative
  // (the default, `auto` in model files) means the speed the smooth motion changes the normal
  // velocity by in one step, |G ṽ_{n+1} − ġ_n| ≈ |a_N| h; 0 keeps e for every impact, the law
  // of the seeds. See NonsmoothCorrection.
  double restitution_threshold = -1.0;
  // NSGA only. The smooth step carries closed contacts with no normal velocity (persistent
  // contacts) as velocity constraints with a smooth force λ_N ≥ 0; false leaves all contact
  // forces to the corrections' impulses, the scheme of the seeds (first order in sliding).
  bool persistent_contacts = true;
  // kRk4 and kDormandPrince only. Baumgarte stabilisation of the index-1 constraints: the
  // acceleration rows impose Φ̈ + 2α Φ̇ + β² Φ = 0, so a violation left by the integration
  // error decays, as (1 + αt) e^(−αt) for α = β, instead of drifting. α, β ≥ 0 [1/s]; α > 0 is
  // needed for decay (α = 0, β > 0 makes it oscillate; both 0 turn the stabilisation off).
  // The modes −α ± √(α² − β²) must stay inside the scheme's stability region, h α ≲ 2.8. The
  // default decays over 1/α = 0.2 s, gently enough for any usable step; seed 003 uses 250.
  double baumgarte_alpha = 5.0;
  double baumgarte_beta = 5.0;
};

struct OutputSettings {
  int every = 1;                      // write every N accepted steps
  std::vector<std::string> channels;  // "<element>.<quantity>[.<component>]"
  // Model-file position (line, column; 1-based) of each channel, for error messages; empty
  // when the settings were not read from a file.
  std::vector<std::pair<int, int>> channel_positions;
  std::string file;      // CSV path; the command line's -o overrides it
  bool progress = true;  // progress bar when stderr is a terminal
  std::string vtk;       // folder of a ParaView time series (io/vtk_series.hpp); "" = none
  int vtk_every = 1;     // write every N-th output point to it
};

// A fixed-step run takes round(end / step) steps. More are refused (the model reader and
// incompatible_settings say so): no run finishes 10¹² steps, and past 2⁶³ the count would not
// even fit the integer that holds it (a step of 1e-21 s once ran as a single step).
inline constexpr double kMaxStepCount = 1e12;

// True if end and step are positive, finite and end / step <= kMaxStepCount.
inline bool step_count_ok(double end, double step) {
  return std::isfinite(end) && std::isfinite(step) && end > 0.0 && step > 0.0 &&
         end / step <= kMaxStepCount;
}

// round(end / step), at least 1: the number of fixed steps. Needs step_count_ok(end, step).
inline std::int64_t fixed_step_count(double end, double step) {
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(end / step)));
}

struct RunSettings {
  SolverSettings solver;
  OutputSettings output;
};

}  // namespace cs
