#include "clearsim/solvers/integrator_factory.hpp"

#include "clearsim/solvers/explicit_rk.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/penalty_alpha.hpp"
#include "clearsim/solvers/tree_alpha.hpp"

namespace cs {

std::unique_ptr<Integrator> make_integrator(const System& sys, const SolverSettings& settings) {
  if (TreeAlpha::applies(sys, settings, nullptr)) return std::make_unique<TreeAlpha>(sys, settings);
  switch (settings.integrator) {
    case IntegratorKind::kGeneralizedAlpha:
    case IntegratorKind::kNewmark:
    case IntegratorKind::kHht:
    case IntegratorKind::kTrapezoidal:
      if (settings.formulation == ConstraintFormulation::kAli3p ||
          settings.formulation == ConstraintFormulation::kPenalty)
        return std::make_unique<PenaltyAlpha>(sys, settings);
      return std::make_unique<GeneralizedAlpha>(sys, settings);
    case IntegratorKind::kNsga:
      return std::make_unique<GeneralizedAlpha>(sys, settings);
    case IntegratorKind::kRk4:
    case IntegratorKind::kDormandPrince:
      return std::make_unique<ExplicitRungeKutta>(sys, settings);
  }
  return std::make_unique<GeneralizedAlpha>(sys, settings);
}

}  // namespace cs
