#include "clearsim/io/hdf5_writer.hpp"

#include <filesystem>
#include <stdexcept>

#include "clearsim/io/plugin.hpp"
#include "clearsim/io/result_writer.hpp"

namespace cs {

namespace {

// Where a column's values go: /channels/<channel>, or /derivatives/<path>/<channel> for the
// column d(<channel>)/d(<path>) of a run with sensitivities (an HDF5 name cannot hold its '/').
std::string dataset_of(const std::string& column) {
  if (std::string channel, path; split_derivative(column, channel, path))
    return "derivatives/" + path + "/" + channel;
  return "channels/" + column;
}

}  // namespace

Hdf5Writer::Hdf5Writer(const std::string& path, const std::vector<std::string>& channels,
                       const ResultMetadata& metadata, const std::vector<std::string>& units) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  Hdf5FileSpec spec{path,          channels,        {}, column_units(channels, units),
                    metadata.text, metadata.numbers};
  for (const auto& c : channels) spec.datasets.push_back(dataset_of(c));
  auto* open = plugin_function<Hdf5OpenFunction>("hdf5", kHdf5OpenSymbol);
  std::string error;
  file_.reset(open(spec, error));
  if (!file_) throw std::runtime_error(error);
  buffer_.resize(channels.size() + 1);
  for (auto& b : buffer_) b.reserve(kChunkRows);
  last_flush_ = std::chrono::steady_clock::now();
}

Hdf5Writer::~Hdf5Writer() {
  try {
    append_buffered();
  } catch (...) {  // a destructor must not throw; what was flushed stays in the file
  }
}

void Hdf5Writer::write(double t, const std::vector<double>& values) {
  buffer_[0].push_back(t);
  for (std::size_t k = 0; k < values.size() && k + 1 < buffer_.size(); ++k)
    buffer_[k + 1].push_back(values[k]);
  ++rows_;
  const auto now = std::chrono::steady_clock::now();
  if (buffer_[0].size() >= kChunkRows || now - last_flush_ > std::chrono::seconds(1))
    append_buffered();
}

void Hdf5Writer::flush() { append_buffered(); }

void Hdf5Writer::append_buffered() {
  last_flush_ = std::chrono::steady_clock::now();
  const std::size_t n = buffer_.empty() ? 0 : buffer_[0].size();
  if (n == 0 || !file_) return;
  file_->append(buffer_, n);
  for (auto& b : buffer_) b.clear();
}

}  // namespace cs
