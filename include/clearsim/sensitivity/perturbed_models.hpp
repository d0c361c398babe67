// A parameter's perturbed models, shared by the direct (direct_sensitivity.hpp) and adjoint
// (adjoint_gradient.hpp) sensitivities: the model text with the parameter at p(1 ± δ) and
// p(1 ± 2δ) (p ± δ₀, ± 2δ₀ when p = 0), and every derivative in p the Richardson combination of
// their two central differences, O(δ⁴). Both methods take R_p, the initial tangent dS₀/dp and a
// channel's explicit dependence from these same models, so they agree to round-off.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/io/parameterized_model.hpp"
#include "clearsim/sensitivity/state_tangent.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

// The elements of `nominal` that the parameter `path` of `source` can change (a flag per
// element; ParameterizedModel::reach: its entry or one naming it, and every element the model
// file has no entry of), empty when it can change every element or when a model of `models`
// (the parameter's perturbed ones) does not have the same elements.
std::vector<char> reached_elements(const ParameterizedModel& source, const std::string& path,
                                   const System& nominal, const std::vector<const System*>& models);

struct PerturbedModels {
  static constexpr int kModels = 4;  // offsets +1, −1, +2, −2 steps

  std::string path;
  std::string label;           // "--sensitivity PATH", "--parameter PATH": how errors name it
  double eps[2] = {0.0, 0.0};  // half the differences of the ±1 and ±2 models' values
  LoadedModel model[kModels];
  std::unique_ptr<System> sys[kModels];
  std::unique_ptr<ChannelSet> ch[kModels];

  // The model text (with the run's overrides) parsed once for all `paths`, which messages name
  // as `option` PATH ("--sensitivity", "--parameter"). Throws ModelFileError naming the first
  // path that is not a number or that is a setting (solver., output.).
  static ParameterizedModel source(const std::string& text, const std::string& name,
                                   const std::vector<Override>& overrides,
                                   const std::vector<std::string>& paths,
                                   const std::string& option);
  // Loads the four models of `path_` (one of source's) for the channels `channels`, the other
  // parameters at their values. Throws ModelFileError naming `label_` when the change alters the
  // structure of the nominal system `nominal`.
  void load(ParameterizedModel& source, const std::string& path_, const std::string& label_,
            const System& nominal, const std::vector<std::string>& channels);

  // Richardson's O(δ⁴) derivative from the central differences c1 (±1) and c2 (±2).
  template <class T>
  T richardson(const T& c1, const T& c2) const {
    const double a = eps[0] * eps[0], b = eps[1] * eps[1];
    return (b * c1 - a * c2) / (b - a);
  }
  // The derivative of a quantity x[k] evaluated in each model k.
  VecX derivative(const VecX (&x)[kModels]) const;
  double derivative(const double (&x)[kModels]) const;
  // The tangent of states ends[k] reached in each model k (central_difference on the group).
  StateTangent derivative(const State (&ends)[kModels]) const;

  // reach[e]: element e may change with the parameter (ParameterizedModel::reach: its entry
  // or one naming it, and every element the model file has no entry of); empty: every
  // element may. The residual's parts of the others are the same in every model and cancel in
  // R_p, so residual_derivative() evaluates only these.
  std::vector<char> reach;
  // R_p = ∂R/∂p of the step of size h from prev at the unknowns (vdot, lambda): Richardson's
  // difference of the four models' residuals of the elements reached. The first call checks
  // it against the residuals of every element and keeps to every element (reach emptied, and
  // reach_note says so) if they differ beyond round-off.
  VecX residual_derivative(const StepLinearization& step, const State& prev, double h,
                           const VecX& vdot, const VecX& lambda);
  std::string reach_note;

  // dS₀/dp: the difference of the models' consistent initial states (run with `run`); false
  // with `why` if a perturbed model cannot start or keeps other rows than the nominal s0.
  bool initial_tangent(const RunSettings& run, const State& s0, StateTangent& d,
                       std::string& why) const;

 private:
  bool reach_checked_ = false;
  State x_;
  VecX r_[kModels];
};

}  // namespace cs
