// What this build of clearsim is: `clearsim --version`, clearsim.__version__ and the metadata of
// result files all say it from here (defined in a source CMake generates: cmake/version.cpp.in).
#pragma once

#include <string>

namespace cs {

// The project's version, "MAJOR.MINOR.PATCH".
const char* version();
// The git commit the sources were at when CMake configured the build (12 hex digits), or
// "unknown" when they were not a git checkout.
const char* commit();
// "clearsim 0.1.0 (commit 0123456789ab)".
std::string version_line();

}  // namespace cs
