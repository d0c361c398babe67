#include "clearsim/io/model_channels.hpp"

#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

namespace cs {

namespace {

// Issue 28: a channel listed twice (or once by name and once through a prefix such as
// "slider.position") made two CSV columns of one name and an HDF5 run fail with an empty file.
// Refused at the second mention, naming the first.
void refuse_repeated_channels(const LoadedModel& lm, const System& sys, const ChannelSet& set) {
  std::unordered_set<std::string> seen;
  bool repeated = false;
  for (const std::string& n : set.names()) repeated = repeated || !seen.insert(n).second;
  if (!repeated) return;
  const OutputSettings& out = lm.run.output;
  std::map<std::string, std::size_t> first;  // column -> the entry of output.channels giving it
  for (std::size_t k = 0; k < out.channels.size(); ++k) {
    const ChannelSet one(sys, {out.channels[k]});
    for (const std::string& n : one.names()) {
      const auto [it, inserted] = first.emplace(n, k);
      if (inserted) continue;
      const std::size_t j = it->second;
      std::ostringstream os;
      os << "output.channels: ";
      if (out.channels[k] == n && out.channels[j] == n)
        os << "'" << n << "' is listed twice (also output.channels[" << j << "])";
      else
        os << "'" << out.channels[k] << "' repeats the column '" << n << "', already given by '"
           << out.channels[j] << "' (output.channels[" << j << "])";
      os << "; each channel is one column of the results and is listed once";
      const auto pos =
          k < out.channel_positions.size() ? out.channel_positions[k] : std::pair<int, int>{0, 0};
      throw ModelFileError(lm.path, pos.first, pos.second, os.str());
    }
  }
}

}  // namespace

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
    ChannelSet set(sys, out.channels);
    refuse_repeated_channels(lm, sys, set);
    return set;
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
