// The integrator a model's solver settings ask for (solver.integrator in the model file).
#pragma once

#include <memory>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

std::unique_ptr<Integrator> make_integrator(const System& sys, const SolverSettings& settings);

}  // namespace cs
