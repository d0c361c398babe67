#include "clearsim/sensitivity/perturbed_models.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

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

void PerturbedModels::load(const std::string& text, const std::string& name,
                           const std::vector<Override>& overrides, const std::string& path_,
                           const std::string& label_, const System& nominal,
                           const std::vector<std::string>& channels) {
  path = path_;
  label = label_;
  if (path.rfind("solver.", 0) == 0 || path.rfind("output.", 0) == 0)
    throw ModelFileError(name, 0, 0,
                         label + ": a solver or output setting is not a model parameter");
  double value = 0.0;
  try {
    value = read_model_scalar(text, name, overrides, path);
  } catch (const ModelFileError& e) {
    // The reader names the path as --sensitivity does; the adjoint's option is --parameter.
    std::string message = e.message();
    const std::string theirs = "--sensitivity " + path;
    if (label != theirs && message.rfind(theirs, 0) == 0)
      message = label + message.substr(theirs.size());
    throw ModelFileError(e.file(), e.line(), e.column(), message);
  }
  const double step = value != 0.0 ? kRelativeStep * std::abs(value) : kZeroStep;
  double values[kModels];
  for (int k = 0; k < kModels; ++k) {
    const double offset = (k < 2 ? 1.0 : 2.0) * (k % 2 == 0 ? 1.0 : -1.0);
    const std::string text_value = number(value + offset * step);
    values[k] = std::strtod(text_value.c_str(), nullptr);
    std::vector<Override> o = overrides;
    o.push_back({path, text_value, label});
    model[k] = load_model_string(text, name, o);
    sys[k] = std::make_unique<System>(model[k].model);
    const System& ps = *sys[k];
    if (ps.num_dofs() != nominal.num_dofs() || ps.num_constraints() != nominal.num_constraints() ||
        ps.num_gaps() != nominal.num_gaps())
      throw ModelFileError(name, 0, 0,
                           label +
                               ": changing this value changes the model's structure "
                               "(bodies or constraint rows), so it has no derivative");
    ch[k] = std::make_unique<ChannelSet>(ps, channels);
  }
  eps[0] = 0.5 * (values[0] - values[1]);
  eps[1] = 0.5 * (values[2] - values[3]);
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
