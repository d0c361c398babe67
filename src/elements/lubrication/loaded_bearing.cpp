// The friction torque of a steadily loaded bearing without clearance dynamics
// (bearing_losses.hpp, loaded_bearing_torque): the film law and the loss formulas of the
// clearance joint's bearing, at the eccentricity that carries the load.
#include <algorithm>
#include <cmath>
#include <memory>

#include "clearsim/elements/lubrication/bearing_losses.hpp"
#include "clearsim/math/autodiff.hpp"

namespace cs::lubrication {

namespace {

using D = Dual24;

// At unit wedge speed and ε̇ = 0: the load capacity g(ε) = ‖F₁(ε)‖ and the torque per unit rate
// τ(ε) = T_J(ε, ω = 1), with their derivatives in ε (slot 0 of the dual).
struct UnitFilm {
  double g = 0.0, dg = 0.0, tau = 0.0, dtau = 0.0;
};

UnitFilm unit_film(const JournalBearing& b, double eps) {
  D e(eps, 24, 0);
  D F_r, F_t;
  b.film_forces(e, D(0.0), D(1.0), F_r, F_t);
  const D g = sqrt(F_r * F_r + F_t * F_t);
  const D tau = couette_torque(b, e, D(1.0)) + poiseuille_torque(D(e * b.clearance), F_t);
  UnitFilm u;
  u.g = g.value();
  u.dg = g.derivatives()(0);
  u.tau = tau.value();
  u.dtau = tau.derivatives()(0);
  return u;
}

// ε in (0, ε_max) with rate·g(ε) = W: Newton safeguarded by bisection (g grows with ε), to
// the last bit (∂T/∂ω is checked by differences of T).
double carrying_eccentricity(const JournalBearing& b, double rate, double load) {
  double lo = 0.0, hi = b.eps_max, eps = 0.5 * b.eps_max;
  for (int it = 0; it < 200; ++it) {
    const UnitFilm u = unit_film(b, eps);
    const double residual = rate * u.g - load;
    if (residual == 0.0) return eps;
    (residual > 0.0 ? hi : lo) = eps;
    double next = eps - residual / (rate * u.dg);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - eps) <= 1e-15) return next;
    eps = next;
  }
  return eps;
}

}  // namespace

void attach_finite_table(JournalBearing& b) {
  if (b.model != BearingModel::kFinite || b.table) return;
  FiniteBearingTableOptions options;
  options.length_over_diameter = b.length / (2.0 * b.radius);
  options.cavitation = b.cavitation;
  options.max_eccentricity = std::min(0.995, std::max(options.max_eccentricity, b.eps_max));
  b.table = std::make_shared<const FiniteBearingTable>(options);
}

LoadedTorque petroff_torque(const JournalBearing& b, double omega) {
  LoadedTorque out;
  out.torque = couette_torque(b, 0.0, omega);
  out.dtorque_drate = couette_torque(b, 0.0, 1.0);
  return out;
}

LoadedTorque loaded_bearing_torque(const JournalBearing& b, double omega, double load) {
  const double rate = std::abs(omega);
  if (!(load > 0.0)) return petroff_torque(b, omega);  // no load: the centred journal
  const UnitFilm at_cap = unit_film(b, b.eps_max);
  LoadedTorque out;
  if (rate * at_cap.g <= load) {
    // The film cannot carry the load even at the cap: ε stays there (header).
    out.eps = b.eps_max;
    out.torque = omega * at_cap.tau;
    out.dtorque_drate = at_cap.tau;
    return out;
  }
  out.eps = carrying_eccentricity(b, rate, load);
  const UnitFilm u = unit_film(b, out.eps);
  out.torque = omega * u.tau;  // odd in ω: the mirrored bearing
  out.dtorque_drate = u.tau - u.dtau * u.g / u.dg;
  return out;
}

}  // namespace cs::lubrication
