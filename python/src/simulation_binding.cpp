// clearsim._core.Simulation: a model stepped from Python (cs::Simulation with its own copy of the
// model and system), its channels read at the current state.
//
// Threads: every call that touches the engine takes the Simulation (Guard), so calls from
// several Python threads on one Simulation are serialized (each runs whole, one at a time) and
// never race. The GIL is released before the Simulation is waited for and while the engine
// steps; it is never waited for with the GIL held, so a thread stepping (which takes the GIL
// briefly to run signal handlers) cannot deadlock with one waiting. Two Simulations share
// nothing and step in parallel.
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "bindings.hpp"
#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/suggest.hpp"
#include "signal_watch.hpp"
#include "state_arrays.hpp"

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

  // n steps; raises SimulationError if one fails, KeyboardInterrupt on Ctrl-C (the steps taken
  // are kept).
  void step(long long n) {
    if (n < 0)
      throw py::value_error("Simulation.step(n): n = " + std::to_string(n) +
                            "; expected a number of steps >= 0");
    long long k = 0;
    step_while([&] { return k++ < n; }, [&] { return sim_->step(); });
  }

  // Steps until the time reaches t (within half a fixed step; adaptive steps land on t), as
  // cs::Simulation::run_to; t = inf steps until Ctrl-C or a failure.
  void run_to(double t) {
    if (std::isnan(t))
      throw py::value_error(
          "Simulation.run_to(t): t is nan; expected a time [s] (inf steps until interrupted)");
    step_while([&] { return !sim_->reached(t); }, [&] { return sim_->step_toward(t); });
  }

  py::dict values() {
    std::vector<double> v;
    double t = 0.0;
    {
      const Guard guard(*this);
      channels_->evaluate(sim_->state(), sim_->stats(), v);
      t = sim_->state().t;
    }
    py::dict d;
    d["time"] = t;
    for (std::size_t k = 0; k < v.size(); ++k) d[py::str(channels_->names()[k])] = v[k];
    return d;
  }

  // Any channel the model offers, resolved on first use.
  double value(const std::string& name) {
    std::vector<double> v;
    std::string unknown;
    {
      const Guard guard(*this);
      auto it = extra_.find(name);
      if (it == extra_.end()) {
        try {
          it = extra_.emplace(name, std::make_unique<cs::ChannelSet>(*system_, std::vector{name}))
                   .first;
        } catch (const std::invalid_argument& e) {
          unknown = e.what();
        }
      }
      if (unknown.empty()) it->second->evaluate(sim_->state(), sim_->stats(), v);
    }
    if (!unknown.empty()) throw py::key_error(unknown);
    return v.at(0);
  }

  // One step that does not pass t (the Python loop that calls back after each step).
  void step_once_toward(double t) {
    bool first = true;
    step_while([&] { return std::exchange(first, false) && !sim_->reached(t); },
               [&] { return sim_->step_toward(t); });
  }
  bool reached(double t) {
    const Guard guard(*this);
    return sim_->reached(t);
  }

  // (time, q, v) as numpy arrays (state_arrays.hpp).
  py::tuple state() {
    const cs::State s = copy_state();
    return py::make_tuple(s.t, positions_array(s), velocities_array(s));
  }

  // Restarts at the given state; None keeps the current time, positions or velocities.
  void set_state(const py::object& q, const py::object& v, const py::object& t) {
    cs::State s = copy_state();
    if (!q.is_none()) read_positions(q, s);
    if (!v.is_none()) read_velocities(v, s);
    if (!t.is_none()) s.t = t.cast<double>();
    std::string failed;
    {
      const Guard guard(*this);
      std::vector<std::string> notes;
      try {
        sim_->set_state(s, notes);  // std::invalid_argument (ValueError) passes through
      } catch (const std::runtime_error& e) {
        failed = e.what();  // SimulationError, raised with the GIL
      }
    }
    if (!failed.empty()) fail(failed);
  }

  // (position of the centre of mass, R_WB) and (its velocity, the angular velocity), world.
  py::tuple pose(const std::string& body) {
    const int b = body_index(body);
    const cs::State s = copy_state();
    return py::make_tuple(array3(s.x_W[b]), array33(s.R_WB[b]));
  }
  py::tuple twist(const std::string& body) {
    const int b = body_index(body);
    const cs::State s = copy_state();
    const cs::Vec3 w_W = s.R_WB[b] * s.v.segment<3>(6 * b + 3);
    return py::make_tuple(array3(s.v.segment<3>(6 * b)), array3(w_W));
  }

  void apply_load(const std::string& body, const py::object& force, const py::object& torque,
                  const py::object& point) {
    const auto value = [&](const py::object& x, const char* what) {
      return x.is_none() ? cs::Vec3::Zero().eval()
                         : vec3(x, "Simulation.apply_load: " + std::string(what));
    };
    const cs::Vec3 F = value(force, "force"), tau = value(torque, "torque"),
                   p = value(point, "point");
    const Guard guard(*this);
    sim_->apply_load(body, p, F, tau);
  }
  void clear_loads() {
    const Guard guard(*this);
    sim_->clear_loads();
  }

  // Every channel an element (joint, contact, force) publishes, by its short name.
  py::dict element_values(const std::string& element) {
    const std::string key = "element:" + element;
    std::vector<double> v;
    std::vector<std::string> names;
    bool found = false;
    {
      const Guard guard(*this);
      auto it = extra_.find(key);
      if (it == extra_.end()) {
        const cs::Element* el = loaded_->model.find_element(element);
        if (el != nullptr) {
          std::vector<std::string> full;
          for (const std::string& n : el->channel_names()) full.push_back(element + "." + n);
          it = extra_.emplace(key, std::make_unique<cs::ChannelSet>(*system_, full)).first;
        }
      }
      if (it != extra_.end()) {
        found = true;
        it->second->evaluate(sim_->state(), sim_->stats(), v);
        names = it->second->names();
      }
    }
    if (!found) throw py::key_error(unknown_element(element));
    py::dict d;
    for (std::size_t k = 0; k < v.size(); ++k)
      d[py::str(names[k].substr(element.size() + 1))] = v[k];
    return d;
  }

  std::vector<std::string> bodies() const {
    std::vector<std::string> names;
    for (const cs::Body& b : loaded_->model.bodies) names.push_back(b.name);
    return names;
  }

  double time() {
    const Guard guard(*this);
    return sim_->state().t;
  }
  // Fixed at initialize(), or the adaptive controller's next step (changes as it steps).
  double step_size() {
    const Guard guard(*this);
    return sim_->step_size();
  }
  double end() const { return loaded_->run.solver.end; }
  const std::vector<std::string>& channels() const { return channels_->names(); }
  const std::vector<std::string>& notes() const { return notes_; }
  py::dict summary() {
    cs::RunStats copy;
    {
      const Guard guard(*this);
      copy = sim_->stats();
    }
    return stats_dict(copy);
  }

 private:
  // Takes steps while more() says so, under the lock and without the GIL, polling for Ctrl-C
  // after each whole step; after the lock is left, issues the run's new warnings (energy growth,
  // plausibility: clearsim.RunWarning), then raises KeyboardInterrupt or SimulationError.
  template <class More, class Step>
  void step_while(More more, Step one_step) {
    SignalWatch watch;
    bool ok = true;
    std::string failure;
    std::vector<std::string> found;
    {
      const Guard guard(*this);
      while (more()) {
        if (!one_step()) {
          ok = false;
          failure = sim_->stats().message;
          break;
        }
        if (watch.poll()) break;
      }
      const std::vector<std::string>& all = sim_->stats().warnings;
      for (; warned_ < all.size(); ++warned_) found.push_back(all[warned_]);
    }
    warn_run(found);
    watch.raise_pending();
    if (!ok) fail(failure);
  }

  // Made with the GIL held: releases it, then takes the Simulation (busy_ under mutex_),
  // waiting on the condition variable in slices so that Ctrl-C in the main thread still
  // interrupts a wait for another thread's long step. Destroyed: the Simulation is given back,
  // then the GIL taken back. mutex_ is only held to flip busy_, never while the GIL is taken.
  // (A std::timed_mutex would do the same, but its try_lock_for is pthread_mutex_clocklock,
  // which ThreadSanitizer does not see: it then reports every access as a race.)
  class Guard {
   public:
    explicit Guard(Simulation& sim) : sim_(sim) {
      if (sim.owner_.load() == std::this_thread::get_id())
        throw std::runtime_error(
            "this Simulation is already stepping in this thread (a call from a signal handler "
            "or a callback that runs inside step() or run_to()); call it after that returns");
      release_.emplace();
      std::unique_lock lock(sim.mutex_);
      while (sim.busy_) {
        if (sim.idle_.wait_for(lock, std::chrono::milliseconds(50)) == std::cv_status::timeout &&
            in_main_thread_) {
          lock.unlock();
          {
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
          }
          lock.lock();
        }
      }
      sim.busy_ = true;
      sim.owner_.store(std::this_thread::get_id());
      held_ = true;
    }
    ~Guard() {
      if (!held_) return;
      {
        const std::lock_guard lock(sim_.mutex_);
        sim_.busy_ = false;
        sim_.owner_.store(std::thread::id());
      }
      sim_.idle_.notify_one();
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    Simulation& sim_;
    const bool in_main_thread_ = in_main_thread();   // asked with the GIL
    std::optional<py::gil_scoped_release> release_;  // destroyed after ~Guard(): GIL back
    bool held_ = false;
  };

  cs::State copy_state() {
    const Guard guard(*this);
    return sim_->state();
  }

  int body_index(const std::string& name) const {
    const std::optional<int> b = loaded_->model.find_body(name);
    if (b && *b != cs::kGround) return *b;
    throw py::key_error(
        "no body '" + name + "' in the model" +
        (b ? std::string(" ('ground' does not move)") : cs::did_you_mean(name, bodies())));
  }

  std::string unknown_element(const std::string& name) const {
    std::vector<std::string> names;
    for (const auto& el : loaded_->model.elements) names.push_back(el->name());
    return "no element '" + name + "' in the model" + cs::did_you_mean(name, names);
  }

  [[noreturn]] void fail(const std::string& why) const {
    raise_simulation_error(loaded_->path + ": error: " + why, py::none());
  }

  std::unique_ptr<cs::LoadedModel> loaded_;
  std::unique_ptr<cs::System> system_;
  std::unique_ptr<cs::ChannelSet> channels_;
  std::unique_ptr<cs::Simulation> sim_;
  std::map<std::string, std::unique_ptr<cs::ChannelSet>> extra_;
  std::vector<std::string> notes_;
  std::size_t warned_ = 0;                // stats().warnings issued as Python warnings (Guard)
  std::mutex mutex_;                      // guards busy_
  std::condition_variable idle_;          // notified when busy_ turns false
  bool busy_ = false;                     // a call is using the engine
  std::atomic<std::thread::id> owner_{};  // the thread whose call it is (re-entry is refused)
};

}  // namespace

