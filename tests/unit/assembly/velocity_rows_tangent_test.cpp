// System::velocity_rows_tangent, ∂(B v + Φ_t)/∂q at fixed v from the elements' constraint
// tangents with unit multipliers, against Richardson's central differences of B v + Φ_t on the
// group (the stabilized and NSGA steps' D in step_linearization.cpp), on models with every ideal
// joint kind, drivers and a revolute clearance's axial row, at states off the constraints with
// random velocities.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/sensitivity/state_tangent.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

VecX velocity_rows(const System& sys, const State& y) {
  std::vector<BodyKinematics> kin;
  sys.gather(y, kin);
  const int n = sys.num_dofs(), m = sys.num_constraints();
  VecX phi(m), Btl = VecX::Zero(n), bv(m);
  sys.constraint_products(kin, y.t, VecX::Zero(m), &y.v, phi, Btl, &bv);
  return bv;
}

void expect_tangent_matches_differences(const std::string& example, std::uint32_t seed) {
  const LoadedModel lm = load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/" + example);
  System sys(lm.model);
  const int n = sys.num_dofs(), m = sys.num_constraints();
  ASSERT_GT(m, 0) << example;
  std::mt19937 rng(seed);
  State x = initial_state(sys, 0.37);
  for (std::size_t b = 0; b < x.x_W.size(); ++b) {  // off the constraints, moving
    x.x_W[b] += testing::random_vec(rng, 0.05);
    x.R_WB[b] = x.R_WB[b] * so3::exp(testing::random_vec(rng, 0.3));
  }
  for (int k = 0; k < n; ++k) x.v(k) = std::uniform_real_distribution<double>(-3.0, 3.0)(rng);
  std::vector<BodyKinematics> kin;
  sys.gather(x, kin);
  MatX D = MatX::Zero(m, n);
  sys.velocity_rows_tangent(kin, x.t, x.v, MatrixSink(&D));
  // Richardson's combination of central differences at σ and 2σ: truncation O(σ⁴).
  const double sigma = 1e-4;
  MatX fd(m, n);
  StateTangent e = StateTangent::zero(x);
  for (int j = 0; j < n; ++j) {
    e.q.setZero();
    e.q(j) = 1.0;
    const auto at = [&](double s) { return velocity_rows(sys, displaced(x, e, s)); };
    const VecX c1 = (at(sigma) - at(-sigma)) / (2.0 * sigma);
    const VecX c2 = (at(2.0 * sigma) - at(-2.0 * sigma)) / (4.0 * sigma);
    fd.col(j) = (4.0 * c1 - c2) / 3.0;
  }
  // Round-off of the differences: 1e-16 · |B v| / σ ~ 1e-11 of the entries here.
  EXPECT_LE((D - fd).lpNorm<Eigen::Infinity>(), 1e-8 * std::max(1.0, fd.lpNorm<Eigen::Infinity>()))
      << example;
  EXPECT_GT(D.lpNorm<Eigen::Infinity>(), 0.0) << example;
}

TEST(VelocityRowsTangent, EqualsDifferencesOfTheRowsOnEveryJointKind) {
  expect_tangent_matches_differences("slider_crank_ideal/model.yaml", 1);
  expect_tangent_matches_differences("flores_slider_crank_nsga/model.yaml", 2);
  expect_tangent_matches_differences("spatial_slider_crank_revolute_clearance/model.yaml", 3);
  expect_tangent_matches_differences("iftomm_a04_bricard/model.yaml", 4);
  expect_tangent_matches_differences("iftomm_a05_flyball_governor/model.yaml", 5);
  expect_tangent_matches_differences("urdf_arm/model.yaml", 6);
}

}  // namespace
}  // namespace cs
