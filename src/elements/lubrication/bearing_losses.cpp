#include "clearsim/elements/lubrication/bearing_losses.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace cs::lubrication {

namespace {

constexpr double kPi = std::numbers::pi;

// Net flow out of the two ends [m³/s] (see the header).
double side_flow(const JournalBearing& b, double eps, double eps_dot, double omega_bar) {
  switch (b.model) {
    case BearingModel::kLong:
      return 0.0;
    case BearingModel::kShort:
      if (b.full_film()) return 0.0;
      return 2.0 * b.radius * b.length * b.clearance * std::hypot(eps_dot, 0.5 * eps * omega_bar);
    case BearingModel::kFinite:
      break;
  }
  return b.table
      ->evaluate({eps, eps_dot, omega_bar}, {b.viscosity, b.radius, b.length, b.clearance})
      .side_flow;
}

// Circumferential flow into the film at its thickest point of a steady, statically loaded
// closed-form bearing, per R c N L (see steady_bearing in the header).
double closed_form_flow_variable(const JournalBearing& b, double eps) {
  if (b.model == BearingModel::kLong) return 2.0 * kPi * (1.0 - eps * eps) / (2.0 + eps * eps);
  return kPi * (1.0 + eps);  // short: Couette flow only
}

}  // namespace

BearingLosses bearing_losses(const JournalBearing& b, const contact::Journal<double>& J,
                             double omega_i, double omega_j) {
  const BearingFilmState<double> st = b.film_state(J, omega_i, omega_j);
  BearingLosses out;
  out.min_film = b.clearance - st.e;
  const double relative = omega_j - omega_i;
  out.couette_torque = couette_torque(b, st.eps, relative);
  double F_r = 0.0, F_t = 0.0;
  if (!st.centred) b.film_forces(st.eps, st.eps_dot, st.omega_bar, F_r, F_t);
  out.poiseuille_torque = poiseuille_torque(st.e, F_t);
  out.journal_torque = out.couette_torque + out.poiseuille_torque;
  out.bush_torque = -out.journal_torque - st.e * F_t;
  // The rate of work of the bodies on the film (header): F at the journal centre on body j, −F
  // on the material point of body i there, T_J on j and −T_J on i.
  const Vec3 e_dot_r = J.e_dot - J.axis * J.axis.dot(J.e_dot);
  const double film_rate =
      st.centred ? b.force(J, omega_i, omega_j).dot(e_dot_r)
                 : F_r * b.clearance * st.eps_dot + F_t * st.e * (st.gamma_dot - omega_i);
  out.power_loss = -(film_rate + out.journal_torque * relative);
  if (st.centred) {
    const double speed = e_dot_r.norm() / b.clearance;
    out.side_flow = side_flow(b, 0.0, speed, 0.0);
  } else {
    out.side_flow = side_flow(b, st.eps, st.eps_dot, st.omega_bar);
  }
  return out;
}

SteadyBearing steady_bearing(const JournalBearing& b, double eps) {
  if (!(eps > 0.0 && eps < 1.0)) throw std::invalid_argument("steady_bearing: ε must be in (0, 1)");
  const double omega = 1.0, c = b.clearance, R = b.radius, L = b.length;
  const double N = omega / (2.0 * kPi);
  contact::Journal<double> J;
  J.centre_i = Vec3::Zero();
  J.e = Vec3(eps * c, 0.0, 0.0);
  J.centre_j = J.e;
  J.e_dot = Vec3::Zero();
  J.axis = Vec3::UnitZ();
  Vec3 F = b.force(J, 0.0, omega);
  BearingLosses loss = bearing_losses(b, J, 0.0, omega);
  double Q = R * c * N * L * closed_form_flow_variable(b, eps);
  if (b.model == BearingModel::kFinite) {
    // Raimondi & Boyd's bearing: a direct solve with the film fed at its thickest point.
    ReynoldsSetup setup;
    setup.length_over_diameter = b.table->options().length_over_diameter;
    setup.cavitation = b.table->options().cavitation;
    setup.grid = b.table->options().grid;
    setup.feed_at_thickest = true;
    PressureField field;
    const FilmState film{eps, 0.0, omega};
    const ReducedForce f = solve_reynolds(setup, film, nullptr, &field);
    const double scale = force_scale(b.viscosity, R, L, c);
    F = Vec3(scale * f.radial, scale * f.tangential, 0.0);
    const ReducedFlow q = film_flows(setup, film, field);
    Q = R * c * L * q.inlet;
    loss.side_flow = R * c * L * q.side;
    loss.journal_torque = couette_torque(b, eps, omega) + poiseuille_torque(eps * c, F.y());
  }
  const double W = F.norm();
  SteadyBearing out;
  out.sommerfeld = (R / c) * (R / c) * b.viscosity * N / (W / (2.0 * R * L));
  // The load on the journal is −F: φ from it to the line of centres n.
  out.attitude_deg = std::atan2(std::abs(F.y()), -F.x()) * 180.0 / kPi;
  out.friction_variable = std::abs(loss.journal_torque) / (W * c);
  out.flow_variable = Q / (R * c * N * L);
  out.side_flow_ratio = loss.side_flow / Q;
  return out;
}

}  // namespace cs::lubrication
