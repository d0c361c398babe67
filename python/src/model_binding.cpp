// clearsim._core.Model: a model file (or YAML text) with overrides, and its whole runs.
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

#include "bindings.hpp"
#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/result_writer.hpp"
#include "clearsim/sensitivity/adjoint_gradient.hpp"
#include "run_collector.hpp"

namespace clearsim_py {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    // The reader's own message for a file it cannot open.
    cs::load_model_file(path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class Model {
 public:
  explicit Model(ModelSource source)
      : source_(std::move(source)),
        loaded_(std::make_shared<const cs::LoadedModel>(source_.load())) {}

  static Model from_file(const std::string& path, std::vector<cs::Override> overrides) {
    return Model(ModelSource{read_file(path), path, std::move(overrides)});
  }
  static Model from_string(const std::string& text, const std::string& name,
                           std::vector<cs::Override> overrides) {
    return Model(ModelSource{text, name, std::move(overrides)});
  }
  static Model from_data(py::handle data, const std::string& name,
                         std::vector<cs::Override> overrides) {
    return Model(ModelSource{model_text_from_data(data), name, std::move(overrides), true});
  }
  Model with_overrides(const std::vector<cs::Override>& more) const {
    ModelSource s = source_;
    s.overrides.insert(s.overrides.end(), more.begin(), more.end());
    return Model(std::move(s));
  }

  const ModelSource& source() const { return source_; }
  const cs::LoadedModel& loaded() const { return *loaded_; }

  std::vector<std::string> channels() const {
    const cs::System sys(loaded_->model);
    return cs::model_channels(*loaded_, sys).names();
  }
  std::vector<std::string> available_channels() const {
    const cs::System sys(loaded_->model);
    return cs::ChannelSet::available(sys);
  }

 private:
  ModelSource source_;
  std::shared_ptr<const cs::LoadedModel> loaded_;  // (shared: a Model is copied freely)
};

py::dict settings_dict(const cs::RunSettings& r) {
  static const char* kAnalysis[] = {"dynamic", "kinematic", "static"};
  py::dict d;
  d["analysis"] = kAnalysis[static_cast<int>(r.solver.analysis)];
  d["end"] = r.solver.end;
  d["step"] = r.solver.step;
  d["adaptive"] = r.solver.adaptive;
  d["every"] = r.output.every;
  d["channels"] = r.output.channels;
  d["file"] = r.output.file;
  return d;
}

// The sensitivities asked for (null when none), with the run's settings adapted to them; raises
// SimulationError when the model or its settings have none, ModelFileError for a path that is
// not a parameter. As `clearsim run --sensitivity` makes them (apps/clearsim/main.cpp).
std::unique_ptr<cs::DirectSensitivity> sensitivities(const Model& model, cs::LoadedModel& lm,
                                                     const RunLimits& limits,
                                                     const std::vector<std::string>& paths,
                                                     const cs::System& sys,
                                                     const cs::ChannelSet& channels,
                                                     std::vector<std::string>& notes) {
  if (paths.empty()) return nullptr;
  if (const std::string why = cs::DirectSensitivity::unsupported(sys, lm.run); !why.empty())
    raise_simulation_error(lm.path + ": error: sensitivities: " + why, py::none());
  std::string note;
  lm.run = cs::DirectSensitivity::adapted(lm.run, note);
  if (!note.empty()) notes.push_back(note);
  // The perturbed models are read from the same text with the same overrides, the run's
  // limits included, so that their initial states are the run's.
  std::vector<cs::Override> overrides = model.source().overrides;
  limits.append_overrides(overrides);
  return std::make_unique<cs::DirectSensitivity>(model.source().text, model.source().name,
                                                 overrides, paths, channels.names(), sys, lm.run);
}

py::tuple run(const Model& model, const RunLimits& limits, py::object progress,
              std::optional<std::vector<std::string>> channel_names,
              std::vector<std::string> sensitivity_paths) {
  cs::LoadedModel lm = model.source().load();
  limits.apply(lm.run);
  cs::System sys(lm.model);
  const cs::ChannelSet channels =
      channel_names ? cs::ChannelSet(sys, *channel_names) : cs::model_channels(lm, sys);
  if (channel_names) {
    // Issue 28: a channel named twice made two columns of one name (one key of the dict lost).
    std::set<std::string> seen;
    for (const std::string& n : channels.names())
      if (!seen.insert(n).second)
        throw py::value_error("channels: '" + n +
                              "' is asked for twice (directly or through a prefix); each channel "
                              "is one array of the result");
  }
  if (const std::string why = cs::incompatible_settings(sys, lm.run.solver); !why.empty())
    raise_simulation_error(lm.path + ": error: " + why, py::none());
  std::vector<std::string> notes;
  const std::unique_ptr<cs::DirectSensitivity> sens =
      sensitivities(model, lm, limits, sensitivity_paths, sys, channels, notes);
  RunCollector collector(channels, lm.run.solver.end, std::move(progress), sens.get());
  cs::State state;
  cs::RunStats stats;
  collector.run_guarded([&] {
    stats = sens ? cs::run_with_sensitivities(sys, lm.run, *sens, collector, state, notes)
                 : cs::run_analysis(sys, lm.run, collector, state, notes);
  });
  stats.warnings.insert(stats.warnings.end(), collector.warnings().begin(),
                        collector.warnings().end());
  if (sens)
    stats.warnings.insert(stats.warnings.end(), sens->warnings().begin(), sens->warnings().end());
  warn_run(stats.warnings);  // also in the summary
  return py::make_tuple(collector.arrays(), stats_dict(stats), notes, lm.warnings);
}

// The adjoint gradient of `objective` in `paths` (cs::model_gradient), with the run's limits as
// overrides; as `clearsim gradient` computes it. Raises ModelFileError for a bad path,
// ValueError for a bad objective, SimulationError when the model has no adjoint or the run
// fails.
py::tuple gradient(const Model& model, const RunLimits& limits, const std::string& objective,
                   const std::vector<std::string>& paths, double memory_bytes) {
  std::vector<cs::Override> overrides = model.source().overrides;
  limits.append_overrides(overrides);
  std::vector<std::string> notes;
  cs::GradientResult g;
  try {
    py::gil_scoped_release release;
    g = cs::model_gradient(model.source().text, model.source().name, overrides, objective, paths,
                           notes, cs::GradientOptions{memory_bytes, {}});
  } catch (const cs::ModelFileError&) {
    throw;
  } catch (const std::runtime_error& e) {
    raise_simulation_error(model.source().name + ": error: " + e.what(), py::none());
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    if (what.rfind("adjoint gradient: ", 0) == 0)
      raise_simulation_error(model.source().name + ": error: " + what, py::none());
    throw py::value_error(what);
  }
  py::array_t<double> grad(static_cast<py::ssize_t>(g.gradient.size()));
  std::copy(g.gradient.begin(), g.gradient.end(), grad.mutable_data());
  return py::make_tuple(g.value, grad, g.unit, g.units, notes, g.steps, g.stored_bytes,
                        g.checkpoint_every, g.recomputed_steps);
}

}  // namespace

void register_model(py::module_& m) {
  m.def("channel_unit", &cs::channel_unit, py::arg("channel"),
        "The unit of a channel from its quantity (\"m/s\", \"N\", \"1\" for a count or a "
        "ratio; \"\" when it has none), as `clearsim channels` prints it.");
  m.def("derivative_unit", &cs::derivative_unit, py::arg("value_unit"), py::arg("parameter_unit"),
        py::arg("path"),
        "The unit of d(value)/d(parameter at path): \"m/s^2\" per \"kg\" is \"m/s^2/kg\"; "
        "\"<unit>/[<path>]\" when the parameter's unit is \"\".");

  py::class_<cs::Override>(m, "Override")
      .def(py::init<std::string, std::string>(), py::arg("path"), py::arg("value"))
      .def_readonly("path", &cs::Override::path)
      .def_readonly("value", &cs::Override::value);

  py::class_<RunLimits>(m, "RunLimits")
      .def(py::init(
               [](std::optional<double> end, std::optional<double> step, std::optional<int> every) {
                 return RunLimits{end, step, every};
               }),
           py::arg("end") = py::none(), py::arg("step") = py::none(),
           py::arg("every") = py::none());

  py::class_<ModelSource>(m, "ModelSource")
      .def_readonly("text", &ModelSource::text)
      .def_readonly("name", &ModelSource::name)
      .def_readonly("overrides", &ModelSource::overrides);

  py::class_<Model>(m, "Model")
      .def_static("from_file", &Model::from_file, py::arg("path"), py::arg("overrides"))
      .def_static("from_string", &Model::from_string, py::arg("text"), py::arg("name"),
                  py::arg("overrides"))
      .def_static("from_data", &Model::from_data, py::arg("data"), py::arg("name"),
                  py::arg("overrides"))
      .def("with_overrides", &Model::with_overrides, py::arg("overrides"))
      .def("to_yaml",
           [](const Model& x) {
             const ModelSource& s = x.source();
             return cs::model_text_with_overrides(s.text, s.name, s.overrides);
           })
      .def_property_readonly("name", [](const Model& x) { return x.loaded().model.name; })
      .def_property_readonly("path", [](const Model& x) { return x.source().name; })
      .def_property_readonly("source", [](const Model& x) { return x.source(); })
      .def_property_readonly("text", [](const Model& x) { return x.source().text; })
      .def_property_readonly("overrides",
                             [](const Model& x) {
                               std::vector<std::pair<std::string, std::string>> o;
                               for (const cs::Override& ov : x.source().overrides)
                                 o.emplace_back(ov.path, ov.value);
                               return o;
                             })
      .def_property_readonly("warnings", [](const Model& x) { return x.loaded().warnings; })
      .def_property_readonly("settings",
                             [](const Model& x) { return settings_dict(x.loaded().run); })
      .def_property_readonly("num_bodies",
                             [](const Model& x) { return x.loaded().model.num_bodies(); })
      .def("channels", &Model::channels)
      .def(
          "unit_of",
          [](const Model& x, const std::string& path) { return cs::unit_at(x.loaded(), path); },
          py::arg("path"))
      .def(
          "column_units",
          [](const Model& x, const std::vector<std::string>& columns) {
            return cs::column_units(x.loaded(), columns);
          },
          py::arg("columns"))
      .def("available_channels", &Model::available_channels)
      .def("run", &run, py::arg("limits"), py::arg("progress"), py::arg("channels"),
           py::arg("sensitivities") = std::vector<std::string>{})
      .def("gradient", &gradient, py::arg("limits"), py::arg("objective"), py::arg("parameters"),
           py::arg("memory_bytes") = cs::GradientOptions{}.memory_bytes);
}

}  // namespace clearsim_py
