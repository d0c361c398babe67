// Test helper: records the values of a set of output channels (and their times) at every output
// point of a run, as the CSV writer would, for tests that check what a user reads.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs::testing {

class ChannelRecorder final : public StepObserver {
 public:
  // `channels` must outlive the run (it is evaluated at every output); the names are copied.
  explicit ChannelRecorder(const ChannelSet& channels)
      : channels_(channels), names_(channels.names()) {}
  void on_output(const State& s, const RunStats& stats) override {
    channels_.evaluate(s, stats, values_);
    rows.push_back(values_);
    times.push_back(s.t);
  }
  bool reads_joint_reactions() const override { return channels_.reads_joint_reactions(); }
  // Column k (in the order of the channel set) over all output points.
  std::vector<double> column(std::size_t k) const {
    std::vector<double> out;
    out.reserve(rows.size());
    for (const auto& r : rows) out.push_back(r[k]);
    return out;
  }
  // Column of the channel `name`; a test failure (and an empty column) if it was not recorded.
  std::vector<double> column(const std::string& name) const {
    const auto it = std::find(names_.begin(), names_.end(), name);
    EXPECT_NE(it, names_.end()) << "channel not recorded: " << name;
    if (it == names_.end()) return {};
    return column(static_cast<std::size_t>(it - names_.begin()));
  }
  std::vector<double> times;
  std::vector<std::vector<double>> rows;

 private:
  const ChannelSet& channels_;
  std::vector<std::string> names_;
  std::vector<double> values_;
};

}  // namespace cs::testing
