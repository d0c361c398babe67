// The interface of the HDF5 plugin (plugins/hdf5, libclearsim_hdf5.so): the file calls the
// HDF5 library makes, behind Hdf5Writer's buffering (hdf5_writer.hpp). Header-only on purpose:
// the plugin implements it without any symbol of libclearsim (plugin.hpp).
//   /time                 float64 [rows], attribute units = "s"
//   /channels/<channel>   float64 [rows], attribute units
//   /derivatives/<path>/<channel>  the column d(<channel>)/d(<path>) of a run with sensitivities
//                         (an HDF5 name cannot hold the '/' of the column's name)
//   attributes of /       channels (names in order, one per line) and the ResultMetadata
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cs {

class Hdf5File {
 public:
  virtual ~Hdf5File() = default;
  // Appends `rows` values to /time (columns[0]) and to each channel (columns[1..]), then
  // flushes the file. Throws std::runtime_error.
  virtual void append(const std::vector<std::vector<double>>& columns, unsigned long long rows) = 0;
};

struct Hdf5FileSpec {
  std::string path;
  std::vector<std::string> channels;  // the column names (the file's `channels` attribute)
  std::vector<std::string> datasets;  // one per channel: its dataset's path from the root
  std::vector<std::string> units;     // one per channel
  std::vector<std::pair<std::string, std::string>> text_attributes;
  std::vector<std::pair<std::string, double>> number_attributes;
};

// The plugin's entry point: creates the file with its empty datasets and attributes. Returns
// nullptr and fills `error` if it cannot (the caller throws).
using Hdf5OpenFunction = Hdf5File*(const Hdf5FileSpec& spec, std::string& error);
inline constexpr const char* kHdf5OpenSymbol = "clearsim_hdf5_open";

}  // namespace cs
