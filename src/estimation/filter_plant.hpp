// The filter's plant (private to src/estimation): the model at the current parameter estimates,
// its integrator, its step's tangent, its sensors' channels, and for each augmented parameter
// the models at p ± δ whose residuals give the step's derivative in p.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/io/parameterized_model.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/mass_saddle_schur.hpp"

namespace cs::estimation {

struct PerturbedModels {
  std::array<std::unique_ptr<LoadedModel>, 2> model;  // p + δ, p − δ
  std::array<std::unique_ptr<System>, 2> sys;
  double delta = 0.0;  // half the difference of their values
};

struct FilterPlant {
  std::unique_ptr<LoadedModel> model;
  std::unique_ptr<System> sys;
  RunSettings run;
  std::unique_ptr<Integrator> integrator;
  std::unique_ptr<StepLinearization> step;
  std::unique_ptr<ChannelSet> sensors;
  std::unique_ptr<ChannelSet> outputs;     // the filter's estimated channels (may be empty)
  std::vector<PerturbedModels> perturbed;  // one per augmented parameter
  VecX perturbed_at;                       // the parameters they were built around
  LinearSystem projection;                 // the corrected state's projection on the constraints
  std::unique_ptr<MassSaddleSchur> velocity_projection;  // its velocities' (body poses)
};

// The mass-weighted projection of s.v on B v + Φ_t = 0 (assemble_velocities' without prescribed
// velocities) through the Schur complement of the plant's block-diagonal mass: a k × k
// factorization instead of an LU of the (n + k)² saddle, a sixth of the filter's update at
// n = 18, k = 17. Falls back to assemble_velocities if the rows are singular.
void project_velocities(FilterPlant& plant, State& s);

// The plant of `source` (the model text read once) with its parameters at `values`. With `s`
// empty (no bodies), s becomes the model's consistent initial state; otherwise s is made
// consistent in the new model, its pseudo-acceleration a kept. Throws ModelFileError or
// std::invalid_argument (a model out of the filter's scope, a structure that changes with p).
// `reuse` (if not empty): the parameters' perturbed models of an earlier plant, kept instead of
// built anew. `linearize` false (the unscented filter): no step tangent, no perturbed models,
// and the unscented filter's scope (unscented_unsupported) instead of the sensitivities'.
// `previous`: the plant's system this one replaces; its row choice is kept, and s as it is if it
// satisfies the new constraints within newton_tol.
std::unique_ptr<FilterPlant> make_plant(ParameterizedModel& source, const VecX& values, State& s,
                                        std::vector<PerturbedModels> reuse = {},
                                        bool linearize = true, const System* previous = nullptr);

// Why the unscented filter cannot step this model's sigma points, or empty. It needs no
// Jacobian, but its sigma points share the plant's fixed step grid and the state layout of the
// generalized-α family (q, v, a, v̇, λ), and NSGA's impacts are not sigma-stepped (untested).
std::string unscented_unsupported(const RunSettings& run);

// "%.17g": a value as an override's text, read back exactly.
std::string exact_text(double x);

}  // namespace cs::estimation
