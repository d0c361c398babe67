// Python exceptions for the engine's errors: ModelFileError (a ValueError carrying file, line,
// column and message) and SimulationError (a RuntimeError carrying the partial result); and the
// warning category RunWarning for what a run finds wrong without stopping.
#include <pybind11/eval.h>

#include "bindings.hpp"

namespace clearsim_py {

namespace {
// Created once when the module is imported and never destroyed (the interpreter owns them).
PyObject* g_model_file_error = nullptr;
PyObject* g_simulation_error = nullptr;
PyObject* g_run_warning = nullptr;
}  // namespace

py::object simulation_error_type() {
  return py::reinterpret_borrow<py::object>(g_simulation_error);
}

void raise_simulation_error(const std::string& message, py::object partial) {
  py::object err = simulation_error_type()(message);
  err.attr("result") = std::move(partial);
  PyErr_SetObject(g_simulation_error, err.ptr());
  throw py::error_already_set();
}

void warn_run(const std::vector<std::string>& messages) {
  for (const std::string& w : messages)
    if (PyErr_WarnEx(g_run_warning, w.c_str(), 2) != 0) throw py::error_already_set();
}

void register_errors(py::module_& m) {
  py::exec(R"(
class ModelFileError(ValueError):
    """An error in a model file or in an override of one.

    str(error) is the reader's message, "FILE:LINE:COLUMN: error: MESSAGE" (or "FILE: error:
    MESSAGE" when it has no position, as for an override: MESSAGE then starts with
    "override PATH=VALUE: "). Attributes: file, line, column (1-based; 0 without a position)
    and message (MESSAGE alone).
    """

class SimulationError(RuntimeError):
    """A run that stopped early (Newton failed, a constraint broke, ...).

    str(error) says why; error.result holds what was computed up to the failure (a
    clearsim.Result, or None when the run could not start).
    """
    result = None

class RunWarning(RuntimeWarning):
    """What a run found wrong without stopping: mechanical energy growing with no source, a
    clearance joint far past its clearance, mesh bodies overlapping ("at t = ... s ...").

    Issued once each by Model.run, Simulation.step and Simulation.run_to as the call that made
    the finding returns (the steps it took are kept); the same texts are in the run's
    summary()["warnings"]. warnings.simplefilter("error", clearsim.RunWarning) turns them into
    exceptions.
    """
)",
           m.attr("__dict__"));
  m.attr("ModelFileError").attr("__module__") = "clearsim";
  m.attr("SimulationError").attr("__module__") = "clearsim";
  m.attr("RunWarning").attr("__module__") = "clearsim";
  g_model_file_error = m.attr("ModelFileError").ptr();
  g_simulation_error = m.attr("SimulationError").ptr();
  g_run_warning = m.attr("RunWarning").ptr();
  Py_INCREF(g_model_file_error);
  Py_INCREF(g_simulation_error);
  Py_INCREF(g_run_warning);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const cs::ModelFileError& e) {
      py::object err = py::reinterpret_borrow<py::object>(g_model_file_error)(e.what());
      err.attr("file") = e.file();
      err.attr("line") = e.line();
      err.attr("column") = e.column();
      err.attr("message") = e.message();
      PyErr_SetObject(g_model_file_error, err.ptr());
    }
  });
}

}  // namespace clearsim_py
