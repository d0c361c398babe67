// libclearsim_hdf5.so: HDF5 result files through libhdf5's C API (include/clearsim/io/
// hdf5_file.hpp). Only this module links libhdf5, so a run writing CSV never loads it.
#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/io/hdf5_file.hpp"

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

constexpr hsize_t kChunk = 4096;  // rows per HDF5 chunk (Hdf5Writer appends this many at a time)

// An empty float64 dataset that grows in chunks, at `name` (a path: its groups are made too).
hid_t growing_dataset(hid_t parent, const std::string& name, const std::string& unit) {
  const hsize_t zero = 0, unlimited = H5S_UNLIMITED, chunk = kChunk;
  const hid_t space = H5Screate_simple(1, &zero, &unlimited);
  const hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(props, 1, &chunk);
  const hid_t links = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(links, 1);
  const hid_t set =
      H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, space, links, props, H5P_DEFAULT);
  H5Pclose(links);
  H5Pclose(props);
  H5Sclose(space);
  if (set < 0) fail("cannot create the dataset '" + name + "'");
  text_attribute(set, "units", unit);
  return set;
}

class File final : public cs::Hdf5File {
 public:
  explicit File(const cs::Hdf5FileSpec& spec) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors come back as exceptions, not prints
    file_ = H5Fcreate(spec.path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file_ < 0)
      throw std::runtime_error("cannot open result file '" + spec.path + "' for writing");
    try {
      std::string names;
      for (const auto& c : spec.channels) names += c + '\n';
      text_attribute(file_, "channels", names);
      for (const auto& [key, value] : spec.text_attributes) text_attribute(file_, key, value);
      for (const auto& [key, value] : spec.number_attributes) number_attribute(file_, key, value);
      sets_.push_back(growing_dataset(file_, "time", "s"));
      for (std::size_t k = 0; k < spec.channels.size(); ++k)
        sets_.push_back(growing_dataset(file_, spec.datasets[k], spec.units[k]));
      check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "cannot flush");
    } catch (...) {
      close();
      throw;
    }
  }
  ~File() override { close(); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  void append(const std::vector<std::vector<double>>& columns, unsigned long long rows) override {
    const hsize_t n = rows;
    if (n == 0) return;
    const hsize_t start = in_file_, total = in_file_ + n;
    const hid_t memory = H5Screate_simple(1, &n, nullptr);
    for (std::size_t k = 0; k < sets_.size() && k < columns.size(); ++k) {
      check(H5Dset_extent(sets_[k], &total), "cannot extend a dataset");
      const hid_t space = H5Dget_space(sets_[k]);
      H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &n, nullptr);
      const herr_t status =
          H5Dwrite(sets_[k], H5T_NATIVE_DOUBLE, memory, space, H5P_DEFAULT, columns[k].data());
      H5Sclose(space);
      check(status, "cannot write rows");
    }
    H5Sclose(memory);
    in_file_ = total;
    check(H5Fflush(file_, H5F_SCOPE_GLOBAL), "cannot flush");
  }

 private:
  void close() {
    for (hid_t s : sets_) H5Dclose(s);
    sets_.clear();
    if (file_ >= 0) H5Fclose(file_);
    file_ = -1;
  }

  hid_t file_ = -1;
  std::vector<hid_t> sets_;  // /time, then each channel
  hsize_t in_file_ = 0;      // rows in the file
};

}  // namespace

extern "C" __attribute__((visibility("default"))) cs::Hdf5File* clearsim_hdf5_open(
    const cs::Hdf5FileSpec& spec, std::string& error) {
  try {
    return new File(spec);
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}
