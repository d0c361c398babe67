// The clearsim command line: run, check and list the channels of a model file; sweep a grid of
// parameter values (sweep_command.cpp); generate gears (gear_command.cpp).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "clearsim/assembly/system.hpp"
#include "clearsim/estimation/sensor_channels.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/csv_writer.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/io/progress.hpp"
#include "clearsim/io/result_writer.hpp"
#include "clearsim/io/vtk_series.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/plausibility_watch.hpp"
#include "clearsim/solvers/resolution_check.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "clearsim/version.hpp"
#include "estimate_command.hpp"
#include "gear_command.hpp"
#include "gradient_command.hpp"
#include "parse_errors.hpp"
#include "phase_times.hpp"
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

// The signal (SIGINT, SIGTERM) that asked the run to stop; 0 while none has. The handler only
// records it: the run stops at the end of the current step, so the results end with a whole row.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void record_stop_signal(int signal_number) { g_stop_signal = signal_number; }

void stop_at_a_step_on_signals() {
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// Wall-clock pace of a run: once, after a few seconds, warns when the run as a whole would take
// longer than ten minutes, so that a step chosen by mistake is noticed before hours are spent.
class PaceWarning {
 public:
  PaceWarning(std::string model, double t_end) : model_(std::move(model)), t_end_(t_end) {}
  void update(double t) {
    if (done_ || t <= 0.0) return;
    const double wall = std::chrono::duration<double>(Clock::now() - start_).count();
    if (wall < 3.0) return;
    done_ = true;
    const double total = wall * t_end_ / t;
    if (total > 600.0)
      std::fprintf(stderr,
                   "%s: warning: at this pace the run to t = %g s takes about %.3g h (%.3g s "
                   "of simulated time in %.3g s of wall time)\n",
                   model_.c_str(), t_end_, total / 3600.0, t, wall);
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::string model_;
  double t_end_;
  bool done_ = false;
  Clock::time_point start_ = Clock::now();
};

// Why a row of channel values cannot be written: "at t = ... the channel X is nan: ..." for its
// first value that is not finite; empty if all are finite.
std::string non_finite_channel(const cs::ChannelSet& channels, const std::vector<double>& values,
                               double t) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (std::isfinite(values[k]) || (std::isnan(values[k]) && channels.may_be_undefined(k)))
      continue;
    std::ostringstream os;
    os << "at t = " << t << " s the channel " << channels.names()[k] << " is " << values[k]
       << ": the run diverged, or an input is too large to compute with (a value near "
          "1e308?); that row and the rest are not written";
    return os.str();
  }
  return {};
}

// Writes each output point to the CSV file and keeps the progress bar moving; asks the run to
// stop when a signal came or a value is not finite.
class Output final : public cs::StepObserver {
 public:
  Output(const cs::ChannelSet& channels, cs::ResultWriter& csv, cs::ProgressBar& bar,
         PaceWarning& pace, std::string model, const cs::DirectSensitivity* sens,
         clearsim_cli::PhaseTimes& times)
      : channels_(channels),
        csv_(csv),
        bar_(bar),
        pace_(pace),
        model_(std::move(model)),
        sens_(sens),
        times_(times) {}
  void on_output(const cs::State& s, const cs::RunStats& stats) override {
    if (!failure_.empty()) return;
    const auto from = clearsim_cli::PhaseTimes::Clock::now();
    write_point(s, stats);
    times_.add_output(from);
  }
  void write_point(const cs::State& s, const cs::RunStats& stats) {
    channels_.evaluate(s, stats, values_);
    failure_ = non_finite_channel(channels_, values_, s.t);
    for (const std::string& w : channels_.undefined_now(values_, s.t, undefined_warned_))
      std::fprintf(stderr, "%s: warning: %s\n", model_.c_str(), w.c_str());
    // Derivatives may be NaN where they do not exist (said by a warning), not a failure.
    if (sens_) sens_->channel_derivatives(s, stats, values_);
    if (failure_.empty()) csv_.write(s.t, values_);
  }
  void on_step(const cs::State& s, const cs::RunStats& stats) override {
    bar_.update(s.t, stats);
    pace_.update(s.t);
    // What the run finds wrong as it goes (energy growth, a joint far past its clearance: the
    // run loop's watches) is said at once, while it can still be stopped, not after the run.
    for (; warned_ < stats.warnings.size(); ++warned_)
      std::fprintf(stderr, "%s: warning: %s\n", model_.c_str(), stats.warnings[warned_].c_str());
  }
  bool keep_going() const override { return g_stop_signal == 0 && failure_.empty(); }
  bool reads_joint_reactions() const override { return channels_.reads_joint_reactions(); }
  // Why the run was stopped by its output (a value that is not finite); empty if it was not.
  const std::string& failure() const { return failure_; }

