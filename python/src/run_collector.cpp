#include "run_collector.hpp"

namespace clearsim_py {

RunCollector::RunCollector(const cs::ChannelSet& channels, double t_end, py::object progress,
                           const cs::DirectSensitivity* sens)
    : channels_(channels),
      sens_(sens),
      names_(channels.names()),
      t_end_(t_end),
      progress_(std::move(progress)),
      pacer_(std::chrono::milliseconds(100)) {
  if (sens_ != nullptr)
    for (const std::string& c : sens_->column_names()) names_.push_back(c);
}

void RunCollector::on_output(const cs::State& s, const cs::RunStats& stats) {
  channels_.evaluate(s, stats, values_);
  for (std::string& w : channels_.undefined_now(values_, s.t, undefined_warned_))
    warnings_.push_back(std::move(w));
  if (sens_ != nullptr) sens_->channel_derivatives(s, stats, values_);
  time_.push_back(s.t);
  data_.insert(data_.end(), values_.begin(), values_.end());
}

void RunCollector::on_step(const cs::State& s, const cs::RunStats& /*stats*/) {
  // Python is entered at most ten times a second; the clock is read about every half
  // millisecond whatever a step costs (signal_watch.hpp), so a model of slow steps (a gear mesh)
  // is interrupted as promptly as a fast one.
  if (!pacer_.due()) return;
  py::gil_scoped_acquire gil;
  try {
    if (!progress_.is_none()) progress_(s.t, t_end_);
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  } catch (py::error_already_set& e) {
    pending_ = std::make_unique<py::error_already_set>(std::move(e));
    throw Abort{};
  }
}

void RunCollector::run_guarded(const std::function<void()>& body) {
  {
    py::gil_scoped_release release;
    try {
      body();
    } catch (const Abort&) {
    }
  }
  if (pending_) {
    pending_->restore();
    pending_.reset();
    throw py::error_already_set();
  }
  // A last call with the time reached, so that a bar can close.
  if (!progress_.is_none() && !time_.empty()) progress_(time_.back(), t_end_);
}

py::dict RunCollector::arrays() const {
  py::dict out;
  const std::size_t n = time_.size();
  const std::vector<std::string>& names = names_;
  py::array_t<double> t(static_cast<py::ssize_t>(n));
  std::copy(time_.begin(), time_.end(), t.mutable_data());
  out["time"] = t;
  for (std::size_t c = 0; c < names.size(); ++c) {
    py::array_t<double> column(static_cast<py::ssize_t>(n));
    double* dst = column.mutable_data();
    for (std::size_t r = 0; r < n; ++r) dst[r] = data_[r * names.size() + c];
    out[py::str(names[c])] = column;
  }
  return out;
}

}  // namespace clearsim_py
