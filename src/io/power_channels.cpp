#include "power_channels.hpp"

#include <memory>

#include "clearsim/solvers/power_balance.hpp"

namespace cs {

namespace {

// One balance per output state, shared by the channels that read it: the state is recognised by
// its time, velocities and accelerations.
class BalanceCache {
 public:
  explicit BalanceCache(const System& sys) : sys_(sys) {}
  const PowerBalance& at(const State& s, const RunStats& stats) {
    if (valid_ && s.t == t_ && s.v == v_ && s.vdot == vdot_) return balance_;
    // dV_e/dt's difference step: a thousandth of the step (O(δ²) truncation), 1e-7 s before any.
    const double delta = stats.last_step > 0.0 ? 1e-3 * stats.last_step : 1e-7;
    balance_ = power_balance(sys_, s, delta);
    t_ = s.t, v_ = s.v, vdot_ = s.vdot, valid_ = true;
    return balance_;
  }

 private:
  const System& sys_;
  bool valid_ = false;
  double t_ = 0.0;
  VecX v_, vdot_;
  PowerBalance balance_;
};

}  // namespace

void add_power_channels(const System& sys,
                        std::vector<std::pair<std::string, ChannelGetter>>& out) {
  auto cache = std::make_shared<BalanceCache>(sys);
  const auto channel = [&out, cache](const std::string& name, auto read) {
    out.emplace_back("power." + name,
                     [cache, read](const State& s, const RunStats& st, const auto&) {
                       return read(cache->at(s, st));
                     });
  };
  channel("input", [](const PowerBalance& b) { return b.input; });
  channel("output", [](const PowerBalance& b) { return b.output; });
  channel("loss", [](const PowerBalance& b) { return b.loss_total; });
  const auto& elements = sys.model().elements;
  for (std::size_t e = 0; e < elements.size(); ++e) {
    if (!elements[e]->has_force() || is_power_source(*elements[e])) continue;
    channel(elements[e]->name() + ".loss", [e](const PowerBalance& b) { return b.loss[e]; });
  }
  channel("kinetic_rate", [](const PowerBalance& b) { return b.kinetic_rate; });
  channel("potential_rate", [](const PowerBalance& b) { return b.potential_rate; });
  channel("stored_rate", [](const PowerBalance& b) { return b.stored_rate(); });
  channel("residual", [](const PowerBalance& b) { return b.residual; });
  channel("efficiency", [](const PowerBalance& b) { return b.efficiency(); });
}

}  // namespace cs
