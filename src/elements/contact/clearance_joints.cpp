#include "clearsim/elements/contact/clearance_joints.hpp"

#include <cmath>

#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::contact {

using joints::dot2;
using joints::point_coincidence;

// ---------------------------------------------------------------------------------------------
void spherical_ideal_rows(const SphericalClearanceGeometry& g, const ElementInput& in,
                          ConstraintBlock& out) {
  out.reset(3);
  out.B.topRows<3>() = point_coincidence(*in.i, g.housing.p_B, *in.j, g.ball.p_B).B;
}

void revolute_ideal_rows(const RevoluteClearanceGeometry& g, const ElementInput& in,
                         ConstraintBlock& out) {
  out.reset(5);
  out.B.topRows<3>() = point_coincidence(*in.i, g.bearing.p_B, *in.j, g.pin.p_B).B;
  out.B.row(3) = joints::dot1(*in.i, g.bearing.R_BM.col(0), *in.j, g.pin.R_BM.col(2)).B;
  out.B.row(4) = joints::dot1(*in.i, g.bearing.R_BM.col(1), *in.j, g.pin.R_BM.col(2)).B;
}

void revolute_axial_row(const RevoluteClearanceGeometry& g, const ElementInput& in,
                        ConstraintBlock& out) {
  const auto s = dot2(*in.i, g.bearing.R_BM.col(2), g.bearing.p_B, *in.j, g.pin.p_B, out.want_zeta);
  out.phi(0) = s.phi;
  out.B.row(0) = s.B;
  out.zeta(0) = s.zeta;
}

void revolute_axial_tangent(const RevoluteClearanceGeometry& g, const ElementInput& in,
                            double lambda, Mat12& K) {
  joints::dot2_tangent(*in.i, g.bearing.R_BM.col(2), g.bearing.p_B, *in.j, g.pin.p_B, lambda, K);
}

// ---------------------------------------------------------------------------------------------
void spherical_gap_rows(const SphericalClearanceGeometry& g, double mu, const ElementInput& in,
                        GapBlock& out) {
  Journal<double> J;
  g.journals(pose_of(*in.i), pose_of(*in.j), &J);  // J.e = t = x_B − x_A
  const double e = J.e.norm();
  out.g(0) = g.clearance - g.asperity - e;
  // ∂g/∂q = −nᵀ ∂t/∂q. At a centred ball (e → 0) the normal is undefined, but the gap is
  // c − e0 > 0 there (checked by the builder), so no contact can need it: G = 0.
  if (e > 1e-12 * g.clearance) {
    const Vec3 n = J.e / e;
    out.G.row(0) = -n.transpose() * point_coincidence(*in.i, g.housing.p_B, *in.j, g.ball.p_B).B;
    if (mu > 0.0) {
      out.T.topRows<2>() =
          joints::tangential_jacobian(*in.i, *in.j, J.centre_j + g.ball_radius * n, n);
    }
  }
}

