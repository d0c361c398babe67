// A lubricated clearance joint with RIGID dry contact underneath — seed 000's own model
// (reference.md §5.1 "film rupture", §5.4 option B, §1.8): one geometry, two treatments at once.
//
//  film       a smooth force (film_laws.hpp: the squeeze film of a ball in a cup, or the long,
//             short or finite journal bearing of a pin) on the journal centre, the opposite on the
//             housing, with ε capped at 1 − e0/c. It goes to the smooth step of NSGA with exact
//             tangents (forward automatic differentiation of the same kernels the compliant
//             treatment uses, Lubrication::force).
//  rupture    a unilateral gap per journal at the reduced clearance, g_N = c − e0 − ‖e‖ ≥ 0
//             (clearance_joints.hpp's gap rows, shared with the dry unilateral joints): NSGA's
//             position correction keeps ‖e‖ ≤ c − e0, and when the film ruptures (the gap closes
//             while approaching) the velocity jump applies Newton's impact law with e_N.
// Because the gap closes exactly where the cap of ε starts, the film force is a continuous
// function of the state everywhere the motion can go (‖e‖ ≤ c − e0): it is finite at rupture,
// C₀ f(1 − e0/c) ≈ C₀ c/e0 for the squeeze film, and nothing switches on or off there.
//
// Selected by `treatment: lubricated` with `contact: unilateral` (docs/model-format.md); it needs
// `integrator: nsga`. Memory: none (no compliant law, no δ̇⁻).
#pragma once

#include <string>
#include <vector>

#include "clearsim/elements/contact/compliant_contact.hpp"
#include "clearsim/elements/contact/contact_geometry.hpp"
#include "clearsim/elements/element.hpp"

namespace cs::contact {

class LubricatedClearance final : public Element {
 public:
  static constexpr int kMaxJournals = RevoluteClearanceGeometry::kMaxPoints;
  // geometry: a SphericalClearanceGeometry (its asperity is set to e0) or a
  // RevoluteClearanceGeometry; film: its film law (prepared here: half length per pin end,
  // finite-bearing table); asperity e0 ∈ (0, c); restitution e_N ∈ [0, 1]; Coulomb μ ≥ 0 at
  // the dry contacts; axial_ideal: a revolute keeps u″·(x_B − x_A) = 0.
  LubricatedClearance(std::string name, int body_i, int body_j, Geometry geometry, Lubrication film,
                      double asperity, double restitution, double mu = 0.0,
                      bool axial_ideal = false);
  std::string kind() const override;

  // --- the film: a smooth force ---------------------------------------------------------------
  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;

  // --- film rupture: unilateral gaps at c − e0 -------------------------------------------------
  int num_gaps() const override { return num_points(geometry_); }
  void gaps(const ElementInput& in, GapBlock& out) const override;
  double restitution(int) const override { return e_n_; }
  double friction(int) const override { return mu_; }
  std::string gap_name(int k) const override;
  int num_ideal_rows() const override;
  void ideal_rows(const ElementInput& in, ConstraintBlock& out) const override;
  int num_constraints() const override { return axial_ideal_ ? 1 : 0; }
  void constraint(const ElementInput& in, ConstraintBlock& out) const override;
  void constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const override;
  std::string constraint_row_name(int) const override { return "axial position u·(x_B − x_A)"; }

  // The geometry's channels (contact_geometry.hpp; "gap" is c − e0 − ‖e‖) and, per journal
  // (suffix 1, 2 for a pin with two ends): "film_force" ‖F_film‖ [N] and "film_power" [W], the
  // power of the film force on the two bodies (≤ 0 for a squeeze film: what it dissipates);
  // for a journal bearing also its loss channels (Lubrication::loss_channel_names).
  // The NSGA contact channels (impulse, contact_force, contact_state) come with the gaps.
  std::vector<std::string> channel_names() const override;
  std::vector<Marker> attachments() const override { return geometry_markers(geometry_); }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

  const Geometry& geometry() const { return geometry_; }
  const Lubrication& film() const { return film_; }
  double asperity() const { return e0_; }

  // The film force on each journal [N] (body j, at the journal centre) and its power on the
  // two bodies [W], at one state.
  struct Evaluation {
    int journals = 0;
    Vec3 force[kMaxJournals] = {Vec3::Zero(), Vec3::Zero()};
    double power[kMaxJournals] = {0.0, 0.0};
  };
  Evaluation evaluate(const ElementInput& in) const;

 private:
  template <class S>
  Eigen::Matrix<S, 12, 1> film_force(const Pose<S>& i, const Pose<S>& j, Evaluation* ev) const;
  template <class S>
  int journals_of(const Pose<S>& i, const Pose<S>& j, Journal<S>* J) const;
  // The revolute geometry whose ideal axial row this element carries (nullptr if none).
  const RevoluteClearanceGeometry* axial_row_geometry() const;
  Geometry geometry_;
  Lubrication film_;
  double e0_, e_n_, mu_;
  bool axial_ideal_;
};

}  // namespace cs::contact
