// Where a machine's power goes at one state (docs/model-format.md, output channels "power.*"):
//
//   input − output = Σ_e loss_e + dT/dt + dV/dt,   residual = input − output − Σ loss − dE/dt
//
// * input and output: the sources the energy watch counts (run_watches.hpp), signed: the power of
//   every element that delivers power from outside (Element::delivered_power: motors, brakes,
//   loads), of each driver's rows on the bodies (λ_r Φ_t,r: the rows' reaction −Bᵀλ does work
//   −λᵀBv = λᵀΦ_t on a motion that satisfies them) and of the external loads; their positive
//   part is the input, their negative part (as a positive number) the output;
// * loss_e of every other force element: what it takes from the bodies and does not store,
//   −P_e − dV_e/dt, with P_e = f_e·v its power on the bodies from its own force block
//   (Element::force) and V_e its potential energy (Element::potential_energy);
// * dT/dt = Σ_b m v·a + Ω·JΩ̇ from the accelerations of the state, dV/dt the rate of the
//   potential energy (gravity exactly, −Σ m g·v; each element's V_e by a central difference
//   along the motion, q ± v δ and t ± δ, error O(δ²)).
//
// The residual is then vᵀ(f − Bᵀλ − M v̇) plus the power of the joints' reactions on the
// velocity-constraint violation: zero for a state that satisfies its equations of motion, so it
// measures how well the step's solution does (Newton's tolerance), not the physics. Smooth
// integrators only: an NSGA velocity jump is not an acceleration.
#pragma once

#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/state/state.hpp"

namespace cs {

struct PowerBalance {
  double input = 0.0;           // [W] ≥ 0
  double output = 0.0;          // [W] ≥ 0
  std::vector<double> loss;     // loss_e per element of the model (0 for sources and the rest) [W]
  double loss_total = 0.0;      // Σ loss_e [W]
  double kinetic_rate = 0.0;    // dT/dt [W]
  double potential_rate = 0.0;  // dV/dt [W]
  double residual = 0.0;        // [W]
  double stored_rate() const { return kinetic_rate + potential_rate; }
  // output/input; NaN where nothing enters (input = 0).
  double efficiency() const;
};

// The balance at state s (its λ and v̇ complete); `delta` [s] the step of dV_e/dt's difference.
PowerBalance power_balance(const System& sys, const State& s, double delta);

// The power of driver element e's rows on the bodies, λ_r Φ_t,r per row [W], at s (λ complete).
std::vector<double> driver_row_powers(const System& sys, int e, const State& s,
                                      const std::vector<BodyKinematics>& kin);

// Whether element e is a source of the balance: it delivers power, or its rows depend on time.
bool is_power_source(const Element& element);

}  // namespace cs
