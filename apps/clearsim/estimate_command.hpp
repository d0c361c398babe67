// `clearsim estimate`: an extended Kalman filter over a measurement file (docs/estimation.md);
// `clearsim measure`: synthetic measurements of a model's sensors, with their noise.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace clearsim_cli {

struct EstimateCommand {
  std::string model, measurements, out;
  std::vector<std::string> sets, parameters;            // --set, --parameter PATH=SIGMA[:WALK]
  double sigma_position = 1e-3, sigma_rotation = 1e-3;  // the initial state's σ
  double sigma_velocity = 1e-2, sigma_angular_velocity = 1e-2;
  double acceleration_noise = 0.0, angular_acceleration_noise = 0.0;
  int every = 1;
  std::string filter = "ekf";  // --filter ekf|ukf
  std::string ukf_alpha;       // --ukf-alpha A (empty: not given); parsed by run() to name it
  bool quiet = false;

  CLI::App* add_to(CLI::App& app);
  int run() const;
};

struct MeasureCommand {
  std::string model, out;
  std::vector<std::string> sets;
  unsigned long long seed = 1;

  CLI::App* add_to(CLI::App& app);
  int run() const;
};

}  // namespace clearsim_cli
