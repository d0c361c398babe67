// One run of a sweep: the model with its overrides, channels to CSV, the summary and the chosen
// channel kept for the comparison with the reference.
#include <algorithm>
#include <cmath>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/csv_writer.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/sensitivity/direct_sensitivity.hpp"
#include "clearsim/study/sweep.hpp"

namespace cs {

namespace {

// Channels whose largest value is the run's contact force: rigid contacts' contact_force…
// and compliant contacts' normal_force.
std::vector<std::string> contact_force_channels(const System& sys) {
  std::vector<std::string> out;
  for (const std::string& c : ChannelSet::available(sys)) {
    const std::size_t dot = c.rfind('.');
    const std::string quantity = c.substr(dot + 1);
    if (quantity.rfind("contact_force", 0) == 0 || quantity == "normal_force") out.push_back(c);
  }
  return out;
}

class SweepObserver final : public StepObserver {
 public:
  // With `sens` (gradients), built on the channels {chosen} + contact names, in that order.
  SweepObserver(const ChannelSet& channels, const ChannelSet& chosen, const ChannelSet* contact,
                CsvWriter& csv, SweepRun& run, const DirectSensitivity* sens)
      : channels_(channels),
        chosen_(chosen),
        contact_(contact),
        csv_(csv),
        run_(run),
        sens_(sens),
        width_(1 + (contact ? contact->names().size() : 0)) {}

  void on_output(const State& s, const RunStats& stats) override {
    channels_.evaluate(s, stats, values_);
    csv_.write(s.t, values_);
    chosen_.evaluate(s, stats, one_);
    run_.time.push_back(s.t);
    run_.values.push_back(one_[0]);
    if (sens_) {
      derivatives(s, stats);
      chosen_d_.push_back(d_);
    }
  }
  void on_step(const State& s, const RunStats& stats) override {
    if (!contact_) return;
    contact_->evaluate(s, stats, forces_);
    int newest = -1;  // the contact channel of a new largest force at this step, if any
    for (std::size_t c = 0; c < forces_.size(); ++c)
      if (forces_[c] > run_.max_contact_force) {
        run_.max_contact_force = forces_[c];
        newest = static_cast<int>(c);
      }
    if (newest < 0 || !sens_) return;
    derivatives(s, stats);  // a new maximum is rare: its derivative is taken only then
    run_.d_max_contact_force.assign(d_.size() / width_, 0.0);
    for (std::size_t k = 0; k < run_.d_max_contact_force.size(); ++k)
      run_.d_max_contact_force[k] = d_[k * width_ + 1 + static_cast<std::size_t>(newest)];
  }
  // d(chosen channel)/dp at each output point, path-major.
  std::vector<double> chosen_derivatives() const {
    std::vector<double> out;
    if (chosen_d_.empty()) return out;
    const std::size_t paths = chosen_d_.front().size() / width_;
    for (std::size_t k = 0; k < paths; ++k)
      for (const auto& d : chosen_d_) out.push_back(d[k * width_]);
    return out;
  }

 private:
  void derivatives(const State& s, const RunStats& stats) {
    d_.clear();
    sens_->channel_derivatives(s, stats, d_);
  }

