// One run of a sweep: the model with its overrides, channels to CSV, the summary and the chosen
// channel kept for the comparison with the reference.
#include <algorithm>
#include <cmath>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/csv_writer.hpp"
#include "clearsim/io/model_channels.hpp"
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
  SweepObserver(const ChannelSet& channels, const ChannelSet& chosen, const ChannelSet* contact,
                CsvWriter& csv, SweepRun& run)
      : channels_(channels), chosen_(chosen), contact_(contact), csv_(csv), run_(run) {}

  void on_output(const State& s, const RunStats& stats) override {
    channels_.evaluate(s, stats, values_);
    csv_.write(s.t, values_);
    chosen_.evaluate(s, stats, one_);
    run_.time.push_back(s.t);
    run_.values.push_back(one_[0]);
  }
  void on_step(const State& s, const RunStats& stats) override {
    if (!contact_) return;
    contact_->evaluate(s, stats, forces_);
    for (double f : forces_) run_.max_contact_force = std::max(run_.max_contact_force, f);
  }

 private:
  const ChannelSet& channels_;
  const ChannelSet& chosen_;
  const ChannelSet* contact_;
  CsvWriter& csv_;
  SweepRun& run_;
  std::vector<double> values_, one_, forces_;
};

}  // namespace

SweepRun run_sweep_point(const std::string& text, const std::string& name,
                         const std::vector<Override>& overrides, const std::string& csv_path,
                         const std::string& channel) {
  SweepRun run;
  run.parameters = overrides;
  run.csv = csv_path;
  try {
    const LoadedModel lm = load_model_string(text, name, overrides);
    System sys(lm.model);
    const ChannelSet channels = model_channels(lm, sys);
    run.channel = channel.empty() ? channels.names().front() : channel;
    const ChannelSet chosen(sys, {run.channel});
    const std::vector<std::string> contact_names = contact_force_channels(sys);
    std::unique_ptr<ChannelSet> contact;
    if (!contact_names.empty()) contact = std::make_unique<ChannelSet>(sys, contact_names);
    if (const std::string why = incompatible_settings(sys, lm.run.solver); !why.empty())
      throw std::runtime_error(name + ": error: " + why);
    CsvWriter csv(csv_path, channels.names());
    SweepObserver observer(channels, chosen, contact.get(), csv, run);
    std::vector<std::string> notes;
    State state;
    run.stats = run_analysis(sys, lm.run, observer, state, notes);
    csv.flush();
    run.ok = run.stats.ok;
    if (!run.ok) run.error = name + ": error: " + run.stats.message;
  } catch (const std::exception& e) {
    run.ok = false;
    run.error = e.what();
  }
  return run;
}

double rms_distance(const SweepRun& run, const SweepRun& ref) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!run.ok || !ref.ok || run.time.empty() || ref.time.empty()) return nan;
  double sum = 0.0;
  for (std::size_t k = 0; k < run.time.size(); ++k) {
    const double t = run.time[k];
    double r = 0.0;
    if (k < ref.time.size() && ref.time[k] == t) {
      r = ref.values[k];
    } else {
      // Linear interpolation of the reference, held constant outside its time range.
      const auto it = std::lower_bound(ref.time.begin(), ref.time.end(), t);
      if (it == ref.time.begin()) {
        r = ref.values.front();
      } else if (it == ref.time.end()) {
        r = ref.values.back();
      } else {
        const std::size_t j = static_cast<std::size_t>(it - ref.time.begin());
        const double w = (t - ref.time[j - 1]) / (ref.time[j] - ref.time[j - 1]);
        r = (1.0 - w) * ref.values[j - 1] + w * ref.values[j];
      }
    }
    const double d = run.values[k] - r;
    sum += d * d;
  }
  return std::sqrt(sum / static_cast<double>(run.time.size()));
}

}  // namespace cs
