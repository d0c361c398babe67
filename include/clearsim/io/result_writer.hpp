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
// per unit of the parameter, "U/[PATH]". The CSV's units line, the HDF5 datasets' units
// attribute and `clearsim channels` all say it.
std::string channel_unit(const std::string& channel);

}  // namespace cs
