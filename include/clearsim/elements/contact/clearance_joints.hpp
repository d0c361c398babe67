// Contact geometry elements treated as unilateral constraints by NSGA (reference.md §2):
// each computes gaps g_N ≥ 0 and their gradients; the integrator turns them into non-penetration
// and Newton's impact law with restitution e_N.
//
//  SpherePlane         ball (radius r, centre on body j) above a plane (point and normal z of a
//                      marker on body i):               g_N = n·(c_j − p_i) − r
//  SphericalClearance  ball centre on body j inside a spherical housing on body i
//                      (seed 000, reference §2.1):      g_N = c − e0 − ‖t‖,  t = x_B − x_A
//  RevoluteClearance   pin on body j in a cylindrical bearing on body i (seed 002, §2.2): two
//                      end spheres at C_α = x_B ± d v″; t_α = (I − u″u″ᵀ)(C_α − x_A);
//                      g_α = c − ‖t_α‖. With d = 0 one point: the planar revolute clearance
//                      (seed 003). Axial motion: free, ideal (bilateral u″·(x_B − x_A) = 0) or
//                      thrust faces g = c_ax ∓ u″·(x_B − x_A).
#pragma once

#include "clearsim/elements/contact/contact_geometry.hpp"
#include "clearsim/elements/element.hpp"
#include "clearsim/model/body.hpp"

namespace cs::contact {

// Velocity rows of the ideal joint a clearance joint stands for (Element::ideal_rows): spherical
// (3 rows: the centres move together) and revolute (5 rows: also the axes stay aligned).
void spherical_ideal_rows(const SphericalClearanceGeometry& g, const ElementInput& in,
                          ConstraintBlock& out);
// The same for any clearance geometry (the treatments that hold a contact::Geometry): 3 rows for
// a spherical joint, 5 for a revolute one, none for a sphere–plane pair.
int geometry_ideal_row_count(const Geometry& g);
void geometry_ideal_rows(const Geometry& g, const ElementInput& in, ConstraintBlock& out);
void revolute_ideal_rows(const RevoluteClearanceGeometry& g, const ElementInput& in,
                         ConstraintBlock& out);
// The ideal axial constraint of a revolute clearance, u″·(x_B − x_A) = 0, and its tangent.
void revolute_axial_row(const RevoluteClearanceGeometry& g, const ElementInput& in,
                        ConstraintBlock& out);
void revolute_axial_tangent(const RevoluteClearanceGeometry& g, const ElementInput& in,
                            double lambda, Mat12& K);

// The gaps of a clearance geometry and their gradients, written once for every element that
// treats them as NSGA constraints (SphericalClearance, RevoluteClearance, LubricatedClearance).
//  spherical  one gap g = c − e0 − ‖e‖ (e0 = g.asperity) in row 0;
//  revolute   one gap per pin end, g_α = c − e0 − ‖e_α‖, in rows [0, num_ends()).
// `mu` > 0 also fills the tangential rows T at the contact point on the journal surface
// (journal radius: g.ball_radius, g.pin_radius). `out` must be reset by the caller.
void spherical_gap_rows(const SphericalClearanceGeometry& g, double mu, const ElementInput& in,
                        GapBlock& out);
void revolute_gap_rows(const RevoluteClearanceGeometry& g, double asperity, double mu,
                       const ElementInput& in, GapBlock& out);

class SpherePlane final : public Element {
 public:
  // Radius 0 is a particle (point contact at the marker, no friction moment).
  SpherePlane(std::string name, Marker plane, Marker ball_centre, double radius, double e_n,
              double mu = 0.0);
  std::string kind() const override { return "sphere_plane"; }
  int num_gaps() const override { return 1; }
  void gaps(const ElementInput& in, GapBlock& out) const override;
  double restitution(int) const override { return e_n_; }
  double friction(int) const override { return mu_; }
  std::vector<std::string> channel_names() const override { return geometry_channel_names(geom_); }
  std::vector<Marker> attachments() const override { return geometry_markers(geom_); }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;
  void channel_values(const int* k, int n, const ElementInput& in, const double* lambda,
                      double* out) const override;

