// A result file read whole, refusing a row cut short by SIGKILL (io/result_text.hpp).
#include "clearsim/io/result_text.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cs {

std::string read_result_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": error: cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  std::string s = std::move(text).str();
  const bool from_clearsim = s.rfind("# clearsim", 0) == 0;
  if (from_clearsim && !s.empty() && s.back() != '\n') {
    const std::size_t rows = static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
    throw std::runtime_error(
        path + ":" + std::to_string(rows + 1) +
        ": error: the last row is cut short (the run that wrote it was killed while writing it); "
        "delete that line to use the rows before it");
  }
  return s;
}

}  // namespace cs
