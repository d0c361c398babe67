// A temporary folder of this test process: <tmp>/<stem>_<pid>. ctest runs the tests of one binary
// as separate processes, two at a time (and another build's suite may run beside them), so a
// fixed name let one test delete or rewrite the files another was reading.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace cs::testing {

inline std::filesystem::path test_temp_dir(const std::string& stem) {
  return std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(::getpid()));
}

}  // namespace cs::testing
