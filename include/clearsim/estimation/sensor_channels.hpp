// The sensors of a model file resolved against its system: one output channel per sensor.
#pragma once

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"

namespace cs {

// The channels of lm.sensors, in their order. Throws ModelFileError at the sensor's channel
// when it is unknown or names several columns (slider.velocity: a sensor measures one scalar):
//   model.yaml:14:22: error: sensors.encoder.channel: unknown channel 'crank.rotaton.z' ...
ChannelSet sensor_channels(const LoadedModel& lm, const System& sys);

}  // namespace cs
