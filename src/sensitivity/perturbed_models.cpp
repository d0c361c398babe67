#include "clearsim/sensitivity/perturbed_models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "clearsim/solvers/simulation.hpp"

namespace cs {

namespace {
// A large δ keeps round-off small where it is amplified: a constraint row's R_p reaches the
// accelerations multiplied by β′ ~ 1/h² (a driver's θ − ωt differenced at δ = 1e-6 left 2e-4
// relative noise in the slider–crank's accelerations; at 1e-3, Richardson's truncation is 1e-12
// and the round-off 1e-13).
constexpr double kRelativeStep = 1e-3;
constexpr double kZeroStep = 1e-6;

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

StateTangent combine(const PerturbedModels& par, const StateTangent& c1, const StateTangent& c2) {
  StateTangent d;
  d.q = par.richardson(c1.q, c2.q);
  d.v = par.richardson(c1.v, c2.v);
  d.a = par.richardson(c1.a, c2.a);
  d.vdot = par.richardson(c1.vdot, c2.vdot);
  d.lambda = par.richardson(c1.lambda, c2.lambda);
  d.memory = par.richardson(c1.memory, c2.memory);
  d.v_jump = par.richardson(c1.v_jump, c2.v_jump);
  d.lambda_jump = par.richardson(c1.lambda_jump, c2.lambda_jump);
  d.Lambda = par.richardson(c1.Lambda, c2.Lambda);
  return d;
}
}  // namespace

std::vector<char> reached_elements(const ParameterizedModel& source, const std::string& path,
                                   const System& nominal,
                                   const std::vector<const System*>& models) {
  const ParameterizedModel::Reach reached = source.reach(path);
  std::vector<char> flags;
  if (reached.everything) return flags;
  const auto has = [](const std::vector<std::string>& names, const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  const auto& elements = nominal.model().elements;
  for (const auto& element : elements) {
    const std::string& n = element->name();
    flags.push_back(has(reached.entries, n) || !has(reached.all, n) ? 1 : 0);
  }
  // The flags index every model's elements: they must be the same elements.
  for (const System* other : models) {
    const auto& theirs = other->model().elements;
    bool same = theirs.size() == elements.size();
    for (std::size_t e = 0; same && e < elements.size(); ++e)
      same = theirs[e]->name() == elements[e]->name();
    if (!same) return {};
  }
  return flags;
}

ParameterizedModel PerturbedModels::source(const std::string& text, const std::string& name,
                                           const std::vector<Override>& overrides,
                                           const std::vector<std::string>& paths,
                                           const std::string& option) {
  std::vector<std::string> unique, labels;
  for (const std::string& path : paths) {
    if (path.rfind("solver.", 0) == 0 || path.rfind("output.", 0) == 0)
      throw ModelFileError(
          name, 0, 0,
          option + " " + path + ": a solver or output setting is not a model parameter");
    if (std::find(unique.begin(), unique.end(), path) != unique.end()) continue;
    unique.push_back(path);
    labels.push_back(option + " " + path);
  }
  return ParameterizedModel(text, name, overrides, unique, labels,
                            "a sensitivity is taken with respect to a numeric scalar of the "
                            "model file");
}

void PerturbedModels::load(ParameterizedModel& source, const std::string& path_,
                           const std::string& label_, const System& nominal,
                           const std::vector<std::string>& channels) {
  path = path_;
  label = label_;
  const auto at = std::find(source.paths().begin(), source.paths().end(), path);
  if (at == source.paths().end())
    throw std::logic_error("PerturbedModels::load: " + path + " is not one of the source's");
  const auto index = static_cast<std::size_t>(at - source.paths().begin());
  const double value = source.values()[index];
  const double step = value != 0.0 ? kRelativeStep * std::abs(value) : kZeroStep;
  double values[kModels];
  for (int k = 0; k < kModels; ++k) {
    const double offset = (k < 2 ? 1.0 : 2.0) * (k % 2 == 0 ? 1.0 : -1.0);
    // As the model reads it back ("%.17g" round-trips), so that eps is the models' own.
    values[k] = std::strtod(number(value + offset * step).c_str(), nullptr);
    std::vector<double> all = source.values();
    all[index] = values[k];
    model[k] = source.load(all);
    sys[k] = std::make_unique<System>(model[k].model);
    const System& ps = *sys[k];
    if (ps.num_dofs() != nominal.num_dofs() || ps.num_constraints() != nominal.num_constraints() ||
        ps.num_gaps() != nominal.num_gaps())
      throw ModelFileError(source.display_name(), 0, 0,
                           label +
                               ": changing this value changes the model's structure "
                               "(bodies or constraint rows), so it has no derivative");
    ch[k] = std::make_unique<ChannelSet>(ps, channels);
  }
  eps[0] = 0.5 * (values[0] - values[1]);
  eps[1] = 0.5 * (values[2] - values[3]);
  reach = reached_elements(source, path, nominal,
                           {sys[0].get(), sys[1].get(), sys[2].get(), sys[3].get()});
}

VecX PerturbedModels::residual_derivative(const StepLinearization& step, const State& prev,
                                          double h, const VecX& vdot, const VecX& lambda) {
  step.step_state(prev, h, vdot, lambda, x_);  // the same state in every model
  const std::vector<char>* only = reach.empty() ? nullptr : &reach;
  for (int k = 0; k < kModels; ++k) step.residual_at(*sys[k], x_, r_[k], only);
  VecX R_p = derivative(r_);
  if (only == nullptr || reach_checked_) return R_p;
  // Once: the same with every element. They agree to the round-off of the unreached parts,
  // which cancel in the whole residuals' differences only to their rounding.
  reach_checked_ = true;
  double size = 0.0;
  for (int k = 0; k < kModels; ++k) {
    step.residual_at(*sys[k], x_, r_[k]);
    size = std::max(size, r_[k].lpNorm<Eigen::Infinity>());
  }
  const VecX whole = derivative(r_);
  const double noise = 64.0 * std::numeric_limits<double>::epsilon() * size / eps[0];
  if ((R_p - whole).lpNorm<Eigen::Infinity>() > 1e-8 * whole.lpNorm<Eigen::Infinity>() + noise) {
    reach.clear();
    reach_note = label +
                 ": the parameter reaches elements its model-file entry does not name; "
                 "every element is evaluated for its derivative";
    return whole;
  }
  return R_p;
}

VecX PerturbedModels::derivative(const VecX (&x)[kModels]) const {
  return richardson(VecX((x[0] - x[1]) / (2.0 * eps[0])), VecX((x[2] - x[3]) / (2.0 * eps[1])));
}

double PerturbedModels::derivative(const double (&x)[kModels]) const {
  return richardson((x[0] - x[1]) / (2.0 * eps[0]), (x[2] - x[3]) / (2.0 * eps[1]));
}

StateTangent PerturbedModels::derivative(const State (&ends)[kModels]) const {
  return combine(*this, central_difference(ends[0], ends[1], eps[0]),
                 central_difference(ends[2], ends[3], eps[1]));
}

bool PerturbedModels::initial_tangent(const RunSettings& run, const State& s0, StateTangent& d,
                                      std::string& why) const {
  State ends[kModels];
  for (int k = 0; k < kModels; ++k) {
    Simulation sim(*sys[k], run);
    std::vector<std::string> notes;
    if (!sim.initialize(notes)) {
      why = label + ": the perturbed model cannot start: " + sim.stats().message;
      return false;
    }
    ends[k] = sim.state();
    if (ends[k].lambda.size() != s0.lambda.size()) {  // a redundant row removed on one side
      why = label + ": the perturbed model keeps other constraint rows at the start";
      return false;
    }
  }
  d = derivative(ends);
  return true;
}

}  // namespace cs
