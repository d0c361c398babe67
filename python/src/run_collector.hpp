// A run's observer for Python: keeps every output point in memory (returned as numpy arrays),
// calls the progress callback at most ten times a second, and lets Ctrl-C or an exception in the
// callback stop the run. The engine runs without the GIL.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "bindings.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "signal_watch.hpp"

namespace clearsim_py {

class RunCollector final : public cs::StepObserver {
 public:
  // `progress`: None, or a callable progress(t, t_end). `sens` (may be null) adds its derivative
  // columns d(<channel>)/d(<path>) after the channels.
  RunCollector(const cs::ChannelSet& channels, double t_end, py::object progress,
               const cs::DirectSensitivity* sens = nullptr);

  void on_output(const cs::State& s, const cs::RunStats& stats) override;
  void on_step(const cs::State& s, const cs::RunStats& stats) override;

  // Runs `body` with the GIL released; a Python error from the progress callback or a signal
  // (KeyboardInterrupt) stops it and is raised here.
  void run_guarded(const std::function<void()>& body);

  // {"time": array, "<channel>": array, ...} in the order of the channel set.
  py::dict arrays() const;
  long rows() const { return static_cast<long>(time_.size()); }
  // What the output found without stopping the run (an efficiency undefined where no power
  // enters), each said once.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Abort {};  // unwinds the engine's run loop after a Python error

  const cs::ChannelSet& channels_;
  const cs::DirectSensitivity* sens_;
  std::vector<std::string> names_;  // the channels', then the derivatives' columns
  double t_end_;
  py::object progress_;
  std::vector<double> time_, data_;  // data_: rows × channels, row-major
  std::vector<double> values_;
  Pacer pacer_;
  std::vector<std::string> warnings_;
  std::vector<bool> undefined_warned_;
  std::unique_ptr<py::error_already_set> pending_;
};

}  // namespace clearsim_py
