#include "clearsim/geometry/involute.hpp"

#include <cmath>
#include <stdexcept>

namespace cs {

double involute(double alpha) { return std::tan(alpha) - alpha; }

double inverse_involute(double value) {
  if (!(value >= 0.0) || !std::isfinite(value))
    throw std::invalid_argument("inverse_involute: the value must be finite and non-negative");
  if (value == 0.0) return 0.0;
  // Start from the series for small angles, capped below π/2 where tan blows up.
  double alpha = std::min(std::cbrt(3.0 * value), 1.4);
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double t = std::tan(alpha);
    const double step = (t - alpha - value) / (t * t);  // d(inv α)/dα = tan² α
    double next = alpha - step;
    if (next <= 0.0) next = 0.5 * alpha;  // keep the iterate in (0, π/2)
    if (next >= M_PI_2) next = 0.5 * (alpha + M_PI_2);
    if (std::abs(next - alpha) <= 1e-15 * alpha) return next;
    alpha = next;
  }
  return alpha;
}

}  // namespace cs
