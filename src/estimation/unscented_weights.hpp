// The scaled unscented transform's weights (Julier 2002; docs/estimation.md), shared by the
// unscented filter's step (unscented_predict.cpp) and its view of the channels
// (unscented_update.cpp).
#pragma once

#include <cmath>

#include "clearsim/math/types.hpp"

namespace cs::estimation {

// β: 2 is optimal for a Gaussian prior (it adds the fourth moment's share to the centre's
// covariance weight).
constexpr double kUnscentedBeta = 2.0;

// The centre's covariance weight W₀ᶜ = W₀ᵐ + 1 − α² + β, with W₀ᵐ = 1 − S, S the sum of the
// other points' weights (1/α² for 2c points at ±α√c: 2c of 1/(2α²c)). Negative for α < 0.52.
inline double centre_covariance_weight(double S, double alpha) {
  return (1.0 - S) + (1.0 - alpha * alpha) + kUnscentedBeta;
}

// A negative W₀ᶜ subtracts the rank-one W₀ᶜ m mᵀ (m = Σ wᵢ dᵢ, the mean of the deviations dᵢ
// of the other points from the centre) from Σ wᵢ (dᵢ − m)(·)ᵀ: a root column √W₀ᶜ m no longer
// exists. The downdate is done in closed form instead: the deviations taken about κ m,
//   Σ wᵢ (dᵢ − κ m)(·)ᵀ = Σ wᵢ (dᵢ − m)(·)ᵀ + W₀ᶜ m mᵀ  ⇔  S κ² − 2κ = S − 2 + W₀ᶜ,
// whose root nearer 1 is κ = (1 + √(1 + S(β − α²)))/S (the discriminant (S − 1)² + S W₀ᶜ
// simplifies to 1 + S(β − α²) ≥ 1: real for every α ≤ 1, so the downdated matrix is a
// covariance, and the root keeps its 2c columns, each a weighted deviation as before).
// κ = α² + α√β for equal spreads. It is exact, not a clamp: the transform stays exact for
// linear maps.
inline double downdated_centre(double S, double alpha) {
  return (1.0 + std::sqrt(1.0 + S * (kUnscentedBeta - alpha * alpha))) / S;
}

// The channels' transform for a negative W₀ᶜ: from the sigma pairs' midpoints `mid` (columns),
// the centre's values y0 and each pair's weight `pair` (2w), the mean ȳ = y0 + m (m = pair ·
// Σ (mid_i − y0)) and the second-order spread E = √pair (mid_i − y0 − κ m) (columns), so that
// E Eᵀ = Σ pair (mid_i − ȳ)(·)ᵀ + W₀ᶜ (y0 − ȳ)(·)ᵀ. Out of line (unscented_weights.cpp): the
// α = 1 path of unscented_channels keeps the code it had before the spread was a setting.
void downdated_spread(const MatX& mid, const VecX& y0, double pair, double alpha, VecX& mean,
                      MatX& E);

}  // namespace cs::estimation
