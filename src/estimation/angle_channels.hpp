// Angle channels in the filter (private to src/estimation). A joint's or body's angle channel
// (unit rad) is wrapped: it lies within ±π of a reference, so a crank that turns jumps by 2π
// once a revolution. The filter only ever uses differences of channel values (innovations,
// central differences, sigma points' spreads), all small against π for a filter that works, so
// it takes them modulo 2π and the jump disappears.
#pragma once

#include <vector>

#include "clearsim/io/channels.hpp"

namespace cs::estimation {

// For each channel of `channels`, whether it is an angle (its unit is rad: channel_unit).
std::vector<bool> angle_channels(const ChannelSet& channels);

// a − b, for an angle taken into [−π, π] (the nearest of a − b + 2πk).
double channel_difference(double a, double b, bool angle);

}  // namespace cs::estimation
