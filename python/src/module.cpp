// clearsim._core: the compiled half of the Python package (the other half is python/clearsim).
#include "bindings.hpp"
#include "clearsim/version.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "clearsim's engine, bound with pybind11. Use the clearsim package, not this module.";
  clearsim_py::register_errors(m);
  clearsim_py::register_model(m);
  clearsim_py::register_simulation(m);
  clearsim_py::register_sweep(m);
  clearsim_py::register_estimate(m);
  m.attr("__version__") = cs::version();
  m.attr("__commit__") = cs::commit();
}
