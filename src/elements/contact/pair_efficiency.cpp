#include "clearsim/elements/contact/pair_efficiency.hpp"

#include <cmath>
#include <limits>

#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::contact {

PairPower pair_power(const Element& element, const ElementInput& in) {
  ForceBlock fb;
  fb.f.setZero();
  element.force(in, fb, false);
  const Vec12 v = joints::local_velocity(*in.i, *in.j);
  PairPower p;
  p.power_i = fb.f.head<6>().dot(v.head<6>());
  p.power_j = fb.f.tail<6>().dot(v.tail<6>());
  for (double P : {p.power_i, p.power_j}) (P < 0.0 ? p.input : p.output) += std::abs(P);
  p.efficiency = p.input > 0.0 ? p.output / p.input : std::numeric_limits<double>::quiet_NaN();
  return p;
}

}  // namespace cs::contact
