#include "filter_plant.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "clearsim/estimation/sensor_channels.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs::estimation {

namespace {

// A parameter's models are p(1 ± δ) (p ± δ₀ at p = 0): the central difference of the residual,
// O(δ²) = 1e-8 relative, well below any covariance's meaning.
constexpr double kRelativeStep = 1e-4;
constexpr double kZeroStep = 1e-7;

std::unique_ptr<LoadedModel> load(ParameterizedModel& source, const VecX& values) {
  auto lm = std::make_unique<LoadedModel>(
      source.load(std::span<const double>(values.data(), static_cast<std::size_t>(values.size()))));
  // The step's tangent is written in body poses (as the sensitivities' is).
  lm->run.solver.coordinates = CoordinateChoice::kAbsolute;
  return lm;
}

// Whether s's positions satisfy sys's constraints within tol, so that a plant built again at a
// new estimate keeps them as they are.
bool positions_consistent(const System& sys, const State& s, double tol) {
  const int m = sys.num_constraints();
  if (m == 0) return true;
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  VecX phi(m);
  sys.constraints(kin, s.t, &phi, MatrixSink(), nullptr, nullptr);
  return phi.lpNorm<Eigen::Infinity>() <= tol;
}

// Makes s consistent in sys (removing the rows the plant's start removed). A state of the run
// keeps its v̇, λ and a (the filter's correction of them, the process noise's force included).
void make_state_consistent(System& sys, const RunSettings& run, State& s, bool given) {
  const State before = s;
  std::vector<std::string> notes;
  const SolveReport rep = make_consistent(sys, s, run.solver.newton_tol, notes,
                                          given ? StartFrom::kGivenState : StartFrom::kModel);
  if (!rep.ok) throw std::invalid_argument("the filter's state is not consistent: " + rep.message);
  if (given && s.lambda.size() == before.lambda.size()) {
    s.vdot = before.vdot;
    s.lambda = before.lambda;
    s.a = before.a;
  }
}

PerturbedModels perturbed_models(ParameterizedModel& source, const VecX& values, std::size_t k,
                                 const System& plant, const State& s) {
  PerturbedModels pm;
  const auto i = static_cast<Eigen::Index>(k);
  const double step = values(i) != 0.0 ? kRelativeStep * std::abs(values(i)) : kZeroStep;
  double v[2];
  for (int side = 0; side < 2; ++side) {
    VecX shifted = values;
    shifted(i) += side == 0 ? step : -step;
    v[side] = std::strtod(exact_text(shifted(i)).c_str(), nullptr);
    pm.model[side] = load(source, shifted);
    pm.sys[side] = std::make_unique<System>(pm.model[side]->model);
    State x = s;  // the same redundant rows removed as the plant's
    make_state_consistent(*pm.sys[side], pm.model[side]->run, x, true);
    if (pm.sys[side]->num_dofs() != plant.num_dofs() ||
        pm.sys[side]->num_constraints() != plant.num_constraints())
      throw std::invalid_argument("parameter " + source.paths()[k] +
                                  ": changing it changes the model's structure (bodies or "
                                  "constraint rows), so it cannot be estimated");
  }
  pm.delta = 0.5 * (v[0] - v[1]);
  return pm;
}

}  // namespace

void project_velocities(FilterPlant& plant, State& s) {
  const System& sys = *plant.sys;
  const int n = sys.num_dofs(), m = sys.num_constraints();
  if (m == 0) return;
  if (!plant.velocity_projection)
    plant.velocity_projection = std::make_unique<MassSaddleSchur>(sys.model());
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  MatX B = MatX::Zero(m, n);
  VecX phi_t = VecX::Zero(m);
  sys.constraints(kin, s.t, nullptr, MatrixSink(&B), &phi_t, nullptr);
  if (!plant.velocity_projection->factor(B)) {
    assemble_velocities(sys, s, plant.projection, /*use_prescribed=*/false);
    return;
  }
  VecX Mv, b = -phi_t;
  sys.mass_times(s.v, Mv);
  plant.velocity_projection->solve(Mv, b);
  s.v = Mv;
}

