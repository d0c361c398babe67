// `clearsim sweep`: a grid of overrides of one model file run on every core, one table.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace clearsim_cli {

struct SweepCommand {
  std::string model, out_dir, channel;
  std::vector<std::string> vary, sets;
  std::vector<std::string> gradients;  // --gradient paths
  int jobs = 0;
  bool quiet = false;
  CLI::Option* jobs_option = nullptr;

  // Adds the subcommand and its options to `app`.
  CLI::App* add_to(CLI::App& app);
  int run() const;
};

}  // namespace clearsim_cli
