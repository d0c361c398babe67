// Every ideal joint and driver: B against finite differences of Φ on the group, ζ against the
// second time derivative of Φ along a constant-velocity motion, Φ_t against the time derivative,
// and K = ∂(Bᵀλ)/∂q against finite differences of Bᵀλ.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/elements/joints/joint_driver.hpp"
#include "clearsim/math/finite_difference.hpp"
#include "support/random_state.hpp"

namespace cs {
namespace {

using joints::JointType;

Marker random_marker(std::mt19937& rng, int body) {
  Marker m;
  m.body = body;
  m.p_B = testing::random_vec(rng, 0.3);
  m.R_BM = so3::exp(testing::random_vec(rng, 2.0));
  return m;
}

// The two markers of a case, j drawn first (as GCC evaluated f(random_marker(rng, 0),
// random_marker(rng, 1)); the order of a call's arguments is unspecified).
std::pair<Marker, Marker> marker_pair(std::mt19937& rng) {
  const Marker mj = random_marker(rng, 1), mi = random_marker(rng, 0);
  return {mi, mj};
}

struct Case {
  std::string label;
  std::unique_ptr<Element> element;
};

std::vector<Case> make_cases(std::mt19937& rng) {
  std::vector<Case> cases;
  for (JointType t :
       {JointType::kFixed, JointType::kSpherical, JointType::kRevolute, JointType::kUniversal,
        JointType::kCylindrical, JointType::kPrismatic, JointType::kPlanar}) {
    const auto [mi, mj] = marker_pair(rng);
    cases.push_back({joints::to_string(t), std::make_unique<joints::IdealJoint>("j", t, mi, mj)});
  }
  using D = joints::JointDriver;
  {
    const auto [mi, mj] = marker_pair(rng);
    cases.push_back({"rotation driver (harmonic)",
                     std::make_unique<D>("d", "j", D::Motion::kRotation, D::Given::kPosition,
                                         TimeFunction::harmonic(0.7, 1.3, 0.2, 0.1), mi, mj)});
  }
  {
    const auto [mi, mj] = marker_pair(rng);
    cases.push_back({"rotation driver (velocity)",
                     std::make_unique<D>("d", "j", D::Motion::kRotation, D::Given::kVelocity,
                                         TimeFunction::polynomial({2.0, 0.5, -0.3}), mi, mj)});
  }
  {
    const auto [mi, mj] = marker_pair(rng);
    cases.push_back({"translation driver",
                     std::make_unique<D>("d", "j", D::Motion::kTranslation, D::Given::kPosition,
                                         TimeFunction::harmonic(0.1, 2.0, 0.0, 0.05), mi, mj)});
  }
  return cases;
}

VecX phi_of(const Element& e, const BodyKinematics& bi, const BodyKinematics& bj, double t) {
  ConstraintBlock cb;
  e.constraint({t, &bi, &bj}, cb);
  return cb.phi.head(cb.m);
}

TEST(JointTangents, JacobianZetaAndTangentMatchFiniteDifferences) {
  std::mt19937 rng(7);
  const auto cases = make_cases(rng);
  for (const auto& c : cases) {
    const Element& e = *c.element;
    const int m = e.num_constraints();
    for (int trial = 0; trial < 5; ++trial) {
      const BodyKinematics bi = testing::random_body(rng), bj = testing::random_body(rng);
      const double t = 0.37;
      ConstraintBlock cb;
      e.constraint({t, &bi, &bj}, cb);
      ASSERT_EQ(cb.m, m);
      // B against FD of Φ: tolerance ~ ε² · |Φ'''| with ε = 1e-6 → 1e-8 is generous yet tight.
      const MatX B_fd = fd::jacobian_q(
          [&](const BodyKinematics& a, const BodyKinematics& b) { return phi_of(e, a, b, t); }, bi,
          bj);
      EXPECT_LT((B_fd - cb.B.topRows(m)).norm(), 1e-8) << c.label;

      // Φ̇ = B v + Φ_t and Φ̈ = B v̇ + ζ with v̇ = 0 along x + v s, R exp(Ω s), time t + s.
      const double h = 1e-4;
      auto at = [&](double s) {
        BodyKinematics a = bi, b = bj;
        fd::advance(a, s);
        fd::advance(b, s);
        return phi_of(e, a, b, t + s);
      };
      // Richardson-extrapolated first derivative (error O(h⁴)); plain central differences are
      // too coarse where a random, misaligned marker pair makes the angle function steep.
      const VecX d1h = (at(h) - at(-h)) / (2 * h);
      const VecX d1h2 = (at(h / 2) - at(-h / 2)) / h;
      const VecX d1 = (4.0 * d1h2 - d1h) / 3.0;
      const VecX d2 = (at(h) - 2 * at(0) + at(-h)) / (h * h);
      const VecX v = (Vec12() << bi.v_W, bi.w_B, bj.v_W, bj.w_B).finished();
      EXPECT_LT((d1 - (cb.B.topRows(m) * v + cb.phi_t.head(m))).norm(), 1e-6) << c.label;
      EXPECT_LT((d2 - cb.zeta.head(m)).norm(), 2e-4 * (1.0 + d2.norm())) << c.label;

      // K = ∂(Bᵀλ)/∂q.
      VecX lam = VecX::Random(m);
      Mat12 K = Mat12::Zero();
      e.constraint_tangent({t, &bi, &bj}, lam.data(), K);
      const MatX K_fd = fd::jacobian_q(
          [&](const BodyKinematics& a, const BodyKinematics& b) {
            ConstraintBlock cc;
            e.constraint({t, &a, &b}, cc);
            return VecX(cc.B.topRows(m).transpose() * lam);
          },
          bi, bj);
      EXPECT_LT((K_fd - K).norm(), 1e-7 * (1.0 + K.norm())) << c.label;
    }
  }
}

TEST(JointTangents, MarkersCoincidingGiveZeroResidual) {
  // In the reference configuration both markers coincide, so every joint and a driver at θ_d = 0
  // is satisfied exactly.
  std::mt19937 rng(11);
  for (JointType t : {JointType::kFixed, JointType::kSpherical, JointType::kRevolute,
                      JointType::kCylindrical, JointType::kPrismatic, JointType::kPlanar}) {
    const BodyKinematics bi = testing::random_body(rng), bj = testing::random_body(rng);
    const Vec3 p_W = testing::random_vec(rng);
    const Mat3 R_WM = so3::exp(testing::random_vec(rng, 2.0));
    Marker mi{0, bi.R_WB.transpose() * (p_W - bi.x_W), bi.R_WB.transpose() * R_WM};
    Marker mj{1, bj.R_WB.transpose() * (p_W - bj.x_W), bj.R_WB.transpose() * R_WM};
    joints::IdealJoint j("j", t, mi, mj);
    EXPECT_LT(phi_of(j, bi, bj, 0.0).norm(), 1e-14) << joints::to_string(t);
  }
}

}  // namespace
}  // namespace cs
