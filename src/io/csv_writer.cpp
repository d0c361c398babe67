#include "clearsim/io/csv_writer.hpp"

#include <charconv>
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
  if (file_ == nullptr)
    throw std::runtime_error("cannot open result file '" + path + "' for writing");
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
  // std::to_chars without a precision gives the shortest text that reads back as the same
  // double (an exact round trip, like "%.17g", but without its spurious digits: 0.1, not
  // 0.10000000000000001). It is also several times faster than fprintf: writing 16 channels at
  // every step of seed 000's 30 000-step run took longer than computing the run.
  line_.clear();
  char buf[32];
  const auto append = [&](double v) {
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    line_.append(buf, r.ptr);
  };
  append(t);
  for (double v : values) {
    line_ += ',';
    append(v);
  }
  line_ += '\n';
  std::fwrite(line_.data(), 1, line_.size(), file_);
  ++rows_;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_flush_ > std::chrono::seconds(1)) {
    std::fflush(file_);
    last_flush_ = now;
  }
}

void CsvWriter::flush() { std::fflush(file_); }

}  // namespace cs
