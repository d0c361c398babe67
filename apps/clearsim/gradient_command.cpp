#include "gradient_command.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/adjoint_gradient.hpp"

namespace clearsim_cli {

CLI::App* GradientCommand::add_to(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "gradient",
      "the gradient of one objective of a run with respect to many numbers of the "
      "model file, by the adjoint (docs/sensitivity.md)");
  cmd->add_option("model", model, "model file (YAML)")->required()->check(CLI::ExistingFile);
  cmd->add_option("--objective", objective,
                  "end(CHANNEL), integral(CHANNEL), pnorm(CHANNEL, P) or rms(CHANNEL, FILE.csv)")
      ->required();
  cmd->add_option("--parameter", parameters,
                  "a number of the model file, named as --set names it (repeatable)")
      ->required();
  cmd->add_option("--set", sets, "override a value of the model file: PATH=VALUE (repeatable)");
  cmd->add_option("--end", end, "override solver.end [s]");
  cmd->add_option("--step", step, "override solver.step [s]");
  cmd->add_option("--memory", memory_mib,
                  "the most memory the stored trajectory may take [MiB]; past it the adjoint "
                  "keeps checkpoints and runs the steps between them again")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("-o,--output", out, "also write the objective and its gradient to this CSV");
  return cmd;
}

int GradientCommand::run() const {
  std::vector<cs::Override> overrides;
  for (const auto& s : sets) overrides.push_back(cs::parse_override(s));
  if (!end.empty()) overrides.push_back({"solver.end", end, "--end " + end});
  if (!step.empty()) overrides.push_back({"solver.step", step, "--step " + step});
  std::ifstream in(model, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<std::string> notes;
  cs::GradientOptions options;
  options.memory_bytes = memory_mib * 1048576.0;
  // On a terminal, the pass and its share done, redrawn at most ten times a second.
  auto last = std::chrono::steady_clock::now();
  if (isatty(fileno(stderr)))
    options.progress = [&last](const char* pass, double done) {
      const auto now = std::chrono::steady_clock::now();
      if (done < 1.0 && now - last < std::chrono::milliseconds(100)) return;
      last = now;
      std::fprintf(stderr, "\radjoint: %s pass %3.0f %%", pass, 100.0 * done);
      if (done >= 1.0 && pass[0] == 'b') std::fprintf(stderr, "\r%40s\r", "");
    };
  const cs::GradientResult g =
      cs::model_gradient(text.str(), model, overrides, objective, parameters, notes, options);
  for (const auto& n : notes) std::fprintf(stderr, "%s: note: %s\n", model.c_str(), n.c_str());
  // One line per quantity: name, value, unit (the CSV has the same rows).
  std::ostringstream table;
  table.precision(17);
  table << "quantity,value,unit\n" << objective << "," << g.value << "," << g.unit << "\n";
  for (std::size_t k = 0; k < parameters.size(); ++k)
    table << "d/d(" << parameters[k] << ")," << g.gradient[k] << "," << g.units[k] << "\n";
  std::printf("%s", table.str().c_str());
  if (g.checkpoint_every == 1)
    std::fprintf(stderr, "adjoint: %ld steps stored (%.3g MiB)\n", g.steps,
                 g.stored_bytes / 1048576.0);
  else
    std::fprintf(stderr,
                 "adjoint: %ld steps, checkpoints every %ld stored (%.3g MiB), %ld steps run "
                 "again\n",
                 g.steps, g.checkpoint_every, g.stored_bytes / 1048576.0, g.recomputed_steps);
  if (!out.empty()) {
    std::ofstream f(out);
    f << table.str();
    if (!f) throw std::runtime_error("-o " + out + ": cannot be written");
  }
  return 0;
}

}  // namespace clearsim_cli
