#include "clearsim/io/csv_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "clearsim/version.hpp"

namespace cs {

namespace {

// Two comment lines before the header, which CSV readers skip (pandas read_csv(comment='#'),
// numpy genfromtxt(comments='#')): what wrote the file — `clearsim --version`'s line, as the
// HDF5 attributes clearsim_version and clearsim_commit — and the unit of every column, in the
// header's order, so that the column names stay the channel names.
std::string preamble(const std::vector<std::string>& units) {
  std::string text = "# " + version_line() + "\n# units: s";
  for (const auto& u : units) {
    text += ',';
    text += u;
  }
  return text + '\n';
}

}  // namespace

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& channels,
                     const std::vector<std::string>& units)
    : path_(path) {
  buffer_ = preamble(column_units(channels, units)) + "time";  // before the file: may throw
  for (const auto& c : channels) {
    buffer_ += ',';
    buffer_ += c;
  }
  buffer_ += '\n';
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0) throw std::runtime_error("cannot open result file '" + path + "' for writing");
  write_all(buffer_);  // the header at once: a reader sees the columns before the first block
  buffer_.clear();
  last_write_ = Clock::now();
}

CsvWriter::~CsvWriter() {
  if (fd_ < 0) return;
  try {
    flush();  // a writer left by an exception still keeps the rows it was given
  } catch (const std::exception&) {
    // The file cannot take them (disk full); the error that unwound us is the one to report.
  }
  ::close(fd_);
}

// Whole rows reach the kernel, never a part of one: write(2) is given whole rows only, so a crash
// or a signal the run handles (SIGINT, SIGTERM) leaves whole rows. (A stdio buffer flushes when
// full, in the middle of a row: after SIGKILL a number could be cut short with the right count
// of fields.) SIGKILL itself can still cut one row: Linux ends a write to a file at a page
// (folio) boundary when a fatal signal is pending, so a row that straddles one may be kept in
// part. The file then ends at that boundary without a newline, and clearsim's readers refuse it
// (io/result_text.hpp); no write can be made whole against SIGKILL.
void CsvWriter::write_all(const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw std::runtime_error("cannot write to result file '" + path_ +
                               "': " + std::strerror(errno));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

namespace {
// std::to_chars without a precision gives the shortest text that reads back as the same double
// (an exact round trip, like "%.17g", but without its spurious digits: 0.1, not
// 0.10000000000000001); it is several times faster than fprintf. Integers below 10⁴ in magnitude
// (counts, contact states, and the zeros of quantities that vanish: a third of the Flores NSGA
// example's numbers) take the integer conversion, about a tenth of the cost, to the same text:
// the shortest form of such a double is its digits (from 10⁵ on it may be "1e+05"), and −0
// keeps its sign.
char* append_number(char* first, char* last, double v) {
  if (v > -1e4 && v < 1e4 && v == static_cast<double>(static_cast<int>(v)) &&
      !(v == 0.0 && std::signbit(v)))
    return std::to_chars(first, last, static_cast<int>(v)).ptr;
  return std::to_chars(first, last, v).ptr;
}
}  // namespace

void CsvWriter::write(double t, const std::vector<double>& values) {
  char buf[32];
  buffer_.append(buf, append_number(buf, buf + sizeof buf, t));
  for (double v : values) {
    buffer_ += ',';
    buffer_.append(buf, append_number(buf, buf + sizeof buf, v));
  }
  buffer_ += '\n';
  ++rows_;
  // Rows go to the kernel in blocks of whole rows: one write(2) per row cost a fifth of the
  // Flores NSGA example's wall time (12 000 rows, each 2–3 µs in the kernel). A block leaves
  // when it reaches kBlockBytes or when kBlockSeconds have passed since the last one, so that a
  // file being read while it is written (a plot of a long run) is never far behind.
  const auto now = Clock::now();
  if (buffer_.size() >= kBlockBytes || now - last_write_ >= kBlockSeconds) {
    write_all(buffer_);
    buffer_.clear();
    last_write_ = now;
  }
}

void CsvWriter::flush() {
  if (buffer_.empty()) return;
  std::string block;
  block.swap(buffer_);  // cleared before the write: a failed write is not tried again
  write_all(block);
  last_write_ = Clock::now();
}

}  // namespace cs
