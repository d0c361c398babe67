#include "clearsim/elements/forces/point_load.hpp"

#include "clearsim/math/so3.hpp"

namespace cs::forces {

using so3::skew;

namespace {
// World vector whose components are the three time functions at t.
Vec3 evaluate(const std::array<TimeFunction, 3>& g, double t) {
  return {g[0].value(t), g[1].value(t), g[2].value(t)};
}
}  // namespace

PointLoad::PointLoad(std::string name, Marker at, std::array<TimeFunction, 3> force_W,
                     std::array<TimeFunction, 3> torque_W)
    : Element(std::move(name), at.body, kGround),
      at_(at),
      force_W_(std::move(force_W)),
      torque_W_(std::move(torque_W)) {}

void add_point_load(const BodyKinematics& b, const Vec3& p_B, const Vec3& F_W, const Vec3& tau_W,
                    ForceBlock& out, bool tangents) {
  const Vec3 F_B = b.R_WB.transpose() * F_W;
  const Vec3 tau_B = b.R_WB.transpose() * tau_W;
  // [F; R_WBᵀτ + s̄ × R_WBᵀF]: the body-frame moment of F about the centre of mass is
  // R_WBᵀ((R_WB s̄) × F) = s̄ × R_WBᵀF.
  out.f.segment<3>(0) += F_W;
  out.f.segment<3>(3) += tau_B + p_B.cross(F_B);
  if (!tangents) return;
  // For a world-fixed a, δ(R_WBᵀa) = (R_WBᵀa)~ δΘ.
  out.df_dq.block<3, 3>(3, 3) += skew(tau_B) + skew(p_B) * skew(F_B);
}

double point_load_power(const BodyKinematics& b, const Vec3& p_B, const Vec3& F_W,
                        const Vec3& tau_W) {
  // v_P = v + R(Ω × s̄) is the velocity of the application point.
  const Vec3 v_P_W = b.v_W + b.R_WB * b.w_B.cross(p_B);
  return F_W.dot(v_P_W) + tau_W.dot(b.R_WB * b.w_B);
}

void PointLoad::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  add_point_load(*in.i, at_.p_B, evaluate(force_W_, in.t), evaluate(torque_W_, in.t), out,
                 tangents);
}

std::vector<std::string> PointLoad::channel_names() const {
  return {"force.x", "force.y", "force.z", "torque.x", "torque.y", "torque.z", "power"};
}

double PointLoad::channel_value(int k, const ElementInput& in, const double*) const {
  if (k < 3) return force_W_[k].value(in.t);
  if (k < 6) return torque_W_[k - 3].value(in.t);
  return delivered_power(in);
}

double PointLoad::delivered_power(const ElementInput& in) const {
  return point_load_power(*in.i, at_.p_B, evaluate(force_W_, in.t), evaluate(torque_W_, in.t));
}

}  // namespace cs::forces
