// Output channels "<name>.<quantity>[.<component>]" resolved once against a model, then
// evaluated at output points without string work.
//
//   bodies   <body>.position|velocity|acceleration.x|y|z         centre of mass, world frame
//            (with NSGA the acceleration is the step's mean, v̇ + W/h, impulses included)
//            <body>.angular_velocity|angular_acceleration.x|y|z   world frame
//            <body>.rotation.x|y|z                                rotation vector log(R) [rad]
//   markers  <marker>.position|velocity|acceleration.x|y|z        world frame
//   elements <element>.<quantity>                                 as each element publishes
//   contacts <element>.impulse|contact_force|contact_state[1|2…] (per gap; NSGA): Λ_N [N·s],
//            Λ_N/h [N], regime 0 free flight / 1 contact / 2 impact
//   system   system.kinetic_energy|potential_energy|total_energy [J],
//            system.contact_onsets, system.impact_steps (counts so far),
//            system.max_penetration (largest −g_N so far) [m],
//            system.constraint_violation (‖Φ‖∞), system.velocity_violation (‖Bv + Φ_t‖∞),
//            system.newton_iterations (of the last step), system.step_size [s]
//   power    power.input|output|loss|kinetic_rate|potential_rate|stored_rate|residual [W],
//            power.<element>.loss [W], power.efficiency (output/input): the machine's power
//            balance (solvers/power_balance.hpp)
// An efficiency (power.efficiency, a gear pair's <element>.efficiency) is undefined where no
// power enters: NaN, written as such with a warning (may_be_undefined), not a failed run.
// A name without its last component (e.g. "slider.velocity") expands to all its components.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {

// What a channel reads of a state, so that a derivative in the state (the adjoint's channel
// gradient) need move only these coordinates: the poses and velocities of `bodies` (world
// indices, ground left out), their accelerations v̇ if `accelerations`, and the multipliers λ
// of the constraint `rows`. `whole`: it may read any coordinate (system and power channels, a
// name not recognised). No channel reads the integrator's a
// (tests/unit/io/channel_footprint_test.cpp holds every channel to its footprint).
struct ChannelFootprint {
  bool whole = true;
  std::vector<int> bodies;
  bool accelerations = false;
  std::vector<int> rows;
};

class ChannelSet {
 public:
  // Throws std::invalid_argument naming the first unknown channel and what is available for
  // that name.
  ChannelSet(const System& sys, const std::vector<std::string>& names);

  const std::vector<std::string>& names() const { return names_; }
  // True if a channel reads the reactions of an ideal joint (see
  // StepObserver::reads_joint_reactions).
  bool reads_joint_reactions() const { return reads_joint_reactions_; }
  // True if channel k may be NaN by definition (an efficiency where no power enters), not
  // because the run failed.
  bool may_be_undefined(std::size_t k) const;
  // "at t = ... s the channel X is undefined (nan): ..." for each such channel that is NaN in
  // `values` for the first time; `warned` remembers them (one message per channel and run).
  std::vector<std::string> undefined_now(const std::vector<double>& values, double t,
                                         std::vector<bool>& warned) const;
  // Values at a state, in the order of names().
  void evaluate(const State& s, const RunStats& stats, std::vector<double>& out) const;
  // What channel k reads (worked out at each call, in O(elements + constraint rows)).
  ChannelFootprint footprint(std::size_t k) const;

  // Every channel the model offers (for `clearsim channels`).
  static std::vector<std::string> available(const System& sys);

 private:
  using Getter =
      std::function<double(const State&, const RunStats&, const std::vector<BodyKinematics>&)>;
  const System& sys_;
  std::vector<std::string> names_;
  std::vector<Getter> getters_;
  std::vector<std::pair<int, int>> element_of_;    // (element, its channel), or (−1, −1)
  std::vector<std::size_t> undefined_candidates_;  // the channels may_be_undefined
  bool reads_joint_reactions_ = false;
};

}  // namespace cs
