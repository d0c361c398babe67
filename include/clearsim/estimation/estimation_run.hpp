// A filter run over recorded measurements (docs/estimation.md): what `clearsim estimate` and the
// Python module's estimate() do, and the measurement file they read.
#pragma once

#include <string>
#include <vector>

#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/estimation/sensor.hpp"

namespace cs {

// Samples at times: rows × sensors (the sensors' order), NaN where a row has no sample of a
// sensor (an empty cell).
struct MeasurementTable {
  std::vector<double> time;                 // increasing [s]
  std::vector<std::vector<double>> sample;  // per row, one per sensor
  std::vector<int> line;                    // per row: its line in the file (1-based), 0 if none
};

// A CSV as `clearsim run` and `clearsim measure` write it: '#' comment lines, a header
// "time,<column>,...", one row per line. Each column is a sensor, named by its name or by its
// channel; every sensor has one. Throws std::runtime_error naming the file, line and column of
// an unknown or missing column (with "did you mean"), a row of the wrong width, a time that does
// not increase, a cell that is not a number or not finite (an empty cell is no sample).
MeasurementTable read_measurements(const std::string& path, const std::vector<Sensor>& sensors);

// The estimates of a run: the filter's outputs then its parameters, with their σ, per row.
struct EstimateSeries {
  std::vector<std::string> columns;  // outputs, then the parameters' paths
  // Per column, the unit of its values and σ: an output's channel_unit, a parameter's that of
  // the model file's number at its path (ExtendedKalmanFilter::parameter_units).
  std::vector<std::string> units;
  std::vector<double> time;                // [s]
  std::vector<std::vector<double>> value;  // per row, one per column
  std::vector<std::vector<double>> sigma;  // per row, one per column
  std::vector<std::string> warnings;       // the filter's
};

// Runs `ekf` from its start to the last row of `m`: a step at a time, each row's samples of the
// sensors due then used at its time (which must lie on the step grid). A row every `every`-th
// step. Throws std::runtime_error naming the row (and its sensor) at fault, or a failed step.
EstimateSeries run_estimation(ExtendedKalmanFilter& ekf, const MeasurementTable& m, int every);

}  // namespace cs
