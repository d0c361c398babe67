// Command-line parse errors (CLI11's) said as clearsim says its other errors, with exit status 2
// and a "did you mean" for a mistyped option or command (issue 28).
#pragma once

#include <CLI/CLI.hpp>

namespace clearsim_cli {

// Prints the message of `e` (help and version text as CLI11 does) and returns the exit status:
// 0 for --help, 2 for a mistake.
int report_parse_error(const CLI::App& app, const CLI::ParseError& e, int argc,
                       const char* const* argv);

}  // namespace clearsim_cli
