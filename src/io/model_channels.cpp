#include "clearsim/io/model_channels.hpp"

#include <stdexcept>

namespace cs {

std::vector<std::string> default_channels(const Model& model) {
  std::vector<std::string> c;
  for (const auto& b : model.bodies) {
    c.push_back(b.name + ".position");
    c.push_back(b.name + ".velocity");
  }
  c.push_back("system.kinetic_energy");
  c.push_back("system.potential_energy");
  return c;
}

ChannelSet model_channels(const LoadedModel& lm, const System& sys) {
  const OutputSettings& out = lm.run.output;
  if (out.channels.empty()) return ChannelSet(sys, default_channels(lm.model));
  try {
    return ChannelSet(sys, out.channels);
  } catch (const std::invalid_argument&) {
    // Find the channel at fault, to report its position (one by one only on this error path:
    // each ChannelSet builds the whole catalogue).
  }
  for (std::size_t k = 0; k < out.channels.size(); ++k) {
    try {
      const ChannelSet one(sys, {out.channels[k]});
    } catch (const std::invalid_argument& e) {
      const auto pos =
          k < out.channel_positions.size() ? out.channel_positions[k] : std::pair<int, int>{0, 0};
      throw ModelFileError(lm.path, pos.first, pos.second,
                           std::string("output.channels: ") + e.what());
    }
  }
  return ChannelSet(sys, out.channels);
}

}  // namespace cs
