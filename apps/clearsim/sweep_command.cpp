#include "sweep_command.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "clearsim/study/sweep.hpp"

namespace clearsim_cli {

CLI::App* SweepCommand::add_to(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "sweep", "run a model over a grid of parameter values on every core; write one table");
  cmd->add_option("model", model, "model file (YAML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--vary", vary,
                  "a varied parameter: PATH=a:b:n (n values from a to b) or PATH=v1,v2,... "
                  "(repeatable; the grid is every combination)")
      ->required();
  cmd->add_option("--set", sets, "override a value for every run: PATH=VALUE (repeatable)");
  cmd->add_option("-o,--output", out_dir,
                  "folder for the table sweep.csv and each run's CSV (default: <model>_sweep)");
  cmd->add_option("--channel", channel,
                  "channel compared with the reference run (RMS distance; default: the first "
                  "output channel)");
  cmd->add_option("--gradient", gradients,
                  "also differentiate each run's summary (max_contact_force, rms_distance) with "
                  "respect to this number of the model file, by direct sensitivities "
                  "(repeatable; docs/sensitivity.md)");
  jobs_option = cmd->add_option("-j,--jobs", jobs, "processes at a time (default: every core)");
  cmd->add_flag("-q,--quiet", quiet, "print nothing but errors");
  return cmd;
}

int SweepCommand::run() const {
  // Issue 28: -j 0 and -j -3 ran on every core without a word.
  if (jobs_option != nullptr && jobs_option->count() > 0 && jobs < 1)
    throw std::invalid_argument("-j " + std::to_string(jobs) +
                                ": expected a number of processes >= 1 (without -j: one per core)");
  std::vector<cs::SweepAxis> axes;
  for (const auto& v : vary) axes.push_back(cs::parse_sweep_axis(v));
  cs::SweepOptions options;
  for (const auto& s : sets) options.base.push_back(cs::parse_override(s));
  options.out_dir =
      out_dir.empty() ? std::filesystem::path(model).stem().string() + "_sweep" : out_dir;
  options.channel = channel;
  options.jobs = jobs;
  options.gradients = gradients;
  // The reference run is read first, so that a mistake in the file is reported once.
  std::ifstream in(model, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  cs::load_model_string(text.str(), model, options.base);

  const cs::SweepResult result = cs::run_sweep(text.str(), model, axes, options);
  const std::string table = (std::filesystem::path(options.out_dir) / "sweep.csv").string();
  cs::write_sweep_table(table, result);
  std::size_t failed = 0;
  for (const auto& r : result.runs) {
    if (r.ok) continue;
    ++failed;
    std::fprintf(stderr, "run %s: %s\n", r.csv.c_str(), r.error.c_str());
  }
  if (!result.reference.ok)
    std::fprintf(stderr, "reference run: %s\n", result.reference.error.c_str());
  if (!quiet) {
    std::fprintf(stderr, "sweep: %zu runs + reference (%zu failed) in %.3g s; table: %s\n",
                 result.runs.size(), failed, result.wall_seconds, table.c_str());
  }
  return failed == 0 && result.reference.ok ? 0 : 3;
}

}  // namespace clearsim_cli
