// The clearsim command line: run, check and list the channels of a model file; sweep a grid of
// parameter values (sweep_command.cpp); generate gears (gear_command.cpp).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/csv_writer.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/io/progress.hpp"
#include "clearsim/io/result_writer.hpp"
#include "clearsim/io/vtk_series.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "gear_command.hpp"
#include "sweep_command.hpp"

namespace {

const char* analysis_name(cs::Analysis a) {
  switch (a) {
    case cs::Analysis::kDynamic:
      return "dynamic";
    case cs::Analysis::kKinematic:
      return "kinematic";
    case cs::Analysis::kStatic:
      return "static";
  }
  return "?";
}

// Writes each output point to the CSV file and keeps the progress bar moving.
class Output final : public cs::StepObserver {
 public:
  Output(const cs::ChannelSet& channels, cs::ResultWriter& csv, cs::ProgressBar& bar)
      : channels_(channels), csv_(csv), bar_(bar) {}
  void on_output(const cs::State& s, const cs::RunStats& stats) override {
    channels_.evaluate(s, stats, values_);
    csv_.write(s.t, values_);
  }
  void on_step(const cs::State& s, const cs::RunStats& stats) override { bar_.update(s.t, stats); }

 private:
  const cs::ChannelSet& channels_;
  cs::ResultWriter& csv_;
  cs::ProgressBar& bar_;
  std::vector<double> values_;
};

std::vector<cs::Override> parse_overrides(const std::vector<std::string>& assignments) {
  std::vector<cs::Override> overrides;
  for (const auto& a : assignments) overrides.push_back(cs::parse_override(a));
  return overrides;
}

int check(const std::string& path, const std::vector<std::string>& sets) {
  cs::LoadedModel lm = cs::load_model_file(path, parse_overrides(sets));
  cs::System sys(lm.model);
  cs::model_channels(lm, sys);
  if (const std::string why = cs::incompatible_settings(sys, lm.run.solver); !why.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", path.c_str(), why.c_str());
    return 1;
  }
  std::vector<std::string> notes;
  cs::State s = cs::initial_state(sys);
  const cs::SolveReport rep = cs::make_consistent(sys, s, lm.run.solver.newton_tol, notes);
  for (const auto& w : lm.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  for (const auto& n : notes) std::fprintf(stderr, "%s: note: %s\n", path.c_str(), n.c_str());
  if (!rep.ok) {
    std::fprintf(stderr, "%s: error: initial conditions: %s\n", path.c_str(), rep.message.c_str());
    return 1;
  }
  std::printf(
      "%s: ok — %d bodies, %zu elements, %d independent constraint rows, %d degrees of "
      "freedom; %s analysis to t = %g s\n",
      path.c_str(), lm.model.num_bodies(), lm.model.elements.size(), sys.num_constraints(),
      sys.num_dofs() - sys.num_constraints(), analysis_name(lm.run.solver.analysis),
      lm.run.solver.end);
  return 0;
}

int list_channels(const std::string& path) {
  cs::LoadedModel lm = cs::load_model_file(path);
  cs::System sys(lm.model);
  for (const auto& c : cs::ChannelSet::available(sys)) std::printf("%s\n", c.c_str());
  return 0;
}

struct RunOptions {
  std::string model, out, vtk;
  std::vector<std::string> sets;  // PATH=VALUE overrides
  double end = -1, step = -1;
  int every = 0;
  bool quiet = false;
};

// What an HDF5 result records besides the channels: the model file's text, the overrides and
// the run settings.
cs::ResultMetadata metadata(const cs::LoadedModel& lm, const RunOptions& o) {
  cs::ResultMetadata m;
  std::ifstream in(o.model, std::ios::binary);
  std::ostringstream text, sets;
  text << in.rdbuf();
  for (const auto& s : o.sets) sets << s << '\n';
  m.text = {{"model", text.str()},
            {"model_file", o.model},
            {"overrides", sets.str()},
            {"analysis", analysis_name(lm.run.solver.analysis)},
            {"clearsim_version", CLEARSIM_VERSION}};
  m.numbers = {{"solver.end", lm.run.solver.end},
               {"solver.step", lm.run.solver.step},
               {"output.every", lm.run.output.every}};
  return m;
}

int run(const RunOptions& o) {
  cs::LoadedModel lm = cs::load_model_file(o.model, parse_overrides(o.sets));
  if (o.end > 0) lm.run.solver.end = o.end;
  if (o.step > 0) lm.run.solver.step = o.step;
  if (o.every > 0) lm.run.output.every = o.every;
  if (!o.vtk.empty()) lm.run.output.vtk = o.vtk;
  for (const auto& w : lm.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  cs::System sys(lm.model);
  const auto channels = std::make_unique<cs::ChannelSet>(cs::model_channels(lm, sys));
  if (const std::string why = cs::incompatible_settings(sys, lm.run.solver); !why.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", o.model.c_str(), why.c_str());
    return 1;
  }
  std::string out = o.out;
  if (out.empty()) out = lm.run.output.file;
  if (out.empty()) out = std::filesystem::path(o.model).stem().string() + ".csv";
  const auto writer = cs::open_result_writer(out, channels->names(), metadata(lm, o));
  cs::ResultWriter& csv = *writer;
  cs::ProgressBar bar(lm.run.solver.end, lm.run.output.progress && !o.quiet);
  Output observer(*channels, csv, bar);
  std::unique_ptr<cs::VtkObserver> vtk;  // ParaView series of shapes and contact regions
  if (!lm.run.output.vtk.empty())
    vtk = std::make_unique<cs::VtkObserver>(sys, lm.run.output.vtk, lm.run.output.vtk_every,
                                            observer);
  std::vector<std::string> notes;
  cs::State s;
  const cs::RunStats stats = cs::run_analysis(
      sys, lm.run, vtk ? static_cast<cs::StepObserver&>(*vtk) : observer, s, notes);
  bar.finish();
  csv.flush();
  for (const auto& n : notes) std::fprintf(stderr, "%s: note: %s\n", o.model.c_str(), n.c_str());
  if (!o.quiet) {
    std::fprintf(stderr, "%s\n", cs::summary(stats, analysis_name(lm.run.solver.analysis)).c_str());
    std::fprintf(stderr, "results: %s (%ld rows, %zu channels)\n", out.c_str(), csv.rows(),
                 channels->names().size());
  }
  if (!stats.ok) {
    std::fprintf(stderr, "%s: error: %s\n", o.model.c_str(), stats.message.c_str());
    std::fprintf(stderr, "results up to the failure are in %s\n", out.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clearsim — dynamics of mechanisms with imperfect joints"};
  app.require_subcommand(1);
  std::string model;

  RunOptions ro;
  auto* run_cmd =
      app.add_subcommand("run", "simulate a model file and write a CSV of its channels");
  run_cmd->add_option("model", ro.model, "model file (YAML)")->required()->check(CLI::ExistingFile);
  run_cmd->add_option("-o,--output", ro.out,
                      "result file: CSV, or HDF5 if it ends in .h5 (default: output.file or "
                      "<model>.csv)");
  run_cmd->add_option("--end", ro.end, "override solver.end [s]");
  run_cmd->add_option("--step", ro.step, "override solver.step [s]");
  run_cmd->add_option("--every", ro.every, "override output.every");
  run_cmd->add_option("--vtk", ro.vtk, "write a ParaView series (.pvd) to this folder");
  run_cmd->add_flag("-q,--quiet", ro.quiet, "no progress bar and no summary");
  run_cmd->add_option("--set", ro.sets,
                      "override a value of the model file: PATH=VALUE, e.g. "
                      "joints.rod_slider.clearance.radial=1e-3 (repeatable; value in YAML)");

  std::vector<std::string> check_sets;
  auto* check_cmd = app.add_subcommand("check", "validate a model file without running it");
  check_cmd->add_option("model", model, "model file (YAML)")->required();
  check_cmd->add_option("--set", check_sets, "override a value of the model file: PATH=VALUE");
  auto* chan_cmd = app.add_subcommand("channels", "list every output channel a model offers");
  chan_cmd->add_option("model", model, "model file (YAML)")->required();
  auto* gear_cmd = cs::cli::add_gear_command(app);

  clearsim_cli::SweepCommand sweep;
  auto* sweep_cmd = sweep.add_to(app);

  CLI11_PARSE(app, argc, argv);
  try {
    if (*run_cmd) return run(ro);
    if (*check_cmd) return check(model, check_sets);
    if (*chan_cmd) return list_channels(model);
    if (*gear_cmd) return cs::cli::run_gear_command();
    if (*sweep_cmd) return sweep.run();
  } catch (const cs::ModelFileError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clearsim: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
