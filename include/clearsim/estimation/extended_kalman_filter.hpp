// An extended Kalman filter on the multibody model (docs/estimation.md): the model is the filter's
// plant, stepped by its own generalized-α integrator; the state's covariance is propagated by the
// exact tangent of each step (sensitivity/step_linearization.hpp) and corrected at each sample of
// the model's sensors (estimation/sensor.hpp).
//
// Error state z, in the tangent space of the step's state (state_tangent.hpp), then the
// augmented parameters:
//   z = [δq (6 per body: δx_W, δθ_B) ; δv ; δa ; δv̇ ; δλ ; δp]
// q, v, a (generalized-α's pseudo-acceleration) and v̇ are what a step reads; λ is what it
// solves with v̇ and is carried so that a channel reading a reaction has its derivative. Every
// column of the covariance lies in the span of consistent tangents (the initial ones, those a
// step propagates, the process noise's), so the correction K·(y − h) is consistent to first
// order; the corrected state is then projected back on Φ = 0 and B v + Φ_t = 0 and its v̇, λ
// solved again (initial_conditions.hpp), which removes the second-order drift.
//
// The covariance is kept as a square root P = L Lᵀ whose columns are tangents.
// Predict (each step, of size h): L ← [F L, G √Q], F L by the step's tangent applied to L's
// columns (R_p = 0 for state directions, R_p = ∂R/∂p times a column's parameter part), G the
// step's response to a generalized force on each body coordinate, Q = diag(m² q²/h) for the
// acceleration noise densities q of FilterSettings (and a parameter's random walk).
// Update (at each sensor sample): Joseph's form as a root, [L − K Y, K R^½], Y = H L the
// channels' derivatives along L's columns. L is cut to its rank by a pivoted QR.
//
// With FilterSettings::kind = kUnscented the same class runs an unscented Kalman filter
// (src/estimation/unscented_*.cpp, docs/estimation.md): the scaled unscented transform with
// α = FilterSettings::ukf_alpha (1 by default), β = 2, κ = 0 on sigma points x ⊕ ±α√c L_i
// (c = L's columns), each projected on the constraints and stepped by the plant; the same error
// state, root, update and correction.
//
// Scope: that of the direct sensitivities (DirectSensitivity::unsupported): generalized-α family
// in body poses, index-3, fixed steps, no unilateral contacts. An element's memory is held fixed
// in the Jacobians (not differentiated).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/types.hpp"
#include "clearsim/sensitivity/state_tangent.hpp"
#include "clearsim/state/state.hpp"

namespace cs {

class ParameterizedModel;  // clearsim/io/parameterized_model.hpp

namespace estimation {
struct FilterPlant;  // src/estimation/filter_plant.hpp
}

// The filter's kind: the extended one (the step's exact tangent propagates the covariance) or
// the unscented one (sigma points, each stepped by the plant's own nonlinear step; no Jacobian).
enum class FilterKind { kExtended, kUnscented };

// "ekf" or "ukf"; throws std::invalid_argument naming the bad value and the list.
FilterKind parse_filter_kind(const std::string& text);
const char* filter_kind_name(FilterKind kind);
// FilterSettings::ukf_alpha: throws std::invalid_argument naming it unless 0 < α ≤ 1, and unless
// α = 1 for the extended filter.
void check_unscented_alpha(double alpha, FilterKind kind);

struct FilterSettings {
  FilterKind kind = FilterKind::kExtended;
  // Augmented parameters: numeric paths of the model file (as --set and --sensitivity name
  // them), each with the standard deviation of its initial guess (the file's value) and of its
  // random walk [unit/√s] (0: a constant).
  struct Parameter {
    std::string path;
    double sigma = 0.0;  // > 0
    double walk = 0.0;   // ≥ 0
  };
  std::vector<Parameter> parameters;
  // The initial state's uncertainty: σ of every body pose coordinate [m] and [rad] and of every
  // velocity [m/s] and [rad/s], projected on the constraints' tangent space.
  double sigma_position = 0.0;
  double sigma_rotation = 0.0;
  double sigma_velocity = 0.0;
  double sigma_angular_velocity = 0.0;
  // Process noise: white accelerations of every body coordinate, densities [m/s²/√Hz] and
  // [rad/s²/√Hz], applied as forces (mass and inertia times them).
  double acceleration_noise = 0.0;
  double angular_acceleration_noise = 0.0;
  // The plant is built at parameter values p₀ and rebuilt when the estimates p̂ have moved a
  // tenth of their σ from them; in between, the extended filter's prediction follows p̂ to first
  // order (the step's derivative in p, which the covariance needs anyway). true: rebuilt at
  // every move of the estimates, the plant always at p̂ (slow; the reference the default is
  // tested against, tests/unit/estimation/parameter_estimation_test.cpp).
  bool rebuild_at_every_move = false;
  // The unscented filter's spread α of the scaled unscented transform (docs/estimation.md):
  // sigma points at ±α√c along the c columns of the covariance's root, 0 < α ≤ 1. α = 1 puts
  // them at √c σ (λ = 0, W₀ᵐ = 0); a smaller α keeps them nearer the mean where the plant bends
  // within √c σ, at the price of a mean that extrapolates (W₀ᵐ = 1 − 1/α²). (On the lubricated
  // clearance example no α from 0.1 to 1 finds the clearance: docs/estimation.md.) The extended
  // filter has no sigma points: it refuses any other value than 1.
  double ukf_alpha = 1.0;
};

class ExtendedKalmanFilter {
 public:
  // The model `text` (with `overrides`) as the plant, started at its consistent initial state;
  // its `sensors` section gives the measurements. Throws ModelFileError (the model, a sensor, a
  // parameter path) or std::invalid_argument (settings, a model out of scope).
  ExtendedKalmanFilter(const std::string& text, const std::string& name,
                       const std::vector<Override>& overrides, const FilterSettings& settings);
  ~ExtendedKalmanFilter();
  ExtendedKalmanFilter(const ExtendedKalmanFilter&) = delete;
  ExtendedKalmanFilter& operator=(const ExtendedKalmanFilter&) = delete;