 private:
  const cs::ChannelSet& channels_;
  cs::ResultWriter& csv_;
  cs::ProgressBar& bar_;
  PaceWarning& pace_;
  std::string model_;
  const cs::DirectSensitivity* sens_;  // null: no sensitivity columns
  clearsim_cli::PhaseTimes& times_;
  std::size_t warned_ = 0;              // stats.warnings printed so far
  std::vector<bool> undefined_warned_;  // efficiency channels said to be undefined
  std::vector<double> values_;
  std::string failure_;
};

std::vector<cs::Override> parse_overrides(const std::vector<std::string>& assignments) {
  std::vector<cs::Override> overrides;
  for (const auto& a : assignments) overrides.push_back(cs::parse_override(a));
  return overrides;
}

// Before a long run: how many steps and rows it will make, and roughly how large the file is.
void warn_if_huge(const std::string& model, const cs::RunSettings& run, std::size_t channels) {
  const cs::SolverSettings& st = run.solver;
  if (st.analysis == cs::Analysis::kStatic || st.adaptive) return;
  const double steps = st.kinematic_steps > 0 && st.analysis == cs::Analysis::kKinematic
                           ? st.kinematic_steps
                           : static_cast<double>(cs::fixed_step_count(st.end, st.step));
  const double rows = 1.0 + steps / std::max(1, run.output.every);
  // About 20 characters a value (shortest round-trip text and its comma).
  const double bytes = rows * 20.0 * static_cast<double>(channels + 1);
  if (steps < 1e7 && bytes < 1e9) return;
  std::fprintf(stderr,
               "%s: warning: %.3g steps of %g s to t = %g s: about %.3g rows of %zu channels, "
               "~%.3g GB of results (output.every and output.channels make it smaller)\n",
               model.c_str(), steps, st.end / steps, st.end, rows, channels, bytes / 1e9);
}

// A unilateral contact that starts penetrating is refused: the first step would push it out with
// an impulse that adds energy (a ball 0.6 m into the floor gained 6 J), and max_penetration,
// which counts from the first step on, would report 0. Tolerates rounding of a contact that
// starts exactly closed. Empty when no contact penetrates.
std::string initial_penetration(const cs::System& sys, const cs::State& s) {
  constexpr double kTolerance = 1e-9;  // [m]
  if (sys.num_gaps() == 0) return {};
  std::vector<cs::BodyKinematics> kin;
  sys.gather(s, kin);
  cs::VecX g(sys.num_gaps());
  sys.gaps(kin, s.t, &g, cs::MatrixSink());
  for (int j = 0; j < sys.num_gaps(); ++j) {
    if (!(g[j] < -kTolerance)) continue;
    std::ostringstream os;
    os << sys.describe_gap(j) << " starts penetrating by " << -g[j] << " m (gap " << g[j]
       << " m at t = " << s.t << " s): the first step would push it out and add energy; start "
       << "the bodies apart or touching (gap >= 0)";
    return os.str();
  }
  return {};
}

// The consistent initial state, or an error message (initial conditions, penetration).
std::string initial_problem(cs::System& sys, const cs::LoadedModel& lm,
                            std::vector<std::string>& notes) {
  cs::State s = cs::initial_state(sys);
  const cs::SolveReport rep = cs::make_consistent(sys, s, lm.run.solver.newton_tol, notes);
  if (!rep.ok) return "initial conditions: " + rep.message;
  if (std::string why = cs::PlausibilityWatch(sys).initial_problem(s); !why.empty()) return why;
  return initial_penetration(sys, s);
}

// Check's trial step: writes nothing, but evaluates the channels as run would and remembers the
// first value that is not finite, where run would stop (a free ball thrown at 1e160 m/s has an
// infinite kinetic energy at t = 0).
class TrialOutput final : public cs::StepObserver {
 public:
  explicit TrialOutput(const cs::ChannelSet& channels) : channels_(channels) {}
  void on_output(const cs::State& s, const cs::RunStats& stats) override {
    if (!failure_.empty()) return;
    channels_.evaluate(s, stats, values_);
    failure_ = non_finite_channel(channels_, values_, s.t);
  }
  bool keep_going() const override { return failure_.empty(); }
  bool reads_joint_reactions() const override { return channels_.reads_joint_reactions(); }
  const std::string& failure() const { return failure_; }

