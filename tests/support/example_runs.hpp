// Test helper: load a shipped example (or a variant of its text), run it shortened, and record
// chosen channels — what the regression tests of the examples share.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/channel_recorder.hpp"

namespace cs::testing {

inline std::string example_path(const std::string& name, const std::string& file = "model.yaml") {
  return std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + name + "/" + file;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// `text` with its one occurrence of `from` replaced by `to` (a test failure if not exactly one).
inline std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "not found: " << from;
  if (at == std::string::npos) return text;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << "found twice: " << from;
  return text.replace(at, from.size(), to);
}

struct ExampleRun {
  RunStats stats;
  std::vector<std::string> notes;
  std::vector<double> t;
  std::vector<std::vector<double>> columns;  // in the order of the requested channels
};

// Runs a loaded model up to `end` (0: the file's end), recording `channels` every `every` steps.
// The model must load without warnings and the run must reach its end.
inline ExampleRun run_loaded(LoadedModel lm, double end, int every,
                             const std::vector<std::string>& channels) {
  EXPECT_TRUE(lm.warnings.empty()) << lm.path << ": " << lm.warnings.front();
  if (end > 0.0) lm.run.solver.end = end;
  lm.run.output.every = every;
  System sys(lm.model);
  ChannelSet set(sys, channels);
  ChannelRecorder rec(set);
  ExampleRun r;
  State s;
  r.stats = run_analysis(sys, lm.run, rec, s, r.notes);
  EXPECT_TRUE(r.stats.ok) << lm.path << ": " << r.stats.message;
  EXPECT_NEAR(rec.times.back(), lm.run.solver.end, 1e-12) << lm.path;
  r.t = rec.times;
  for (std::size_t k = 0; k < channels.size(); ++k) r.columns.push_back(rec.column(k));
  return r;
}

inline ExampleRun run_file(const std::string& name, const std::string& file, double end, int every,
                           const std::vector<std::string>& channels) {
  return run_loaded(load_model_file(example_path(name, file)), end, every, channels);
}

inline double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }
inline double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
inline double max_abs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

}  // namespace cs::testing
