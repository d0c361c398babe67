// Run-time plausibility watches (issue 28): what no single input is wrong about but no real
// mechanism does, said naming the element and the time instead of leaving a silent number.
//
//   * a compliant or lubricated clearance joint (an element with channels gap and eccentricity)
//     penetrating by more than kClearanceShare = 5 times its clearance (a lubricated joint was
//     seen at 14 times its clearance): the contact is far too soft for the load, or the step too
//     large for it. The seed 003 four-bar (examples/four_bar_clearance, 0.05 mm pins, impacts of
//     140 kN) reaches 1.56 times its clearance: a penetration of the order of the clearance can
//     be the seeds' own, five times it is not;
//   * a mesh contact (channel penetration) whose bodies overlap by more than a tenth of the
//     smaller body's size: at the start a body placed inside another (a ball 8 cm inside the
//     floor stayed embedded), later a contact pushed through.
//
// Sizes are estimated as the model reader does for clearances: the length of a slender rod of
// the body's largest moment of inertia, 2√3·√(J_max/m). The watch reads element channels only
// (no integrator involved), at the states it is given: the command line and the Python module
// call it at every output point.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"

namespace cs {

class PlausibilityWatch {
 public:
  explicit PlausibilityWatch(const System& sys);
  ~PlausibilityWatch();
  PlausibilityWatch(const PlausibilityWatch&) = delete;
  PlausibilityWatch& operator=(const PlausibilityWatch&) = delete;

  // The new findings at state s ("at t = ... s clearance joint 'J' penetrates by ..."), each
  // element reported once per run.
  std::vector<std::string> check(const State& s, const RunStats& stats);
  // At the initial state: a mesh contact whose bodies start inside one another beyond the
  // share above (empty if none). The command line refuses such a model at check and run.
  std::string initial_problem(const State& s) const;
  // True if the model has a mesh contact (initial_problem may find something).
  bool watches_meshes() const;

  static constexpr double kClearanceShare = 5.0;    // of the joint's clearance
  static constexpr double kMeshOverlapShare = 0.1;  // of the smaller body's size

 private:
  struct Watched;
  std::vector<Watched> watched_;
};

// The size [m] the watch and the model reader use for a body: 2√3·√(J_max/m).
double body_size_estimate(const Body& b);

}  // namespace cs
