// Contact geometry kernels, written once (DESIGN.md "Contact geometry is a free kernel"). Each
// shape pair turns the poses of its two bodies into
//   journals — for clearance joints, the journal (ball or pin end) centre relative to the
//              housing: eccentricity vector e and its rate ė, the bearing axis (what film laws
//              read), and
//   contact points — gap g_N, the unit normal N along which a positive normal force pushes body j
//              (so δg_N = N·δ(p_j − p_i) for material points), the contact point on each body
//              and the relative velocity v_j(p_j) − v_i(p_i) of those material points (what the
//              normal and friction laws read: ġ_N = N·v_rel, v_T = v_rel − N(N·v_rel)).
// They are templates over the scalar: `double` for gaps, channels and forces; Dual24
// (math/autodiff.hpp) for exact tangents. The NSGA treatment (clearance_joints.hpp), the compliant
// and lubricated treatments (compliant_contact.hpp) and the output channels all call these.
//
// Geometry (reference.md §2):
//  SphericalClearance  ball centre x_B on body j inside a spherical housing centred at x_A on
//                      body i; e = x_B − x_A, g_N = c − e0 − ‖e‖.
//  RevoluteClearance   pin on body j in a cylindrical bearing on body i. Pin ends C_α = x_B ± d v″
//                      (d = 0: one point, the planar revolute clearance of seed 003);
//                      e_α = (I − u″u″ᵀ)(C_α − x_A), g_α = c − ‖e_α‖.
//  SpherePlane         ball of radius r (centre on body j) above a plane (point and normal z of a
//                      marker on body i): g_N = n·(c_j − p_i) − r.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <string>
#include <variant>
#include <vector>

#include "clearsim/elements/element.hpp"
#include "clearsim/math/autodiff.hpp"
#include "clearsim/model/body.hpp"

namespace cs::contact {

// Journal centre relative to its housing, for clearance joints.
template <class S>
struct Journal {
  V3<S> centre_i;  // housing centre (spherical) or bearing-axis point at the journal's station
  V3<S> centre_j;  // journal centre: ball centre or pin-end centre C_α [m], world
  V3<S> e;         // radial eccentricity centre_j − centre_i (⟂ axis for a revolute) [m]
  V3<S> e_dot;     // its time derivative [m/s]
  V3<S> axis;      // bearing axis u″ (unit, world); zero for a spherical joint
};

template <class S>
struct ContactPoint {
  S g = S(0.0);  // gap g_N [m]: > 0 open, < 0 penetration
  V3<S> N;       // unit normal: direction of the normal force on body j (zero if undefined)
  V3<S> p_i;     // contact point on body i [m], world
  V3<S> p_j;     // contact point on body j [m], world
  V3<S> v_rel;   // v_j(p_j) − v_i(p_i): relative velocity of the material points [m/s]

  S normal_rate() const { return N.dot(v_rel); }  // ġ_N
  V3<S> tangential_velocity() const { return v_rel - N * N.dot(v_rel); }
};

struct SphericalClearanceGeometry {
  static constexpr int kMaxPoints = 1;
  Marker housing;            // on body i; origin at the housing centre
  Marker ball;               // on body j; origin at the ball centre
  double clearance = 0.0;    // c = R − r [m]
  double asperity = 0.0;     // e0 [m]: dry contact starts at ‖e‖ = c − e0
  double ball_radius = 0.0;  // r [m]: where the contact point lies (friction moment)

  template <class S>
  int journals(const Pose<S>& i, const Pose<S>& j, Journal<S>* out) const {
    Journal<S>& J = out[0];
    J.centre_i = i.point(housing.p_B);
    J.centre_j = j.point(ball.p_B);
    J.e = J.centre_j - J.centre_i;
    J.e_dot = j.velocity_at(J.centre_j) - i.velocity_at(J.centre_i);
    J.axis.setZero();
    return 1;
  }
  int num_points() const { return 1; }
  // The contact points (count returned): the journal's, dry contact at ‖e‖ = c − e0 (e0 given by
  // the treatment).
  template <class S>
  int points(double e0, const Pose<S>& i, const Pose<S>& j, ContactPoint<S>* cp,
             Journal<S>* J) const;
};

struct RevoluteClearanceGeometry {
  static constexpr int kMaxPoints = 2;
  Marker bearing;            // on body i; origin on the bearing axis, z = bearing axis u
  Marker pin;                // on body j; origin at the pin mid-point, z = pin axis v
  double clearance = 0.0;    // c = R − r [m]
  double half_length = 0.0;  // d = L_pin/2 [m]; 0: planar joint, one contact point
  double pin_radius = 0.0;   // r [m]: where the contact point lies (friction moment)

