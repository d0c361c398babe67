#include "clearsim/io/csv_writer.hpp"

#include <filesystem>
#include <stdexcept>

namespace cs {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& channels) {
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  file_ = std::fopen(path.c_str(), "w");
  if (file_ == nullptr) throw std::runtime_error("cannot open result file '" + path + "' for writing");
  std::fputs("time", file_);
  for (const auto& c : channels) {
    std::fputc(',', file_);
    std::fputs(c.c_str(), file_);
  }
  std::fputc('\n', file_);
  std::fflush(file_);
  last_flush_ = std::chrono::steady_clock::now();
}

CsvWriter::~CsvWriter() {
  if (file_ != nullptr) std::fclose(file_);
}

void CsvWriter::write(double t, const std::vector<double>& values) {
  // 17 significant digits: a double read back is the double written.
  std::fprintf(file_, "%.17g", t);
  for (double v : values) std::fprintf(file_, ",%.17g", v);
  std::fputc('\n', file_);
  ++rows_;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_flush_ > std::chrono::seconds(1)) {
    std::fflush(file_);
    last_flush_ = now;
  }
}

void CsvWriter::flush() { std::fflush(file_); }

}  // namespace cs
