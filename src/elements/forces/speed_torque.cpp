#include "clearsim/elements/forces/speed_torque.hpp"

#include <cmath>
#include <numbers>
#include <utility>

#include "clearsim/elements/forces/axial_torque.hpp"

namespace cs::forces {

namespace {

// Value and derivative of Σ a_k n^k (Horner).
struct PolynomialValue {
  double value = 0.0;
  double slope = 0.0;
};
PolynomialValue evaluate_polynomial(const std::vector<double>& a, double n) {
  PolynomialValue p;
  for (auto it = a.rbegin(); it != a.rend(); ++it) {
    p.slope = p.slope * n + p.value;
    p.value = p.value * n + *it;
  }
  return p;
}

double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

// dn/dθ̇ for the speed unit of the curve.
double speed_scale(SpeedUnit unit) {
  return unit == SpeedUnit::kRpm ? 60.0 / (2.0 * std::numbers::pi) : 1.0;
}

// The curve T(n) with its low-speed continuation below n_min.
PolynomialValue evaluate_curve(const std::vector<double>& a, const SpeedTorqueOptions& o,
                               double n) {
  if (!(n < o.min_speed)) return evaluate_polynomial(a, n);
  const double T_min = evaluate_polynomial(a, o.min_speed).value;
  if (o.below == BelowMinSpeed::kHold) return {T_min, 0.0};
  const double x = n / o.min_speed;
  return {T_min * x * x, 2.0 * T_min * x / o.min_speed};
}

// T_applied(θ̇, t) and dT_applied/dθ̇.
AxialTorque torque_law(const std::vector<double>& a, SpeedUnit unit, bool oppose_motion,
                       const SpeedTorqueOptions& o, double theta_dot, double t) {
  const double scale = speed_scale(unit) * o.ratio;
  const double n = scale * theta_dot;
  const double gain = o.ratio * o.ramp.value(t);
  AxialTorque law;
  if (!oppose_motion) {
    const PolynomialValue p = evaluate_curve(a, o, n);
    law.torque = gain * p.value;
    law.dtorque_drate = gain * scale * p.slope;
    return law;
  }
  // −σ(θ̇)·|T(|n|)| with σ = tanh(θ̇/ω_ε) in place of sign(n).
  const PolynomialValue p = evaluate_curve(a, o, std::abs(n));
  const double magnitude = std::abs(p.value);
  const double dmagnitude = sign_of(p.value) * p.slope * sign_of(n) * scale;
  const double sigma = std::tanh(theta_dot / SpeedTorque::kSignBand);
  const double dsigma = (1.0 - sigma * sigma) / SpeedTorque::kSignBand;
  law.torque = -gain * sigma * magnitude;
  law.dtorque_drate = -gain * (dsigma * magnitude + sigma * dmagnitude);
  return law;
}

}  // namespace

SpeedTorque::SpeedTorque(std::string name, Marker joint_marker_i, Marker joint_marker_j,
                         std::vector<double> coefficients, SpeedUnit unit, bool oppose_motion,
                         SpeedTorqueOptions options)
    : Element(std::move(name), joint_marker_i.body, joint_marker_j.body),
      mi_(joint_marker_i),
      mj_(joint_marker_j),
      a_(std::move(coefficients)),
      unit_(unit),
      oppose_motion_(oppose_motion),
      options_(std::move(options)) {}

void SpeedTorque::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  // Only ∇θ and θ̇ are used, so the unwrapping reference is irrelevant.
  const joints::AngleResult a = joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, 0.0);
  add_axial_torque(in, mi_.R_BM, mj_.R_BM, a,
                   torque_law(a_, unit_, oppose_motion_, options_, a.theta_dot, in.t), out,
                   tangents);
}

std::vector<std::string> SpeedTorque::channel_names() const { return {"speed", "torque", "power"}; }

double SpeedTorque::channel_value(int k, const ElementInput& in, const double*) const {
  const joints::AngleResult a = joints::relative_angle(*in.i, mi_.R_BM, *in.j, mj_.R_BM, 0.0);
  const double torque = torque_law(a_, unit_, oppose_motion_, options_, a.theta_dot, in.t).torque;
  switch (k) {
    case 0:
      return a.theta_dot;
    case 1:
      return torque;
    default:
      return torque * a.theta_dot;
  }
}

}  // namespace cs::forces
