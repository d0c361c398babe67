// The sweep functions of clearsim/study/sweep.hpp for clearsim.sweep (python/clearsim/sweep.py):
// the local run in forked processes, one point for a Dask worker, and the table.
#include <limits>

#include "bindings.hpp"
#include "clearsim/study/sweep.hpp"

namespace clearsim_py {

namespace {

py::dict run_dict(const cs::SweepRun& r, const std::vector<std::string>& gradients) {
  py::dict d;
  py::dict params;
  for (const auto& o : r.parameters) params[py::str(o.path)] = o.value;
  d["parameters"] = params;
  d["ok"] = r.ok;
  d["error"] = r.error;
  d["max_contact_force"] = r.max_contact_force;
  d["max_penetration"] = r.stats.max_penetration;
  d["contact_onsets"] = r.stats.contact_onsets;
  d["impact_steps"] = r.stats.impact_steps;
  d["rms_distance"] = r.rms_distance;
  d["channel"] = r.channel;
  d["wall_seconds"] = r.stats.wall_seconds;
  d["csv"] = r.csv;
  d["summary"] = stats_dict(r.stats);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < gradients.size(); ++k) {
    const std::string of = ")/d(" + gradients[k] + ")";
    d[py::str("d(max_contact_force" + of)] =
        k < r.d_max_contact_force.size() ? r.d_max_contact_force[k] : nan;
    d[py::str("d(rms_distance" + of)] = k < r.d_rms_distance.size() ? r.d_rms_distance[k] : nan;
  }
  return d;
}

}  // namespace

void register_sweep(py::module_& m) {
  py::class_<cs::SweepAxis>(m, "SweepAxis")
      .def(py::init(&cs::parse_sweep_axis), py::arg("spec"))
      .def(py::init([](std::string path, std::vector<std::string> values) {
             return cs::SweepAxis{std::move(path), std::move(values)};
           }),
           py::arg("path"), py::arg("values"))
      .def_readonly("path", &cs::SweepAxis::path)
      .def_readonly("values", &cs::SweepAxis::values);

  py::class_<cs::SweepRun>(m, "SweepRun")
      .def("as_dict", &run_dict, py::arg("gradients") = std::vector<std::string>{})
      .def_property_readonly("ok", [](const cs::SweepRun& r) { return r.ok; })
      .def_property_readonly("time", [](const cs::SweepRun& r) { return r.time; })
      .def_property_readonly("values", [](const cs::SweepRun& r) { return r.values; })
      .def_property_readonly("d_values", [](const cs::SweepRun& r) { return r.d_values; })
      .def(py::pickle([](const cs::SweepRun& r) { return py::bytes(cs::serialize(r)); },
                      [](const py::bytes& b) { return cs::deserialize_sweep_run(b); }));

  py::class_<cs::SweepResult>(m, "SweepResult")
      .def(py::init([](std::vector<cs::SweepAxis> axes, cs::SweepRun reference,
                       std::vector<cs::SweepRun> runs, double wall,
                       std::vector<std::string> gradients) {
             cs::SweepResult r{std::move(axes), std::move(gradients), std::move(reference),
                               std::move(runs), wall};
             cs::compare_with_reference(r);
             return r;
           }),
           py::arg("axes"), py::arg("reference"), py::arg("runs"), py::arg("wall_seconds"),
           py::arg("gradients") = std::vector<std::string>{})
      .def_readonly("gradients", &cs::SweepResult::gradients)
      .def_readonly("reference", &cs::SweepResult::reference)
      .def_readonly("runs", &cs::SweepResult::runs)
      .def_readonly("wall_seconds", &cs::SweepResult::wall_seconds)
      .def(
          "write_table",
          [](const cs::SweepResult& r, const std::string& path) { cs::write_sweep_table(path, r); },
          py::arg("path"));

  m.def(
      "sweep_grid", [](const std::vector<cs::SweepAxis>& axes) { return cs::sweep_grid(axes); },
      py::arg("axes"));
  m.def(
      "run_sweep_point",
      [](const std::string& text, const std::string& name,
         const std::vector<cs::Override>& overrides, const std::string& csv,
         const std::string& channel, const std::vector<std::string>& gradients) {
        py::gil_scoped_release release;
        return cs::run_sweep_point(text, name, overrides, csv, channel, gradients);
      },
      py::arg("text"), py::arg("name"), py::arg("overrides"), py::arg("csv"), py::arg("channel"),
      py::arg("gradients") = std::vector<std::string>{});
  m.def(
      "run_sweep",
      [](const ModelSource& source, const std::vector<cs::SweepAxis>& axes,
         const std::string& out_dir, const std::string& channel, int jobs,
         const std::vector<std::string>& gradients) {
        cs::SweepOptions options;
        options.gradients = gradients;
        options.base = source.overrides;
        options.out_dir = out_dir;
        options.channel = channel;
        options.jobs = jobs;
        // Ctrl-C (or any pending signal handler that raises) stops the sweep.
        bool signalled = false;
        options.interrupted = [&signalled] {
          py::gil_scoped_acquire gil;
          signalled = PyErr_CheckSignals() != 0;
          return signalled;
        };
        try {
          py::gil_scoped_release release;
          return cs::run_sweep(source.text, source.name, axes, options);
        } catch (const cs::SweepInterrupted&) {
          if (signalled) throw py::error_already_set();
          throw;
        }
      },
      py::arg("source"), py::arg("axes"), py::arg("out_dir"), py::arg("channel"), py::arg("jobs"),
      py::arg("gradients") = std::vector<std::string>{});
}

}  // namespace clearsim_py
