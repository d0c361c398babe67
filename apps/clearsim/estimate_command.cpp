#include "estimate_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "clearsim/estimation/estimation_run.hpp"
#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/estimation/sensor_channels.hpp"
#include "clearsim/io/csv_writer.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/result_writer.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "clearsim/version.hpp"

namespace clearsim_cli {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the model file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<cs::Override> overrides_of(const std::vector<std::string>& sets) {
  std::vector<cs::Override> o;
  for (const auto& s : sets) o.push_back(cs::parse_override(s));
  return o;
}

// PATH=SIGMA or PATH=SIGMA:WALK.
cs::FilterSettings::Parameter parse_parameter(const std::string& text) {
  const auto eq = text.find('=');
  const std::string label = "--parameter " + text;
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(label + ": expected PATH=SIGMA or PATH=SIGMA:WALK");
  cs::FilterSettings::Parameter p;
  p.path = text.substr(0, eq);
  const std::string rest = text.substr(eq + 1);
  char* end = nullptr;
  p.sigma = std::strtod(rest.c_str(), &end);
  if (end == rest.c_str() || (*end != '\0' && *end != ':'))
    throw std::invalid_argument(label + ": expected a number SIGMA after '='");
  if (*end == ':') {
    const char* walk = end + 1;
    p.walk = std::strtod(walk, &end);
    if (end == walk || *end != '\0')
      throw std::invalid_argument(label + ": expected a number WALK after ':'");
  }
  if (!(p.sigma > 0.0) || !(p.walk >= 0.0))
    throw std::invalid_argument(label + ": expected SIGMA > 0 and WALK >= 0");
  return p;
}

// --ukf-alpha A: a number in (0, 1], only with --filter ukf (the extended filter has no sigma
// points). Read here rather than by CLI11 so that every refusal names the option.
double parse_ukf_alpha(const std::string& text, cs::FilterKind kind) {
  const std::string label = "--ukf-alpha " + text;
  char* end = nullptr;
  const double alpha = std::strtod(text.c_str(), &end);
  if (text.empty() || end == text.c_str() || *end != '\0')
    throw std::invalid_argument(label + ": expected a number in (0, 1]");
  if (!(alpha > 0.0 && alpha <= 1.0))
    throw std::invalid_argument(label + ": expected a number in (0, 1]");
  if (kind != cs::FilterKind::kUnscented)
    throw std::invalid_argument(label +
                                ": only with --filter ukf (the extended filter has no "
                                "sigma points)");
  return alpha;
}

}  // namespace

CLI::App* EstimateCommand::add_to(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "estimate",
      "estimate a model's state and parameters from its sensors' measurements with an "
      "extended or unscented Kalman filter; write the estimated channels with their sigma");
  cmd->add_option("model", model, "model file (YAML) with a sensors section")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--measurements", measurements,
                  "CSV: a time column and one column per sensor (by name or channel)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", out,
                  "estimates file: CSV, or HDF5 for a name ending in .h5 or .hdf5 (default: "
                  "<model>_estimate.csv)");
  cmd->add_option("--set", sets, "override a value of the model file: PATH=VALUE (repeatable)");
  cmd->add_option("--parameter", parameters,
                  "estimate this number of the model file too: PATH=SIGMA[:WALK], SIGMA the "
                  "initial guess's standard deviation, WALK its random walk per sqrt(s)");
  cmd->add_option("--sigma-position", sigma_position, "initial sigma of positions [m]");
  cmd->add_option("--sigma-rotation", sigma_rotation, "initial sigma of rotations [rad]");
  cmd->add_option("--sigma-velocity", sigma_velocity, "initial sigma of velocities [m/s]");
  cmd->add_option("--sigma-angular-velocity", sigma_angular_velocity,
                  "initial sigma of angular velocities [rad/s]");
  cmd->add_option("--acceleration-noise", acceleration_noise,
                  "process noise: white acceleration density [m/s^2/sqrt(Hz)]");
  cmd->add_option("--angular-acceleration-noise", angular_acceleration_noise,
                  "process noise: white angular acceleration density [rad/s^2/sqrt(Hz)]");
  cmd->add_option("--filter", filter,
                  "ekf (extended, default: the step's tangent propagates the covariance) or ukf "
                  "(unscented: sigma points stepped by the plant, no Jacobian)");
  cmd->add_option("--ukf-alpha", ukf_alpha,
                  "the unscented filter's spread alpha in (0, 1]: sigma points at "
                  "+-alpha*sqrt(c) sigma along the covariance's c columns (default 1)");
  cmd->add_option("--every", every, "write every N-th step (default 1)");
  cmd->add_flag("-q,--quiet", quiet, "print nothing but errors and warnings");
  return cmd;
}

