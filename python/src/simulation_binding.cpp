// clearsim._core.Simulation: a model stepped from Python (cs::Simulation with its own copy of the
// model and system), its channels read at the current state.
#include <map>

#include "bindings.hpp"
#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_channels.hpp"

namespace clearsim_py {

namespace {

class Simulation {
 public:
  Simulation(const ModelSource& source, const RunLimits& limits)
      : loaded_(std::make_unique<cs::LoadedModel>(source.load())) {
    limits.apply(loaded_->run);
    system_ = std::make_unique<cs::System>(loaded_->model);
    channels_ = std::make_unique<cs::ChannelSet>(cs::model_channels(*loaded_, *system_));
    sim_ = std::make_unique<cs::Simulation>(*system_, loaded_->run);
    if (!sim_->initialize(notes_))
      raise_simulation_error(loaded_->path + ": error: " + sim_->stats().message, py::none());
  }

  // n steps; raises SimulationError if one fails.
  void step(long n) {
    bool ok = true;
    {
      py::gil_scoped_release release;
      for (long k = 0; k < n && ok; ++k) ok = sim_->step();
    }
    if (!ok) fail();
  }

  // Steps until the time reaches t (within half a step).
  void run_to(double t) {
    bool ok = true;
    {
      py::gil_scoped_release release;
      ok = sim_->run_to(t);
    }
    if (!ok) fail();
  }

  py::dict values() const {
    channels_->evaluate(sim_->state(), sim_->stats(), values_);
    py::dict d;
    d["time"] = sim_->state().t;
    for (std::size_t k = 0; k < values_.size(); ++k) d[py::str(channels_->names()[k])] = values_[k];
    return d;
  }

  // Any channel the model offers, resolved on first use.
  double value(const std::string& name) {
    auto it = extra_.find(name);
    if (it == extra_.end()) {
      try {
        it = extra_.emplace(name, std::make_unique<cs::ChannelSet>(*system_, std::vector{name}))
                 .first;
      } catch (const std::invalid_argument& e) {
        throw py::key_error(e.what());
      }
    }
    std::vector<double> v;
    it->second->evaluate(sim_->state(), sim_->stats(), v);
    return v.at(0);
  }

  double time() const { return sim_->state().t; }
  double step_size() const { return sim_->step_size(); }
  double end() const { return loaded_->run.solver.end; }
  const std::vector<std::string>& channels() const { return channels_->names(); }
  const std::vector<std::string>& notes() const { return notes_; }
  py::dict summary() const { return stats_dict(sim_->stats()); }

 private:
  [[noreturn]] void fail() const {
    raise_simulation_error(loaded_->path + ": error: " + sim_->stats().message, py::none());
  }

  std::unique_ptr<cs::LoadedModel> loaded_;
  std::unique_ptr<cs::System> system_;
  std::unique_ptr<cs::ChannelSet> channels_;
  std::unique_ptr<cs::Simulation> sim_;
  std::map<std::string, std::unique_ptr<cs::ChannelSet>> extra_;
  std::vector<std::string> notes_;
  mutable std::vector<double> values_;
};

}  // namespace

void register_simulation(py::module_& m) {
  py::class_<Simulation>(m, "Simulation")
      .def(py::init<const ModelSource&, const RunLimits&>(), py::arg("source"), py::arg("limits"))
      .def("step", &Simulation::step, py::arg("n") = 1)
      .def("run_to", &Simulation::run_to, py::arg("t"))
      .def("values", &Simulation::values)
      .def("value", &Simulation::value, py::arg("channel"))
      .def_property_readonly("time", &Simulation::time)
      .def_property_readonly("step_size", &Simulation::step_size)
      .def_property_readonly("end", &Simulation::end)
      .def_property_readonly("channels", &Simulation::channels)
      .def_property_readonly("notes", &Simulation::notes)
      .def("summary", &Simulation::summary);
}

}  // namespace clearsim_py
