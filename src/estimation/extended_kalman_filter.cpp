#include "clearsim/estimation/extended_kalman_filter.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "angle_channels.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/run_stats.hpp"
#include "filter_plant.hpp"

namespace cs {

namespace {
// A parameter whose σ the measurements have not reduced below this share of its prior's after
// this many updates is said to be unobservable (warned once).
constexpr double kUnobservedShare = 0.99;
constexpr long kUnobservedAfter = 200;
constexpr double kRebuildShare = 0.1;
constexpr double kJacobianShare = 1e-2;
// A residual that moved with the estimates as R_p predicts to this share is linear in them.
constexpr double kLinearShare = 1e-6;
// The filter's consistency is judged over windows of this many updates.
constexpr long kConsistencyWindow = 100;
// A failed step is retried in up to this many equal parts.
constexpr int kMaxParts = 64;
const std::string kSingular = "the step's matrix is singular at t = ";
}  // namespace

FilterKind parse_filter_kind(const std::string& text) {
  if (text == "ekf") return FilterKind::kExtended;
  if (text == "ukf") return FilterKind::kUnscented;
  throw std::invalid_argument("filter '" + text + "': expected one of ekf, ukf");
}

const char* filter_kind_name(FilterKind kind) {
  return kind == FilterKind::kUnscented ? "ukf" : "ekf";
}

void check_unscented_alpha(double alpha, FilterKind kind) {
  // The scaled transform's α lies in (0, 1] (Julier 2002): beyond 1 the points leave √c σ,
  // already too wide for a clearance example's sigma plants (docs/estimation.md); at 0 they
  // collapse onto the mean.
  if (!(alpha > 0.0 && alpha <= 1.0))
    throw std::invalid_argument("ukf_alpha " + estimation::exact_text(alpha) +
                                ": expected a number in (0, 1]");
  if (kind != FilterKind::kUnscented && alpha != 1.0)
    throw std::invalid_argument("ukf_alpha " + estimation::exact_text(alpha) +
                                ": the extended filter has no sigma points (only with filter ukf)");
}

ExtendedKalmanFilter::ExtendedKalmanFilter(const std::string& text, const std::string& name,
                                           const std::vector<Override>& overrides,
                                           const FilterSettings& settings)
    : name_(name), settings_(settings) {
  std::vector<std::string> paths;
  for (const auto& par : settings.parameters) paths.push_back(par.path);
  // The text is read once: a parameter's new estimate is written into the parsed document.
  model_source_ = std::make_unique<ParameterizedModel>(text, name, overrides, paths);
  params_.resize(static_cast<Eigen::Index>(settings.parameters.size()));
  for (std::size_t k = 0; k < settings.parameters.size(); ++k) {
    const auto& par = settings.parameters[k];
    if (!(par.sigma > 0.0) || !std::isfinite(par.sigma) || !(par.walk >= 0.0))
      throw std::invalid_argument("parameter " + par.path +
                                  ": expected σ > 0 and a random walk ≥ 0");
    params_(static_cast<Eigen::Index>(k)) = model_source_->values()[k];
  }
  for (double x : {settings.sigma_position, settings.sigma_rotation, settings.sigma_velocity,
                   settings.sigma_angular_velocity, settings.acceleration_noise,
                   settings.angular_acceleration_noise})
    if (!(x >= 0.0) || !std::isfinite(x))
      throw std::invalid_argument("filter settings: σ and noise densities must be finite, ≥ 0");
  check_unscented_alpha(settings.ukf_alpha, settings.kind);
  build_plant();
  h_ = plant_->run.solver.step;
  const int n = plant_->sys->num_dofs(), m = plant_->sys->num_constraints();
  layout_ = {0, n, 2 * n, 3 * n, 4 * n, 4 * n + m, 4 * n + m + static_cast<int>(params_.size())};
  start_covariance();
}

ExtendedKalmanFilter::~ExtendedKalmanFilter() = default;

void ExtendedKalmanFilter::build_plant() {
  const Eigen::Index rows = state_.lambda.size();
  // The parameters' perturbed models give ∂R/∂p, a Jacobian: kept while the estimates stay
  // within kJacobianShare of the values they were built around (exact for a parameter R is
  // linear in: a damping, a stiffness, a mass), so that most rebuilds read the model once.
  std::vector<estimation::PerturbedModels> reuse;
  VecX at = params_;
  const bool linearize = settings_.kind == FilterKind::kExtended;
  // Whether the equations are linear in the parameters is measured, not assumed: the residual of
  // the last step's unknowns in the new plant against the old plant's plus R_p (p̂ − p₀).
  const bool probe = linearize && plant_ && step_count_ > 0 && params_.size() > 0;
  VecX r_old, predicted_change;
  const State probe_prev = prev_;
  const VecX probe_vdot = state_.vdot, probe_lambda = state_.lambda;
  if (probe) {
    State x = state_;
    MatX r_p(plant_->step->rows(), params_.size());
    for (int k = 0; k < static_cast<int>(params_.size()); ++k)
      r_p.col(k) = parameter_residual(k, prev_, state_);
    plant_->step->residual(*plant_->sys, prev_, state_.t - prev_.t, probe_vdot, probe_lambda, x,
                           r_old);
    predicted_change = r_p * (params_ - plant_params_);
  }
  if (linearize && plant_ && plant_->perturbed_at.size() == params_.size()) {
    const VecX scale = plant_->perturbed_at.cwiseAbs().cwiseMax(parameter_sigma());
    if (((params_ - plant_->perturbed_at).cwiseAbs().array() <= kJacobianShare * scale.array())
            .all()) {
      reuse = std::move(plant_->perturbed);
      at = plant_->perturbed_at;
    }
  }
  plant_ = estimation::make_plant(*model_source_, params_, state_, std::move(reuse), linearize,
                                  plant_ ? plant_->sys.get() : nullptr);
  plant_->perturbed_at = at;
  plant_params_ = params_;
  if (probe && probe_lambda.size() == plant_->sys->num_constraints()) {
    State x = state_;
    VecX r_new;
    plant_->step->residual(*plant_->sys, probe_prev, state_.t - probe_prev.t, probe_vdot,
                           probe_lambda, x, r_new);
    const double miss = (r_new - r_old - predicted_change).lpNorm<Eigen::Infinity>();
    const double scale = predicted_change.lpNorm<Eigen::Infinity>();
    linear_in_parameters_ = scale > 0.0 && miss <= kLinearShare * scale;
  } else if (probe) {
    linear_in_parameters_ = false;
  }
  if (!output_names_.empty())
    plant_->outputs = std::make_unique<ChannelSet>(*plant_->sys, output_names_);
  if (layout_.size > 0 && state_.lambda.size() != rows)
    throw std::runtime_error(
        "the plant at the new parameter estimates keeps other constraint "
        "rows: the filter's state changes size");
}

const std::vector<Sensor>& ExtendedKalmanFilter::sensors() const { return plant_->model->sensors; }
const State& ExtendedKalmanFilter::state() const { return state_; }
double ExtendedKalmanFilter::time() const { return state_.t; }
VecX ExtendedKalmanFilter::parameters() const { return params_; }

VecX ExtendedKalmanFilter::parameter_sigma() const {
  return L_.bottomRows(params_.size()).rowwise().norm();
}

std::vector<std::string> ExtendedKalmanFilter::parameter_units() const {
  std::vector<std::string> units;
  for (const auto& par : settings_.parameters) units.push_back(unit_at(*plant_->model, par.path));
  return units;
}

StateTangent ExtendedKalmanFilter::tangent_of(const VecX& z) const {
  const Layout& L = layout_;
  const int n = L.v - L.q;
  StateTangent d = StateTangent::zero(state_);
  d.q = z.segment(L.q, n);
  d.v = z.segment(L.v, n);
  d.a = z.segment(L.a, n);
  d.vdot = z.segment(L.vdot, n);
  d.lambda = z.segment(L.lambda, L.p - L.lambda);
  return d;
}

bool ExtendedKalmanFilter::predict() {
  if (settings_.kind == FilterKind::kUnscented) return predict_unscented();
  // The step, retried in 2, 4, … kMaxParts equal parts when it fails (as a run's fixed step
  // is): a corrected state can start deeper in a stiff film than the true run goes. Each part
  // is linearized and propagates the covariance (the process noise over its own length).
  // A singular step matrix is not retried: the linearization, not the step's size, is at fault
  // (an impact's contact switching within the step), and the filter stops saying so.
  const State start = state_;
  MatX start_root;
  std::string message;
  for (int parts = 1; parts <= kMaxParts; parts *= 2) {
    if (parts == 2) start_root = L_;  // a failed whole step leaves L untouched
    if (parts > 1) {
      state_ = start;
      L_ = start_root;
    }
    bool ok = true;
    for (int k = 0; k < parts && ok; ++k) {
      ok = predict_part(h_ / parts, message);
      if (!ok && !message.empty() && message.rfind(kSingular, 0) == 0) {
        why_ = message;
        return false;
      }
    }
    if (ok) {
      ++step_count_;
      return true;
    }
  }
  state_ = start;
  L_ = start_root;
  why_ = "the plant's step from t = " + std::to_string(start.t) + " s failed (also in " +
         std::to_string(kMaxParts) + " parts): " + message;
  return false;
}

bool ExtendedKalmanFilter::predict_part(double h, std::string& why) {
  prev_ = state_;
  const StepResult r = plant_->integrator->step(state_, h);
  if (!r.converged) {
    why = r.message;
    return false;
  }
  plant_->sys->update_memory(state_);
  plant_->step->linearize(prev_, state_);
  if (!plant_->step->factorize()) {
    why = kSingular + std::to_string(state_.t) + " s";
    return false;
  }
  MatX r_p(plant_->step->rows(), params_.size());
  for (int k = 0; k < static_cast<int>(params_.size()); ++k)
    r_p.col(k) = parameter_residual(k, prev_, state_);
  propagate_covariance(r_p);
  return true;
}

std::vector<int> ExtendedKalmanFilter::due() const {
  std::vector<int> list;
  const auto& sensors = plant_->model->sensors;
  for (std::size_t k = 0; k < sensors.size(); ++k) {
    const long every = std::max(1L, std::lround(1.0 / (sensors[k].rate * h_)));
    if (step_count_ % every == 0) list.push_back(static_cast<int>(k));
  }
  return list;
}

void ExtendedKalmanFilter::update(const std::vector<int>& sensors, const VecX& y) {
  const auto& all = plant_->model->sensors;
  if (y.size() != static_cast<Eigen::Index>(sensors.size()))
    throw std::invalid_argument("update: " + std::to_string(y.size()) + " samples for " +
                                std::to_string(sensors.size()) + " sensors");
  if (sensors.empty()) return;
  // The channels' prediction: h(x⁻) and Y = H L by central differences (extended), or the
  // unscented transform's mean, Y and second-order spread E (unscented).
  VecX predicted;
  MatX Y_all, E_all;
  if (settings_.kind == FilterKind::kUnscented) {
    unscented_channels(*plant_->sensors, predicted, Y_all, E_all);
  } else {
    std::vector<double> values;
    plant_->sensors->evaluate(state_, RunStats(), values);
    predicted = Eigen::Map<const VecX>(values.data(), static_cast<Eigen::Index>(values.size()));
    // The columns the process noise appended since the last update fold into L's rank first:
    // the channels are then differentiated along that many directions.
    if (L_.cols() > compressed_columns_) compress();
    Y_all = channels_along_root(*plant_->sensors);
    E_all.setZero(Y_all.rows(), 0);
  }
  // Differences of angle channels are taken modulo 2π (angle_channels.hpp): a crank's encoder
  // wraps once a revolution.
  const std::vector<bool> angle = estimation::angle_channels(*plant_->sensors);
  VecX innovation(y.size()), R(y.size());
  MatX Y(y.size(), Y_all.cols()), E(y.size(), E_all.cols());
  for (std::size_t r = 0; r < sensors.size(); ++r) {
    const int k = sensors[r];
    if (k < 0 || k >= static_cast<int>(all.size()))
      throw std::invalid_argument("update: no sensor " + std::to_string(k));
    const auto i = static_cast<Eigen::Index>(r);
    if (!std::isfinite(y(i)))
      throw std::invalid_argument("update: the sample of sensor " + all[k].name + " is not finite");
    innovation(i) = estimation::channel_difference(y(i), predicted(k), angle[k]);
    R(i) = all[k].noise * all[k].noise;
    Y.row(i) = Y_all.row(k);
    E.row(i) = E_all.row(k);
  }
  apply_update(innovation, Y, E, R);
}

void ExtendedKalmanFilter::apply_update(const VecX& innovation, const MatX& Y, const MatX& E,
                                        const VecX& R) {
  // In square-root form, with S = Y Yᵀ + E Eᵀ + R: the gain K = L Yᵀ S⁻¹ and Joseph's form
  // P = (I − KH) P (I − KH)ᵀ + K (R + E Eᵀ) Kᵀ = P − K S Kᵀ as the root [L − K Y, K R^½, K E],
  // compressed (E = 0 for the extended filter).
  const MatX S = MatX(Y * Y.transpose()) + MatX(E * E.transpose()) + MatX(R.asDiagonal());
  const Eigen::LDLT<MatX> ldlt(S);
  // K = L Yᵀ S⁻¹ = L (S⁻¹ Y)ᵀ: S⁻¹ applied to Y's few columns, not to L's 89 rows.
  const MatX K = L_ * ldlt.solve(Y).transpose();
  nis_ = innovation.dot(ldlt.solve(innovation));
  MatX root(layout_.size, L_.cols() + Y.rows() + E.cols());
  root << L_ - K * Y, K * R.cwiseSqrt().asDiagonal(), K * E;
  L_ = std::move(root);
  compress();
  correct(K * innovation);
  ++updates_;
  if (updates_ == kUnobservedAfter) warn_unobserved();
  check_consistency(innovation.size());
}

void ExtendedKalmanFilter::correct(const VecX& dz) {
  state_ = displaced(state_, tangent_of(dz), 1.0);
  if (params_.size() > 0) {
    params_ += dz.tail(params_.size());
    // The plant is rebuilt at the new estimates (which makes the state consistent there) when
    // it lags them too far for the prediction (plant_lags_estimates).
    if (plant_lags_estimates()) {
      build_plant();
      return;
    }
  }
  // Back on the constraints (positions, velocities). v̇, λ and a keep their linear correction:
  // v̇ holds the process noise's force of the last step, which the step after reads (α_f v̇_n).
  const System& sys = *plant_->sys;
  LinearSystem& ls = plant_->projection;
  assemble_positions(sys, state_, plant_->run.solver.newton_tol, 50, ls);
  estimation::project_velocities(*plant_, state_);
}

bool ExtendedKalmanFilter::plant_lags_estimates() const {
  const VecX lag = (params_ - plant_params_).cwiseAbs();
  const VecX sigma = parameter_sigma();
  // A tenth of σ: the prediction's bias then stays below a tenth of the reported uncertainty
  // even where the equations bend sharply in p (a clearance's film force bends on the µm left
  // to the asperities, not on the clearance's 0.1 mm: a lag of one σ there, followed to first
  // order, doubled the seed 003 example's acceleration errors between samples). The extended
  // filter's prediction also follows the estimates to first order between rebuilds
  // (follow_estimates), which removes the lag's first-order part.
  // Where the last rebuild found the equations linear in the parameters (a damping, a mass, a
  // torque: R_p then predicted the residual's change to kLinearShare), the following is exact
  // in R and the lag may reach one σ: what remains is the step's own curvature in the state
  // over the lag.
  if (settings_.rebuild_at_every_move) return (lag.array() > 0.0).any();
  const double band = linear_in_parameters_ ? 1.0 : kRebuildShare;
  return (lag.array() > band * sigma.array()).any();
}

void ExtendedKalmanFilter::check_consistency(Eigen::Index samples) {
  // Over each window of kConsistencyWindow updates, the normalized innovations squared of a
  // consistent filter sum to a χ² variable with as many degrees of freedom as samples; a sum
  // beyond its 99.9 % quantile (Wilson–Hilferty) says the innovations are larger than the
  // covariance admits: estimates and σ are not to be trusted (an EKF whose linearization a
  // switching contact defeats, a model that misses a force). Said once, with the time.
  window_nis_ += nis_;
  window_samples_ += static_cast<double>(samples);
  if (++window_updates_ < kConsistencyWindow) return;
  const double d = window_samples_, c = 2.0 / (9.0 * d);
  const double bound = d * std::pow(1.0 - c + 3.09 * std::sqrt(c), 3);
  if (window_nis_ > bound && !inconsistent_said_) {
    inconsistent_said_ = true;
    char text[640];
    std::snprintf(text, sizeof text,
                  "the filter is inconsistent by t = %.6g s: its last %ld updates' normalized "
                  "innovations sum to %.3g against at most %.3g (99.9 %% of chi-squared, %.0f "
                  "degrees of freedom): the measurements disagree with the estimates by more "
                  "than their sigma admits, so neither is to be trusted (a contact that switches "
                  "within a step defeats the extended filter: try --filter ukf)",
                  state_.t, window_updates_, window_nis_, bound, d);
    warn(text);
  }
  window_nis_ = window_samples_ = 0.0;
  window_updates_ = 0;
}

void ExtendedKalmanFilter::warn_unobserved() {
  // The information the measurements gave a parameter shows in its σ: one they do not inform
  // keeps its prior's (the information matrix's direction for it is empty).
  const VecX sigma = parameter_sigma();
  for (std::size_t k = 0; k < settings_.parameters.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    if (sigma(i) > kUnobservedShare * prior_sigma_(i))
      warn("parameter " + settings_.parameters[k].path + ": after " + std::to_string(updates_) +
           " updates its σ is still " + std::to_string(sigma(i) / prior_sigma_(i) * 100.0) +
           " % of its prior's: the sensors do not observe it (its estimate is the guess)");
  }
}

void ExtendedKalmanFilter::set_outputs(const std::vector<std::string>& names) {
  plant_->outputs = std::make_unique<ChannelSet>(*plant_->sys, names);
  output_names_ = names;
}

void ExtendedKalmanFilter::warn(const std::string& message) {
  for (const auto& w : warnings_)
    if (w == message) return;
  warnings_.push_back(message);
}

}  // namespace cs
