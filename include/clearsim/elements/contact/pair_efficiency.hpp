// The efficiency of a two-body force element that transmits power (a gear pair): from its own
// force block f (Element::force) and the bodies' velocities, its power on each body
// P_b = f_b·v_b; the power it takes, P_in = Σ −P_b over the bodies with P_b < 0 (the driver),
// the power it gives, P_out = Σ P_b over those with P_b > 0 (the driven), and η = P_out/P_in.
// Where no power enters (P_in = 0: at rest, or unloaded) η is undefined: NaN, which the output
// reports with a warning (io/channels.hpp, ChannelSet::may_be_undefined), never a number.
#pragma once

#include "clearsim/elements/element.hpp"

namespace cs::contact {

struct PairPower {
  double power_i = 0.0, power_j = 0.0;  // P_b on body i, j [W]
  double input = 0.0, output = 0.0;     // P_in, P_out ≥ 0 [W]
  double efficiency = 0.0;              // P_out/P_in, NaN if P_in = 0
};

PairPower pair_power(const Element& element, const ElementInput& in);

}  // namespace cs::contact