 private:
  const cs::ChannelSet& channels_;
  std::vector<double> values_;
  std::string failure_;
};

// Issue 14, item 8: what `run` would die on at t = 0 or in its first step (a locked driver, a
// force too large to compute with) must fail `check` too. Takes one step, on a System of its own
// so that nothing of it leaks into the model's; returns run's message, or nothing.
std::string first_step_problem(const cs::LoadedModel& lm) {
  cs::RunSettings one = lm.run;
  one.solver.end = one.solver.step;
  one.solver.kinematic_steps = 0;
  cs::System sys(lm.model);
  const cs::ChannelSet channels = cs::model_channels(lm, sys);
  TrialOutput trial(channels);
  cs::State s;
  std::vector<std::string> notes;
  const cs::RunStats stats = cs::run_analysis(sys, one, trial, s, notes);
  if (!trial.failure().empty()) return trial.failure();
  return stats.ok ? std::string() : stats.message;
}

int check(const std::string& path, const std::vector<std::string>& sets) {
  cs::LoadedModel lm = cs::load_model_file(path, parse_overrides(sets));
  cs::System sys(lm.model);
  const cs::ChannelSet channels = cs::model_channels(lm, sys);
  cs::sensor_channels(lm, sys);
  if (const std::string why = cs::incompatible_settings(sys, lm.run.solver); !why.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", path.c_str(), why.c_str());
    return 1;
  }
  std::vector<std::string> notes;
  const std::string problem = initial_problem(sys, lm, notes);
  for (const auto& w : lm.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  for (const auto& n : notes) std::fprintf(stderr, "%s: note: %s\n", path.c_str(), n.c_str());
  if (!problem.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", path.c_str(), problem.c_str());
    return 1;
  }
  // The settings' warnings first: they often say why the first step fails (an absurd penalty
  // factor, a force too stiff for the step).
  warn_if_huge(path, lm.run, channels.names().size());
  for (const auto& w : cs::resolution_warnings(sys, lm.run.solver))
    std::fprintf(stderr, "%s: warning: %s\n", path.c_str(), w.c_str());
  if (const std::string why = first_step_problem(lm); !why.empty()) {
    std::fprintf(stderr, "%s: error: the first step fails (run would stop there): %s\n",
                 path.c_str(), why.c_str());
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
  // "name [unit]", as the HDF5 datasets' units attribute; the name alone when it has none.
  for (const auto& c : cs::ChannelSet::available(sys)) {
    const std::string unit = cs::channel_unit(c);
    std::printf(unit.empty() ? "%s\n" : "%s [%s]\n", c.c_str(), unit.c_str());
  }
  return 0;
}

struct RunOptions {
  std::string model, out, vtk;
  bool out_given = false;         // -o was on the command line (even empty)
  std::vector<std::string> sets;  // PATH=VALUE overrides
  // --end, --step, --every as typed: they become the overrides solver.end=..., so that the
  // reader checks them exactly like the file's values (no value is ignored for being <= 0).
  std::optional<std::string> end, step, every;
  std::vector<std::string> sensitivities;  // --sensitivity PATH
  bool quiet = false;
};

// --set PATH=VALUE, then --end, --step and --every (labelled with the option in messages).
std::vector<cs::Override> run_overrides(const RunOptions& o) {
  std::vector<cs::Override> overrides = parse_overrides(o.sets);
  const auto add = [&](const std::optional<std::string>& value, const char* path,
                       const char* option) {
    if (value) overrides.push_back({path, *value, std::string(option) + " " + *value});
  };
  add(o.end, "solver.end", "--end");
  add(o.step, "solver.step", "--step");
  add(o.every, "output.every", "--every");
  return overrides;
}

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
            {"clearsim_version", cs::version()},
            {"clearsim_commit", cs::commit()}};
  m.numbers = {{"solver.end", lm.run.solver.end},
               {"solver.step", lm.run.solver.step},
               {"output.every", lm.run.output.every}};
  return m;
}

// The result file: -o, else output.file, else <model>.csv. Throws when it is the model file
// itself; says when an existing file is replaced.
std::string result_path(const RunOptions& o, const cs::LoadedModel& lm) {
  if (o.out_given && o.out.empty())
    throw std::invalid_argument("-o: expected a result file name, found ''");
  std::string out = o.out;
  if (out.empty()) out = lm.run.output.file;
  if (out.empty()) out = std::filesystem::path(o.model).stem().string() + ".csv";
  std::error_code ec;
  if (std::filesystem::equivalent(out, o.model, ec)) {
    std::ostringstream os;
    os << "the result file '" << out << "' is the model file itself; it would be overwritten "
       << "(give another name with -o)";
    throw std::invalid_argument(os.str());
  }
  if (std::filesystem::exists(out, ec))
    std::fprintf(stderr, "%s: note: replacing the existing result file %s\n", o.model.c_str(),
                 out.c_str());
  return out;
}

