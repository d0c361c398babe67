// The extended Kalman filter (clearsim/estimation) for clearsim.estimate and
// clearsim.KalmanFilter (python/clearsim/estimate.py): whole runs over arrays of samples, and
// step-by-step use.
#include <pybind11/eigen.h>

#include <cmath>

#include "bindings.hpp"
#include "clearsim/estimation/estimation_run.hpp"
#include "clearsim/estimation/extended_kalman_filter.hpp"

namespace clearsim_py {

namespace {

double number_or(const py::dict& d, const char* key, double fallback) {
  return d.contains(key) ? d[key].cast<double>() : fallback;
}

// {"sigma_position": ..., ..., "parameters": [(path, sigma, walk), ...]}
cs::FilterSettings filter_settings(const py::dict& d) {
  cs::FilterSettings f;
  if (d.contains("filter")) f.kind = cs::parse_filter_kind(d["filter"].cast<std::string>());
  f.sigma_position = number_or(d, "sigma_position", 1e-3);
  f.sigma_rotation = number_or(d, "sigma_rotation", 1e-3);
  f.sigma_velocity = number_or(d, "sigma_velocity", 1e-2);
  f.sigma_angular_velocity = number_or(d, "sigma_angular_velocity", 1e-2);
  f.acceleration_noise = number_or(d, "acceleration_noise", 0.0);
  f.angular_acceleration_noise = number_or(d, "angular_acceleration_noise", 0.0);
  f.ukf_alpha = number_or(d, "ukf_alpha", 1.0);  // checked by the filter (check_unscented_alpha)
  if (d.contains("parameters"))
    for (const auto& p :
         d["parameters"].cast<std::vector<std::tuple<std::string, double, double>>>())
      f.parameters.push_back({std::get<0>(p), std::get<1>(p), std::get<2>(p)});
  return f;
}

// Samples given as arrays: time [rows], samples [rows × sensors]; NaN is no sample, an infinite
// value an error naming its row and sensor.
cs::MeasurementTable table_of(
    const cs::ExtendedKalmanFilter& ekf,
    const py::array_t<double, py::array::c_style | py::array::forcecast>& t,
    const py::array_t<double, py::array::c_style | py::array::forcecast>& y) {
  const auto& sensors = ekf.sensors();
  if (t.ndim() != 1 || y.ndim() != 2 || y.shape(0) != t.shape(0) ||
      y.shape(1) != static_cast<py::ssize_t>(sensors.size()))
    throw py::value_error("samples: expected an array of shape (len(time), " +
                          std::to_string(sensors.size()) +
                          ") — one column per sensor, in the "
                          "order of the model's sensors section");
  cs::MeasurementTable m;
  auto tv = t.unchecked<1>();
  auto yv = y.unchecked<2>();
  for (py::ssize_t r = 0; r < t.shape(0); ++r) {
    if (!std::isfinite(tv(r)) || (r > 0 && !(tv(r) > tv(r - 1))))
      throw py::value_error("time[" + std::to_string(r) + "]: not finite or not increasing");
    std::vector<double> row;
    for (py::ssize_t k = 0; k < y.shape(1); ++k) {
      if (std::isinf(yv(r, k)))
        throw py::value_error("samples[" + std::to_string(r) + ", " + std::to_string(k) + "] (" +
                              sensors[static_cast<std::size_t>(k)].name + "): not finite");
      row.push_back(yv(r, k));
    }
    m.time.push_back(tv(r));
    m.sample.push_back(std::move(row));
  }
  return m;
}

py::dict series_dict(const cs::EstimateSeries& s) {
  py::dict d;
  d["time"] = py::array_t<double>(static_cast<py::ssize_t>(s.time.size()), s.time.data());
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    std::vector<double> v, sg;
    for (std::size_t r = 0; r < s.time.size(); ++r) {
      v.push_back(s.value[r][c]);
      sg.push_back(s.sigma[r][c]);
    }
    d[py::str(s.columns[c])] = py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
    d[py::str("sigma(" + s.columns[c] + ")")] =
        py::array_t<double>(static_cast<py::ssize_t>(sg.size()), sg.data());
  }
  d["warnings"] = s.warnings;
  // Each array's unit: an output's channel unit, a parameter's model-file unit, σ as its value.
  py::dict units;
  units["time"] = "s";
  for (std::size_t c = 0; c < s.columns.size(); ++c) {
    units[py::str(s.columns[c])] = s.units[c];
    units[py::str("sigma(" + s.columns[c] + ")")] = s.units[c];
  }
  d["units"] = units;
  return d;
}

py::array_t<double> array_of(const cs::VecX& x) {
  return py::array_t<double>(static_cast<py::ssize_t>(x.size()), x.data());
}

}  // namespace

void register_estimate(py::module_& m) {
  using cs::ExtendedKalmanFilter;
  py::class_<ExtendedKalmanFilter>(m, "ExtendedKalmanFilter")
      .def(py::init([](const ModelSource& source, const py::dict& settings) {
             return std::make_unique<ExtendedKalmanFilter>(
                 source.text, source.name, source.overrides, filter_settings(settings));
           }),
           py::arg("source"), py::arg("settings"))
      .def("predict",
           [](ExtendedKalmanFilter& f) {
             if (!f.predict()) throw std::runtime_error(f.why());
           })
      .def("due", &ExtendedKalmanFilter::due)
      .def(
          "update",
          [](ExtendedKalmanFilter& f, const std::vector<int>& sensors, const cs::VecX& y) {
            f.update(sensors, y);
          },
          py::arg("sensors"), py::arg("samples"))
      .def("set_outputs", &ExtendedKalmanFilter::set_outputs, py::arg("names"))
      .def("outputs",
           [](const ExtendedKalmanFilter& f) {
             std::vector<double> v, s;
             f.estimate_outputs(v, s);
             return py::make_tuple(
                 py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data()),
                 py::array_t<double>(static_cast<py::ssize_t>(s.size()), s.data()));
           })
      .def(
          "run",
          [](ExtendedKalmanFilter& f,
             const py::array_t<double, py::array::c_style | py::array::forcecast>& t,
             const py::array_t<double, py::array::c_style | py::array::forcecast>& y, int every) {
            const cs::MeasurementTable table = table_of(f, t, y);
            cs::EstimateSeries s;
            {
              py::gil_scoped_release release;
              s = cs::run_estimation(f, table, every);
            }
            return series_dict(s);
          },
          py::arg("time"), py::arg("samples"), py::arg("every") = 1)
      .def_property_readonly("time", &ExtendedKalmanFilter::time)
      .def_property_readonly("step_size", &ExtendedKalmanFilter::step_size)
      .def_property_readonly("sensors",
                             [](const ExtendedKalmanFilter& f) {
                               std::vector<std::string> names;
                               for (const auto& s : f.sensors()) names.push_back(s.name);
                               return names;
                             })
      .def_property_readonly("parameters",
                             [](const ExtendedKalmanFilter& f) { return array_of(f.parameters()); })
      .def_property_readonly(
          "parameter_sigma",
          [](const ExtendedKalmanFilter& f) { return array_of(f.parameter_sigma()); })
      .def_property_readonly("covariance",
                             [](const ExtendedKalmanFilter& f) { return f.covariance(); })
      .def_property_readonly("nis", &ExtendedKalmanFilter::last_nis)
      .def_property_readonly("warnings", &ExtendedKalmanFilter::warnings);
}

}  // namespace clearsim_py