void revolute_gap_rows(const RevoluteClearanceGeometry& g, double asperity, double mu,
                       const ElementInput& in, GapBlock& out) {
  const Vec3 u_bar = g.bearing.R_BM.col(2);
  const Vec3 u = in.i->R_WB * u_bar;  // bearing axis u″
  const Vec3 x_A = in.i->x_W + in.i->R_WB * g.bearing.p_B;
  Journal<double> J[2];
  g.journals(pose_of(*in.i), pose_of(*in.j), J);
  for (int a = 0; a < g.num_ends(); ++a) {
    const double sign = (a == 0) ? 1.0 : -1.0;
    const Vec3 s_j = g.pin.p_B + sign * g.half_length * g.pin.R_BM.col(2);
    const double along = u.dot(J[a].centre_j - x_A);
    const double e = J[a].e.norm();
    out.g(a) = g.clearance - asperity - e;
    if (e > 1e-12 * g.clearance) {
      const Vec3 et = J[a].e / e;
      // δg = −e_t·δx_AC + (u″·x_AC) e_t·δu″ (reference.md §2.2).
      out.G.row(a) = -et.transpose() * point_coincidence(*in.i, g.bearing.p_B, *in.j, s_j).B;
      out.G.block<1, 3>(a, 3) += along * u_bar.cross(in.i->R_WB.transpose() * et).transpose();
      if (mu > 0.0) {
        out.T.middleRows<2>(2 * a) =
            joints::tangential_jacobian(*in.i, *in.j, J[a].centre_j + g.pin_radius * et, et);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
SpherePlane::SpherePlane(std::string name, Marker plane, Marker ball_centre, double radius,
                         double e_n, double mu)
    : Element(std::move(name), plane.body, ball_centre.body),
      geom_{plane, ball_centre, radius},
      e_n_(e_n),
      mu_(mu) {}

void SpherePlane::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(1);
  // g = n·(c − p) − r is the dot-2 basic constraint along the plane normal z.
  const auto s = dot2(*in.i, geom_.plane.R_BM.col(2), geom_.plane.p_B, *in.j, geom_.ball.p_B);
  out.g(0) = s.phi - geom_.radius;
  out.G.row(0) = s.B;
  if (mu_ > 0.0) {
    ContactPoint<double> cp;
    geom_.contacts(pose_of(*in.i), pose_of(*in.j), &cp);
    out.T.topRows<2>() = joints::tangential_jacobian(*in.i, *in.j, cp.p_j, cp.N);
  }
}

double SpherePlane::channel_value(int k, const ElementInput& in, const double*) const {
  return geometry_channel_value(geom_, 0.0, k, in);
}

void SpherePlane::channel_values(const int* k, int n, const ElementInput& in, const double*,
                                 double* out) const {
  geometry_channel_values(geom_, 0.0, k, n, in, out);
}

// ---------------------------------------------------------------------------------------------
SphericalClearance::SphericalClearance(std::string name, Marker housing, Marker ball,
                                       double clearance, double asperity, double e_n, double mu,
                                       double ball_radius)
    : Element(std::move(name), housing.body, ball.body),
      geom_{housing, ball, clearance, asperity, ball_radius},
      e_n_(e_n),
      mu_(mu) {}

void SphericalClearance::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(1);
  spherical_gap_rows(geom_, mu_, in, out);
}

void SphericalClearance::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  spherical_ideal_rows(geom_, in, out);
}

double SphericalClearance::channel_value(int k, const ElementInput& in, const double*) const {
  return geometry_channel_value(geom_, geom_.asperity, k, in);
}

void SphericalClearance::channel_values(const int* k, int n, const ElementInput& in, const double*,
                                        double* out) const {
  geometry_channel_values(geom_, geom_.asperity, k, n, in, out);
}

// ---------------------------------------------------------------------------------------------
RevoluteClearance::RevoluteClearance(std::string name, Marker bearing, Marker pin, double clearance,
                                     double half_length, double e_n, Axial axial,
                                     double axial_clearance, double mu, double pin_radius)
    : Element(std::move(name), bearing.body, pin.body),
      geom_{bearing, pin, clearance, half_length, pin_radius},
      e_n_(e_n),
      axial_(axial),
      c_ax_(axial_clearance),
      mu_(mu) {}

int RevoluteClearance::num_gaps() const {
  return radial_gaps() + (axial_ == Axial::kClearance ? 2 : 0);
}

std::string RevoluteClearance::gap_name(int k) const {
  if (k < radial_gaps())
    return geom_.half_length > 0.0 ? (k == 0 ? "pin end +d" : "pin end −d") : "radial";
  return k == radial_gaps() ? "thrust face +u" : "thrust face −u";
}

void RevoluteClearance::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(num_gaps());
  revolute_gap_rows(geom_, 0.0, mu_, in, out);
  if (axial_ == Axial::kClearance) {
    const auto s = dot2(*in.i, geom_.bearing.R_BM.col(2), geom_.bearing.p_B, *in.j, geom_.pin.p_B);
    const int k = radial_gaps();
    out.g(k) = c_ax_ - s.phi;
    out.G.row(k) = -s.B;
    out.g(k + 1) = c_ax_ + s.phi;
    out.G.row(k + 1) = s.B;
  }
}

void RevoluteClearance::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  revolute_ideal_rows(geom_, in, out);
}

void RevoluteClearance::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(num_constraints());
  if (axial_ == Axial::kIdeal) revolute_axial_row(geom_, in, out);
}

void RevoluteClearance::constraint_tangent(const ElementInput& in, const double* lambda,
                                           Mat12& K) const {
  if (axial_ == Axial::kIdeal) revolute_axial_tangent(geom_, in, lambda[0], K);
}

double RevoluteClearance::channel_value(int k, const ElementInput& in, const double*) const {
  return geometry_channel_value(geom_, 0.0, k, in);
}

void RevoluteClearance::channel_values(const int* k, int n, const ElementInput& in, const double*,
                                       double* out) const {
  geometry_channel_values(geom_, 0.0, k, n, in, out);
}

int geometry_ideal_row_count(const Geometry& g) {
  return std::visit(overloaded{[](const SphericalClearanceGeometry&) { return 3; },
                               [](const RevoluteClearanceGeometry&) { return 5; },
                               [](const SpherePlaneGeometry&) { return 0; }},
                    g);
}

void geometry_ideal_rows(const Geometry& g, const ElementInput& in, ConstraintBlock& out) {
  std::visit(
      overloaded{[&](const SphericalClearanceGeometry& s) { spherical_ideal_rows(s, in, out); },
                 [&](const RevoluteClearanceGeometry& r) { revolute_ideal_rows(r, in, out); },
                 [&](const SpherePlaneGeometry&) { out.reset(0); }},
      g);
}

}  // namespace cs::contact
