// CSV result file: two comment lines,
//   # clearsim 0.1.0 (commit 0123456789ab)
//   # units: s,m/s,N,...            (one per column, empty when unknown; channel_unit, or the
//                                    units given: an estimated parameter's from the model file)
// then a header line "time,<channel>,...", then one row per output point. Numbers
// are written in the shortest form that reads back as the same double. Each row goes to the file
// in one write(2) of the whole formatted line, never through a stdio buffer that could be
// flushed halfway through a row, so a run that is killed keeps whole rows only.
#pragma once

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
  void write_all(const std::string& text);  // one write(2), repeated only if partial

  int fd_ = -1;
  std::string path_;
  long rows_ = 0;
  std::string line_;  // the row being formatted
};

}  // namespace cs
