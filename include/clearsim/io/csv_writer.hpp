// CSV result file: two comment lines,
//   # clearsim 0.1.0 (commit 0123456789ab)
//   # units: s,m/s,N,...            (one per column, empty when unknown; channel_unit, or the
//                                    units given: an estimated parameter's from the model file)
// then a header line "time,<channel>,...", then one row per output point. Numbers
// are written in the shortest form that reads back as the same double. Rows go to the file in
// blocks of whole rows (64 KiB, or what is held when a row comes 0.2 s after the last block),
// never through a stdio buffer that could be flushed halfway through a row, so a run that is
// killed keeps whole rows only; flush() (and the destructor) hands over the rest.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "clearsim/io/result_writer.hpp"

namespace cs {

class CsvWriter final : public ResultWriter {
 public:
  // Throws std::runtime_error if the file cannot be opened. Creates missing parent folders.
  // `units`: one per channel, as the units line says them; empty: channel_unit of each
  // (column_units, result_writer.hpp).
  CsvWriter(const std::string& path, const std::vector<std::string>& channels,
            const std::vector<std::string>& units = {});
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void write(double t, const std::vector<double>& values) override;
  void flush() override;
  long rows() const override { return rows_; }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kBlockBytes = 64 * 1024;
  static constexpr std::chrono::milliseconds kBlockSeconds{200};
  void write_all(const std::string& text);  // one write(2), repeated only if partial

  int fd_ = -1;
  std::string path_;
  long rows_ = 0;
  std::string buffer_;  // whole rows not yet handed to the kernel
  Clock::time_point last_write_;
};

}  // namespace cs