  int num_ends() const { return half_length > 0.0 ? 2 : 1; }

  template <class S>
  int journals(const Pose<S>& i, const Pose<S>& j, Journal<S>* out) const {
    const V3<S> u = i.direction(bearing.R_BM.col(2));
    const V3<S> x_A = i.point(bearing.p_B);
    for (int a = 0; a < num_ends(); ++a) {
      const double sign = (a == 0) ? 1.0 : -1.0;
      const Vec3 s_j = pin.p_B + sign * half_length * pin.R_BM.col(2);  // C_α on the pin body
      Journal<S>& J = out[a];
      J.centre_j = j.point(s_j);
      const V3<S> x_AC = J.centre_j - x_A;
      const S along = u.dot(x_AC);
      J.e = x_AC - along * u;
      J.centre_i = x_A + along * u;
      // ė = P ẋ_AC − (u·x_AC) u̇ − u (u̇·x_AC), with u̇ = ω_i × u (reference.md §2.2).
      const V3<S> xdot_AC = j.velocity_at(J.centre_j) - i.velocity_at(x_A);
      const V3<S> u_dot = i.omega_W().cross(u);
      J.e_dot = xdot_AC - u * u.dot(xdot_AC) - along * u_dot - u * u_dot.dot(x_AC);
      J.axis = u;
    }
    return num_ends();
  }
  int num_points() const { return num_ends(); }
  // The contact points (count returned): one per pin end, dry contact at ‖e_α‖ = c − e0.
  template <class S>
  int points(double e0, const Pose<S>& i, const Pose<S>& j, ContactPoint<S>* cp,
             Journal<S>* J) const;
};

// The contact point of a journal inside its housing: the journal surface point along the
// eccentricity, at housing radius r + c on body i. `gap_clearance` is where dry contact starts
// (c − e0 for a spherical joint with asperities, c otherwise).
template <class S>
ContactPoint<S> journal_contact(const Journal<S>& J, double gap_clearance, double journal_radius,
                                double clearance, const Pose<S>& i, const Pose<S>& j) {
  using std::sqrt;
  ContactPoint<S> cp;
  const S e = sqrt(J.e.squaredNorm());
  cp.g = S(gap_clearance) - e;
  if (value_of(e) <= 1e-12 * clearance) {  // centred: no direction, and the gap is open
    cp.N.setZero();
    cp.p_i = cp.p_j = J.centre_j;
    cp.v_rel.setZero();
    return cp;
  }
  const V3<S> n_out = J.e / e;
  cp.N = -n_out;
  cp.p_j = J.centre_j + journal_radius * n_out;
  cp.p_i = J.centre_i + (journal_radius + clearance) * n_out;
  cp.v_rel = j.velocity_at(cp.p_j) - i.velocity_at(cp.p_i);
  return cp;
}

struct SpherePlaneGeometry {
  static constexpr int kMaxPoints = 1;
  Marker plane;         // on body i; origin on the plane, z = normal towards the sphere
  Marker ball;          // on body j; origin at the sphere centre
  double radius = 0.0;  // r [m]; 0: a particle

