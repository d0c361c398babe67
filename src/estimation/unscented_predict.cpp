// The unscented filter's step (docs/estimation.md): sigma points of the state along the columns
// of the covariance's root, each stepped by the plant's own nonlinear step (with its own copy of
// the elements' memory), their weighted mean and spread the predicted state and root.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "filter_plant.hpp"
#include "unscented_weights.hpp"

namespace cs {

namespace {

// A parameter's sigma point keeps its plant while its spread s stays within [γ/2, 2γ] (the
// weights follow s exactly, so the transform stays exact for linear maps) and the plant's value
// lies within this share of the column's parameter part off its line (several parameters).
constexpr double kOffLineShare = 0.1;
constexpr int kMaxParts = 64;

// One step of size h, retried in 2, 4, … 64 equal parts when its iteration fails (as a run's
// fixed step is): a sigma point can start deeper in a contact than the mean ever goes.
bool step_plant(estimation::FilterPlant& plant, State& x, double h, std::string& why) {
  const State start = x;
  std::string message;
  for (int parts = 1; parts <= kMaxParts; parts *= 2) {
    x = start;
    bool ok = true;
    for (int k = 0; k < parts && ok; ++k) {
      const StepResult r = plant.integrator->step(x, h / parts);
      ok = r.converged;
      if (ok)
        plant.sys->update_memory(x);  // each sigma point remembers its own contact onsets
      else
        message = r.message;
    }
    if (ok) return true;
  }
  why = "a sigma point's step from t = " + std::to_string(start.t) + " s failed (also in " +
        std::to_string(kMaxParts) + " parts): " + message;
  return false;
}

}  // namespace

void ExtendedKalmanFilter::separate_parameters() {
  // The parameter rows T of L as T Q = [Rᵀ 0] (QR of Tᵀ): L Q is a root of the same P whose
  // columns after the first np leave the parameters at their mean, so that only 2 np sigma
  // points need a plant of their own.
  const Eigen::Index np = params_.size();
  if (np == 0 || L_.cols() < np) return;
  const MatX Tt = L_.bottomRows(np).transpose();
  const Eigen::HouseholderQR<MatX> qr(Tt);
  const MatX Q = qr.householderQ();
  L_ = L_ * Q;
  L_.bottomRightCorner(np, L_.cols() - np).setZero();  // round-off of the exact zeros
}

void ExtendedKalmanFilter::update_sigma_plants(double gamma, std::vector<double>& s_plus,
                                               std::vector<double>& s_minus) {
  const Eigen::Index np = params_.size();
  sigma_plants_.resize(static_cast<std::size_t>(2 * np));
  sigma_plant_params_.resize(static_cast<std::size_t>(2 * np));
  for (Eigen::Index k = 0; k < std::min(np, L_.cols()); ++k) {
    const VecX t = L_.col(k).tail(np);
    const double tt = t.squaredNorm();
    for (int side = 0; side < 2; ++side) {
      const double sign = side == 0 ? 1.0 : -1.0;
      const auto j = static_cast<std::size_t>(2 * k + side);
      double s = gamma;
      bool keep = sigma_plants_[j] != nullptr && tt > 0.0;
      if (keep) {
        const VecX off = sigma_plant_params_[j] - params_;
        s = sign * off.dot(t) / tt;
        keep = s >= 0.5 * gamma && s <= 2.0 * gamma &&
               (off - sign * s * t).norm() <= kOffLineShare * std::sqrt(tt);
      }
      if (!keep) {
        s = gamma;
        const VecX at = params_ + sign * gamma * t;
        State x = sigma_point(*plant_->sys, L_.col(k), sign * gamma);
        try {
          sigma_plants_[j] = estimation::make_plant(*model_source_, at, x, {},
                                                    /*linearize=*/false);
        } catch (const std::exception& e) {
          throw std::runtime_error("the unscented filter's sigma point of parameter " +
                                   settings_.parameters[static_cast<std::size_t>(k)].path + " (" +
                                   estimation::exact_text(at(k)) + ", the estimate ± " +
                                   std::to_string(gamma) + " σ) is not a valid model: " + e.what() +
                                   " (give it a smaller σ)");
        }
        sigma_plant_params_[j] = at;
      }
      (side == 0 ? s_plus : s_minus)[static_cast<std::size_t>(k)] = s;
    }
  }
}

bool ExtendedKalmanFilter::unscented_process_noise(const State& start, std::vector<VecX>& columns) {
  // A white acceleration w_i of body coordinate i is the force M e_i w_i held over the step,
  // of σ q/√h (as the extended filter's): its column is the step's response to it, the central
  // difference of two steps from `start` with the forces ±M e_i q/√h (exact for a step linear
  // in the force). Rotational coordinates' torques are body-frame: applied in the world frame
  // through the start's orientation.
  // The plant is private to the filter: it has no external loads of its own.
  System& sys = *plant_->sys;
  const int n = layout_.v - layout_.q;
  for (int i = 0; i < n; ++i) {
    const double q =
        i % 6 < 3 ? settings_.acceleration_noise : settings_.angular_acceleration_noise;
    if (q == 0.0) continue;
    VecX e = VecX::Zero(n), Me;
    e(i) = 1.0;
    sys.mass_times(e, Me);
    const int b = i / 6;
    const double size = q / std::sqrt(h_);
    State x[2] = {start, start};
    for (int side = 0; side < 2; ++side) {
      const double w = side == 0 ? size : -size;
      ExternalLoad load;
      load.body = b;
      load.F_W = w * Me.segment<3>(6 * b);
      load.tau_W = w * (start.R_WB[static_cast<std::size_t>(b)] * Me.segment<3>(6 * b + 3));
      sys.set_external_load(load);
      const bool ok = step_plant(*plant_, x[side], h_, why_);
      sys.clear_external_loads();
      if (!ok) return false;
    }
    columns.push_back(tangent_coordinates(central_difference(x[0], x[1], 1.0)));
  }
  add_parameter_walks(columns);
  return true;
}

bool ExtendedKalmanFilter::predict_unscented() {
  prev_ = state_;
  const Eigen::Index np = params_.size();
  separate_parameters();
  const Eigen::Index c = L_.cols();
  const double alpha = settings_.ukf_alpha;
  const double gamma = alpha * std::sqrt(static_cast<double>(c));
  std::vector<double> sp(static_cast<std::size_t>(c), gamma), sm = sp;
  if (np > 0) update_sigma_plants(gamma, sp, sm);
  State x0 = state_;
  if (!step_plant(*plant_, x0, h_, why_)) return false;
  // Deviations d± of the stepped sigma points from the stepped centre (parameters: constant
  // over a step), weights w± = 1/(s±(s₊ + s₋)) (mean and covariance of ±s± L_i exact).
  MatX D(layout_.size, 2 * c);
  VecX w(2 * c);
  for (Eigen::Index i = 0; i < c; ++i)
    for (int side = 0; side < 2; ++side) {
      const auto u = static_cast<std::size_t>(i);
      const double s = side == 0 ? sp[u] : -sm[u];
      const auto j = static_cast<std::size_t>(2 * i + side);
      estimation::FilterPlant& plant = i < np ? *sigma_plants_[j] : *plant_;
      State x = sigma_point(*plant.sys, L_.col(i), s);
      if (!step_plant(plant, x, h_, why_)) return false;
      VecX d = tangent_coordinates(central_difference(x, x0, 0.5));
      d.tail(np) = s * L_.col(i).tail(np);
      D.col(2 * i + side) = d;
      w(2 * i + side) = 1.0 / (std::abs(s) * (sp[u] + sm[u]));
    }
  // The centre (d₀ = 0) has W₀ᵐ = 1 − Σ w: the mean is x₀ + Σ w d. Its covariance weight W₀ᶜ
  // is β = 2 at α = 1 (a column √W₀ᶜ (0 − mean)); below α ≈ 0.52 it is negative, and the
  // deviations are taken about κ mean instead (the closed-form downdate, unscented_weights.hpp).
  const double w0c = estimation::centre_covariance_weight(w.sum(), alpha);
  VecX mean = D * w;
  mean.tail(np).setZero();  // Σ w± (±s±) = 0: the parameters keep their estimate
  std::vector<VecX> noise;
  if (!unscented_process_noise(prev_, noise)) return false;
  const Eigen::Index centre = w0c >= 0.0 ? 1 : 0;  // the centre's own column
  const double kappa = centre ? 1.0 : estimation::downdated_centre(w.sum(), alpha);
  MatX root(layout_.size, 2 * c + centre + static_cast<Eigen::Index>(noise.size()));
  if (centre) {
    root.leftCols(2 * c) = (D.colwise() - mean) * w.cwiseSqrt().asDiagonal();
    root.col(2 * c) = -std::sqrt(w0c) * mean;
  } else {
    root.leftCols(2 * c) = (D.colwise() - kappa * mean) * w.cwiseSqrt().asDiagonal();
  }
  for (std::size_t k = 0; k < noise.size(); ++k)
    root.col(2 * c + centre + static_cast<Eigen::Index>(k)) = noise[k];
  L_ = std::move(root);
  compress();
  state_ = x0;
  state_ = displaced(x0, tangent_of(mean), 1.0);
  LinearSystem& ls = plant_->projection;
  assemble_positions(*plant_->sys, state_, plant_->run.solver.newton_tol, 50, ls);
  assemble_velocities(*plant_->sys, state_, ls, /*use_prescribed=*/false);
  ++step_count_;
  return true;
}

}  // namespace cs