// "interrupted by SIGINT ..." and the exit status of a shell for that signal (128 + signal).
int report_interrupted(const std::string& out, const cs::RunStats& stats, long rows) {
  const int sig = g_stop_signal;
  std::fprintf(stderr, "%s by %s; results up to there are in %s (%ld whole rows)\n",
               stats.message.c_str(), sig == SIGTERM ? "SIGTERM" : "SIGINT", out.c_str(), rows);
  return 128 + sig;
}

// The sensitivities --sensitivity asks for (null when none), with the run's settings adapted to
// them; throws when the model or its settings have none (std::invalid_argument) or a path is not
// a parameter (ModelFileError).
std::unique_ptr<cs::DirectSensitivity> sensitivities(const RunOptions& o, cs::LoadedModel& lm,
                                                     const cs::System& sys,
                                                     const cs::ChannelSet& channels) {
  if (o.sensitivities.empty()) return nullptr;
  if (const std::string why = cs::DirectSensitivity::unsupported(sys, lm.run); !why.empty())
    throw std::invalid_argument("--sensitivity: " + why);
  std::string note;
  lm.run = cs::DirectSensitivity::adapted(lm.run, note);
  if (!note.empty()) std::fprintf(stderr, "%s: note: %s\n", o.model.c_str(), note.c_str());
  std::ifstream in(o.model, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::make_unique<cs::DirectSensitivity>(text.str(), o.model, run_overrides(o),
                                                 o.sensitivities, channels.names(), sys, lm.run);
}

int run(const RunOptions& o, clearsim_cli::PhaseTimes& times) {
  cs::LoadedModel lm = cs::load_model_file(o.model, run_overrides(o));
  if (!o.vtk.empty()) lm.run.output.vtk = o.vtk;
  for (const auto& w : lm.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  cs::System sys(lm.model);
  const auto channels = std::make_unique<cs::ChannelSet>(cs::model_channels(lm, sys));
  if (const std::string why = cs::incompatible_settings(sys, lm.run.solver); !why.empty()) {
    std::fprintf(stderr, "%s: error: %s\n", o.model.c_str(), why.c_str());
    return 1;
  }
  if (sys.num_gaps() > 0 || cs::PlausibilityWatch(sys).watches_meshes()) {
    // On a System of its own: make_consistent may remove redundant rows, and run_analysis must
    // find them (and note them) itself.
    cs::System probe(lm.model);
    std::vector<std::string> ignored;  // the run reports the notes
    if (const std::string why = initial_problem(probe, lm, ignored); !why.empty()) {
      std::fprintf(stderr, "%s: error: %s\n", o.model.c_str(), why.c_str());
      return 1;
    }
  }
  const std::unique_ptr<cs::DirectSensitivity> sens = sensitivities(o, lm, sys, *channels);
  std::vector<std::string> columns = channels->names();
  if (sens)
    for (const auto& c : sens->column_names()) columns.push_back(c);
  const std::string out = result_path(o, lm);
  warn_if_huge(o.model, lm.run, columns.size());
  for (const auto& w : cs::resolution_warnings(sys, lm.run.solver))
    std::fprintf(stderr, "%s: warning: %s\n", o.model.c_str(), w.c_str());
  const auto writer =
      cs::open_result_writer(out, columns, metadata(lm, o), cs::column_units(lm, columns));
  cs::ResultWriter& csv = *writer;
  cs::ProgressBar bar(lm.run.solver.end, lm.run.output.progress && !o.quiet);
  PaceWarning pace(o.model, lm.run.solver.end);
  Output observer(*channels, csv, bar, pace, o.model, sens.get(), times);
  stop_at_a_step_on_signals();
  std::unique_ptr<cs::VtkObserver> vtk;  // ParaView series of shapes and contact regions
  if (!lm.run.output.vtk.empty())
    vtk = std::make_unique<cs::VtkObserver>(sys, lm.run.output.vtk, lm.run.output.vtk_every,
                                            observer);
  std::vector<std::string> notes;
  cs::State s;
  cs::StepObserver& watcher = vtk ? static_cast<cs::StepObserver&>(*vtk) : observer;
  times.set_up_done();
  times.run_started();
  const cs::RunStats stats = sens
                                 ? cs::run_with_sensitivities(sys, lm.run, *sens, watcher, s, notes)
                                 : cs::run_analysis(sys, lm.run, watcher, s, notes);
  times.run_done();
  bar.finish();
  if (sens)
    for (const auto& w : sens->warnings())
      std::fprintf(stderr, "%s: warning: %s\n", o.model.c_str(), w.c_str());
  csv.flush();
  times.closed();
  for (const auto& n : notes) std::fprintf(stderr, "%s: note: %s\n", o.model.c_str(), n.c_str());
  if (!o.quiet) {
    std::fprintf(stderr, "%s\n", cs::summary(stats, analysis_name(lm.run.solver.analysis)).c_str());
    std::fprintf(stderr, "results: %s (%ld rows, %zu channels)\n", out.c_str(), csv.rows(),
                 columns.size());
    std::fprintf(stderr, "%s\n", times.line().c_str());
  }
  if (!observer.failure().empty()) {
    std::fprintf(stderr, "%s: error: %s\n", o.model.c_str(), observer.failure().c_str());
    std::fprintf(stderr, "results up to there are in %s\n", out.c_str());
    return 3;
  }
  if (stats.interrupted) return report_interrupted(out, stats, csv.rows());
  if (!stats.ok) {
    std::fprintf(stderr, "%s: error: %s\n", o.model.c_str(), stats.message.c_str());
    std::fprintf(stderr, "results up to the failure are in %s\n", out.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  clearsim_cli::PhaseTimes times;  // first: its start is the start of main
  CLI::App app{"clearsim — dynamics of mechanisms with imperfect joints"};
  app.require_subcommand(1);
  app.set_version_flag("--version", cs::version_line(), "print the version and commit, then exit");
  std::string model;

  RunOptions ro;
  auto* run_cmd =
      app.add_subcommand("run", "simulate a model file and write a CSV of its channels");
  run_cmd->add_option("model", ro.model, "model file (YAML)")->required()->check(CLI::ExistingFile);
  auto* out_opt = run_cmd->add_option("-o,--output", ro.out,
                                      "result file: CSV, or HDF5 if it ends in .h5 (default: "
                                      "output.file or <model>.csv); never the model file");
  run_cmd->add_option("--end", ro.end, "override solver.end [s] (checked as in the file)");
  run_cmd->add_option("--step", ro.step, "override solver.step [s] (checked as in the file)");
  run_cmd->add_option("--every", ro.every, "override output.every (checked as in the file)");
  run_cmd->add_option("--vtk", ro.vtk, "write a ParaView series (.pvd) to this folder");
  run_cmd->add_flag("-q,--quiet", ro.quiet, "no progress bar and no summary");
  run_cmd->add_option("--set", ro.sets,
                      "override a value of the model file: PATH=VALUE, e.g. "
                      "joints.rod_slider.clearance.radial=1e-3 (repeatable; value in YAML)");
  run_cmd->add_option("--sensitivity", ro.sensitivities,
                      "add the derivative of every channel with respect to this number of the "
                      "model file, columns d(<channel>)/d(PATH) (repeatable; docs/sensitivity.md)");

  std::vector<std::string> check_sets;
  auto* check_cmd = app.add_subcommand("check", "validate a model file without running it");
  check_cmd->add_option("model", model, "model file (YAML)")->required();
  check_cmd->add_option("--set", check_sets, "override a value of the model file: PATH=VALUE");
  auto* chan_cmd = app.add_subcommand("channels", "list every output channel a model offers");
  chan_cmd->add_option("model", model, "model file (YAML)")->required();
  auto* gear_cmd = cs::cli::add_gear_command(app);

  clearsim_cli::SweepCommand sweep;
  auto* sweep_cmd = sweep.add_to(app);
  clearsim_cli::EstimateCommand estimate;
  auto* estimate_cmd = estimate.add_to(app);
  clearsim_cli::MeasureCommand measure;
  auto* measure_cmd = measure.add_to(app);
  clearsim_cli::GradientCommand gradient;
  auto* gradient_cmd = gradient.add_to(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return clearsim_cli::report_parse_error(app, e, argc, argv);
  }
  ro.out_given = out_opt->count() > 0;
  try {
    if (*run_cmd) return run(ro, times);
    if (*check_cmd) return check(model, check_sets);
    if (*chan_cmd) return list_channels(model);
    if (*gear_cmd) return cs::cli::run_gear_command();
    if (*sweep_cmd) return sweep.run();
    if (*estimate_cmd) return estimate.run();
    if (*measure_cmd) return measure.run();
    if (*gradient_cmd) return gradient.run();
  } catch (const cs::ModelFileError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clearsim: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
