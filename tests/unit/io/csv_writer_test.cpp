// CsvWriter: the header, rows in blocks of whole rows, and numbers that read back as the same
// doubles.
#include "clearsim/io/csv_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "clearsim/version.hpp"

namespace cs {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  return out;
}

// The comment lines before the header: the version line and a unit per column, a sensitivity's
// as its channel's per unit of the parameter.
TEST(CsvWriter, NamesTheVersionAndEveryColumnsUnit) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "clearsim_csv_units_test.csv").string();
  {
    CsvWriter w(path, {"slider.velocity.x", "crank.rotation", "system.constraint_violation",
                       "d(bob.position.x)/d(bodies.bob.position[0])", "d(slider.gap)/d(p)",
                       "d(system.constraint_violation)/d(p)", "sigma(crank.rotation.z)"});
    w.write(0.0, {1, 2, 3, 4, 5, 6, 7});
  }
  std::ifstream in(path);
  std::string version, units, header;
  std::getline(in, version);
  std::getline(in, units);
  std::getline(in, header);
  EXPECT_EQ(version, "# " + version_line());
  // An estimate's σ column has its channel's unit.
  EXPECT_EQ(units, "# units: s,m/s,rad,,m/[bodies.bob.position[0]],m/[p],,rad");
  EXPECT_EQ(header.substr(0, 22), "time,slider.velocity.x");
  std::filesystem::remove(path);
}

// Units given for the columns are written as given (an estimated parameter's, from the model
// file: LoadedModel::units), one per column, else refused.
TEST(CsvWriter, WritesTheUnitsGiven) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "clearsim_csv_given_units_test.csv").string();
  {
    CsvWriter w(path,
                {"crank.rotation.z", "sigma(crank.rotation.z)", "joints.pivot.clearance.radial",
                 "sigma(joints.pivot.clearance.radial)", "joints.pivot.clearance.restitution"},
                {"rad", "rad", "m", "m", "1"});
    w.write(0.0, {1, 2, 3, 4, 5});
  }
  std::ifstream in(path);
  std::string version, units;
  std::getline(in, version);
  std::getline(in, units);
  EXPECT_EQ(units, "# units: s,rad,rad,m,m,1");
  std::filesystem::remove(path);
  EXPECT_THROW(CsvWriter(path, {"a.position.x", "b"}, {"m"}), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(CsvWriter, NumbersReadBackBitForBit) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "clearsim_csv_writer_test.csv").string();
  // Values whose shortest round-trip text is long or unusual: 0.1 (not exactly representable),
  // 1/3, π, the extremes and a subnormal, a negative zero, an integer beyond 2^53's spacing.
  const std::vector<double> values = {0.1,
                                      1.0 / 3.0,
                                      M_PI,
                                      -2.5e-13,
                                      std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::min(),
                                      std::numeric_limits<double>::denorm_min(),
                                      -0.0,
                                      9007199254740993.0,
                                      418.0};
  {
    CsvWriter w(path, {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"});
    w.write(0.3, values);
    w.write(1e-5, std::vector<double>(values.size(), std::numeric_limits<double>::infinity()));
    EXPECT_EQ(w.rows(), 2);
  }
  std::ifstream in(path);
  std::string version, units, header, row1, row2;
  std::getline(in, version);
  std::getline(in, units);
  std::getline(in, header);
  std::getline(in, row1);
  std::getline(in, row2);
  EXPECT_EQ(version, "# " + version_line());
  EXPECT_EQ(units, "# units: s,,,,,,,,,,");
  EXPECT_EQ(header, "time,a,b,c,d,e,f,g,h,i,j");
  const auto cells = split(row1);
  ASSERT_EQ(cells.size(), values.size() + 1);
  EXPECT_EQ(cells[0], "0.3");  // shortest form, not 0.29999999999999999
  EXPECT_EQ(cells[1], "0.1");
  for (std::size_t k = 0; k < values.size(); ++k) {
    double back = 0.0;
    const std::string& c = cells[k + 1];
    const auto r = std::from_chars(c.data(), c.data() + c.size(), back);
    ASSERT_EQ(r.ec, std::errc()) << c;
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(values[k])) << c;
  }
  const auto inf = split(row2);
  ASSERT_EQ(inf.size(), values.size() + 1);
  EXPECT_EQ(inf[1], "inf");
  std::filesystem::remove(path);
}

// Small integers take the integer conversion: the text must be the shortest form's, digit for
// digit, on both sides of where that form turns to an exponent (1e+05) and for −0.
TEST(CsvWriter, IntegersAreWrittenAsTheShortestFormWritesThem) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "clearsim_csv_writer_ints.csv").string();
  std::vector<double> values = {-0.0, 0.0, 1e4, -1e4, 1e5, 9999.5, 1e15, -1e15, 0.5};
  for (int k = -10001; k <= 10001; k += 7) values.push_back(k);
  for (int k : {-9999, -1000, -100, -10, -1, 1, 10, 100, 1000, 9999}) values.push_back(k);
  {
    CsvWriter w(path, std::vector<std::string>(values.size(), "c"));
    w.write(0.0, values);
  }
  std::ifstream in(path);
  std::string line;
  for (int k = 0; k < 4; ++k) std::getline(in, line);
  const auto cells = split(line);
  ASSERT_EQ(cells.size(), values.size() + 1);
  EXPECT_EQ(cells[1], "-0");
  for (std::size_t k = 0; k < values.size(); ++k) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, values[k]);
    EXPECT_EQ(cells[k + 1], std::string(buf, r.ptr)) << values[k];
  }
  std::filesystem::remove(path);
}

// Rows leave in blocks: before flush() the file holds whole rows only (a prefix of the rows
// written), after it every row, and a writer destroyed without flush() keeps them all too.
TEST(CsvWriter, BlocksHoldWholeRowsAndFlushOrTheEndWritesTheRest) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "clearsim_csv_writer_blocks.csv").string();
  const auto lines_in_file = [&] {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(text.empty() || text.back() == '\n') << "a row cut short";
    return std::count(text.begin(), text.end(), '\n');
  };
  const int rows = 20000;  // about 0.9 MB: several 64 KiB blocks
  {
    CsvWriter w(path, {"a", "b"});
    EXPECT_EQ(lines_in_file(), 3);  // the header is there at once
    for (int k = 0; k < rows; ++k) w.write(k * 1e-5, {std::sqrt(k + 0.5), 1.0 / (k + 1.0)});
    const auto before = lines_in_file();
    EXPECT_GT(before, 3);
    EXPECT_LE(before, rows + 3);
    w.flush();
    EXPECT_EQ(lines_in_file(), rows + 3);
    w.write(1.0, {1.0, 2.0});
  }
  EXPECT_EQ(lines_in_file(), rows + 4);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace cs
