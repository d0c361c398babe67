// Simbody's spatial trees of spherical joints (bench/support/spherical_tree_model.hpp) behind a
// header free of Simbody types (C++17, as simbody_chain.hpp): Ball mobilizers for the tree and,
// for a closed chain, a Constraint::Ball holding the last link's far end to ground.
#pragma once

#include <array>
#include <memory>
#include <vector>

namespace cs::bench::peers {

struct SimbodyTreeSpec {
  struct Link {
    int parent = -1;                  // −1: ground
    std::array<double, 3> joint{};    // joint point, world [m]
    std::array<double, 9> R_WB{};     // body frame (x along the link), row-major
    double length = 0.0;              // [m]
    std::array<double, 3> inertia{};  // central, body axes [kg m²]
  };
  std::vector<Link> links;  // parents before children
  double link_mass = 0.1;
  bool closed = false;            // the last link's far end is held to ground
  double step = 1e-4;             // h [s], Simbody's velocity Verlet at that fixed step
  double constraint_tol = 1e-10;  // Simbody's projection tolerance (closed chain)
};

struct SimbodyTreeRun {
  double cpu = 0.0;             // thread CPU time of the steps [s]
  std::array<double, 3> tip{};  // far end of the last link, world [m]
};

class SimbodyTree {
 public:
  explicit SimbodyTree(const SimbodyTreeSpec& spec);
  ~SimbodyTree();
  SimbodyTree(const SimbodyTree&) = delete;
  SimbodyTree& operator=(const SimbodyTree&) = delete;
  // `steps` fixed steps from rest.
  SimbodyTreeRun run(long steps);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cs::bench::peers
