// The output channels of a model file, resolved against its system: what the command line
// writes, what the Python module returns and what a sweep summarises.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"

namespace cs {

// When a model file names no channels: every body's position and velocity, and the energies.
std::vector<std::string> default_channels(const Model& model);

// The channels of output.channels (or the default ones). An unknown channel throws
// ModelFileError at the position of its list item:
//   model.yaml:31:14: error: output.channels: unknown channel 'slider.velocityy' ...
ChannelSet model_channels(const LoadedModel& lm, const System& sys);

}  // namespace cs
