// The unscented filter's view of the channels (docs/estimation.md): sigma points of the current
// state along the columns of the covariance's root, each made consistent with the constraints.
#include <cmath>

#include "angle_channels.hpp"
#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/run_stats.hpp"
#include "filter_plant.hpp"
#include "unscented_weights.hpp"

namespace cs {

State ExtendedKalmanFilter::sigma_point(const System& sys, const VecX& dz, double eps) const {
  // x ⊕ eps·dz is consistent to first order (dz is a consistent tangent); the projection on
  // Φ = 0 and B v + Φ_t = 0 removes the second-order part, as the corrected state's does.
  State x = displaced(state_, tangent_of(dz), eps);
  LinearSystem ls;
  assemble_positions(sys, x, plant_->run.solver.newton_tol, 50, ls);
  assemble_velocities(sys, x, ls, /*use_prescribed=*/false);
  return x;
}

void ExtendedKalmanFilter::unscented_channels(const ChannelSet& channels, VecX& mean, MatX& Y,
                                              MatX& E) const {
  // Sigma points x ⊕ ±γ L_i, γ = α√c (κ = 0: λ = α²c − c), weights w = 1/(2γ²) each,
  // W₀ᵐ = 1 − 1/α², W₀ᶜ = W₀ᵐ + 1 − α² + β. With a_i = (y₊ + y₋)/2 − ȳ and Y_i = (y₊ − y₋)/(2γ):
  //   P_yy = Σ w[(y₊ − ȳ)(·)ᵀ + (y₋ − ȳ)(·)ᵀ] + W₀ᶜ (y₀ − ȳ)(·)ᵀ = Y Yᵀ + E Eᵀ,
  //   E = [√(2w) a_i …, √W₀ᶜ (y₀ − ȳ)],   P_xy = Σ w γ L_i (y₊ − y₋)ᵀ = L Yᵀ
  // (the state's sigma points are symmetric about x: the centre adds nothing to P_xy). A
  // negative W₀ᶜ (α < 0.52) has no root column: E's columns are then the pairs' midpoints taken
  // about y₀ + κ (ȳ − y₀) instead (unscented_weights.hpp), so that E Eᵀ is the same sum, the
  // update's S = Y Yᵀ + E Eᵀ + R and its root [L − K Y, K R^½, K E] are exact as they stand.
  const RunStats stats;
  const Eigen::Index c = L_.cols();
  const auto rows = static_cast<Eigen::Index>(channels.names().size());
  const double alpha = settings_.ukf_alpha;
  const double gamma = alpha * std::sqrt(static_cast<double>(c)), w = 0.5 / (gamma * gamma);
  const double w0m = 1.0 - 2.0 * w * static_cast<double>(c);
  const double w0c = w0m + (1.0 - alpha * alpha) + estimation::kUnscentedBeta;
  // The sigma points' values are taken as y₀ + (y± − y₀), the difference modulo 2π for an angle
  // (angle_channels.hpp), so that an encoder's wrap between two of them is no spread.
  const std::vector<bool> angle = estimation::angle_channels(channels);
  std::vector<double> v0, vp, vm;
  channels.evaluate(state_, stats, v0);
  const Eigen::Map<const VecX> y0(v0.data(), rows);
  MatX mid(rows, c);
  Y.resize(rows, c);
  VecX yp(rows), ym(rows);
  for (Eigen::Index i = 0; i < c; ++i) {
    channels.evaluate(sigma_point(*plant_->sys, L_.col(i), gamma), stats, vp);
    channels.evaluate(sigma_point(*plant_->sys, L_.col(i), -gamma), stats, vm);
    for (Eigen::Index k = 0; k < rows; ++k) {
      const auto ku = static_cast<std::size_t>(k);
      yp(k) = y0(k) + estimation::channel_difference(vp[ku], v0[ku], angle[ku]);
      ym(k) = y0(k) + estimation::channel_difference(vm[ku], v0[ku], angle[ku]);
    }
    Y.col(i) = (yp - ym) / (2.0 * gamma);
    mid.col(i) = 0.5 * (yp + ym);
  }
  if (w0c < 0.0) {
    estimation::downdated_spread(mid, y0, 2.0 * w, alpha, mean, E);
    return;
  }
  mean = w0m * y0 + 2.0 * w * mid.rowwise().sum();
  E.resize(rows, c + 1);
  E.leftCols(c) = std::sqrt(2.0 * w) * (mid.colwise() - mean);
  E.col(c) = std::sqrt(w0c) * (y0 - mean);
}

}  // namespace cs
