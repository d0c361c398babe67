// `clearsim gradient`: the adjoint gradient of one objective of a run with respect to many
// numbers of the model file (sensitivity/adjoint_gradient.hpp, docs/sensitivity.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace clearsim_cli {

struct GradientCommand {
  std::string model, objective, out;
  std::vector<std::string> parameters, sets;
  std::string end, step;
  double memory_mib = 1024.0;  // the stored trajectory's budget

  // Adds the subcommand and its options to `app`.
  CLI::App* add_to(CLI::App& app);
  int run() const;
};

}  // namespace clearsim_cli
