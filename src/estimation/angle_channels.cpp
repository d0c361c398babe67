#include "angle_channels.hpp"

#include <cmath>
#include <numbers>

#include "clearsim/io/result_writer.hpp"

namespace cs::estimation {

std::vector<bool> angle_channels(const ChannelSet& channels) {
  std::vector<bool> angle;
  angle.reserve(channels.names().size());
  for (const std::string& name : channels.names()) angle.push_back(channel_unit(name) == "rad");
  return angle;
}

double channel_difference(double a, double b, bool angle) {
  return angle ? std::remainder(a - b, 2.0 * std::numbers::pi) : a - b;
}

}  // namespace cs::estimation
