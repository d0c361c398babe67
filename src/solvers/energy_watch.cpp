#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "clearsim/solvers/power_balance.hpp"
#include "clearsim/solvers/run_watches.hpp"

namespace cs {

// The growth G(t) = E(t) − min E over [0, t] of E = kinetic + potential energy (free of the
// potential's datum) is compared with the energy scale of the run's first half or more: the
// largest kinetic energy and growth up to t_ref, where t_ref is moved to t whenever t reaches
// 2 t_ref (so t_ref >= t/2). Physical growth is at most polynomial in t (a mechanism speeding
// up from rest: ×4 when t doubles); an unstable integration grows exponentially. The work of the
// sources, ∫ (Σ |λ_i ∂Φ_i/∂t| + Σ |P_load|) dt over the rows that depend on time (drivers) and
// the elements that deliver power (loads), an upper bound of the energy they put in, is added
// to the allowance twice (the end-point rule of the integral errs by O(h)), so that a driver or
// a load switched on after a rest is not mistaken for an instability.
EnergyWatch::EnergyWatch(const System& sys) : sys_(sys) {
  const auto& elements = sys_.model().elements;
  // The sources of the power balance (power_balance.hpp), split by kind.
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    if (elements[e]->delivers_power()) loads_.push_back(e);
    if (elements[e]->num_constraints() > 0 && elements[e]->rows_depend_on_time())
      drivers_.push_back(e);
  }
}

void EnergyWatch::update(const State& s, RunStats& stats) {
  if (done_) return;
  // A mesh contact's potential energy costs a collision query, so the energy is looked at every
  // kEvery steps only: an exponential growth is seen a few steps later, no more. The sources'
  // power is sampled at the same looks, over the time since the last one (a rectangle rule on
  // a smooth power: the allowance below doubles the work for such quadrature errors).
  const double step = started_ ? s.t - t_step_ : 0.0;
  t_step_ = s.t;
  if (started_ && ++steps_ % kEvery != 0) return;
  const double h = started_ ? s.t - t_last_ : 0.0;  // since the last look
  t_last_ = s.t;
  sys_.gather(s, kin_);
  source_work_ += h * (driver_power(s) + load_power(s.t));
  const double ke = sys_.kinetic_energy(kin_);
  const double e = ke + sys_.potential_energy(kin_, s.t);
  if (!std::isfinite(e)) return;  // the output stops the run on a non-finite value
  if (!started_) {
    started_ = true;
    e_min_ = e, e_start_ = e, ke_start_ = ke, t_ref_ = s.t;
  }
  e_min_ = std::min(e_min_, e);
  const double growth = e - e_min_;
  // The reference moves to the scale of the looks before this one: a blow-up within the first
  // kEvery steps (RK4 on a 1e12 N/m spring at ω h = 3: ×2.3 per step) must not become its own
  // reference.
  if (s.t >= 2.0 * t_ref_) t_ref_ = s.t, reference_ = std::max(scale_, ke_start_);
  scale_ = std::max({scale_, ke, growth});
  const double allowed = kGrowth * std::max(reference_, kFloor) + 2.0 * source_work_;
  if (growth <= allowed) return;
  done_ = true;
  stats.warnings.push_back(message(s, step, e, growth));
}

double EnergyWatch::load_power(double t) const {
  double p = 0.0;
  for (int e : loads_)
    p += std::abs(sys_.model().elements[e]->delivered_power(sys_.input(e, t, kin_)));
  return p + sys_.external_load_power(kin_);
}

// Σ |λ_i Φ_t,i| over the drivers' rows (power_balance.hpp), evaluated on their own (every step:
// the other rows have no Φ_t, and evaluating them all cost as much as a Newton iteration).
double EnergyWatch::driver_power(const State& s) {
  double p = 0.0;
  for (int e : drivers_)
    for (double row : driver_row_powers(sys_, e, s, kin_)) p += std::abs(row);
  return p;
}

// The body with the most kinetic energy, whose stiffest force is the likely cause.
int EnergyWatch::fastest_body() const {
  int best = 0;
  double most = -1.0;
  for (int b = 0; b < sys_.model().num_bodies(); ++b) {
    const Body& body = sys_.model().bodies[b];
    const double ke = 0.5 * body.mass * kin_[b].v_W.squaredNorm() +
                      0.5 * kin_[b].w_B.dot(body.inertia_B * kin_[b].w_B);
    if (ke > most) most = ke, best = b;
  }
  return best;
}

std::string EnergyWatch::message(const State& s, double h, double e, double growth) const {
  std::ostringstream os;
  os.precision(3);
  os << "at t = " << s.t << " s the mechanical energy has grown by " << growth << " J (from "
     << e_start_ << " J at the start to " << e << " J), more than " << kGrowth
     << " × its scale up to t = " << t_ref_ << " s (" << std::max(reference_, kFloor)
     << " J) plus twice the work of drivers and loads (" << source_work_
     << " J): the integration is probably unstable and the results wrong; ";
  if (sys_.model().num_bodies() == 0) return os.str();
  const int b = fastest_body();
  const std::string stiff = sys_.describe_stiffest_force(b, s, nullptr, h);
  if (!stiff.empty()) return os.str() + stiff;
  // No stiff force to blame: the growth is then rather energy an element puts in without
  // declaring it a source (Element::delivers_power), e.g. a force whose parameters make it
  // active. The one feeding the most power now is named.
  double power = 0.0;
  if (const int feeder = strongest_feeder(s.t, power); feeder >= 0) {
    const Element& el = *sys_.model().elements[feeder];
    os << "the force feeding the most power into the bodies now is " << el.kind() << " '"
       << el.name() << "' (" << power
       << " W), which the model does not count as a source: check its parameters";
  } else {
    os << "body '" << sys_.model().bodies[b].name << "' moves fastest; reduce solver.step";
  }
  return os.str();
}

// The force element with the largest power f·v into its bodies at the last look (kin_), if it
// is positive (−1 otherwise); `power` receives it [W].
int EnergyWatch::strongest_feeder(double t, double& power) const {
  const auto& elements = sys_.model().elements;
  int best = -1;
  power = 0.0;
  ForceBlock fb;
  for (int e = 0; e < static_cast<int>(elements.size()); ++e) {
    const Element& el = *elements[e];
    if (!el.has_force()) continue;
    fb = ForceBlock{};
    el.force(sys_.input(e, t, kin_), fb, false);
    double p = 0.0;
    for (const auto& [body, at] : {std::pair{el.body_i(), 0}, std::pair{el.body_j(), 6}}) {
      if (body == kGround) continue;
      p += fb.f.segment<3>(at).dot(kin_[body].v_W) + fb.f.segment<3>(at + 3).dot(kin_[body].w_B);
    }
    if (std::isfinite(p) && p > power) power = p, best = e;
  }
  return best;
}

}  // namespace cs
