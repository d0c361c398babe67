// The grid of a sweep: axes from "PATH=a:b:n" or "PATH=v1,v2,..." and their combinations.
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "clearsim/study/sweep.hpp"

namespace cs {

namespace {

double parse_number(const std::string& text, const std::string& spec) {
  double x = 0.0;
  const char* begin = text.data() + (!text.empty() && text.front() == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), x);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("--vary " + spec + ": '" + text + "' is not a number");
  // Issue 28: an endpoint inf made every value between nan.
  if (!std::isfinite(x))
    throw std::invalid_argument("--vary " + spec + ": '" + text +
                                "' is not a finite number (a:b:n needs finite ends)");
  return x;
}

// The shortest text that reads back as x.
std::string shortest(double x) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, ec == std::errc() ? end : buf);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (true) {
    const std::size_t next = s.find(sep, pos);
    parts.push_back(s.substr(pos, next - pos));
    if (next == std::string::npos) return parts;
    pos = next + 1;
  }
}

}  // namespace

SweepAxis parse_sweep_axis(const std::string& spec) {
  const Override o = parse_override(spec);
  SweepAxis axis{o.path, {}};
  const bool bracketed = o.value.find_first_of("[{") != std::string::npos;
  const std::vector<std::string> range = split(o.value, ':');
  if (!bracketed && range.size() == 3) {
    const double a = parse_number(range[0], spec), b = parse_number(range[1], spec);
    const double n = parse_number(range[2], spec);
    if (!(n >= 1.0) || n != static_cast<double>(static_cast<long>(n)) || n > 1e6)
      throw std::invalid_argument("--vary " + spec +
                                  ": the count n of a:b:n must be a positive integer");
    const long count = static_cast<long>(n);
    for (long k = 0; k < count; ++k) {
      // (a·(n−1−k) + b·k)/(n−1): exactly a and b at the ends, symmetric in between.
      const double x = count == 1
                           ? a
                           : (a * static_cast<double>(count - 1 - k) + b * static_cast<double>(k)) /
                                 static_cast<double>(count - 1);
      axis.values.push_back(shortest(x));
    }
  } else if (!bracketed) {
    axis.values = split(o.value, ',');
  } else {
    axis.values = {o.value};
  }
  for (const auto& v : axis.values)
    if (v.find_first_not_of(" \t") == std::string::npos)
      throw std::invalid_argument("--vary " + spec +
                                  ": expected PATH=a:b:n or PATH=v1,v2,... with no empty value");
  return axis;
}

std::vector<std::vector<Override>> sweep_grid(const std::vector<SweepAxis>& axes) {
  // Issue 28: a path varied twice made a grid whose second value silently replaced the first.
  for (std::size_t i = 0; i < axes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (axes[i].path == axes[j].path)
        throw std::invalid_argument("--vary " + axes[i].path +
                                    ": this parameter is varied twice; give all its values in "
                                    "one --vary (PATH=v1,v2,... or PATH=a:b:n)");
  std::vector<std::vector<Override>> grid(1);
  for (const SweepAxis& axis : axes) {
    std::vector<std::vector<Override>> next;
    for (const auto& point : grid)
      for (const std::string& v : axis.values) {
        next.push_back(point);
        next.back().push_back({axis.path, v});
      }
    grid = std::move(next);
  }
  return grid;
}

}  // namespace cs
