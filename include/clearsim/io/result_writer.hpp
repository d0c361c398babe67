// Where a run's output points go: a CSV file (csv_writer.hpp) or an HDF5 file (hdf5_writer.hpp),
// chosen by the file name. Both keep what the run computed if it stops.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cs {

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  // One output point: the time and the channels' values, in the order given at creation.
  virtual void write(double t, const std::vector<double>& values) = 0;
  // Everything written so far reaches the file.
  virtual void flush() = 0;
  virtual long rows() const = 0;
};

// What an HDF5 file records besides the channels (CSV ignores it).
struct ResultMetadata {
  std::vector<std::pair<std::string, std::string>> text;  // e.g. {"model", <the YAML text>}
  std::vector<std::pair<std::string, double>> numbers;    // e.g. {"solver.step", 1e-5}
};

// True if this build writes HDF5 (libhdf5 was found).
bool hdf5_available();

// An HDF5 writer for a path ending in .h5 or .hdf5, else a CSV writer. `units`: the unit of
// each channel, in order, as the file records it; empty: channel_unit of each (a column that is
// no channel, such as an estimated parameter, has its unit from elsewhere: LoadedModel::units).
// Throws std::runtime_error if the file cannot be created (or HDF5 is asked for without it), or
// std::invalid_argument if `units` is given and not one per channel.
std::unique_ptr<ResultWriter> open_result_writer(const std::string& path,
                                                 const std::vector<std::string>& channels,
                                                 const ResultMetadata& metadata = {},
                                                 const std::vector<std::string>& units = {});

// `units` when given (one per channel, else std::invalid_argument), else channel_unit of each
// channel: what a writer records as the columns' units.
std::vector<std::string> column_units(const std::vector<std::string>& channels,
                                      const std::vector<std::string>& units);

// The unit of a channel from its quantity ("slider.velocity.x" -> "m/s"); "" when unknown,
// "1" for dimensionless quantities; for a sensitivity "d(CHANNEL)/d(PATH)" the channel's unit
// per unit of the parameter, "U/[PATH]" (the parameter's unit is the model file's: a writer
// that has the model says it, model_reader.hpp's column_unit). The CSV's units line, the HDF5
// datasets' units attribute and `clearsim channels` all say it.
std::string channel_unit(const std::string& channel);

// A sensitivity column's name "d(CHANNEL)/d(PATH)" split into CHANNEL and PATH; false (and
// nothing written) for any other name.
bool split_derivative(const std::string& column, std::string& channel, std::string& path);

// The unit of d(value)/d(parameter at `path`): value_unit per parameter_unit, bracketed when
// it is a compound ("m/s^2" per "kg" -> "m/s^2/kg"; per "N*m*s/rad" -> "m/s^2/(N*m*s/rad)";
// per "1" -> "m/s^2"). "" when value_unit is ""; "value_unit/[path]" when parameter_unit is
// "" (not known, or no single unit).
std::string derivative_unit(const std::string& value_unit, const std::string& parameter_unit,
                            const std::string& path);

}  // namespace cs
