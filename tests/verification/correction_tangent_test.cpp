// CorrectionTangent: the position correction's Jacobian F_Y in (U, ν_B, ν_A), written from M, B,
// G and the constraints' tangent K_B (with the gaps' K_G by differences of the gaps alone),
// against Richardson's central differences of the whole position residual, at the steps of the
// Flores NSGA slider–crank where the correction closes the clearance joint's gap.
#include "clearsim/sensitivity/correction_tangent.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/step_linearization.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

TEST(CorrectionTangent, PositionJacobianEqualsDifferencesOfTheResidual) {
  const std::vector<Override> o = {{"solver.coordinates", "absolute"},
                                   {"solver.persistent_contacts", "false"},
                                   {"solver.end", "0.004"}};
  const LoadedModel lm = load_model_file(
      std::string(CLEARSIM_SOURCE_DIR) + "/examples/flores_slider_crank_nsga/model.yaml", o);
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  ASSERT_TRUE(sim.initialize(notes));
  const StepLinearization step(sys, lm.run.solver, StepRows::kVelocities);
  const int n = sys.num_dofs(), m = sys.num_constraints();
  MatX M = MatX::Zero(n, n);
  sys.mass(MatrixSink(&M));
  int checked = 0;
  while (sim.state().t < lm.run.solver.end && checked < 5) {
    const State prev = sim.state();
    ASSERT_TRUE(sim.step());
    const State& s = sim.state();
    State smooth = s;  // the smooth end the corrections started from
    VecX r;
    step.residual(sys, prev, s.t - prev.t, s.vdot, s.lambda, smooth, r);
    CorrectionTangent tangent(sys, lm.run.solver);
    std::string why;
    if (!tangent.linearize(prev, smooth, why)) continue;
    VecX Y = tangent.solution_unknowns();
    if (Y.size() == n + m) continue;  // no gap closed by the position correction
    // Away from the solution, whose increments (1e-9 m) and multipliers leave K_B, K_G and the
    // rotations' T invisible beside M, B and G: rotations of 0.05 rad, multipliers of 1–10.
    std::mt19937 rng(static_cast<std::uint32_t>(checked + 1));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < n; ++k) Y(k) += (k % 6 < 3 ? 1e-3 : 5e-2) * u(rng);
    for (Eigen::Index k = n; k < Y.size(); ++k) Y(k) = 10.0 * u(rng);
    const MatX J = tangent.position_jacobian(Y), fd = tangent.position_jacobian_by_differences(Y);
    // Richardson's truncation O(σ⁴) at σ = 1e-6 and its round-off, 1e-16·|F|/σ ≈ 1e-10.
    EXPECT_LE((J - fd).lpNorm<Eigen::Infinity>(), 1e-7 * fd.lpNorm<Eigen::Infinity>())
        << "t = " << s.t;
    // (K_B − K_G) T, the U-block less M, on its own scale.
    const MatX stiffness = fd.topLeftCorner(n, n) - M;
    ASSERT_GT(stiffness.lpNorm<Eigen::Infinity>(), 0.0) << "t = " << s.t;
    EXPECT_LE((J.topLeftCorner(n, n) - fd.topLeftCorner(n, n)).lpNorm<Eigen::Infinity>(),
              1e-6 * stiffness.lpNorm<Eigen::Infinity>())
        << "t = " << s.t;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace cs
