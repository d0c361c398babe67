// HDF5 result file (libhdf5's C API, in the HDF5 plugin: hdf5_file.hpp), written as the run goes:
//   /time                 float64 [rows], attribute units = "s"
//   /channels/<channel>   float64 [rows], attribute units ("m/s", "N", ...; channel_unit, or
//                         the units given: an estimated parameter's from the model file)
//   attributes of /       channels (the channel names in order, one per line), the model's text
//                         and file name, overrides and run settings (ResultMetadata)
// Rows are kept in memory and appended in chunks (every 4096 rows, and at least once a second
// of wall time), each followed by a flush of the file; between two flushes the library does not
// touch the file, so a run killed at any point leaves a file that opens with every flushed row.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "clearsim/io/hdf5_file.hpp"
#include "clearsim/io/result_writer.hpp"

namespace cs {

class Hdf5Writer final : public ResultWriter {
 public:
  static constexpr std::uint64_t kChunkRows = 4096;  // rows appended at a time

  // Throws std::runtime_error if the file cannot be created or the HDF5 plugin (plugin.hpp)
  // cannot be loaded. `units`: one per channel, as the datasets' units attributes say them;
  // empty: channel_unit of each (column_units, result_writer.hpp).
  Hdf5Writer(const std::string& path, const std::vector<std::string>& channels,
             const ResultMetadata& metadata, const std::vector<std::string>& units = {});
  ~Hdf5Writer() override;
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  void write(double t, const std::vector<double>& values) override;
  void flush() override;
  long rows() const override { return rows_; }

 private:
  void append_buffered();

  std::unique_ptr<Hdf5File> file_;           // the plugin's side: the HDF5 calls
  std::vector<std::vector<double>> buffer_;  // rows not yet in the file, per dataset
  long rows_ = 0;
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace cs
