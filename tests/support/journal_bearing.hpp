// Test helper: a journal bearing of the given model and data, with the wedge term (the finite
// model's force table is built by the element that owns the bearing, not here).
#pragma once

#include "clearsim/elements/lubrication/film_laws.hpp"

namespace cs::testing {

inline lubrication::JournalBearing make_bearing(lubrication::BearingModel model, double mu,
                                                double R, double L, double c, double eps_max) {
  lubrication::JournalBearing b;
  b.model = model;
  b.viscosity = mu;
  b.radius = R;
  b.length = L;
  b.clearance = c;
  b.eps_max = eps_max;
  return b;
}

}  // namespace cs::testing