  // One step of the plant (solver.step) with the covariance propagated, retried in 2, 4, … 64
  // equal parts when it fails (each part linearized; transition_jacobian() is then the last
  // part's); false with why() when it fails in 64 parts too.
  bool predict();
  // The sensors (indices into sensors()) that sample at the current time.
  std::vector<int> due() const;
  // Corrects the state with the samples y of `sensors` (indices into sensors()) at the current
  // time. Throws std::invalid_argument on sizes or a sample that is not finite.
  void update(const std::vector<int>& sensors, const VecX& y);

  const std::vector<Sensor>& sensors() const;
  const FilterSettings& settings() const { return settings_; }
  double step_size() const { return h_; }  // the plant's fixed step [s]
  const State& state() const;
  double time() const;
  // The estimated parameters and their σ (settings' order).
  VecX parameters() const;
  VecX parameter_sigma() const;
  // Their units: those of the model file's numbers at their paths (LoadedModel::units; "1" for
  // a pure number, "" for a path the reader read no unit for).
  std::vector<std::string> parameter_units() const;
  // The covariance P = L Lᵀ of z (assembled on demand), its square root L (columns: tangents)
  // and the layout of z: the offsets of each block.
  MatX covariance() const { return L_ * L_.transpose(); }
  const MatX& covariance_root() const { return L_; }
  struct Layout {
    int q = 0, v = 0, a = 0, vdot = 0, lambda = 0, p = 0, size = 0;
  };
  const Layout& layout() const { return layout_; }
  // The last step's transition Jacobian F (extended filter only; size × size, assembled on demand:
  // the filter propagates L's columns, not F) and the measurement Jacobian of `sensors` at the
  // current state (central differences along each coordinate; the update uses H L's columns
  // instead).
  MatX transition_jacobian() const;
  MatX measurement_jacobian(const std::vector<int>& sensors) const;
  // The output channels `names` (checked as output.channels are; throws std::invalid_argument
  // naming an unknown one) that estimate_outputs evaluates.
  void set_outputs(const std::vector<std::string>& names);
  const std::vector<std::string>& outputs() const { return output_names_; }
  // The outputs at the current state and their σ from the covariance, in the names' order.
  void estimate_outputs(std::vector<double>& values, std::vector<double>& sigmas) const;
  // The normalized innovations squared of the last update (its χ² statistic) and its degrees
  // of freedom.
  double last_nis() const { return nis_; }
  const std::string& why() const { return why_; }
  // Warnings said once (a parameter the measurements so far do not inform).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  // The plant at the current parameter estimates (src/estimation/filter_plant.hpp).
  void build_plant();
  void start_covariance();
  // One step (or part of one) of size h with its linearization and the covariance through it;
  // false with the reason in `why` if the plant's step fails or its matrix is singular.
  bool predict_part(double h, std::string& why);
  // The columns of L through the step, and the state's first-order following of the estimates;
  // r_p: the residual's derivatives in the parameters.
  void propagate_covariance(const MatX& r_p);
  // The step's end moved to first order from the plant's parameters to the estimates by
  // `response`, the step's response to R_p (p̂ − p_plant) with its start fixed.
  void follow_estimates(const VecX& response);
  // Whether the plant's parameters are too far from the estimates for the prediction.
  bool plant_lags_estimates() const;
  void add_process_noise(int n);
  // A parameter's random walk over a step: w √h on its own coordinate (one column each).
  void add_parameter_walks(std::vector<VecX>& columns) const;
  // L replaced by a root of L Lᵀ with at most rank(L) columns (pivoted QR of Lᵀ).
  void compress();
  // The unscented filter's step (src/estimation/unscented_predict.cpp).
  bool predict_unscented();
  // The unscented transform of `channels` at the current state: their mean, Y (the sigma
  // points' central differences, channels × L's columns) and E (the spread's second-order part,
  // channels × columns), so that P_yy = Y Yᵀ + E Eᵀ and P_xy = L Yᵀ.
  void unscented_channels(const ChannelSet& channels, VecX& mean, MatX& Y, MatX& E) const;
  // The sigma point state ⊕ eps·L.col(c) made consistent in `sys` (positions, velocities).
  State sigma_point(const System& sys, const VecX& dz, double eps) const;
  // The process noise's columns of the unscented step: the step's response to each white
  // acceleration, by central differences of two steps of the plant from `start`.
  bool unscented_process_noise(const State& start, std::vector<VecX>& columns);
  // L's columns turned (L Q, Q orthogonal) so that only the first np carry parameter parts.
  void separate_parameters();
  // The plants of the parameters' sigma points (2 per parameter), rebuilt when the sigma point
  // leaves the band where its plant's value still serves; the spreads s± of column k.
  void update_sigma_plants(double gamma, std::vector<double>& s_plus, std::vector<double>& s_minus);
  // The shared end of an update: the root [L − K Y, K R^½, K E], the correction K·innovation.
  void apply_update(const VecX& innovation, const MatX& Y, const MatX& E, const VecX& R);
  // The step's tangents for the tangents Z (coordinates, a column each) of its start, the
  // parameters' part through the residuals' derivatives r_p (one column per parameter): in one
  // pass of the step's factorization.
  MatX propagate_coordinates(const MatX& Z, const MatX& r_p) const;
  // The channels' derivatives along the columns of L (channels × columns).
  MatX channels_along_root(const ChannelSet& channels) const;
  // The channels' derivatives along each coordinate of z at the current state.
  MatX channel_jacobian(const ChannelSet& channels) const;
  // The residual's derivative in parameter k at the step prev → s (central difference of the
  // plant's perturbed models).
  VecX parameter_residual(int k, const State& prev, const State& s) const;
  // A full tangent of the current state from the coordinates z (and back).
  StateTangent tangent_of(const VecX& z) const;
  VecX tangent_coordinates(const StateTangent& d) const;
  // The same for many columns: the state blocks of Z's columns, and back into Z's rows (its
  // parameter rows untouched).
  TangentColumns columns_of(const MatX& Z) const;
  void write_columns(const TangentColumns& t, MatX& Z) const;
  void correct(const VecX& dz);
  void warn_unobserved();
  // The χ² test of the innovations over a window of updates; warns once when it fails.
  void check_consistency(Eigen::Index samples);
  void warn(const std::string& message);