  template <class S>
  int contacts(const Pose<S>& i, const Pose<S>& j, ContactPoint<S>* out) const {
    ContactPoint<S>& cp = out[0];
    const V3<S> n = i.direction(plane.R_BM.col(2));
    const V3<S> c = j.point(ball.p_B);
    cp.g = n.dot(c - i.point(plane.p_B)) - radius;
    cp.N = n;
    cp.p_j = c - radius * n;
    cp.p_i = cp.p_j - cp.g * n;  // the foot point on the plane
    cp.v_rel = j.velocity_at(cp.p_j) - i.velocity_at(cp.p_i);
    return 1;
  }
  int num_points() const { return 1; }
  // The contact point (no journal, no asperity).
  template <class S>
  int points(double /*e0*/, const Pose<S>& i, const Pose<S>& j, ContactPoint<S>* cp,
             Journal<S>* /*J*/) const {
    return contacts(i, j, cp);
  }
};

template <class S>
int SphericalClearanceGeometry::points(double e0, const Pose<S>& i, const Pose<S>& j,
                                       ContactPoint<S>* cp, Journal<S>* J) const {
  journals(i, j, J);
  cp[0] = journal_contact(J[0], clearance - e0, ball_radius, clearance, i, j);
  return 1;
}

template <class S>
int RevoluteClearanceGeometry::points(double e0, const Pose<S>& i, const Pose<S>& j,
                                      ContactPoint<S>* cp, Journal<S>* J) const {
  const int n = journals(i, j, J);
  for (int a = 0; a < n; ++a)
    cp[a] = journal_contact(J[a], clearance - e0, pin_radius, clearance, i, j);
  return n;
}

// What every shape pair offers: its largest number of points, their count for this instance, and
// its contact points (and journals, for clearance joints) from a pair of poses. A geometry added
// to the variant below without them does not compile (see also the static_assert).
template <class G>
concept ContactGeometry = requires(const G& g, const Pose<double>& p, ContactPoint<double>* cp,
                                   Journal<double>* J) {
  { G::kMaxPoints } -> std::convertible_to<int>;
  { g.num_points() } -> std::convertible_to<int>;
  { g.points(0.0, p, p, cp, J) } -> std::convertible_to<int>;
};

// std::visit with one lambda per alternative: overloaded{[](const A&) {...}, [](const B&) {...}}.
template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

// The shape pairs a contact treatment can hold. Every use dispatches by std::visit, so a
// geometry added here and forgotten in a treatment, channel or writer does not compile.
using Geometry =
    std::variant<SphericalClearanceGeometry, RevoluteClearanceGeometry, SpherePlaneGeometry>;

template <class V>
struct GeometryTraits;
template <class... G>
struct GeometryTraits<std::variant<G...>> {
  static constexpr bool kAllGeometries = (ContactGeometry<G> && ...);
  static constexpr int kMaxPoints = std::max({G::kMaxPoints...});
};
static_assert(GeometryTraits<Geometry>::kAllGeometries,
              "every alternative of contact::Geometry must model ContactGeometry");
// The most contact points (and journals) any geometry has: the size of the treatments' buffers.
inline constexpr int kMaxContactPoints = GeometryTraits<Geometry>::kMaxPoints;

// The markers a geometry is built on (body i's, then body j's).
inline std::vector<Marker> geometry_markers(const SphericalClearanceGeometry& g) {
  return {g.housing, g.ball};
}
inline std::vector<Marker> geometry_markers(const RevoluteClearanceGeometry& g) {
  return {g.bearing, g.pin};
}
inline std::vector<Marker> geometry_markers(const SpherePlaneGeometry& g) {
  return {g.plane, g.ball};
}
inline std::vector<Marker> geometry_markers(const Geometry& g) {
  return std::visit([](const auto& x) { return geometry_markers(x); }, g);
}

// Number of contact points of a geometry (journals of a clearance joint: one per pin end).
inline int num_points(const Geometry& g) {
  return std::visit([](const auto& x) { return x.num_points(); }, g);
}
// Contact points of the geometry (count returned, at most kMaxContactPoints), from the same
// kernels for every treatment.
template <class S>
int contact_points(const Geometry& geometry, double asperity, const Pose<S>& i, const Pose<S>& j,
                   ContactPoint<S>* points, Journal<S>* journals) {
  return std::visit([&](const auto& g) { return g.points(asperity, i, j, points, journals); },
                    geometry);
}

// Geometric output channels, read from the kernels (the same for every treatment):
//  spherical  "gap" [m], "eccentricity" ‖e‖ [m], "eccentricity_ratio" ‖e‖/c, "journal.x|y|z"
//             (ball centre relative to the housing centre, housing marker frame) [m];
//  revolute   "gap1", "eccentricity1", "journal1.x|y|z" (pin end +d; the pin mid-point when
//             d = 0), and "gap2", … for the end −d; "axial" u·(x_B − x_A) [m];
//  sphere–plane  "gap" [m].
std::vector<std::string> geometry_channel_names(const Geometry& g);
// Value of geometry channel k; `asperity` e0 shifts the gap of a spherical joint (c − e0 − ‖e‖).
double geometry_channel_value(const Geometry& g, double asperity, int k, const ElementInput& in);
// Channels k[0..n) at once (what they share computed once), as geometry_channel_value gives each.
void geometry_channel_values(const Geometry& g, double asperity, const int* k, int n,
                             const ElementInput& in, double* out);

}  // namespace cs::contact
