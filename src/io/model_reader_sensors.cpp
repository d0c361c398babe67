// The `sensors` section (docs/estimation.md): each sensor a noisy view of one output channel.
// Its channel is resolved against the system later (estimation/sensors.hpp: resolve_sensors), as
// output.channels are, since the reader builds no system.
#include <cmath>

#include "clearsim/io/result_writer.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

const std::vector<std::string> kSensorKeys = {"channel", "noise", "rate"};

// A sample period that is not a whole number of fixed steps would fall between two steps: the
// filter measures at the end of a step.
void check_rate(const Cursor& rate_c, double rate, const SolverSettings& solver) {
  if (solver.adaptive || !(solver.step > 0.0)) return;
  const double steps = 1.0 / (rate * solver.step);
  if (steps < 1.0 - 1e-9 || std::abs(steps - std::round(steps)) > 1e-6 * steps)
    rate_c.fail(rate_c.path() + ": a sample every " + format_number(1.0 / rate) +
                " s is not a whole number of steps (solver.step " + format_number(solver.step) +
                " s); the filter measures at the end of a step");
}

Sensor read_sensor(const Entry& e, const SolverSettings& solver) {
  const MapView m(e.value, "a sensor map {channel: <output channel>, noise: σ, rate: Hz}");
  m.allow_only("in sensor '" + e.key + "'", kSensorKeys);
  Sensor s;
  s.name = e.key;
  const Cursor channel_c = m.need("channel", "the output channel it measures");
  s.channel = read_text(channel_c, "an output channel name");
  s.channel_position = {channel_c.pos().line, channel_c.pos().column};
  const Cursor noise_c =
      m.need("noise", "the standard deviation σ of its noise, in the channel's unit");
  s.noise = read_number(noise_c, "");
  noise_c.source().record_unit(noise_c.path(), channel_unit(s.channel));  // not a pure number
  if (!(s.noise > 0.0))
    noise_c.fail(noise_c.path() + ": expected a positive standard deviation σ of the noise (a " +
                 "Kalman filter divides by it), found " + format_number(s.noise));
  const Cursor rate_c = m.need("rate", "samples per second [Hz]");
  s.rate = read_positive(rate_c, "Hz");
  check_rate(rate_c, s.rate, solver);
  return s;
}

}  // namespace

std::vector<Sensor> read_sensors(const Cursor& section, const SolverSettings& solver) {
  std::vector<Sensor> sensors;
  for (const Entry& e : named_items(section, "sensor")) sensors.push_back(read_sensor(e, solver));
  return sensors;
}

}  // namespace cs::model_file
