#include "clearsim/solvers/power_balance.hpp"

#include <cmath>
#include <limits>

#include "clearsim/elements/forces/point_load.hpp"
#include "clearsim/elements/joints/constraint_primitives.hpp"
#include "clearsim/math/so3.hpp"

namespace cs {

namespace {

// The bodies moved along their velocities by τ [s]: x + v τ, R exp(Ω τ) (body-frame Ω).
std::vector<BodyKinematics> moved(const std::vector<BodyKinematics>& kin, double tau) {
  std::vector<BodyKinematics> out = kin;
  for (BodyKinematics& b : out) {
    b.x_W += tau * b.v_W;
    b.R_WB = b.R_WB * so3::exp(tau * b.w_B);
  }
  return out;
}

// The signed powers of the sources at s, added to `input` (positive) and `output` (negative).
void add_sources(const System& sys, const State& s, const std::vector<BodyKinematics>& kin,
                 PowerBalance& pb) {
  const auto add = [&pb](double p) { (p > 0.0 ? pb.input : pb.output) += std::abs(p); };
  const auto& elements = sys.model().elements;
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const Element& el = *elements[e];
    if (el.delivers_power()) add(el.delivered_power(sys.input(e, s.t, kin)));
    if (el.num_constraints() > 0 && el.rows_depend_on_time()) {
      double p = 0.0;
      for (double row : driver_row_powers(sys, e, s, kin)) p += row;
      add(p);
    }
  }
  for (const ExternalLoad& l : sys.external_loads())
    add(forces::point_load_power(kin[l.body], l.p_B, l.F_W, l.tau_W));
}

// dT/dt = Σ_b m v·a + Ω·JΩ̇ (the gyroscopic term Ω·(Ω × JΩ) vanishes).
double kinetic_rate(const System& sys, const State& s, const std::vector<BodyKinematics>& kin) {
  double rate = 0.0;
  for (int b = 0; b < sys.model().num_bodies(); ++b) {
    const Body& body = sys.model().bodies[b];
    rate += body.mass * kin[b].v_W.dot(s.vdot.segment<3>(6 * b));
    rate += kin[b].w_B.dot(body.inertia_B * s.vdot.segment<3>(6 * b + 3));
  }
  return rate;
}

}  // namespace

double PowerBalance::efficiency() const {
  return input > 0.0 ? output / input : std::numeric_limits<double>::quiet_NaN();
}

bool is_power_source(const Element& el) {
  return el.delivers_power() || (el.num_constraints() > 0 && el.rows_depend_on_time());
}

std::vector<double> driver_row_powers(const System& sys, int e, const State& s,
                                      const std::vector<BodyKinematics>& kin) {
  const Element& el = *sys.model().elements[e];
  ConstraintBlock cb;
  cb.want_zeta = false;
  cb.reset(el.num_constraints());
  el.constraint(sys.input(e, s.t, kin), cb);
  std::vector<double> out(cb.m, 0.0);
  if (s.lambda.size() != sys.num_constraints()) return out;
  for (int r = 0; r < cb.m; ++r) {
    const int g = sys.global_row(e, r);
    if (g >= 0) out[r] = s.lambda(g) * cb.phi_t(r);
  }
  return out;
}

PowerBalance power_balance(const System& sys, const State& s, double delta) {
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  PowerBalance pb;
  add_sources(sys, s, kin, pb);
  const auto ahead = moved(kin, delta), behind = moved(kin, -delta);
  const auto& elements = sys.model().elements;
  pb.loss.assign(elements.size(), 0.0);
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const Element& el = *elements[e];
    if (!el.has_force()) continue;
    const double dV = (el.potential_energy(sys.input(e, s.t + delta, ahead)) -
                       el.potential_energy(sys.input(e, s.t - delta, behind))) /
                      (2.0 * delta);
    pb.potential_rate += dV;
    if (is_power_source(el)) continue;
    ForceBlock fb;
    const ElementInput in = sys.input(e, s.t, kin);
    el.force(in, fb, false);
    pb.loss[e] = -fb.f.dot(joints::local_velocity(*in.i, *in.j)) - dV;
    pb.loss_total += pb.loss[e];
  }
  const Vec3& g = sys.model().gravity_W;
  for (int b = 0; b < sys.model().num_bodies(); ++b)
    pb.potential_rate -= sys.model().bodies[b].mass * g.dot(kin[b].v_W);
  pb.kinetic_rate = kinetic_rate(sys, s, kin);
  pb.residual = pb.input - pb.output - pb.loss_total - pb.stored_rate();
  return pb;
}

}  // namespace cs
