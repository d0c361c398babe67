// IFToMM A01-like pendulum (reference.md §8.3): L = 1 m, released from the horizontal at rest,
// g = 9.81 m/s². A rigid body of mass 1 kg whose inertia about the pivot axis (1e-10 kg·m²)
// changes ω₀² by 1e-10 relative — far below the tolerances — stands in for the point mass.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/model/model_builder.hpp"
#include "support/recorder.hpp"

namespace cs {
namespace {

Model pendulum() {
  Model m;
  m.gravity_W = Vec3(0, -9.81, 0);
  Body bob;
  bob.name = "bob";
  bob.mass = 1.0;
  bob.inertia_B = Vec3(1e-3, 1e-3, 1e-10).asDiagonal();
  bob.x0_W = Vec3(1, 0, 0);
  add_body(m, bob);
  add_joint(m, "pivot", joints::JointType::kRevolute, kGround, 0, Vec3::Zero(), Vec3::UnitZ());
  return m;
}

RunSettings settings(double h, double end, double rho_inf,
                     CoordinateChoice coordinates = CoordinateChoice::kAuto) {
  RunSettings s;
  s.solver.coordinates = coordinates;
  s.solver.step = h;
  s.solver.end = end;
  s.solver.rho_inf = rho_inf;
  s.solver.newton_tol = 1e-12;
  return s;
}

// Crossing times of x = 0 going negative (the bob passing the bottom leftwards), by cubic
// Hermite interpolation between output points (uses ẋ, error O(h⁴)).
std::vector<double> downward_crossings(const std::vector<State>& st) {
  std::vector<double> t;
  for (std::size_t k = 1; k < st.size(); ++k) {
    const double x0 = st[k - 1].x_W[0].x(), x1 = st[k].x_W[0].x();
    if (!(x0 > 0 && x1 <= 0)) continue;
    const double h = st[k].t - st[k - 1].t;
    const double v0 = st[k - 1].v(0) * h, v1 = st[k].v(0) * h;
    double s = x0 / (x0 - x1);
    for (int it = 0; it < 20; ++it) {  // Newton on the Hermite cubic
      const double h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s;
      const double h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s;
      const double p = h00 * x0 + h10 * v0 + h01 * x1 + h11 * v1;
      const double dp = (6 * s * s - 6 * s) * x0 + (3 * s * s - 4 * s + 1) * v0 +
                        (-6 * s * s + 6 * s) * x1 + (3 * s * s - 2 * s) * v1;
      s -= p / dp;
    }
    t.push_back(st[k - 1].t + s * h);
  }
  return t;
}

// Both integrations: in joint coordinates (the default for this open tree) and in body poses.
const std::vector<std::pair<const char*, CoordinateChoice>> kBothCoordinates = {
    {"joint coordinates", CoordinateChoice::kAuto}, {"absolute", CoordinateChoice::kAbsolute}};

TEST(Pendulum, PeriodAndTrajectoryMatchTheEllipticSolution) {
  for (const auto& [label, coordinates] : kBothCoordinates) {
    SCOPED_TRACE(label);
    const auto r = testing::run(pendulum(), settings(5e-5, 10.0, 0.9, coordinates));
    ASSERT_TRUE(r.stats.ok) << r.stats.message;
    const auto tc = downward_crossings(r.states);
    ASSERT_GE(tc.size(), 3u);
    const double T = tc[2] - tc[1];
    EXPECT_NEAR(T / 2.367842, 1.0, 1e-6) << "period " << T;
    // Tabulated positions (reference.md §8.3), output every step so the times are on the grid.
    struct Ref {
      double t, x, y;
    };
    for (const Ref ref : {Ref{0.25, 0.953665, -0.300872}, Ref{0.5, 0.391049, -0.920370},
                          Ref{1.0, -0.986292, -0.165011}, Ref{2.0, 0.793566, -0.608484},
                          Ref{5.0, 0.942305, -0.334754}, Ref{10.0, 0.275087, -0.961419}}) {
      const auto k = static_cast<std::size_t>(std::lround(ref.t / 5e-5));
      ASSERT_NEAR(r.states[k].t, ref.t, 1e-12);
      // The table has 6 decimals: compare to its rounding (5e-7) plus 1e-6 m.
      EXPECT_NEAR(r.states[k].x_W[0].x(), ref.x, 1.5e-6) << "t = " << ref.t;
      EXPECT_NEAR(r.states[k].x_W[0].y(), ref.y, 1.5e-6) << "t = " << ref.t;
    }
  }
}

TEST(Pendulum, TrapezoidalKeepsEnergyOverHundredPeriods) {
  // ρ∞ = 1 is the energy-preserving member of the family; released at rest from y = 0 the
  // total energy is 0. Tolerance: 1e-6 of m g L. Index-3 constraints with ρ∞ = 1 are unstable
  // (Cardona & Géradin 1989; the multipliers grow without bound), so this uses the stabilized
  // formulation, which imposes the constraints at velocity level in the step and projects.
  const double T = 2.367842;
  for (const auto& [label, coordinates] : kBothCoordinates) {
    SCOPED_TRACE(label);
    RunSettings s = settings(2.5e-4, 100 * T, 1.0, coordinates);
    s.solver.formulation = ConstraintFormulation::kStabilized;
    s.output.every = 200;
    const auto r = testing::run(pendulum(), s);
    ASSERT_TRUE(r.stats.ok) << r.stats.message;
    double worst = 0.0;
    for (const State& st : r.states) {
      const double E = 0.5 * st.v.head<3>().squaredNorm() + 9.81 * st.x_W[0].y();
      worst = std::max(worst, std::abs(E));
    }
    EXPECT_LT(worst / 9.81, 1e-6) << "worst |E| = " << worst;
    // The constraint holds to Newton tolerance: |x|² stays 1.
    for (const State& st : r.states) EXPECT_NEAR(st.x_W[0].norm(), 1.0, 1e-11);
  }
}

}  // namespace
}  // namespace cs

namespace cs {
namespace {
TEST(Pendulum, StabilizedFormulationIsSecondOrderAndExactOnConstraints) {
  // Position error at t = 1 s for three steps: ratios ≈ 4; the constraint and its velocity
  // form hold to Newton tolerance at every step (projection). In body poses, where the
  // formulation has rows to project on.
  auto error_at_1s = [](double h) {
    RunSettings s = settings(h, 1.0, 0.8, CoordinateChoice::kAbsolute);
    s.solver.formulation = ConstraintFormulation::kStabilized;
    const auto r = testing::run(pendulum(), s);
    EXPECT_TRUE(r.stats.ok) << r.stats.message;
    for (const State& st : r.states) {
      EXPECT_NEAR(st.x_W[0].norm(), 1.0, 1e-11);
      EXPECT_NEAR(st.x_W[0].dot(st.v.head<3>()), 0.0, 1e-10);  // velocity ⟂ radius
    }
    return (r.states.back().x_W[0] - Vec3(-0.986292, -0.165011, 0)).norm();
  };
  const double e1 = error_at_1s(4e-3), e2 = error_at_1s(2e-3), e3 = error_at_1s(1e-3);
  EXPECT_NEAR(std::log2(e1 / e2), 2.0, 0.25) << e1 << " " << e2;
  EXPECT_NEAR(std::log2(e2 / e3), 2.0, 0.25) << e2 << " " << e3;
}
}  // namespace
}  // namespace cs
