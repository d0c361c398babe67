// GeneralizedAlpha under NSGA: the persistent contacts of the smooth step, the restart of the
// accelerations at their onset, their release, and the corrections, in body poses. The order of
// these phases is alpha_step's (alpha_step.hpp); the contact laws are NonsmoothCorrection's. The
// same in joint coordinates: tree_nsga.cpp.
#include <algorithm>

#include "clearsim/math/so3.hpp"
#include "clearsim/solvers/alpha_step.hpp"
#include "clearsim/solvers/configuration.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"

namespace cs {

bool GeneralizedAlpha::choose_persistent(const State& s) {
  // A contact that is closed after the last step with (to tolerance) no normal velocity, and is
  // frictionless, is carried by the smooth step as a velocity constraint G_j ṽ = 0 with a smooth
  // force λ_N,j ≥ 0. Left to the corrections alone, the smooth step would fly through the wall
  // every step and the projection back would remove the normal velocity the curvature of the
  // wall gives a sliding contact: an O(h) energy loss on curved contacts (a ball sliding in a
  // cavity lost 12.6 % of its energy in 0.5 s at h = 1e-5). Carried here, sliding contact is
  // integrated at the smooth part's second order; the corrections still enforce g ≥ 0 and the
  // impact law exactly. Frictional contacts stay with the corrections (their friction impulse
  // is μ times the normal impulse).
  any_persistent_ = false;
  if (gap_rows_ == 0) return false;
  any_persistent_ = choose_persistent_contacts(sys_, settings_, s, persistent_);
  return any_persistent_;
}

bool GeneralizedAlpha::restart_accelerations(State& s) {
  // A contact that becomes persistent switches the smooth problem: the accelerations a_n and
  // v̇_n carried over from free flight (−g for a ball landing on a floor) violate the new
  // constraint, and generalized-α answers with its spurious (−ρ∞)ᵏ mode in λ_N — a resting
  // ball reported 19.3, 1.2, 17.3, 3.4, … N for a 9.81 N weight over 70 steps after landing.
  // As after an event in an event-driven scheme, restart both from the smallest mass-weighted
  // change that makes them consistent with the persistent contacts, G_j a = −ζ_j (ζ_j = Ġ_j v,
  // by a central difference along v), leaving B a unchanged.
  const int p = gap_rows_, n = sys_.num_dofs();
  if (!any_persistent_ || !mass_schur_) return false;
  bool onset = false;
  for (int j = 0; j < p; ++j)
    onset = onset || (persistent_[j] && !(s.lambda_N.size() == p && s.lambda_N(j) > 0.0));
  if (!onset) return false;
  sys_.gather(s, kin_);
  MatX Bn = MatX::Zero(sys_.num_constraints(), n), Gn = MatX::Zero(p, n);
  sys_.constraints(kin_, s.t, nullptr, MatrixSink(&Bn), nullptr, nullptr);
  VecX g(p), zeta = VecX::Zero(p);
  sys_.gaps(kin_, s.t, &g, MatrixSink(&Gn));
  const double speed = s.v.lpNorm<Eigen::Infinity>();
  if (speed > 0.0) {
    const double eps = 1e-7 / speed;  // moves every coordinate by at most 1e-7 (m or rad)
    MatX Gp = MatX::Zero(p, n), Gm = MatX::Zero(p, n);
    State shifted = s;
    std::vector<BodyKinematics> kin;
    integrate_configuration(s, eps * s.v, shifted);
    sys_.gather(shifted, kin);
    sys_.gaps(kin, s.t, &g, MatrixSink(&Gp));
    integrate_configuration(s, -eps * s.v, shifted);
    sys_.gather(shifted, kin);
    sys_.gaps(kin, s.t, &g, MatrixSink(&Gm));
    zeta = (Gp - Gm) * s.v / (2.0 * eps);
  }
  mass_factored_ = false;  // the factorization below is of the restart's rows
  if (!mass_schur_->factor_gaps(Bn, Gn, persistent_)) return false;
  const int m = sys_.num_constraints();
  for (VecX* acc : {&s.a, &s.vdot}) {
    VecX rhs = VecX::Zero(n + m + p);
    for (int j = 0; j < p; ++j)
      if (persistent_[j]) rhs(n + m + j) = -zeta(j) - Gn.row(j).dot(*acc);
    mass_schur_->solve_gaps(rhs);
    *acc += rhs.head(n);
  }
  return true;
}

bool GeneralizedAlpha::release_pulling() {
  if (!any_persistent_ || !release_pulling_contacts(trial_.lambda_N, persistent_)) return false;
  any_persistent_ =
      std::any_of(persistent_.begin(), persistent_.end(), [](char c) { return c != 0; });
  return true;
}

bool GeneralizedAlpha::correct_nonsmooth(const State& prev, State& x, StepResult& res) {
  // The mass iteration's factorization of this step (rows B and the persistent contacts at
  // the predictor) is a chord for the position correction and the velocity jump.
  CorrectionHints hints;
  if (settings_.newton == NewtonMode::kModified && mass_ok_ && mass_schur_) {
    hints.chord = mass_schur_.get();
    hints.chord_active = &persistent_;
  }
  // The smooth step's last evaluation of the joints, at q̃ or one increment ξ (≲ tol/10) before
  // it: Φ(q̃) = Φ + B (ξ mapped to the body-frame tangent) to O(‖ξ‖²), i.e. to round-off.
  const int m = sys_.num_constraints();
  if (!ls_.is_sparse() && m > 0 && shared_ok_) {
    tangent_xi_ = shared_xi_;
    for (int b = 0; b < sys_.model().num_bodies(); ++b)
      tangent_xi_.segment<3>(6 * b + 3) =
          so3::tangent(hdq_.segment<3>(6 * b + 3)) * shared_xi_.segment<3>(6 * b + 3);
    shared_phi_ = phi_;
    shared_phi_.noalias() += B_ * tangent_xi_;
    hints.B = &B_;
    hints.phi = &shared_phi_;
  }
  const NonsmoothReport r = nonsmooth_->correct(prev, x, hints);
  res.message = r.message;
  res.position_iterations = r.position_iterations;
  res.velocity_iterations = r.velocity_iterations;
  res.plastic_impacts = r.plastic_impacts;
  res.factorizations += r.factorizations;
  return r.ok;
}

}  // namespace cs