std::string exact_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string unscented_unsupported(const RunSettings& run) {
  const SolverSettings& st = run.solver;
  switch (st.integrator) {
    case IntegratorKind::kGeneralizedAlpha:
    case IntegratorKind::kNewmark:
    case IntegratorKind::kHht:
    case IntegratorKind::kTrapezoidal:
      break;
    case IntegratorKind::kNsga:
      return "the unscented filter does not step sigma points through NSGA's impacts "
             "(solver.integrator: nsga); model the contact as compliant (a clearance joint's "
             "contact law) instead";
    default:
      return "the unscented filter's state is that of the generalized-alpha family (q, v, a, "
             "v-dot); the explicit Runge-Kutta integrators are not supported";
  }
  if (st.adaptive)
    return "the unscented filter's sigma points share the plant's fixed steps "
           "(solver.adaptive: false)";
  if (st.formulation != ConstraintFormulation::kIndex3)
    return "the unscented filter needs solver.formulation: index3 (its reactions are part of "
           "the filter's state)";
  return {};
}

std::unique_ptr<FilterPlant> make_plant(ParameterizedModel& source, const VecX& values, State& s,
                                        std::vector<PerturbedModels> reuse, bool linearize,
                                        const System* previous) {
  auto plant = std::make_unique<FilterPlant>();
  plant->model = load(source, values);
  plant->run = plant->model->run;
  plant->sys = std::make_unique<System>(plant->model->model);
  System& sys = *plant->sys;
  if (plant->run.solver.analysis != Analysis::kDynamic)
    throw std::invalid_argument("a Kalman filter needs a dynamic analysis (solver.analysis)");
  std::string why = incompatible_settings(sys, plant->run.solver);
  if (why.empty() && linearize && plant->run.solver.integrator == IntegratorKind::kNsga)
    why =
        "the extended filter does not linearize NSGA's impacts (its covariance would jump with "
        "the active sets): model the contact as compliant instead";
  // Its transition Jacobian is the index-3 step's (StepLinearization without projections); the
  // direct sensitivities alone differentiate the stabilized formulation's projections and the
  // penalty formulation's rows.
  if (why.empty() && linearize && plant->run.solver.formulation != ConstraintFormulation::kIndex3)
    why =
        "the extended filter linearizes the index-3 step only (solver.formulation: index3); the "
        "other formulations' steps are not in its transition Jacobian";
  if (why.empty())
    why = linearize ? DirectSensitivity::unsupported(sys, plant->run)
                    : unscented_unsupported(plant->run);
  if (!why.empty()) throw std::invalid_argument("the filter cannot use this model: " + why);
  if (plant->model->sensors.empty())
    throw std::invalid_argument(plant->model->path +
                                ": the model has no sensors section: nothing to measure");
  const bool given = !s.x_W.empty();
  if (!given) s = initial_state(sys, 0.0);
  // Built again at a new estimate: the predecessor's row choice, and its positions as they are
  // when the new numbers leave them on the constraints (a damping, a mass: most parameters);
  // the velocities projected as make_consistent would (v̇, λ and a kept, as there).
  const bool kept = given && previous && sys.remove_rows_as(*previous) &&
                    s.lambda.size() == sys.num_constraints() &&
                    positions_consistent(sys, s, plant->run.solver.newton_tol);
  if (kept)
    project_velocities(*plant, s);
  else
    make_state_consistent(sys, plant->run, s, given);
  plant->integrator = make_integrator(sys, plant->run.solver);
  plant->sensors = std::make_unique<ChannelSet>(sensor_channels(*plant->model, sys));
  if (!linearize) return plant;
  plant->step = std::make_unique<StepLinearization>(sys, plant->run.solver);
  if (!reuse.empty()) {
    plant->perturbed = std::move(reuse);
    return plant;
  }
  for (std::size_t k = 0; k < source.paths().size(); ++k)
    plant->perturbed.push_back(perturbed_models(source, values, k, sys, s));
  plant->perturbed_at = values;
  return plant;
}

}  // namespace cs::estimation
