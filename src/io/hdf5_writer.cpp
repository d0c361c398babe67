#include "clearsim/io/hdf5_writer.hpp"

#ifdef CLEARSIM_HAS_HDF5
#include <hdf5.h>
#endif

#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace cs {

#ifdef CLEARSIM_HAS_HDF5
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("HDF5 result file: " + what);
}

void check(herr_t status, const char* what) {
  if (status < 0) fail(what);
}

// A variable-length UTF-8 string attribute (h5py reads it as str).
void text_attribute(hid_t object, const std::string& name, const std::string& value) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr = H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* data = value.c_str();
  const herr_t status = attr < 0 ? -1 : H5Awrite(attr, type, &data);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  check(status, "cannot write an attribute");
}

void number_attribute(hid_t object, const std::string& name, double value) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t attr =
      H5Acreate2(object, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  const herr_t status = attr < 0 ? -1 : H5Awrite(attr, H5T_NATIVE_DOUBLE, &value);
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  check(status, "cannot write an attribute");
}

// An empty float64 dataset that grows in chunks of Hdf5Writer::kChunkRows.
hid_t growing_dataset(hid_t parent, const std::string& name, const std::string& unit) {
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = Hdf5Writer::kChunkRows;
  const hid_t space = H5Screate_simple(1, &zero, &unlimited);
  const hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(props, 1, &chunk);
  const hid_t set =
      H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, props, H5P_DEFAULT);
  H5Pclose(props);
  H5Sclose(space);
  if (set < 0) fail("cannot create the dataset '" + name + "'");
  text_attribute(set, "units", unit);
  return set;
}

}  // namespace
#endif

Hdf5Writer::Hdf5Writer(const std::string& path, const std::vector<std::string>& channels,
                       const ResultMetadata& metadata) {
#ifdef CLEARSIM_HAS_HDF5
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors come back as exceptions, not prints
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file_ < 0) throw std::runtime_error("cannot open result file '" + path + "' for writing");
  try {
    std::ostringstream names;
    for (const auto& c : channels) names << c << '\n';
    text_attribute(file_, "channels", names.str());
    for (const auto& [key, value] : metadata.text) text_attribute(file_, key, value);
    for (const auto& [key, value] : metadata.numbers) number_attribute(file_, key, value);
    sets_.push_back(growing_dataset(file_, "time", "s"));
    const hid_t group = H5Gcreate2(file_, "channels", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (group < 0) fail("cannot create the group 'channels'");
    for (const auto& c : channels) sets_.push_back(growing_dataset(group, c, channel_unit(c)));
    H5Gclose(group);
    check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "cannot flush");
  } catch (...) {
    for (hid_t s : sets_) H5Dclose(s);
    H5Fclose(file_);
    throw;
  }
  buffer_.resize(sets_.size());
  for (auto& b : buffer_) b.reserve(kChunkRows);
  last_flush_ = std::chrono::steady_clock::now();
#else
  (void)channels;
  (void)metadata;
  throw std::runtime_error("cannot write '" + path + "': this build has no HDF5");
#endif
}

Hdf5Writer::~Hdf5Writer() {
#ifdef CLEARSIM_HAS_HDF5
  try {
    append_buffered();
  } catch (...) {  // a destructor must not throw; what was flushed stays in the file
  }
  for (hid_t s : sets_) H5Dclose(s);
  if (file_ >= 0) H5Fclose(file_);
#endif
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
#ifdef CLEARSIM_HAS_HDF5
  last_flush_ = std::chrono::steady_clock::now();
  const hsize_t n = buffer_.empty() ? 0 : buffer_[0].size();
  if (n == 0) return;
  const hsize_t start = in_file_, total = in_file_ + n;
  const hid_t memory = H5Screate_simple(1, &n, nullptr);
  for (std::size_t k = 0; k < sets_.size(); ++k) {
    check(H5Dset_extent(sets_[k], &total), "cannot extend a dataset");
    const hid_t space = H5Dget_space(sets_[k]);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &n, nullptr);
    const herr_t status =
        H5Dwrite(sets_[k], H5T_NATIVE_DOUBLE, memory, space, H5P_DEFAULT, buffer_[k].data());
    H5Sclose(space);
    check(status, "cannot write rows");
    buffer_[k].clear();
  }
  H5Sclose(memory);
  in_file_ = total;
  check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "cannot flush");
#endif
}

}  // namespace cs
