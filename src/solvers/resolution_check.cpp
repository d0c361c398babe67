#include "clearsim/solvers/resolution_check.hpp"

#include <cmath>
#include <sstream>

#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/penalty_alpha.hpp"

namespace cs {

namespace {

// ω h above this leaves a mode unresolved: generalized-α damps it (ρ∞) instead of following it.
constexpr double kUnresolvedOmegaH = 2.0;
// Gaps the NSGA position correction (tolerance newton_tol) cannot resolve.
constexpr double kGapOverTolerance = 1000.0;

void stiff_forces(const System& sys, const std::vector<BodyKinematics>& kin, double t, double h,
                  std::vector<std::string>& out) {
  for (int b = 0; b < sys.model().num_bodies(); ++b) {
    const System::StiffestForce k = sys.stiffest_force(b, kin, t);
    if (k.element < 0) continue;
    const double omega_h = std::sqrt(k.stiffness / sys.model().bodies[b].mass) * h;
    if (!(omega_h > kUnresolvedOmegaH)) continue;
    const Element& el = *sys.model().elements[k.element];
    std::ostringstream os;
    os.precision(3);
    os << el.kind() << " '" << el.name() << "' is too stiff for the step on body '"
       << sys.model().bodies[b].name << "': stiffness " << k.stiffness
       << " N/m gives ω h = " << omega_h << " at h = " << h << " s (the step resolves ω h ≲ "
       << kUnresolvedOmegaH
       << "); its motion and the energy will be wrong — use a smaller step or `adaptive: true`";
    out.push_back(os.str());
  }
}

void tiny_gaps(const System& sys, const std::vector<BodyKinematics>& kin, double t, double tol,
               std::vector<std::string>& out) {
  if (sys.num_gaps() == 0) return;
  VecX g = VecX::Zero(sys.num_gaps());  // System::gaps writes into a sized vector
  sys.gaps(kin, t, &g, MatrixSink());
  for (int k = 0; k < g.size(); ++k) {
    if (!(g(k) > 0.0 && g(k) < kGapOverTolerance * tol)) continue;
    std::ostringstream os;
    os.precision(3);
    os << sys.describe_gap(k) << " starts " << g(k) << " m open, less than "
       << static_cast<int>(kGapOverTolerance) << " × newton_tol (" << tol
       << " m): the contact correction works to newton_tol, so impacts across this gap are not "
          "resolved and lose energy — lower newton_tol or enlarge the clearance";
    out.push_back(os.str());
  }
}

}  // namespace

std::vector<std::string> resolution_warnings(const System& sys, const SolverSettings& settings) {
  std::vector<std::string> out;
  if (settings.analysis != Analysis::kDynamic) return out;
  const State s = initial_state(sys);
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  stiff_forces(sys, kin, s.t, settings.step, out);
  if (settings.integrator == IntegratorKind::kNsga)
    tiny_gaps(sys, kin, s.t, settings.newton_tol, out);
  if (const std::string w = penalty_parameter_warning(sys, settings); !w.empty()) out.push_back(w);
  return out;
}

}  // namespace cs
