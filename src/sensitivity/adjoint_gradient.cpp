#include "clearsim/sensitivity/adjoint_gradient.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "clearsim/io/result_writer.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/sensitivity/adjoint_memory.hpp"
#include "clearsim/sensitivity/adjoint_trajectory.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {

namespace {
constexpr int kModels = PerturbedModels::kModels;
// The channel's gradient in the state: Richardson's differences along each coordinate. Positions
// and rotations move by kPoseStep [m, rad] (small enough that a contact closed by a few µm stays
// closed), the other coordinates by kRelativeStep of their size (at least 1 in their unit).
constexpr double kPoseStep = 1e-7;
constexpr double kRelativeStep = 1e-6;

std::string time_text(double t) {
  std::ostringstream os;
  os << t;
  return os.str();
}
}  // namespace

double dot(const StateTangent& a, const StateTangent& b) {
  double sum = a.q.dot(b.q) + a.v.dot(b.v) + a.a.dot(b.a) + a.vdot.dot(b.vdot);
  if (a.lambda.size() == b.lambda.size()) sum += a.lambda.dot(b.lambda);
  if (a.memory.size() == b.memory.size()) sum += a.memory.dot(b.memory);
  return sum;
}

AdjointGradient::AdjointGradient(const std::string& text, const std::string& name,
                                 const std::vector<Override>& overrides,
                                 const std::vector<std::string>& paths,
                                 const AdjointObjective& objective, const System& sys,
                                 const RunSettings& run)
    : sys_(sys), run_(run), objective_(objective), channel_(sys, {objective.channel()}) {
  if (channel_.names().size() != 1)
    throw std::invalid_argument("--objective '" + objective.text() +
                                "': name one channel component, not " +
                                std::to_string(channel_.names().size()));
  ParameterizedModel source = PerturbedModels::source(text, name, overrides, paths, "--parameter");
  for (const std::string& path : paths) {
    auto par = std::make_unique<PerturbedModels>();
    par->load(source, path, "--parameter " + path, sys, channel_.names());
    params_.push_back(std::move(par));
  }
}

AdjointGradient::~AdjointGradient() = default;

std::string AdjointGradient::unsupported(const System& sys, const RunSettings& run) {
  if (run.solver.analysis != Analysis::kDynamic)
    return "adjoint gradients are computed for a dynamic analysis (solver.analysis: dynamic)";
  if (run.solver.integrator == IntegratorKind::kNsga)
    return "sensitivities through NSGA's impacts are not implemented in the adjoint (the direct "
           "method has them: clearsim run --sensitivity)";
  if (run.solver.formulation == ConstraintFormulation::kAli3p &&
      run.solver.integrator != IntegratorKind::kNsga)
    return "the ali3p formulation's projections are not differentiated in the adjoint (the "
           "direct method has them: clearsim run --sensitivity)";
  if (run.solver.formulation == ConstraintFormulation::kStabilized)
    return "the stabilized formulation's projections are not differentiated in the adjoint (the "
           "direct method has them: clearsim run --sensitivity)";
  return DirectSensitivity::unsupported(sys, run);
}

double AdjointGradient::bytes_per_step(const System& sys) {
  const double nb = sys.num_dofs() / 6.0, n = sys.num_dofs(), m = sys.num_constraints();
  const double g = sys.num_gaps();
  // The State itself, its poses, the vectors' doubles, and one heap block per vector (~32 B).
  return static_cast<double>(sizeof(State)) + nb * (sizeof(Vec3) + sizeof(Mat3)) +
         8.0 * (5.0 * n + 2.0 * m + 5.0 * g + sys.num_memory()) + 16 * 32.0 + 16.0;
}

namespace {
// Richardson's combination of the central differences of c at ±h and ±2h (truncation O(h⁴)):
// `at(x)` evaluates the channel with the coordinate moved by x.
template <class At>
double richardson(const At& at, double h) {
  const double c1 = (at(h) - at(-h)) / (2.0 * h), c2 = (at(2.0 * h) - at(-2.0 * h)) / (4.0 * h);
  return (4.0 * c1 - c2) / 3.0;
}
}  // namespace

