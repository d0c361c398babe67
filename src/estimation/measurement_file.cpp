// The measurement file of `clearsim estimate` (estimation_run.hpp).
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "clearsim/estimation/estimation_run.hpp"
#include "clearsim/io/result_text.hpp"
#include "clearsim/io/suggest.hpp"

namespace cs {

namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  for (auto& c : cells) {
    const auto b = c.find_first_not_of(" \t\r"), e = c.find_last_not_of(" \t\r");
    c = b == std::string::npos ? std::string() : c.substr(b, e - b + 1);
  }
  return cells;
}

[[noreturn]] void fail(const std::string& path, int line, const std::string& message) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": error: " + message);
}

// The sensor each column of the header measures (its name or its channel).
std::vector<int> column_sensors(const std::string& path, int line,
                                const std::vector<std::string>& header,
                                const std::vector<Sensor>& sensors) {
  if (header.empty() || header[0] != "time")
    fail(path, line,
         "expected a header line \"time,<sensor>,...\", found '" +
             (header.empty() ? std::string() : header[0]) + "' first");
  std::vector<std::string> known;
  for (const Sensor& s : sensors) known.insert(known.end(), {s.name, s.channel});
  std::vector<int> of(header.size(), -1);
  std::vector<int> column_of(sensors.size(), -1);
  for (std::size_t c = 1; c < header.size(); ++c) {
    for (std::size_t k = 0; k < sensors.size(); ++k)
      if (header[c] == sensors[k].name || header[c] == sensors[k].channel)
        of[c] = static_cast<int>(k);
    if (of[c] < 0)
      fail(path, line,
           "column " + std::to_string(c + 1) + " '" + header[c] +
               "' is no sensor of the model (columns are sensors, by name or "
               "channel)" +
               did_you_mean(header[c], known));
    int& first = column_of[static_cast<std::size_t>(of[c])];
    if (first >= 0)
      fail(path, line,
           "columns " + std::to_string(first + 1) + " and " + std::to_string(c + 1) +
               " both measure sensor '" + sensors[static_cast<std::size_t>(of[c])].name + "'");
    first = static_cast<int>(c);
  }
  for (std::size_t k = 0; k < sensors.size(); ++k)
    if (column_of[k] < 0)
      fail(path, line,
           "no column for sensor '" + sensors[k].name + "' (" + sensors[k].channel + ")");
  return of;
}

double parse_cell(const std::string& path, int line, std::size_t column, const std::string& name,
                  const std::string& cell) {
  char* end = nullptr;
  const double x = std::strtod(cell.c_str(), &end);
  if (end == cell.c_str() || *end != '\0')
    fail(
        path, line,
        "column " + std::to_string(column + 1) + " (" + name + "): '" + cell + "' is not a number");
  if (!std::isfinite(x))
    fail(path, line,
         "column " + std::to_string(column + 1) + " (" + name + "): the sample '" + cell +
             "' is not finite");
  return x;
}

}  // namespace

MeasurementTable read_measurements(const std::string& path, const std::vector<Sensor>& sensors) {
  std::istringstream in(read_result_text(path));
  MeasurementTable m;
  std::vector<std::string> header;
  std::vector<int> of;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    const std::vector<std::string> cells = split(text);
    if (header.empty()) {
      header = cells;
      of = column_sensors(path, line, header, sensors);
      continue;
    }
    if (cells.size() != header.size())
      fail(path, line,
           "a row of " + std::to_string(cells.size()) + " cells under a header of " +
               std::to_string(header.size()));
    const double t = parse_cell(path, line, 0, "time", cells[0]);
    if (!m.time.empty() && !(t > m.time.back()))
      fail(path, line, "the time " + cells[0] + " s does not increase");
    std::vector<double> row(sensors.size(), NAN);
    for (std::size_t c = 1; c < cells.size(); ++c)
      if (!cells[c].empty())
        row[static_cast<std::size_t>(of[c])] = parse_cell(path, line, c, header[c], cells[c]);
    m.time.push_back(t);
    m.sample.push_back(std::move(row));
    m.line.push_back(line);
  }
  if (header.empty()) throw std::runtime_error(path + ": error: the measurement file is empty");
  return m;
}

}  // namespace cs
