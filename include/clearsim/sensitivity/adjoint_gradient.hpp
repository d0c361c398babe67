// Adjoint sensitivities: the gradient dJ/dp of one scalar objective J (adjoint_objective.hpp)
// with respect to many parameters at once, the discrete adjoint of exactly the solution the run
// computes and the direct sensitivities differentiate (direct_sensitivity.hpp,
// docs/sensitivity.md *Adjoint gradients*).
//
// The forward run stores every step's state or, past a memory budget, every K-th of them
// (checkpoints, K ≈ √N) and the backward pass recomputes the steps between two checkpoints from
// the first (the integrator restarts afresh at every checkpoint in both passes, so the recomputed
// states are the forward run's bit for bit; checked). Each step n solves R(X; S_n, p) = 0 and makes
// the state S_{n+1} = G(S_n, X) of it, so the direct tangent is dS_{n+1} = G_S dS_n + G_X dX with
// R_X dX = −(R_S dS_n + R_p), R_X = J_R G_X, R_S = J_R G_S (J_R: the residual's derivative in
// the new state). Backwards, with the covector λ_N = ∂J/∂S_N:
//   R_Xᵀ μ_n = G_Xᵀ λ_{n+1},   λ_n = G_Sᵀ (λ_{n+1} − J_Rᵀ μ_n) + ∂J/∂S_n,
//   dJ/dp = Σ_n ∂J/∂p|_n − Σ_n μ_nᵀ R_p,n + λ_0ᵀ dS₀/dp,
// where R_p, dS₀/dp and a channel's explicit ∂c/∂p come from the same perturbed models as the
// direct method's (perturbed_models.hpp), so both agree to round-off. ∂c/∂S_n, the channel's
// gradient in the state, is a difference along each state coordinate the channel reads.
//
// The elements' memory (a compliant contact's remembered approach speed, ...) is transposed too
// (adjoint_memory.hpp). Scope: that of the direct sensitivities' dynamic analysis
// (DirectSensitivity::unsupported).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/adjoint_objective.hpp"
#include "clearsim/sensitivity/perturbed_models.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class AdjointTrajectory;
class MemoryAdjoint;

// How the adjoint runs: its memory budget and an optional report of its progress.
struct GradientOptions {
  // The stored trajectory's budget [bytes]: a run whose every state fits is stored whole; a
  // longer one keeps checkpoints; one whose checkpoints would not fit is refused.
  double memory_bytes = 1024.0 * 1024.0 * 1024.0;
  // Called every 256 steps of each pass and at its end with "forward" or "backward" and the
  // pass's share done, 0 to 1 (a progress bar); may be empty.
  std::function<void(const char* pass, double done)> progress;
};

struct GradientResult {
  double value = 0.0;              // J
  std::string unit;                // J's unit ("" when unknown)
  std::vector<double> gradient;    // dJ/dp, one per parameter
  std::vector<std::string> units;  // per parameter: derivative_unit (result_writer.hpp)
  long steps = 0;                  // steps of the forward run
  double stored_bytes = 0.0;       // memory of the stored trajectory (states, times, values)
  long checkpoint_every = 1;       // K: 1 when every state was stored
  long recomputed_steps = 0;       // steps the backward pass ran again from checkpoints
};

class AdjointGradient {
 public:
  // The objective `objective` of the model text (with `overrides`), around the nominal system
  // `sys` run with `run` (as DirectSensitivity::adapted makes them), differentiated in the
  // parameters `paths`. Throws ModelFileError naming a bad path (as --sensitivity does) and
  // std::invalid_argument naming an unknown channel.
  AdjointGradient(const std::string& text, const std::string& name,
                  const std::vector<Override>& overrides, const std::vector<std::string>& paths,
                  const AdjointObjective& objective, const System& sys, const RunSettings& run);
  ~AdjointGradient();
  AdjointGradient(const AdjointGradient&) = delete;
  AdjointGradient& operator=(const AdjointGradient&) = delete;

  // Why this model with these settings has no adjoint gradient (empty if it has).
  static std::string unsupported(const System& sys, const RunSettings& run);
  // Bytes one stored step of the system takes (the State and its vectors).
  static double bytes_per_step(const System& sys);

  // Runs the model forward, then the adjoint backward, storing at most options.memory_bytes of
  // trajectory (checkpoints when every state would not fit). Throws std::runtime_error saying
  // why when the run fails, a step is split, a step's R_X is singular or even the checkpoints
  // would not fit, std::invalid_argument for a budget that is not positive.
  GradientResult compute(System& sys, std::vector<std::string>& notes,
                         const GradientOptions& options = {});

  // The gradient ∂c/∂S at s of the first channel of `ch` (Richardson's differences along each
  // coordinate of the footprint `along`, every coordinate if along.whole; zero elsewhere), as a
  // covector in StateTangent's layout.
  static StateTangent channel_gradient(const ChannelSet& ch, const State& s, const RunStats& stats,
                                       const ChannelFootprint& along);

 private:
  void backward(AdjointTrajectory& tr, const std::vector<double>& w, GradientResult& out,
                const GradientOptions& options) const;
  // The memory update's terms of the step prev → s (adjoint_memory.hpp): U_Sᵀ λ_m onto lambda,
  // U_mᵀ λ_m into wm, λ_mᵀ U_p onto the gradient.
  void memory_update_terms(const MemoryAdjoint& memory, const State& prev, const State& s,
                           StateTangent& lambda, VecX& wm, GradientResult& out) const;

  const System& sys_;
  RunSettings run_;
  AdjointObjective objective_;
  ChannelSet channel_;  // the objective's channel in the nominal model
  std::vector<std::unique_ptr<PerturbedModels>> params_;
};

// The whole computation for a command or a binding: loads the model text (with `overrides`),
// refuses what has no adjoint (std::invalid_argument: unsupported()'s reason, an empty
// parameter list), adapts the settings as DirectSensitivity::adapted does (its note into
// `notes`, with the run's), then runs forward and backward. Throws ModelFileError naming a bad
// path, std::invalid_argument naming a bad objective or channel or a memory budget that is not
// positive, std::runtime_error when the run fails. `options` as in AdjointGradient::compute.
GradientResult model_gradient(const std::string& text, const std::string& name,
                              const std::vector<Override>& overrides, const std::string& objective,
                              const std::vector<std::string>& paths,
                              std::vector<std::string>& notes, const GradientOptions& options = {});

// ⟨a, b⟩ over every coordinate of two tangents (q, v, a, v̇, λ, memory): a covector's action.
double dot(const StateTangent& a, const StateTangent& b);

}  // namespace cs
