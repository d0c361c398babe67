// The linear spring–mass of the estimation tests, and its Kalman filter written by hand: the
// closed-form discretization of the same generalized-α step, on the state X = (x, v, a, v̇).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <string>

#include "clearsim/solvers/generalized_alpha.hpp"

namespace cs::testing {

// A block on a prismatic guide along x, tied to ground by a spring–damper whose force is
// k x + c ẋ (free length 1 m from a ground point 1 m behind x = 0: linear while x > −1 m), with
// a position sensor. m = 2 kg, k = 50 N/m, c = 0.5 N·s/m, x₀ = 0.1 m.
inline std::string spring_mass_yaml(double stiffness = 50.0) {
  return R"(
gravity: [0, 0, 0]
bodies:
  block: {mass: 2.0, inertia: [0.1, 0.1, 0.1], position: [0.1, 0, 0]}
joints:
  guide: {type: prismatic, bodies: [ground, block], axis: [1, 0, 0]}
forces:
  spring:
    type: spring_damper
    bodies: [ground, block]
    points: [[-1, 0, 0], [0.1, 0, 0]]
    stiffness: )" +
         std::to_string(stiffness) + R"(
    damping: 0.5
    free_length: 1.0
solver: {integrator: generalized_alpha, rho_inf: 0.8, step: 1.0e-3, end: 1, newton_tol: 1.0e-12}
sensors:
  encoder: {channel: block.position.x, noise: 0.01, rate: 100}
)";
}

// The χ²(d) quantile at the standard normal quantile z by Wilson–Hilferty (relative error below
// 1e-3 for d ≥ 50).
inline double chi2_quantile(double d, double z) {
  const double c = 2.0 / (9.0 * d);
  return d * std::pow(1.0 - c + z * std::sqrt(c), 3);
}

struct SpringMassKf {
  double m = 2.0, k = 50.0, c = 0.5;
  Eigen::Matrix4d A;  // X_{n+1} = A X_n + G f_{n+1}
  Eigen::Vector4d G;
  Eigen::Vector4d X;
  Eigen::Matrix4d P;

  SpringMassKf(const AlphaParameters& p, double h) {
    const double c1 = (1 - p.alpha_f) / (1 - p.alpha_m), c2 = p.alpha_f / (1 - p.alpha_m),
                 c3 = -p.alpha_m / (1 - p.alpha_m);
    // a' = c1 v̇' + c2 v̇ + c3 a; x' and v' by the step's formulas; m v̇' = f − k x' − c v'.
    const Eigen::RowVector4d ex(1, h, h * h * (0.5 - p.beta) + h * h * p.beta * c3,
                                h * h * p.beta * c2);
    const Eigen::RowVector4d ev(0, 1, h * (1 - p.gamma) + h * p.gamma * c3, h * p.gamma * c2);
    const Eigen::RowVector4d ea(0, 0, c3, c2);
    const double bx = h * h * p.beta * c1, bv = h * p.gamma * c1;
    const double D = m + k * bx + c * bv;
    const Eigen::RowVector4d wv = -(k * ex + c * ev) / D;
    A.row(0) = ex + bx * wv;
    A.row(1) = ev + bv * wv;
    A.row(2) = ea + c1 * wv;
    A.row(3) = wv;
    G << bx / D, bv / D, c1 / D, 1 / D;
  }
  // The consistent start x₀, v₀ (a = v̇ = −(k x + c v)/m) with σ_x, σ_v along consistent
  // directions.
  void start(double x0, double v0, double sx, double sv) {
    const double acc = -(k * x0 + c * v0) / m;
    X << x0, v0, acc, acc;
    Eigen::Matrix<double, 4, 2> L;
    L.col(0) << sx, 0, -k / m * sx, -k / m * sx;
    L.col(1) << 0, sv, -c / m * sv, -c / m * sv;
    P = L * L.transpose();
  }
  // One step with white acceleration noise of density q (force m w, mean variance q²/h).
  void predict(double q, double h) {
    X = A * X;
    P = A * P * A.transpose() + (m * m * q * q / h) * G * G.transpose();
  }
  void update(double y, double sigma) {
    const Eigen::RowVector4d H(1, 0, 0, 0);
    const double S = H * P * H.transpose() + sigma * sigma;
    const Eigen::Vector4d K = P * H.transpose() / S;
    X += K * (y - X(0));
    const Eigen::Matrix4d IKH = Eigen::Matrix4d::Identity() - K * H;
    P = IKH * P * IKH.transpose() + sigma * sigma * K * K.transpose();
  }
};

}  // namespace cs::testing
