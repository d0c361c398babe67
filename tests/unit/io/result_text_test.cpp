// read_result_text: a result of clearsim whose last row was cut short (SIGKILL inside its write)
// is refused naming its line; whole results and files of other origin are read as they are.
#include "clearsim/io/result_text.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

namespace cs {
namespace {

std::string written(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const std::string kResult = "# clearsim 0.1.0 (commit 0)\n# units: s,m\ntime,x\n0,1\n0.1,1.5\n";

TEST(ResultText, WholeResultReadAsItIs) {
  EXPECT_EQ(read_result_text(written("whole.csv", kResult)), kResult);
}

TEST(ResultText, CutRowRefusedNamingItsLine) {
  const std::string path = written("cut.csv", kResult.substr(0, kResult.size() - 2));  // "0.1,1."
  try {
    read_result_text(path);
    FAIL() << "a row cut short was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":5: error: the last row is cut short"),
              std::string::npos)
        << e.what();
  }
}

TEST(ResultText, OtherFileWithoutLastNewlineReadAsItIs) {
  // A measurement file made by hand need not end with a newline.
  const std::string text = "time,encoder\n0,1\n0.1,1.5";
  EXPECT_EQ(read_result_text(written("by_hand.csv", text)), text);
}

TEST(ResultText, MissingFileNamed) {
  EXPECT_THROW(read_result_text(::testing::TempDir() + "no_such_file.csv"), std::runtime_error);
}

}  // namespace
}  // namespace cs
