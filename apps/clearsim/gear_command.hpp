// `clearsim gear`: an involute gear (and optionally its mate) as STL, with its geometry printed.
#pragma once

#include <CLI/CLI.hpp>

namespace cs::cli {

// Adds the `gear` subcommand to `app`; returns it so main can tell whether it was chosen.
CLI::App* add_gear_command(CLI::App& app);
// Runs it (after parsing). Returns the process exit code; errors go to stderr.
int run_gear_command();

}  // namespace cs::cli
