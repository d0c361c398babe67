// The forward run of an adjoint gradient and its states for the backward pass
// (adjoint_gradient.hpp): every state stored when they fit in the memory budget; past it every K-th
// state, K = ⌈√N⌉ (checkpoints), and the K − 1 states between two checkpoints recomputed from the
// first when the backward pass reaches them. Memory then grows as 2√N states instead of N, for one
// more run's steps. The run restarts its integrator afresh at every checkpoint (Simulation::resume)
// in the forward pass as in the recomputation, so the recomputed states are the forward run's bit
// for bit; each segment's recomputed end is compared with the next checkpoint to prove it.
#pragma once

#include <functional>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {

class AdjointTrajectory {
 public:
  // Bytes a run of `steps` steps stores with checkpoints every `every` steps (1: every state),
  // `state_bytes` a state's (AdjointGradient::bytes_per_step), with every step's time and value.
  static double stored_bytes(long steps, long every, double state_bytes);

  // Runs `sim` (initialized, fixed steps) over its `steps` steps, keeping the channel `ch`'s
  // value at every state and the states as `memory_bytes` allows. Throws std::runtime_error
  // when a step fails or is split (it has no adjoint), or when even the checkpoints would not
  // fit (the message gives the figures). `progress`, if set, hears the forward pass's share
  // done every 256 steps and at its end.
  AdjointTrajectory(Simulation& sim, const ChannelSet& ch, long steps, double state_bytes,
                    double memory_bytes,
                    const std::function<void(const char*, double)>& progress = {});

  long steps() const { return n_; }
  const std::vector<double>& times() const { return t_; }
  const std::vector<double>& values() const { return c_; }
  const RunStats& stats() const { return stats_; }  // the forward run's
  long every() const { return every_; }
  double stored_bytes() const { return bytes_; }
  long recomputed_steps() const { return recomputed_; }

  // Makes states k and k + 1 available (k < steps()), recomputing their segment if needed;
  // references from at() stay valid until the next hold().
  void hold(long k);
  // State k: a checkpoint, the last state, or one of the held segment (std::logic_error if not).
  const State& at(long k) const;

 private:
  void record(const State& s, const ChannelSet& ch);
  void recompute(long segment);

  Simulation& sim_;
  long n_ = 0, every_ = 1, recomputed_ = 0;
  double bytes_ = 0.0;
  std::vector<double> t_, c_;
  RunStats stats_;
  std::vector<State> checkpoints_;  // states 0, K, 2K, ... below n_
  State last_;                      // state n_
  std::vector<State> segment_;      // states jK + 1 ... jK + K − 1 of the held segment j
  long held_ = -1;                  // j (−1: none)
};

}  // namespace cs
