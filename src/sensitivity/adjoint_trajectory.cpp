#include "clearsim/sensitivity/adjoint_trajectory.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace cs {

namespace {

std::string time_text(double t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

template <class Vector>
bool same(const std::vector<Vector>& a, const std::vector<Vector>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// Bit for bit (−0 and +0 aside): the recomputation repeats the forward run or is wrong.
bool same_state(const State& a, const State& b) {
  return a.t == b.t && same(a.x_W, b.x_W) && same(a.R_WB, b.R_WB) && a.v == b.v && a.a == b.a &&
         a.vdot == b.vdot && a.lambda == b.lambda && a.memory == b.memory;
}

// One accepted step of `sim` that was not split; throws saying why otherwise.
void step_unsplit(Simulation& sim) {
  const long rejected = sim.stats().rejected_steps;
  if (!sim.step()) throw std::runtime_error(sim.stats().message);
  if (sim.stats().rejected_steps > rejected)
    throw std::runtime_error("the step ending at t = " + time_text(sim.state().t) +
                             " s was split (Newton failed at full size): it has no adjoint");
}

}  // namespace

double AdjointTrajectory::stored_bytes(long steps, long every, double state_bytes) {
  const double n = static_cast<double>(steps);
  // Checkpoints 0, K, ... below N, the last state, and a segment's K − 1 states.
  const double states =
      every <= 1 ? n + 1.0
                 : std::ceil(n / static_cast<double>(every)) + 1.0 + static_cast<double>(every - 1);
  return states * state_bytes + 2.0 * sizeof(double) * (n + 1.0);
}

AdjointTrajectory::AdjointTrajectory(Simulation& sim, const ChannelSet& ch, long steps,
                                     double state_bytes, double memory_bytes,
                                     const std::function<void(const char*, double)>& progress)
    : sim_(sim), n_(steps) {
  bytes_ = stored_bytes(n_, 1, state_bytes);
  if (bytes_ > memory_bytes) {
    every_ = std::max(2L, static_cast<long>(std::ceil(std::sqrt(static_cast<double>(n_)))));
    const double all = bytes_;
    bytes_ = stored_bytes(n_, every_, state_bytes);
    if (bytes_ > memory_bytes) {
      std::ostringstream os;
      os.precision(3);
      os << "the adjoint's trajectory of " << n_ << " steps (" << std::lround(state_bytes)
         << " bytes a state) needs " << bytes_ / 1048576.0 << " MiB even with checkpoints every "
         << every_ << " steps (" << all / 1048576.0 << " MiB to store every state), more than the "
         << memory_bytes / 1048576.0 << " MiB allowed: shorten solver.end, lengthen solver.step "
         << "or allow more memory";
      throw std::runtime_error(os.str());
    }
  }
  t_.reserve(static_cast<std::size_t>(n_ + 1));
  c_.reserve(static_cast<std::size_t>(n_ + 1));
  record(sim_.state(), ch);
  checkpoints_.push_back(sim_.state());
  for (long k = 1; k <= n_; ++k) {
    step_unsplit(sim_);
    record(sim_.state(), ch);
    if (progress && (k % 256 == 0 || k == n_))
      progress("forward", static_cast<double>(k) / static_cast<double>(n_));
    if (k == n_) break;
    if (every_ == 1) {
      checkpoints_.push_back(sim_.state());
    } else if (k % every_ == 0) {
      checkpoints_.push_back(sim_.state());
      sim_.resume(checkpoints_.back(), k);  // the recomputation starts afresh here too
    }
  }
  last_ = sim_.state();
  stats_ = sim_.stats();
}

void AdjointTrajectory::record(const State& s, const ChannelSet& ch) {
  std::vector<double> v;
  ch.evaluate(s, sim_.stats(), v);
  t_.push_back(s.t);
  c_.push_back(v[0]);
}

void AdjointTrajectory::hold(long k) {
  if (every_ == 1 || (held_ >= 0 && k / every_ == held_)) return;
  if (k < 0 || k >= n_) throw std::logic_error("AdjointTrajectory::hold: no step from state k");
  recompute(k / every_);
}

void AdjointTrajectory::recompute(long j) {
  const long first = j * every_, len = std::min(every_, n_ - first);
  held_ = -1;
  segment_.clear();
  sim_.resume(checkpoints_[static_cast<std::size_t>(j)], first);
  for (long i = 1; i <= len; ++i) {
    step_unsplit(sim_);
    if (i < len) segment_.push_back(sim_.state());
  }
  recomputed_ += len;
  if (!same_state(sim_.state(), at(first + len)))
    throw std::logic_error(
        "adjoint checkpoints: the steps recomputed from t = " + time_text(at(first).t) +
        " s did not repeat the forward run bit for bit (the integrator keeps "
        "something across steps that a fresh start does not have)");
  held_ = j;
}

const State& AdjointTrajectory::at(long k) const {
  if (k == n_) return last_;
  if (k >= 0 && k < n_ && k % every_ == 0)
    return checkpoints_[static_cast<std::size_t>(k / every_)];
  if (k > 0 && k < n_ && k / every_ == held_)
    return segment_[static_cast<std::size_t>(k - held_ * every_ - 1)];
  throw std::logic_error("AdjointTrajectory::at: state " + std::to_string(k) + " is not held");
}

}  // namespace cs