void register_simulation(py::module_& m) {
  note_main_thread();
  py::class_<Simulation>(m, "Simulation")
      .def(py::init<const ModelSource&, const RunLimits&>(), py::arg("source"), py::arg("limits"))
      .def("step", &Simulation::step, py::arg("n") = 1)
      .def("run_to", &Simulation::run_to, py::arg("t"))
      .def("values", &Simulation::values)
      .def("value", &Simulation::value, py::arg("channel"))
      .def("step_once_toward", &Simulation::step_once_toward, py::arg("t"))
      .def("reached", &Simulation::reached, py::arg("t"))
      .def("state", &Simulation::state)
      .def("set_state", &Simulation::set_state, py::arg("q"), py::arg("v"), py::arg("t"))
      .def("pose", &Simulation::pose, py::arg("body"))
      .def("twist", &Simulation::twist, py::arg("body"))
      .def("apply_load", &Simulation::apply_load, py::arg("body"), py::arg("force"),
           py::arg("torque"), py::arg("point"))
      .def("clear_loads", &Simulation::clear_loads)
      .def("element_values", &Simulation::element_values, py::arg("element"))
      .def_property_readonly("bodies", &Simulation::bodies)
      .def_property_readonly("time", &Simulation::time)
      .def_property_readonly("step_size", &Simulation::step_size)
      .def_property_readonly("end", &Simulation::end)
      .def_property_readonly("channels", &Simulation::channels)
      .def_property_readonly("notes", &Simulation::notes)
      .def("summary", &Simulation::summary);
}

}  // namespace clearsim_py
