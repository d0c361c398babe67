// A sensor of the model file's `sensors` section (docs/estimation.md): a noisy view of one output
// channel, sampled at its own rate. What a Kalman filter measures.
//
//   sensors:
//     crank_encoder: {channel: crank.rotation.z, noise: 1.0e-3, rate: 1000}
//
// An encoder is a body's or a joint's angle channel, a tachometer an angular velocity, an
// accelerometer a marker's acceleration; any channel `clearsim channels` lists will do.
#pragma once

#include <string>
#include <utility>

namespace cs {

struct Sensor {
  std::string name;     // its key in the sensors section
  std::string channel;  // the output channel it measures (io/channels.hpp)
  double noise = 0.0;   // standard deviation σ of its white noise, in the channel's unit, > 0
  double rate = 0.0;    // samples per second [Hz], > 0: at t = k/rate, k = 0, 1, ...
  // Model-file position (line, column; 1-based) of its channel, for error messages; (0, 0) when
  // it has none (an override, generated text).
  std::pair<int, int> channel_position = {0, 0};
};

}  // namespace cs
