#include "clearsim/estimation/sensor_channels.hpp"

#include <stdexcept>

namespace cs {

namespace {
[[noreturn]] void fail_at(const LoadedModel& lm, const Sensor& s, const std::string& message) {
  throw ModelFileError(lm.path, s.channel_position.first, s.channel_position.second,
                       "sensors." + s.name + ".channel: " + message);
}
}  // namespace

ChannelSet sensor_channels(const LoadedModel& lm, const System& sys) {
  std::vector<std::string> names;
  for (const Sensor& s : lm.sensors) names.push_back(s.channel);
  // One catalogue of the model's channels for all sensors (a filter builds its plant again at
  // every move of a parameter's estimate); a sensor at fault is found one by one after.
  try {
    ChannelSet all(sys, names);
    if (all.names().size() == names.size()) return all;
  } catch (const std::invalid_argument&) {
  }
  for (const Sensor& s : lm.sensors) {
    try {
      const ChannelSet one(sys, {s.channel});
      if (one.names().size() != 1)
        fail_at(lm, s,
                "'" + s.channel + "' names " + std::to_string(one.names().size()) +
                    " channels; a sensor measures one (say which component, e.g. '" +
                    one.names().front() + "')");
    } catch (const std::invalid_argument& e) {
      fail_at(lm, s, e.what());
    }
  }
  throw std::logic_error("sensor_channels: the sensors' channels did not resolve one each");
}

}  // namespace cs
