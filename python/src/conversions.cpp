// Run settings from Python keyword arguments, and run statistics as a dict.
#include <cmath>
#include <cstdio>

#include "bindings.hpp"

namespace clearsim_py {

void RunLimits::append_overrides(std::vector<cs::Override>& overrides) const {
  const auto number = [](double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return std::string(buf);
  };
  if (end) overrides.push_back({"solver.end", number(*end)});
  if (step) overrides.push_back({"solver.step", number(*step)});
  if (every) overrides.push_back({"output.every", std::to_string(*every)});
}

void RunLimits::apply(cs::RunSettings& run) const {
  if (end) {
    if (!(std::isfinite(*end) && *end > 0.0))
      throw py::value_error("end must be a positive, finite time [s]");
    run.solver.end = *end;
  }
  if (step) {
    if (!(std::isfinite(*step) && *step > 0.0))
      throw py::value_error("step must be a positive, finite time [s]");
    run.solver.step = *step;
  }
  if (every) {
    if (*every < 1) throw py::value_error("every must be a positive integer");
    run.output.every = *every;
  }
}

py::dict stats_dict(const cs::RunStats& s) {
  py::dict d;
  d["ok"] = s.ok;
  d["message"] = s.message;
  d["steps"] = s.steps;
  d["rejected_steps"] = s.rejected_steps;
  d["row_rechoices"] = s.row_rechoices;
  d["newton_iterations"] = s.newton_iterations;
  d["factorizations"] = s.factorizations;
  d["position_iterations"] = s.position_iterations;
  d["velocity_iterations"] = s.velocity_iterations;
  d["last_step"] = s.last_step;
  d["max_constraint_violation"] = s.max_constraint_violation;
  d["open_steps"] = s.open_steps;
  d["contact_steps"] = s.contact_steps;
  d["impact_steps"] = s.impact_steps;
  d["contact_onsets"] = s.contact_onsets;
  d["plastic_impacts"] = s.plastic_impacts;
  d["max_penetration"] = s.max_penetration;
  d["wall_seconds"] = s.wall_seconds;
  d["integrator"] = s.integrator;
  d["warnings"] = s.warnings;  // what the run found wrong without stopping (energy growth)
  return d;
}

}  // namespace clearsim_py
