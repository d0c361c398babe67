// Issue 14, items 5 and 9: bytes that YAML would misread are refused at their position with the
// reason: a NUL byte (once accepted inside a body name, or reported as an "unknown escape
// character") and CR-only line endings.
#include <gtest/gtest.h>

#include <string>

#include "clearsim/io/model_reader.hpp"

namespace cs {
namespace {

std::string error_of(const std::string& text) {
  try {
    load_model_string(text, "m.yaml");
  } catch (const ModelFileError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* const kBody = "{mass: 0.3, inertia: [1e-5, 1e-5, 1e-5], position: [0.025, 0, 0]}";

TEST(ModelReaderBytes, NulByteIsRefusedWhereItIs) {
  std::string text = std::string("bodies:\n  cr") + '\0' + "ank: " + kBody + "\n";
  EXPECT_EQ(error_of(text),
            "m.yaml:2:5: error: a NUL byte is not allowed in a model file (is it a text file?)");
}

TEST(ModelReaderBytes, CarriageReturnAloneIsRefused) {
  const std::string text = std::string("bodies:\r  crank: ") + kBody + "\r";
  EXPECT_EQ(error_of(text),
            "m.yaml:1:8: error: a line ends with CR alone (old Mac line endings): end lines with "
            "LF or CR LF");
  // CR LF is fine.
  EXPECT_EQ(error_of(std::string("bodies:\r\n  crank: ") + kBody + "\r\n"), "(no error)");
}

}  // namespace
}  // namespace cs
