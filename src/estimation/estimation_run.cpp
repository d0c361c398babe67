// A filter run over recorded measurements (estimation_run.hpp).
#include "clearsim/estimation/estimation_run.hpp"

#include <cmath>
#include <stdexcept>

#include "clearsim/io/result_writer.hpp"

namespace cs {

namespace {

std::string row_name(const MeasurementTable& m, std::size_t r) {
  const int line = r < m.line.size() ? m.line[r] : 0;
  return line > 0 ? "line " + std::to_string(line) : "row " + std::to_string(r);
}

void record(const ExtendedKalmanFilter& ekf, EstimateSeries& out) {
  std::vector<double> values, sigmas;
  ekf.estimate_outputs(values, sigmas);
  const VecX p = ekf.parameters(), sp = ekf.parameter_sigma();
  for (Eigen::Index k = 0; k < p.size(); ++k) {
    values.push_back(p(k));
    sigmas.push_back(sp(k));
  }
  out.time.push_back(ekf.time());
  out.value.push_back(std::move(values));
  out.sigma.push_back(std::move(sigmas));
}

// The samples of row r of the sensors due now.
void use_row(ExtendedKalmanFilter& ekf, const MeasurementTable& m, std::size_t r) {
  std::vector<int> used;
  std::vector<double> y;
  for (int k : ekf.due()) {
    const double x = m.sample[r][static_cast<std::size_t>(k)];
    if (std::isnan(x)) continue;  // an empty cell: no sample of this sensor here
    used.push_back(k);
    y.push_back(x);
  }
  ekf.update(used, Eigen::Map<const VecX>(y.data(), static_cast<Eigen::Index>(y.size())));
}

}  // namespace

EstimateSeries run_estimation(ExtendedKalmanFilter& ekf, const MeasurementTable& m, int every) {
  if (every < 1) throw std::invalid_argument("every: expected a number of steps >= 1");
  EstimateSeries out;
  out.columns = ekf.outputs();
  for (const auto& c : out.columns) out.units.push_back(channel_unit(c));
  for (const auto& p : ekf.settings().parameters) out.columns.push_back(p.path);
  for (auto& u : ekf.parameter_units()) out.units.push_back(std::move(u));
  const double h = ekf.step_size();
  long step = 0;
  for (std::size_t r = 0; r < m.time.size(); ++r) {
    if (m.time[r] < ekf.time() - 0.5 * h)
      throw std::runtime_error(row_name(m, r) + ": the time " + std::to_string(m.time[r]) +
                               " s is before the filter's start");
    while (ekf.time() < m.time[r] - 0.5 * h) {
      if (step % every == 0) record(ekf, out);
      if (!ekf.predict()) throw std::runtime_error(ekf.why());
      ++step;
    }
    if (std::abs(ekf.time() - m.time[r]) > 1e-6 * h)
      throw std::runtime_error(row_name(m, r) + ": the time " + std::to_string(m.time[r]) +
                               " s is not on the filter's steps (solver.step " + std::to_string(h) +
                               " s)");
    use_row(ekf, m, r);
  }
  record(ekf, out);
  out.warnings = ekf.warnings();
  return out;
}

}  // namespace cs
