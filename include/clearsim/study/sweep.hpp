// Parameter sweeps: a grid of overrides of one model file, each run in its own process, and one
// table of the results (clearsim sweep, clearsim.sweep in Python).
//
// Each run writes its channels to a CSV file and reports a summary: the largest contact force
// (over every step, of the channels <joint>.contact_force… of rigid contacts and
// <joint>.normal_force of compliant ones), the largest penetration, contact onsets and impact
// steps, and the RMS distance of one chosen channel from the reference run (the model as
// written, without the sweep's overrides). A run that fails is reported with its error; the
// others go on.
#pragma once

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {

// One varied parameter. From the text "PATH=a:b:n" (n values evenly spaced from a to b, both
// included) or "PATH=v1,v2,..." (the listed YAML values); throws std::invalid_argument.
struct SweepAxis {
  std::string path;
  std::vector<std::string> values;  // YAML text
};
SweepAxis parse_sweep_axis(const std::string& spec);

// Every combination of the axes' values (the first axis varies slowest).
std::vector<std::vector<Override>> sweep_grid(const std::vector<SweepAxis>& axes);

// One run of a sweep.
struct SweepRun {
  std::vector<Override> parameters;  // the sweep's overrides of this run
  bool ok = false;
  std::string error;  // why it failed (model error, solver failure)
  RunStats stats;
  double max_contact_force = 0.0;  // [N]; 0 when the model has no contact channel
  double rms_distance = std::numeric_limits<double>::quiet_NaN();  // of the chosen channel
  std::string csv;                                                 // the run's channels
  std::string channel;                                             // the chosen channel
  std::vector<double> time, values;  // the chosen channel at the output points
  // With gradients (SweepOptions::gradients, docs/sensitivity.md), one entry per gradient path:
  // d(max_contact_force)/dp (the derivative of the contact channel at the step of its largest
  // value) and d(rms_distance)/dp; d_values holds d(chosen channel)/dp at each output point,
  // path-major (time.size() values per path).
  std::vector<double> d_max_contact_force, d_rms_distance, d_values;
};

// One run: the model text with `overrides`, its channels written to `csv_path`, the channel
// `channel` (empty: the first of the model's channels) kept for the comparison, and with
// `gradients` (numeric paths of the model file) the run's direct sensitivities to each: its
// summary's derivatives (SweepRun::d_*). Never throws: a run whose model has no sensitivities
// (DirectSensitivity::unsupported) fails with that reason.
SweepRun run_sweep_point(const std::string& text, const std::string& name,
                         const std::vector<Override>& overrides, const std::string& csv_path,
                         const std::string& channel,
                         const std::vector<std::string>& gradients = {});

// RMS over a run's output times of (channel − reference channel), the reference interpolated
// linearly in time when the output times differ; NaN when either run failed.
double rms_distance(const SweepRun& run, const SweepRun& reference);
// Its derivative with respect to gradient path k of `run` (the reference held fixed):
// Σ (x − r) dx/dp / (N · RMS); NaN when the run has no such gradient or the RMS is 0.
double rms_distance_derivative(const SweepRun& run, const SweepRun& reference, std::size_t k);

struct SweepOptions {
  std::vector<Override> base;          // applied to every run, the reference included
  std::string out_dir = "sweep";       // run CSVs and the table (sweep.csv)
  std::string channel;                 // compared with the reference run; empty: the first channel
  int jobs = 0;                        // processes at a time; 0: every core
  std::vector<std::string> gradients;  // paths: each run's summary differentiated with respect to
                                       // them (run_sweep_point)
  // Asked about ten times a second while runs go on; when it returns true the running children
  // are killed and run_sweep throws SweepInterrupted (Ctrl-C in Python).
  std::function<bool()> interrupted;
};

struct SweepInterrupted : std::runtime_error {
  SweepInterrupted() : std::runtime_error("the sweep was interrupted") {}
};

struct SweepResult {
  std::vector<SweepAxis> axes;
  std::vector<std::string> gradients;  // the runs' gradient paths (SweepOptions::gradients)
  SweepRun reference;
  std::vector<SweepRun> runs;  // in grid order
  double wall_seconds = 0.0;   // of the whole sweep
};

// Runs the reference and every point of the grid, `jobs` processes at a time (fork), and fills
// in the RMS distances. Throws std::runtime_error when out_dir cannot be made.
SweepResult run_sweep(const std::string& text, const std::string& name,
                      const std::vector<SweepAxis>& axes, const SweepOptions& options);

// The RMS distances of every run from the reference.
void compare_with_reference(SweepResult& result);

// The table as CSV: run, one column per axis, ok, the summary, its gradients
// (d(max_contact_force)/d(PATH), d(rms_distance(CHANNEL))/d(PATH) per gradient path), steps,
// Newton iterations, wall time, csv, error.
void write_sweep_table(const std::string& path, const SweepResult& result);

// A run as bytes and back (between processes, and for Python's pickle).
std::string serialize(const SweepRun& run);
SweepRun deserialize_sweep_run(const std::string& bytes);

}  // namespace cs