int EstimateCommand::run() const {
  const std::string text = read_text(model);
  cs::FilterSettings f;
  f.kind = cs::parse_filter_kind(filter);
  if (!ukf_alpha.empty()) f.ukf_alpha = parse_ukf_alpha(ukf_alpha, f.kind);
  for (const auto& p : parameters) f.parameters.push_back(parse_parameter(p));
  f.sigma_position = sigma_position;
  f.sigma_rotation = sigma_rotation;
  f.sigma_velocity = sigma_velocity;
  f.sigma_angular_velocity = sigma_angular_velocity;
  f.acceleration_noise = acceleration_noise;
  f.angular_acceleration_noise = angular_acceleration_noise;
  const auto overrides = overrides_of(sets);
  const auto start = std::chrono::steady_clock::now();
  cs::ExtendedKalmanFilter ekf(text, model, overrides, f);
  const cs::LoadedModel lm = cs::load_model_string(text, model, overrides);
  {
    const cs::System sys(lm.model);
    ekf.set_outputs(cs::model_channels(lm, sys).names());
  }
  const cs::MeasurementTable table = cs::read_measurements(measurements, ekf.sensors());
  const cs::EstimateSeries series = cs::run_estimation(ekf, table, every);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Each column and its σ in the column's unit (a parameter's: the model file's, series.units).
  std::vector<std::string> columns, units;
  for (std::size_t c = 0; c < series.columns.size(); ++c) {
    columns.insert(columns.end(), {series.columns[c], "sigma(" + series.columns[c] + ")"});
    units.insert(units.end(), {series.units[c], series.units[c]});
  }
  const std::string path =
      out.empty() ? std::filesystem::path(model).stem().string() + "_estimate.csv" : out;
  // HDF5 records what made the estimates besides them (CSV ignores it).
  cs::ResultMetadata meta;
  std::string sets_text;
  for (const auto& s : sets) sets_text += s + '\n';
  meta.text = {{"model", text},
               {"model_file", model},
               {"overrides", sets_text},
               {"analysis", "estimate"},
               {"measurements", measurements},
               {"clearsim_version", cs::version()},
               {"clearsim_commit", cs::commit()}};
  const auto writer = cs::open_result_writer(path, columns, meta, units);
  std::vector<double> row(columns.size());
  for (std::size_t r = 0; r < series.time.size(); ++r) {
    for (std::size_t c = 0; c < series.columns.size(); ++c) {
      row[2 * c] = series.value[r][c];
      row[2 * c + 1] = series.sigma[r][c];
    }
    writer->write(series.time[r], row);
  }
  writer->flush();
  for (const auto& w : series.warnings)
    std::fprintf(stderr, "%s: warning: %s\n", model.c_str(), w.c_str());
  if (!quiet)
    std::fprintf(stderr, "estimate: %zu measurement rows to t = %g s in %.3g s; results: %s\n",
                 table.time.size(), ekf.time(), seconds, path.c_str());
  return 0;
}

CLI::App* MeasureCommand::add_to(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "measure",
      "simulate a model and write its sensors' samples with their noise (synthetic "
      "measurements for clearsim estimate)");
  cmd->add_option("model", model, "model file (YAML) with a sensors section")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", out, "measurements CSV (default: <model>_measurements.csv)");
  cmd->add_option("--set", sets, "override a value of the model file: PATH=VALUE (repeatable)");
  cmd->add_option("--seed", seed, "seed of the noise (default 1)");
  return cmd;
}

int MeasureCommand::run() const {
  const cs::LoadedModel lm = cs::load_model_string(read_text(model), model, overrides_of(sets));
  cs::System sys(lm.model);
  const cs::ChannelSet channels = cs::sensor_channels(lm, sys);
  cs::Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  if (!sim.initialize(notes)) throw std::runtime_error(sim.stats().message);
  std::vector<std::string> names;
  std::vector<long> every;
  for (const auto& s : lm.sensors) {
    names.push_back(s.name);
    every.push_back(std::max(1L, std::lround(1.0 / (s.rate * sim.step_size()))));
  }
  const std::string path =
      out.empty() ? std::filesystem::path(model).stem().string() + "_measurements.csv" : out;
  // A sensor not sampled at a row's time has an empty cell there (multi-rate sensors).
  std::ofstream csv(path);
  if (!csv) throw std::runtime_error("cannot write the measurements file '" + path + "'");
  // The command that made the file, overrides included: they are the hidden truth.
  csv << "# clearsim measure " << model;
  for (const auto& s : sets) csv << " --set " << s;
  csv << " --seed " << seed << "\ntime";
  for (const auto& n : names) csv << ',' << n;
  csv << '\n';
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> values;
  long rows = 0;
  char buf[32];
  for (long n = 0;; ++n) {
    channels.evaluate(sim.state(), sim.stats(), values);
    std::string line;
    bool any = false;
    for (std::size_t k = 0; k < names.size(); ++k) {
      line += ',';
      if (n % every[k] != 0) continue;
      any = true;
      std::snprintf(buf, sizeof buf, "%.17g", values[k] + lm.sensors[k].noise * normal(rng));
      line += buf;
    }
    if (any) {
      std::snprintf(buf, sizeof buf, "%.17g", sim.state().t);
      csv << buf << line << '\n';
      ++rows;
    }
    if (sim.reached(lm.run.solver.end)) break;
    if (!sim.step()) throw std::runtime_error(sim.stats().message);
  }
  if (!csv.flush()) throw std::runtime_error("cannot write the measurements file '" + path + "'");
  std::fprintf(stderr, "measure: %ld rows of %zu sensors to t = %g s (seed %llu): %s\n", rows,
               names.size(), sim.state().t, seed, path.c_str());
  return 0;
}

}  // namespace clearsim_cli
