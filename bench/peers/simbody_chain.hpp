// Simbody's planar pendulum chain behind a header free of Simbody types: Simbody 3.7's headers do
// not compile as C++20 (ambiguous reversed operator== on its index types), so the peer is its own
// C++17 library (bench/CMakeLists.txt), as the Siconos one is.
#pragma once

#include <memory>

namespace cs::bench::peers {

// The chain of bench/support/planar_chain_model.hpp, given by its numbers.
struct SimbodyChainSpec {
  int links = 10;
  double link_length = 0.1, link_mass = 1.0;
  double inertia_axial = 0.0, inertia_cross = 0.0;  // about the centre of mass [kg m²]
  double tilt = 0.3;                                // below horizontal [rad]
  double step = 1e-4;                               // h [s]
  // Simbody's integrator at the fixed step: velocity Verlet (second order), or semi-explicit
  // Euler (first order, one acceleration per step: its cheapest).
  bool semi_explicit_euler = false;
};

struct SimbodyChainRun {
  double cpu = 0.0;                 // thread CPU time of the steps [s]
  double tip_x = 0.0, tip_z = 0.0;  // free end, clearsim's axes (x along, z up) [m]
};

class SimbodyChain {
 public:
  explicit SimbodyChain(const SimbodyChainSpec& spec);
  ~SimbodyChain();
  SimbodyChain(const SimbodyChain&) = delete;
  SimbodyChain& operator=(const SimbodyChain&) = delete;
  // `steps` fixed steps from rest at the tilt.
  SimbodyChainRun run(long steps);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cs::bench::peers
