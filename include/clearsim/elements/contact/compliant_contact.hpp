// The compliant and lubricated treatments of a contact geometry (DESIGN.md "One geometry, two
// treatments"): the contact points of contact_geometry.hpp turned into a smooth force.
//
//  compliant   at each contact point with penetration δ = −g_N > 0: normal force F_N(δ, δ̇, δ̇⁻)
//              (normal_laws.hpp) along N on body j and a friction force F_T (friction_laws.hpp)
//              opposing the tangential slip, both applied at the contact points (body j at p_j,
//              the opposite on body i at p_i).
//  lubricated  the same dry contact underneath, starting at ‖e‖ = c − e0 (asperity e0), plus a
//              film force on the journal (film_laws.hpp) with ε capped at 1 − e0/c: reference.md
//              §5.4 option B, continuous at the transition (seed 003 eq. 23 as printed is not).
// One class serves every geometry and every law: a user switches treatment, law or geometry
// with one key. Tangents are exact, by forward automatic differentiation of the same kernels.
//
// Memory per contact point (State::memory, updated when a step is accepted):
//   [0]      δ̇⁻, the approach speed at contact onset (0: the point was open after the last step)
//   [1..3]   bristle anchor, a material point of body i (body-i frame) [m]
//   [4..6]   bristle anchor, a material point of body j (body-j frame) [m]
// The bristle deflection is d = (I − NNᵀ)(A_j − A_i) with A the anchors' world positions.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "clearsim/elements/contact/contact_geometry.hpp"
#include "clearsim/elements/contact/friction_laws.hpp"
#include "clearsim/elements/contact/normal_laws.hpp"
#include "clearsim/elements/element.hpp"
#include "clearsim/elements/lubrication/film_laws.hpp"

namespace cs::contact {

enum class LubricationKind { kNone, kSqueezeFilm, kJournalBearing };

struct Lubrication {
  LubricationKind kind = LubricationKind::kNone;
  lubrication::SqueezeFilm squeeze;     // spherical joints
  lubrication::JournalBearing bearing;  // revolute joints (per pin end: length L/2 when d > 0)

  // The film force on journal J (body j, at J.centre_j; the housing, body i, takes the
  // opposite), from the film law of the joint: the one evaluation every treatment with a film
  // calls (the compliant contact's and LubricatedClearance's).
  template <class S>
  V3<S> force(const Journal<S>& J, const Pose<S>& i, const Pose<S>& j) const {
    if (kind == LubricationKind::kSqueezeFilm) return squeeze.force(J);
    const S w_i = J.axis.dot(i.omega_W()), w_j = J.axis.dot(j.omega_W());
    return bearing.force(J, w_i, w_j);
  }

  // The bearing-loss channels of one journal (journal bearings only; bearing_losses.hpp):
  // "friction_torque" T_J, "couette_torque", "poiseuille_torque" on the journal about the axis
  // [N·m], "bush_friction_torque" T_B [N·m], "power_loss" [W], "side_flow" [m³/s], "min_film"
  // [m] (lubrication_channels.cpp).
  static const std::vector<std::string>& loss_channel_names();
  int num_loss_channels() const;
  double loss_channel(int q, const Journal<double>& J, const Pose<double>& i,
                      const Pose<double>& j) const;
};

// Completes a film law for its geometry when the element that owns it is built: a pin with two
// ends carries half the bearing length at each end, and a finite bearing gets its force table.
void prepare_lubrication(Lubrication& lubrication, const Geometry& geometry);

struct ContactLaws {
  NormalLaw normal;
  FrictionLaw friction;
  Lubrication lubrication;
  double asperity = 0.0;  // e0 [m]: dry contact starts at ‖e‖ = c − e0 (clearance joints)
};

class CompliantContact final : public Element {
 public:
  static constexpr int kMemoryPerPoint = 7;
  // axial_ideal: a revolute clearance keeps the ideal axial constraint u″·(x_B − x_A) = 0.
  CompliantContact(std::string name, int body_i, int body_j, Geometry geometry, ContactLaws laws,
                   bool axial_ideal = false);
  std::string kind() const override;

  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // Elastic energy of the normal law (NormalLaw::elastic_energy) [J].
  double potential_energy(const ElementInput& in) const override;
  ContactRates contact_rates(const ElementInput& in) const override;

  int num_memory() const override { return kMemoryPerPoint * num_points(geometry_); }
  void update_memory(const ElementInput& in, double* memory) const override;

  int num_ideal_rows() const override;
  void ideal_rows(const ElementInput& in, ConstraintBlock& out) const override;
  int num_constraints() const override { return axial_ideal_ ? 1 : 0; }
  void constraint(const ElementInput& in, ConstraintBlock& out) const override;
  void constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const override;
  std::string constraint_row_name(int) const override { return "axial position u·(x_B − x_A)"; }

  // The geometry's channels (contact_geometry.hpp) and, per contact point k (suffix k = 1, 2 for
  // a pin with two ends, none otherwise): "normal_force" F_N [N], "friction_force" ‖F_T‖ [N],
  // "penetration" max(0, δ) [m], "contact_state" (0 open, 1 closed); with lubrication
  // "film_force" ‖F_film‖ [N] per journal and, for a journal bearing, its loss channels
  // (Lubrication::loss_channel_names).
  std::vector<std::string> channel_names() const override;
  std::vector<Marker> attachments() const override { return geometry_markers(geometry_); }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

  const Geometry& geometry() const { return geometry_; }
  const ContactLaws& laws() const { return laws_; }

  // Forces of one evaluation, per contact point / journal (for channels and tests).
  struct Evaluation {
    int points = 0;
    std::array<double, kMaxContactPoints> g{}, F_N{};
    std::array<Vec3, kMaxContactPoints> F_T, film;
    Evaluation() {
      F_T.fill(Vec3::Zero());
      film.fill(Vec3::Zero());
    }
  };
  Evaluation evaluate(const ElementInput& in) const;

 private:
  template <class S>
  Eigen::Matrix<S, 12, 1> generalized_force(const Pose<S>& i, const Pose<S>& j,
                                            const double* memory, Evaluation* ev) const;
  // The revolute geometry whose ideal axial row this element carries (nullptr if none).
  const RevoluteClearanceGeometry* axial_row_geometry() const;
  Geometry geometry_;
  ContactLaws laws_;
  bool axial_ideal_ = false;
};

}  // namespace cs::contact