  const ChannelSet& channels_;
  const ChannelSet& chosen_;
  const ChannelSet* contact_;
  CsvWriter& csv_;
  SweepRun& run_;
  const DirectSensitivity* sens_;
  std::size_t width_;  // differentiated channels: the chosen one, then the contact channels
  std::vector<double> values_, one_, forces_, d_;
  std::vector<std::vector<double>> chosen_d_;  // every derivative column at each output point
};

// The run's sensitivities to `gradients` on the channels {chosen} + contact (null without
// gradients). Throws std::runtime_error when the model has none (DirectSensitivity::unsupported).
std::unique_ptr<DirectSensitivity> sweep_sensitivities(const std::string& text,
                                                       const std::string& name,
                                                       const std::vector<Override>& overrides,
                                                       const std::vector<std::string>& gradients,
                                                       const std::vector<std::string>& channels,
                                                       const System& sys, RunSettings& run) {
  if (gradients.empty()) return nullptr;
  std::string note;
  run = DirectSensitivity::adapted(run, note);
  if (const std::string why = DirectSensitivity::unsupported(sys, run); !why.empty())
    throw std::runtime_error(name + ": error: no gradients: " + why);
  return std::make_unique<DirectSensitivity>(text, name, overrides, gradients, channels, sys, run);
}

}  // namespace

SweepRun run_sweep_point(const std::string& text, const std::string& name,
                         const std::vector<Override>& overrides, const std::string& csv_path,
                         const std::string& channel, const std::vector<std::string>& gradients) {
  SweepRun run;
  run.parameters = overrides;
  run.csv = csv_path;
  try {
    LoadedModel lm = load_model_string(text, name, overrides);
    System sys(lm.model);
    const ChannelSet channels = model_channels(lm, sys);
    run.channel = channel.empty() ? channels.names().front() : channel;
    const ChannelSet chosen(sys, {run.channel});
    const std::vector<std::string> contact_names = contact_force_channels(sys);
    std::unique_ptr<ChannelSet> contact;
    if (!contact_names.empty()) contact = std::make_unique<ChannelSet>(sys, contact_names);
    if (const std::string why = incompatible_settings(sys, lm.run.solver); !why.empty())
      throw std::runtime_error(name + ": error: " + why);
    std::vector<std::string> differentiated{run.channel};
    differentiated.insert(differentiated.end(), contact_names.begin(), contact_names.end());
    const auto sens =
        sweep_sensitivities(text, name, overrides, gradients, differentiated, sys, lm.run);
    CsvWriter csv(csv_path, channels.names());
    SweepObserver observer(channels, chosen, contact.get(), csv, run, sens.get());
    std::vector<std::string> notes;
    State state;
    run.stats = sens ? run_with_sensitivities(sys, lm.run, *sens, observer, state, notes)
                     : run_analysis(sys, lm.run, observer, state, notes);
    csv.flush();
    if (sens) {
      run.d_values = observer.chosen_derivatives();
      if (run.d_max_contact_force.empty()) run.d_max_contact_force.assign(gradients.size(), 0.0);
    }
    run.ok = run.stats.ok;
    if (!run.ok) run.error = name + ": error: " + run.stats.message;
  } catch (const std::exception& e) {
    run.ok = false;
    run.error = e.what();
  }
  return run;
}

namespace {

// The reference channel at time t: its own value at the same output point, else interpolated
// linearly in time, held constant outside its time range.
double reference_at(const SweepRun& ref, std::size_t k, double t) {
  if (k < ref.time.size() && ref.time[k] == t) return ref.values[k];
  const auto it = std::lower_bound(ref.time.begin(), ref.time.end(), t);
  if (it == ref.time.begin()) return ref.values.front();
  if (it == ref.time.end()) return ref.values.back();
  const std::size_t j = static_cast<std::size_t>(it - ref.time.begin());
  const double w = (t - ref.time[j - 1]) / (ref.time[j] - ref.time[j - 1]);
  return (1.0 - w) * ref.values[j - 1] + w * ref.values[j];
}

}  // namespace

double rms_distance(const SweepRun& run, const SweepRun& ref) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!run.ok || !ref.ok || run.time.empty() || ref.time.empty()) return nan;
  double sum = 0.0;
  for (std::size_t k = 0; k < run.time.size(); ++k) {
    const double d = run.values[k] - reference_at(ref, k, run.time[k]);
    sum += d * d;
  }
  return std::sqrt(sum / static_cast<double>(run.time.size()));
}

double rms_distance_derivative(const SweepRun& run, const SweepRun& ref, std::size_t k) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t n = run.time.size();
  const double rms = rms_distance(run, ref);
  if (!(rms > 0.0) || run.d_values.size() < (k + 1) * n) return nan;
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    sum += (run.values[i] - reference_at(ref, i, run.time[i])) * run.d_values[k * n + i];
  return sum / (static_cast<double>(n) * rms);
}

}  // namespace cs