 private:
  SpherePlaneGeometry geom_;
  double e_n_, mu_;
};

class SphericalClearance final : public Element {
 public:
  // clearance c = R − r > 0 [m]; asperity e0 ∈ [0, c) [m]; restitution e_N ∈ [0, 1];
  // Coulomb μ ≥ 0 and the ball radius r [m] (where friction acts, for its moment).
  SphericalClearance(std::string name, Marker housing, Marker ball, double clearance,
                     double asperity, double e_n, double mu = 0.0, double ball_radius = 0.0);
  std::string kind() const override { return "spherical_clearance"; }
  int num_gaps() const override { return 1; }
  void gaps(const ElementInput& in, GapBlock& out) const override;
  double restitution(int) const override { return e_n_; }
  double friction(int) const override { return mu_; }
  // Ideal spherical joint: the ball and housing centres move together (3 rows).
  int num_ideal_rows() const override { return 3; }
  void ideal_rows(const ElementInput& in, ConstraintBlock& out) const override;
  // "gap" [m], "eccentricity" ‖t‖ [m], "eccentricity_ratio" ‖t‖/c, "journal.x|y|z": ball
  // centre relative to the housing centre in the housing (marker) frame [m].
  std::vector<std::string> channel_names() const override { return geometry_channel_names(geom_); }
  std::vector<Marker> attachments() const override { return geometry_markers(geom_); }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;
  void channel_values(const int* k, int n, const ElementInput& in, const double* lambda,
                      double* out) const override;
  double clearance() const { return geom_.clearance; }

 private:
  SphericalClearanceGeometry geom_;
  double e_n_, mu_;
};

class RevoluteClearance final : public Element {
 public:
  enum class Axial { kFree, kIdeal, kClearance };
  // bearing: marker on body i, origin on the bearing axis, z = bearing axis u.
  // pin: marker on body j, origin at the pin mid-point, z = pin axis v (may differ from u:
  // initial misalignment). half_length d = L_pin/2 ≥ 0 (0: planar, one contact point).
  // Coulomb μ ≥ 0 acts at the radial contacts, at the pin surface (pin radius r [m]).
  RevoluteClearance(std::string name, Marker bearing, Marker pin, double clearance,
                    double half_length, double e_n, Axial axial, double axial_clearance,
                    double mu = 0.0, double pin_radius = 0.0);
  std::string kind() const override { return "revolute_clearance"; }
  int num_gaps() const override;
  void gaps(const ElementInput& in, GapBlock& out) const override;
  double restitution(int) const override { return e_n_; }
  double friction(int k) const override { return k < radial_gaps() ? mu_ : 0.0; }
  std::string gap_name(int k) const override;
  // Ideal revolute joint: pin and bearing points move together, axes stay aligned (5 rows).
  int num_ideal_rows() const override { return 5; }
  void ideal_rows(const ElementInput& in, ConstraintBlock& out) const override;
  int num_constraints() const override { return axial_ == Axial::kIdeal ? 1 : 0; }
  void constraint(const ElementInput& in, ConstraintBlock& out) const override;
  void constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const override;
  std::string constraint_row_name(int) const override { return "axial position u·(x_B − x_A)"; }
  // "gap1", "gap2" (pin ends; gap1 only when d = 0), "eccentricity1|2" [m],
  // "journal1.x|y|z", "journal2.x|y|z": end-sphere centres relative to the bearing axis point,
  // in the bearing (marker) frame [m]; "axial" u·(x_B − x_A) [m].
  std::vector<std::string> channel_names() const override { return geometry_channel_names(geom_); }
  std::vector<Marker> attachments() const override { return geometry_markers(geom_); }
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;
  void channel_values(const int* k, int n, const ElementInput& in, const double* lambda,
                      double* out) const override;
  double clearance() const { return geom_.clearance; }

 private:
  int radial_gaps() const { return geom_.num_ends(); }
  RevoluteClearanceGeometry geom_;
  double e_n_;
  Axial axial_;
  double c_ax_, mu_;
};

}  // namespace cs::contact
