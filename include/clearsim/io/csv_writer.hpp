// CSV result file: a header line "time,<channel>,...", then one row per output point. Numbers
// are written in the shortest form that reads back as the same double. Rows are flushed at
// least once a second of wall time, so a run that stops keeps what it computed.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "clearsim/io/result_writer.hpp"

namespace cs {

class CsvWriter final : public ResultWriter {
 public:
  // Throws std::runtime_error if the file cannot be opened. Creates missing parent folders.
  CsvWriter(const std::string& path, const std::vector<std::string>& channels);
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void write(double t, const std::vector<double>& values) override;
  void flush() override;
  long rows() const override { return rows_; }

 private:
  std::FILE* file_ = nullptr;
  long rows_ = 0;
  std::string line_;  // the row being formatted
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace cs
