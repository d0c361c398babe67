// The "power.*" output channels of the machine's power balance (solvers/power_balance.hpp).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/run_stats.hpp"

namespace cs {

using ChannelGetter =
    std::function<double(const State&, const RunStats&, const std::vector<BodyKinematics>&)>;

// Appends power.input, power.output, power.loss, power.<element>.loss (every force element
// that is not a source), power.kinetic_rate, power.potential_rate, power.stored_rate,
// power.residual and power.efficiency. The getters share one evaluation per state.
void add_power_channels(const System& sys, std::vector<std::pair<std::string, ChannelGetter>>& out);

}  // namespace cs
