// The planar chain's consistent start without make_consistent: its model poses satisfy the joints
// exactly and it starts at rest, so only the accelerations and multipliers are to be found (one
// sparse solve). make_consistent's redundancy check (a sparse QR of Bᵀ) grows faster than the
// chain: minutes at 10 000 links, which the step loop does not need.
#pragma once

#include <stdexcept>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/initial_conditions.hpp"

namespace cs::bench {

inline State planar_chain_start(const System& sys) {
  State s = initial_state(sys, 0.0);
  s.lambda = VecX::Zero(sys.num_constraints());
  LinearSystem ls;
  if (!solve_accelerations(sys, s, ls).ok)
    throw std::runtime_error("planar chain: the accelerations could not be solved");
  return s;
}

}  // namespace cs::bench
