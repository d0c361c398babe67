// The unscented transform's closed-form downdate for a negative centre weight
// (unscented_weights.hpp).
#include "unscented_weights.hpp"

namespace cs::estimation {

void downdated_spread(const MatX& mid, const VecX& y0, double pair, double alpha, VecX& mean,
                      MatX& E) {
  const MatX d = mid.colwise() - y0;  // the midpoints' deviations from the centre
  const VecX m = pair * d.rowwise().sum();
  mean = y0 + m;
  const double kappa = downdated_centre(pair * static_cast<double>(mid.cols()), alpha);
  E = std::sqrt(pair) * (d.colwise() - kappa * m);
}

}  // namespace cs::estimation