StateTangent AdjointGradient::channel_gradient(const ChannelSet& ch, const State& s,
                                               const RunStats& stats,
                                               const ChannelFootprint& along) {
  // Coordinate by coordinate on a copy of s (no state is allocated per coordinate). Richardson's
  // O(h⁴), not a plain central difference: a film force is nonlinear on the clearance's scale
  // c = 50 µm, and a central difference at 1e-7 m left (h/c)² ~ 3e-5 of its integral's gradient.
  // Only the coordinates the channel reads (its footprint) are moved: the rest of the gradient
  // is exactly zero, and a body's channel costs the same in a model of any size.
  StateTangent g = StateTangent::zero(s);
  State x = s;
  std::vector<double> v;
  const auto value = [&] {
    ch.evaluate(x, stats, v);
    return v[0];
  };
  const auto pose = [&](std::size_t b) {
    const auto k = static_cast<Eigen::Index>(6 * b);
    for (int i = 0; i < 3; ++i) {
      g.q(k + i) = richardson(
          [&](double d) {
            x.x_W[b](i) = s.x_W[b](i) + d;
            return value();
          },
          kPoseStep);
      x.x_W[b](i) = s.x_W[b](i);
    }
    for (int i = 0; i < 3; ++i) {
      g.q(k + 3 + i) = richardson(
          [&](double d) {
            x.R_WB[b] = s.R_WB[b] * so3::exp(d * Vec3::Unit(i));
            return value();
          },
          kPoseStep);
      x.R_WB[b] = s.R_WB[b];
    }
  };
  const auto coordinate = [&](VecX& xb, VecX& gb, Eigen::Index i) {
    double& c = xb(i);
    const double keep = c;
    gb(i) = richardson(
        [&](double d) {
          c = keep + d;
          return value();
        },
        kRelativeStep * std::max(1.0, std::abs(keep)));
    c = keep;
  };
  if (along.whole) {
    for (std::size_t b = 0; b < s.x_W.size(); ++b) pose(b);
    VecX* gb[] = {&g.v, &g.a, &g.vdot, &g.lambda};
    VecX* xb[] = {&x.v, &x.a, &x.vdot, &x.lambda};
    for (int b = 0; b < 4; ++b)
      for (Eigen::Index i = 0; i < gb[b]->size(); ++i) coordinate(*xb[b], *gb[b], i);
    return g;
  }
  for (const int b : along.bodies) {
    pose(static_cast<std::size_t>(b));
    for (Eigen::Index i = 6 * b; i < 6 * b + 6; ++i) {
      coordinate(x.v, g.v, i);
      if (along.accelerations) coordinate(x.vdot, g.vdot, i);
    }
  }
  for (const int r : along.rows)
    if (r < x.lambda.size()) coordinate(x.lambda, g.lambda, r);
  return g;
}

GradientResult AdjointGradient::compute(System& sys, std::vector<std::string>& notes,
                                        const GradientOptions& options) {
  if (!(options.memory_bytes > 0.0))
    throw std::invalid_argument("the adjoint's memory budget must be positive [bytes]");
  // Forward: the run, every step's channel value and its states (or checkpoints).
  Simulation sim(sys, run_);
  if (!sim.initialize(notes)) throw std::runtime_error(sim.stats().message);
  const auto steps = static_cast<long>(fixed_step_count(run_.solver.end, run_.solver.step));
  AdjointTrajectory tr(sim, channel_, steps, bytes_per_step(sys), options.memory_bytes,
                       options.progress);
  GradientResult out;
  out.steps = tr.steps();
  out.stored_bytes = tr.stored_bytes();
  out.checkpoint_every = tr.every();
  std::vector<double> w;
  out.value = objective_.evaluate(tr.times(), tr.values(), w);
  out.unit = objective_.unit();
  for (const auto& par : params_)
    out.units.push_back(derivative_unit(out.unit, unit_at(par->model[0], par->path), par->path));
  backward(tr, w, out, options);
  out.recomputed_steps = tr.recomputed_steps();
  return out;
}

void AdjointGradient::memory_update_terms(const MemoryAdjoint& memory, const State& prev,
                                          const State& s, StateTangent& lambda, VecX& wm,
                                          GradientResult& out) const {
  const VecX lm = lambda.memory;
  if (!memory.update_transposed(prev, s, lm, lambda, wm))
    throw std::runtime_error("no derivative at t = " + time_text(s.t) +
                             " s: an element's remembered state (a contact's approach speed at a "
                             "grazing onset, at the floor min_approach_speed) has a kink there");
  // ∂U/∂p by the parameter's models at the step's end with the memory of its start.
  State start = s;
  start.memory = prev.memory;
  for (std::size_t j = 0; j < params_.size(); ++j) {
    VecX mem[kModels];
    for (int i = 0; i < kModels; ++i) {
      State xi = start;
      params_[j]->sys[i]->update_memory(xi);
      mem[i] = xi.memory;
    }
    out.gradient[j] += lm.dot(params_[j]->derivative(mem));
  }
}