  std::string name_;
  std::unique_ptr<ParameterizedModel> model_source_;  // the model text, read once
  std::vector<std::string> output_names_;
  FilterSettings settings_;
  std::unique_ptr<estimation::FilterPlant> plant_;
  State state_;
  VecX params_;       // current estimates
  VecX prior_sigma_;  // their initial σ
  Layout layout_;
  MatX L_;                               // P = L Lᵀ
  Eigen::Index compressed_columns_ = 0;  // L's columns after the extended filter's last compress()
  State prev_;                           // the last step's start (transition_jacobian)
  VecX plant_params_;                    // the parameters the plant was built with
  // The residual was linear in the parameters at the last rebuild (build_plant's probe).
  bool linear_in_parameters_ = false;
  // The unscented filter's plants for the parameters' sigma points: [2k] at p + s₊ T_k,
  // [2k+1] at p − s₋ T_k (T the parameter rows of L's first np columns), and their values.
  std::vector<std::unique_ptr<estimation::FilterPlant>> sigma_plants_;
  std::vector<VecX> sigma_plant_params_;
  long step_count_ = 0;  // steps since the start
  long updates_ = 0;
  double h_ = 0.0;
  double nis_ = 0.0;
  double window_nis_ = 0.0, window_samples_ = 0.0;  // the current window's sums
  long window_updates_ = 0;
  bool inconsistent_said_ = false;
  std::string why_;
  std::vector<std::string> warnings_;
};

}  // namespace cs
