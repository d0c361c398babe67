// Johnson's pin-in-bush line contact (reference.md §3.2): the force solved from the implicit
// relation δ(F), its energy and its tangent, and the linear tail past the range of validity.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/elements/contact/normal_laws.hpp"

namespace cs::contact {
namespace {

// Steel on steel (E = 207 GPa, ν = 0.3), 20 mm of contact, 0.5 mm radial clearance: the
// four-bar's joints of reference.md §6d.
JohnsonCylinder steel_joint() { return JohnsonCylinder(2 * (1 - 0.09) / 207e9, 0.02, 5e-4); }

TEST(JohnsonCylinder, ForceSolvesTheImplicitRelation) {
  const JohnsonCylinder J = steel_joint();
  // From 1 nm to close to the end of the range δ(F_c) ≈ 0.46 ΔR. Newton stops at a step of
  // 1e-15 F; the residual δ(F) − δ is then round-off of the logarithm, ~1e-15 relative.
  for (double delta = 1e-9; delta < 0.4 * 5e-4; delta *= 3.0) {
    const double F = J.force(delta);
    ASSERT_GT(F, 0.0);
    EXPECT_NEAR(J.penetration(F), delta, 1e-13 * delta) << "δ = " << delta;
  }
}

TEST(JohnsonCylinder, EnergyIsTheIntegralOfTheForceAcrossTheTail) {
  const JohnsonCylinder J = steel_joint();
  const double delta_c = J.penetration(J.force_limit());
  // Central differences of the energy: truncation (h/δ)² ≈ 1e-8, round-off ≈ 1e-16 E/h.
  for (double delta : {1e-7, 1e-5, 1e-4, 0.9 * delta_c, 1.1 * delta_c, 2.0 * delta_c}) {
    const double h = 1e-4 * delta;
    const double dE = (J.energy(delta + h) - J.energy(delta - h)) / (2 * h);
    EXPECT_NEAR(dE, J.force(delta), 1e-7 * J.force(delta)) << "δ = " << delta;
  }
}

TEST(JohnsonCylinder, TangentMatchesDifferencesAndTheTailIsContinuous) {
  const JohnsonCylinder J = steel_joint();
  for (double delta : {1e-8, 1e-6, 1e-5, 1e-4}) {
    const double F = J.force(delta), h = 1e-5 * delta;
    const double slope = (J.force(delta + h) - J.force(delta - h)) / (2 * h);
    EXPECT_NEAR(slope, 1.0 / J.compliance_at(F), 1e-7 * slope);
    // The local exponent d ln F / d ln δ = (ln(b/F) − 1)/(ln(b/F) − 2): at joint loads
    // (δ ≤ 10 µm here, F up to 12 kN) a line contact is almost linear (Pereira et al. 2011 fit
    // n ≈ 1.0–1.1), far from Hertz's point-contact 1.5; it stiffens towards the range's end.
    const double n = slope * delta / F;
    EXPECT_GT(n, 1.0);
    if (delta <= 1e-5) {
      EXPECT_LT(n, 1.2) << "δ = " << delta << ", F = " << F;
    }
  }
  const double F_c = J.force_limit(), delta_c = J.penetration(F_c);
  EXPECT_NEAR(J.force(delta_c * (1 - 1e-12)), F_c, 1e-9 * F_c);
  EXPECT_NEAR(J.force(delta_c * (1 + 1e-12)), F_c, 1e-9 * F_c);
  EXPECT_NEAR(delta_c, 2 * (1 + std::log(2.0)) / std::exp(2.0) * 5e-4, 1e-12);
}

TEST(JohnsonCylinder, TheLawCarriesTheImplicitDerivativeThroughAutomaticDifferentiation) {
  NormalLaw law;
  law.kind = NormalLawKind::kJohnsonCylinder;
  law.johnson = steel_joint();
  law.restitution = 1.0;
  Dual24 delta(2e-5);
  delta.derivatives() = Eigen::Matrix<double, 24, 1>::Zero();
  delta.derivatives()(3) = 1.0;
  const Dual24 F = law.force(delta, Dual24(0.0), 1.0);
  EXPECT_DOUBLE_EQ(F.value(), law.johnson.force(2e-5));
  EXPECT_DOUBLE_EQ(F.derivatives()(3), 1.0 / law.johnson.compliance_at(F.value()));
  EXPECT_NEAR(law.elastic_energy(2e-5), law.johnson.energy(2e-5), 0.0);
}

}  // namespace
}  // namespace cs::contact
