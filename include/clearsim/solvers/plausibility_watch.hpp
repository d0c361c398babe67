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
// (through the Element interface; no integrator involved). The run loop (Simulation, and the
// kinematic and static analyses) asks it after every accepted step and adds its findings to
// RunStats::warnings, so the command line, Python's Model.run and Simulation.step all see them.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/run_stats.hpp"

namespace cs {

class PlausibilityWatch {
 public:
  explicit PlausibilityWatch(const System& sys);

  // After an accepted step: the new findings at s ("at t = ... s clearance joint 'J' penetrates
  // by ...") appended to stats.warnings, each element reported once until restart(). Clearance
  // joints are looked at every call; mesh contacts, whose penetration costs a collision query,
  // every mesh_every-th call (a time step's motion is small; the kinematic and static analyses,
  // whose points are far apart, pass 1).
  void after_step(const State& s, RunStats& stats, long mesh_every = kMeshEvery);
  // Forgets what was reported (a new run).
  void restart();
  // At the initial state: a mesh contact whose bodies start inside one another beyond the
  // share above (empty if none). The command line refuses such a model at check and run.
  std::string initial_problem(const State& s) const;
  // True if the model has a mesh contact (initial_problem may find something).
  bool watches_meshes() const;

  static constexpr double kClearanceShare = 5.0;    // of the joint's clearance
  static constexpr double kMeshOverlapShare = 0.1;  // of the smaller body's size
  static constexpr long kMeshEvery = 8;             // steps between mesh looks

 private:
  struct Watched {
    enum class Kind { kClearance, kMesh } kind;
    int element = -1;    // index in the model
    std::string suffix;  // "", "1" or "2" (pin ends)
    int first = -1;      // clearance: channel gap; mesh: channel penetration
    int second = -1;     // clearance: channel eccentricity
    double size = 0.0;   // mesh: the smaller moving body's size [m]
    bool said = false;
  };

  double channel(const Watched& w, int k, const State& s) const;
  std::string finding(const Watched& w, const State& s) const;
  void look(const State& s, bool meshes, std::vector<std::string>& found);

  const System& sys_;
  std::vector<Watched> watched_;
  std::vector<BodyKinematics> kin_;
  bool has_clearance_ = false, has_mesh_ = false;
  long calls_ = 0;
};

// The size [m] the watch and the model reader use for a body: 2√3·√(J_max/m).
double body_size_estimate(const Body& b);

}  // namespace cs