void AdjointGradient::backward(AdjointTrajectory& tr, const std::vector<double>& w,
                               GradientResult& out, const GradientOptions& options) const {
  const int n = sys_.num_dofs(), m = sys_.num_constraints();
  const std::size_t np = params_.size();
  out.gradient.assign(np, 0.0);
  StepLinearization lin(sys_, run_.solver, step_rows(run_.solver));
  const ChannelFootprint reads = channel_.footprint(0);
  // ∂J/∂S_k and ∂J/∂p at step k: the weight times the channel's gradient and explicit derivative.
  auto objective_terms = [&](std::size_t k, StateTangent& lambda) {
    if (w[k] == 0.0) return;
    const State& s = tr.at(static_cast<long>(k));
    const StateTangent g = channel_gradient(channel_, s, tr.stats(), reads);
    lambda.q += w[k] * g.q;
    lambda.v += w[k] * g.v;
    lambda.a += w[k] * g.a;
    lambda.vdot += w[k] * g.vdot;
    lambda.lambda += w[k] * g.lambda;
    for (std::size_t j = 0; j < np; ++j) {
      double y[kModels];
      std::vector<double> v;
      for (int i = 0; i < kModels; ++i) {
        params_[j]->ch[i]->evaluate(s, tr.stats(), v);
        y[i] = v[0];
      }
      out.gradient[j] += w[k] * params_[j]->derivative(y);
    }
  };
  const auto N = static_cast<std::size_t>(tr.steps());
  if (N > 0) tr.hold(static_cast<long>(N) - 1);
  StateTangent lambda = StateTangent::zero(tr.at(tr.steps())), wS, jr;
  objective_terms(N, lambda);
  const MemoryAdjoint memory(sys_, lin);
  VecX wvdot, wlambda, wX(n + m), wm;
  for (std::size_t k = N; k-- > 0;) {
    if (options.progress && (N - k) % 256 == 0)
      options.progress("backward", static_cast<double>(N - k) / static_cast<double>(N));
    tr.hold(static_cast<long>(k));
    const State& prev = tr.at(static_cast<long>(k));
    const State& s = tr.at(static_cast<long>(k) + 1);
    lin.linearize(prev, s);
    if (!lin.factorize())
      throw std::runtime_error("the step ending at t = " + time_text(s.t) +
                               " s has a singular Jacobian R_X: no adjoint");
    // The memory after the step, U(S_{k+1}, m_k; p): its covector moves onto S_{k+1}, m_k, p.
    wm = VecX::Zero(lambda.memory.size());
    if (lambda.memory.size() > 0 && lambda.memory.lpNorm<Eigen::Infinity>() > 0.0)
      memory_update_terms(memory, prev, s, lambda, wm, out);
    lin.transposed_step(lambda, wS, wvdot, wlambda);
    wX << wvdot, wlambda;
    const VecX mu = lin.solve_transposed(wX);
    // −μᵀ R_p, R_p the residual differenced between the parameter's models at this step.
    for (std::size_t j = 0; j < np; ++j)
      out.gradient[j] -=
          mu.dot(params_[j]->residual_derivative(lin, prev, s.t - prev.t, s.vdot, s.lambda));
    if (wm.size() > 0) wm -= memory.residual_transposed(prev, s, mu);
    // λ_k = G_Sᵀ (λ_{k+1} − J_Rᵀ μ) + ∂J/∂S_k.
    lin.transposed_residual(mu, jr);
    lambda.q -= jr.q;
    lambda.v -= jr.v;
    lambda.vdot -= jr.vdot;
    lambda.lambda -= jr.lambda;
    lin.transposed_step(lambda, wS, wvdot, wlambda);
    lambda = wS;
    lambda.memory = wm;
    objective_terms(k, lambda);
  }
  if (options.progress) options.progress("backward", 1.0);
  // The initial state's dependence on the parameter.
  for (std::size_t j = 0; j < np; ++j) {
    StateTangent d0;
    std::string why;
    if (!params_[j]->initial_tangent(run_, tr.at(0), d0, why)) throw std::runtime_error(why);
    out.gradient[j] += dot(lambda, d0);
  }
}

GradientResult model_gradient(const std::string& text, const std::string& name,
                              const std::vector<Override>& overrides, const std::string& objective,
                              const std::vector<std::string>& paths,
                              std::vector<std::string>& notes, const GradientOptions& options) {
  const AdjointObjective parsed = AdjointObjective::parse(objective);
  if (paths.empty())
    throw std::invalid_argument("--objective '" + objective +
                                "': name at least one --parameter to differentiate in");
  LoadedModel lm = load_model_string(text, name, overrides);
  System sys(lm.model);
  if (const std::string why = AdjointGradient::unsupported(sys, lm.run); !why.empty())
    throw std::invalid_argument("adjoint gradient: " + why);
  std::string note;
  lm.run = DirectSensitivity::adapted(lm.run, note);
  if (!note.empty()) notes.push_back(note);
  AdjointGradient adjoint(text, name, overrides, paths, parsed, sys, lm.run);
  return adjoint.compute(sys, notes, options);
}

}  // namespace cs
