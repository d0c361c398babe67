#include "clearsim/sensitivity/state_tangent.hpp"

#include <limits>

#include "clearsim/math/so3.hpp"

namespace cs {

StateTangent StateTangent::zero(const State& s) {
  StateTangent d;
  d.q.setZero(6 * static_cast<Eigen::Index>(s.x_W.size()));
  d.v.setZero(s.v.size());
  d.a.setZero(s.a.size());
  d.vdot.setZero(s.vdot.size());
  d.lambda.setZero(s.lambda.size());
  d.memory.setZero(s.memory.size());
  if (s.Lambda.size() > 0) {
    d.v_jump.setZero(s.v_jump.size());
    d.lambda_jump.setZero(s.lambda_jump.size());
    d.Lambda.setZero(s.Lambda.size());
  }
  return d;
}

bool StateTangent::all_finite() const {
  return q.allFinite() && v.allFinite() && a.allFinite() && vdot.allFinite() &&
         lambda.allFinite() && v_jump.allFinite() && lambda_jump.allFinite() && Lambda.allFinite();
}

void StateTangent::fill_nan() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (VecX* x : {&q, &v, &a, &vdot, &lambda, &memory, &v_jump, &lambda_jump, &Lambda})
    x->setConstant(nan);
}

State displaced(const State& s, const StateTangent& d, double eps) {
  State x;
  displace(s, d, eps, x);
  return x;
}

void displace(const State& s, const StateTangent& d, double eps, State& x) {
  x = s;
  for (std::size_t b = 0; b < s.x_W.size(); ++b) {
    const auto k = static_cast<Eigen::Index>(6 * b);
    x.x_W[b] += eps * d.q.segment<3>(k);
    x.R_WB[b] = s.R_WB[b] * so3::exp(eps * d.q.segment<3>(k + 3));
  }
  x.v += eps * d.v;
  x.a += eps * d.a;
  x.vdot += eps * d.vdot;
  x.lambda += eps * d.lambda;
  if (d.memory.size() == x.memory.size()) x.memory += eps * d.memory;
  if (d.Lambda.size() > 0 && d.Lambda.size() == x.Lambda.size()) {
    x.v_jump += eps * d.v_jump;
    x.lambda_jump += eps * d.lambda_jump;
    x.Lambda += eps * d.Lambda;
  }
}

StateTangent central_difference(const State& plus, const State& minus, double eps) {
  StateTangent d = StateTangent::zero(plus);
  const double c = 0.5 / eps;
  for (std::size_t b = 0; b < plus.x_W.size(); ++b) {
    const auto k = static_cast<Eigen::Index>(6 * b);
    d.q.segment<3>(k) = c * (plus.x_W[b] - minus.x_W[b]);
    d.q.segment<3>(k + 3) = c * so3::log(minus.R_WB[b].transpose() * plus.R_WB[b]);
  }
  d.v = c * (plus.v - minus.v);
  d.a = c * (plus.a - minus.a);
  d.vdot = c * (plus.vdot - minus.vdot);
  d.lambda = c * (plus.lambda - minus.lambda);
  if (plus.memory.size() == minus.memory.size()) d.memory = c * (plus.memory - minus.memory);
  if (d.Lambda.size() > 0 && minus.Lambda.size() == plus.Lambda.size()) {
    d.v_jump = c * (plus.v_jump - minus.v_jump);
    d.lambda_jump = c * (plus.lambda_jump - minus.lambda_jump);
    d.Lambda = c * (plus.Lambda - minus.Lambda);
  }
  return d;
}

}  // namespace cs
