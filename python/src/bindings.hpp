// Shared pieces of the Python module clearsim._core (python/src): a model source that can be
// re-read with more overrides, the conversions to Python objects, and the registration
// functions of each binding file.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace clearsim_py {

namespace py = pybind11;

// A model file's text, its display name and the overrides to apply; read afresh for each run so
// that runs never share state. `generated`: the text was written from Python data
// (clearsim.from_dict), so messages name items by path, not by line (load_model_generated).
struct ModelSource {
  std::string text;
  std::string name;
  std::vector<cs::Override> overrides;
  bool generated = false;

  cs::LoadedModel load() const {
    return generated ? cs::load_model_generated(text, name, overrides)
                     : cs::load_model_string(text, name, overrides);
  }
};

// The YAML text of a model given as Python data (dicts, lists, str, numbers, bools, None, numpy
// scalars and arrays), for the model reader. Raises TypeError or ValueError naming the path of
// an item that has no place in a model file (a complex number, a NaN, a key that is not a str).
std::string model_text_from_data(py::handle data);

// Solver settings a run may change without editing the model (as the command line's --end,
// --step, --every).
struct RunLimits {
  std::optional<double> end, step;
  std::optional<int> every;
  void apply(cs::RunSettings& run) const;
  // The same limits as overrides of the model text (solver.end=..., ...), for what re-reads it.
  void append_overrides(std::vector<cs::Override>& overrides) const;
};

// The run statistics as a dict (steps, newton_iterations, ..., max_penetration, wall_seconds,
// ok, message).
py::dict stats_dict(const cs::RunStats& stats);

// Raised when a run stops early (clearsim.SimulationError).
py::object simulation_error_type();
[[noreturn]] void raise_simulation_error(const std::string& message, py::object partial);
// Issues each of `messages` as a clearsim.RunWarning attributed to the caller of the Python
// method that called the engine (stacklevel 2); with the GIL held. Throws
// py::error_already_set when a warnings filter turns one into an error.
void warn_run(const std::vector<std::string>& messages);

// Registration of each part of the module.
void register_errors(py::module_& m);
void register_model(py::module_& m);
void register_simulation(py::module_& m);
void register_sweep(py::module_& m);
void register_estimate(py::module_& m);  // estimate_binding.cpp

}  // namespace clearsim_py
