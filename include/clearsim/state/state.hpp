// What changes during a run: configuration, velocities, accelerations, multipliers and time.
// Scratch space belongs to the solvers' workspaces, not here (STYLE.md §1).
#pragma once

#include <cstdint>
#include <vector>

#include "clearsim/math/types.hpp"

namespace cs {

// Regime of one unilateral contact over the last step (for output and counting).
enum class ContactState : std::int8_t {
  kOpen = 0,     // free flight: the gap stayed open
  kContact = 1,  // closed without a velocity jump (persistent contact)
  kImpact = 2,   // closed with a velocity jump (Newton impact law applied)
};

struct State {
  double t = 0.0;          // time [s]
  std::vector<Vec3> x_W;   // per body: centre-of-mass position [m]
  std::vector<Mat3> R_WB;  // per body: orientation (body to world)
  VecX v;                  // 6·nb: per body [v_W (m/s, world); w_B (rad/s, body frame)]
  VecX vdot;               // 6·nb: acceleration v̇ = [a_W; Ω̇_B]
  VecX a;                  // 6·nb: generalized-α pseudo-acceleration (reference.md §1.2)
  VecX lambda;             // constraint multipliers, one per independent constraint row
  VecX lambda_jump;        // NSGA: joint impulses μ of the last velocity jump, one per row
  VecX nu;                 // per gap: position-correction multiplier ν_N [kg·m]
  VecX Lambda;             // per gap: normal impulse Λ_N of the last step [N·s], ≥ 0
  VecX lambda_N;           // per gap: smooth contact force λ_N of a persistent contact [N]
  VecX v_jump;             // 6·nb: NSGA velocity jump W of the last step (0 otherwise)
  VecX gdot_N;             // per gap: normal velocity G v after the last step [m/s]
  std::vector<ContactState> contact;   // per gap: regime over the last step
  std::vector<std::uint8_t> sticking;  // per gap: closed with zero slip after the last step
  // Joint-coordinate integration (TreeAlpha) only, empty otherwise: the tree's coordinates q
  // (angles [rad] and slides [m] from the reference state), the spherical joints' rotations,
  // the velocity coordinates' rates, accelerations and generalized-α pseudo-accelerations.
  VecX tree_q, tree_qd, tree_qdd, tree_a;
  std::vector<Mat3> tree_R;
  VecX memory;  // elements' memory (Element::update_memory), laid out by System::memory_offset

  void resize(int num_bodies, int num_multipliers) {
    x_W.assign(num_bodies, Vec3::Zero());
    R_WB.assign(num_bodies, Mat3::Identity());
    v = VecX::Zero(6 * num_bodies);
    vdot = VecX::Zero(6 * num_bodies);
    a = VecX::Zero(6 * num_bodies);
    v_jump = VecX::Zero(6 * num_bodies);
    lambda = VecX::Zero(num_multipliers);
    lambda_jump = VecX::Zero(num_multipliers);
  }
  void resize_gaps(int num_gaps) {
    nu = VecX::Zero(num_gaps);
    Lambda = VecX::Zero(num_gaps);
    lambda_N = VecX::Zero(num_gaps);
    contact.assign(num_gaps, ContactState::kOpen);
    sticking.assign(num_gaps, 0);
  }
};

}  // namespace cs
