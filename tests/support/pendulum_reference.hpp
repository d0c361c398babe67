// Reference solution of the 1-DOF pendulum equation θ̈ = −k cos θ (IFToMM A01, and A02 on its
// parallelogram branch), shared by the tests that measure integration error against it.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace cs::testing {

// θ at the times `t` (increasing, possibly irregular) from θ(0) = theta0, θ̇(0) = omega0, by
// classical RK4 with steps ≤ h_max that land on each time: error ∝ h⁴, below 1e-12 rad over
// 10 s at h_max = 1e-5 s, far under what the tests check.
inline std::vector<double> one_dof_pendulum(double k, double theta0, double omega0,
                                            const std::vector<double>& t, double h_max = 1e-5) {
  std::vector<double> out;
  double th = theta0, w = omega0, now = 0.0;
  auto acc = [k](double a) { return -k * std::cos(a); };
  for (double target : t) {
    const long n = std::max(1L, static_cast<long>(std::ceil((target - now) / h_max - 1e-9)));
    const double h = (target - now) / static_cast<double>(n);
    for (long i = 0; i < n && h > 0.0; ++i) {
      const double k1t = w, k1w = acc(th);
      const double k2t = w + 0.5 * h * k1w, k2w = acc(th + 0.5 * h * k1t);
      const double k3t = w + 0.5 * h * k2w, k3w = acc(th + 0.5 * h * k2t);
      const double k4t = w + h * k3w, k4w = acc(th + h * k3t);
      th += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t);
      w += h / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w);
    }
    now = target;
    out.push_back(th);
  }
  return out;
}

}  // namespace cs::testing
