#include "clearsim/elements/contact/clearance_joints.hpp"

#include <cmath>

#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::contact {

using joints::dot2;
using joints::point_coincidence;

// ---------------------------------------------------------------------------------------------
SpherePlane::SpherePlane(std::string name, Marker plane, Marker ball_centre, double radius,
                         double e_n, double mu)
    : Element(std::move(name), plane.body, ball_centre.body),
      plane_(plane),
      ball_(ball_centre),
      radius_(radius),
      e_n_(e_n),
      mu_(mu) {}

void SpherePlane::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(1);
  // g = n·(c − p) − r is the dot-2 basic constraint along the plane normal z.
  const auto s = dot2(*in.i, plane_.R_BM.col(2), plane_.p_B, *in.j, ball_.p_B);
  out.g(0) = s.phi - radius_;
  out.G.row(0) = s.B;
  if (mu_ > 0.0) {
    const Vec3 n = in.i->R_WB * plane_.R_BM.col(2);
    const Vec3 c = in.j->x_W + in.j->R_WB * ball_.p_B;
    out.T.topRows<2>() = joints::tangential_jacobian(*in.i, *in.j, c - radius_ * n, n);
  }
}

double SpherePlane::channel_value(int, const ElementInput& in, const double*) const {
  GapBlock g;
  gaps(in, g);
  return g.g(0);
}

// ---------------------------------------------------------------------------------------------
SphericalClearance::SphericalClearance(std::string name, Marker housing, Marker ball,
                                       double clearance, double asperity, double e_n, double mu,
                                       double ball_radius)
    : Element(std::move(name), housing.body, ball.body),
      housing_(housing),
      ball_(ball),
      c_(clearance),
      e0_(asperity),
      e_n_(e_n),
      mu_(mu),
      r_ball_(ball_radius) {}

void SphericalClearance::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(1);
  const auto p = point_coincidence(*in.i, housing_.p_B, *in.j, ball_.p_B);  // t = x_B − x_A
  const double e = p.phi.norm();
  out.g(0) = c_ - e0_ - e;
  // ∂g/∂q = −nᵀ ∂t/∂q. At a centred ball (e → 0) the normal is undefined, but the gap is
  // c − e0 > 0 there (checked by the builder), so no contact can need it: G = 0.
  if (e > 1e-12 * c_) {
    const Vec3 n = p.phi / e;
    out.G.row(0) = -n.transpose() * p.B;
    if (mu_ > 0.0) {
      const Vec3 x_B = in.j->x_W + in.j->R_WB * ball_.p_B;
      out.T.topRows<2>() = joints::tangential_jacobian(*in.i, *in.j, x_B + r_ball_ * n, n);
    }
  }
}

void SphericalClearance::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(3);
  out.B.topRows<3>() = point_coincidence(*in.i, housing_.p_B, *in.j, ball_.p_B).B;
}

std::vector<std::string> SphericalClearance::channel_names() const {
  return {"gap", "eccentricity", "eccentricity_ratio", "journal.x", "journal.y", "journal.z"};
}

double SphericalClearance::channel_value(int k, const ElementInput& in, const double*) const {
  const Vec3 t = (in.j->x_W + in.j->R_WB * ball_.p_B) - (in.i->x_W + in.i->R_WB * housing_.p_B);
  switch (k) {
    case 0:
      return c_ - e0_ - t.norm();
    case 1:
      return t.norm();
    case 2:
      return t.norm() / c_;
    default:
      return ((in.i->R_WB * housing_.R_BM).transpose() * t)(k - 3);
  }
}

// ---------------------------------------------------------------------------------------------
RevoluteClearance::RevoluteClearance(std::string name, Marker bearing, Marker pin, double clearance,
                                     double half_length, double e_n, Axial axial,
                                     double axial_clearance, double mu, double pin_radius)
    : Element(std::move(name), bearing.body, pin.body),
      bearing_(bearing),
      pin_(pin),
      c_(clearance),
      d_(half_length),
      e_n_(e_n),
      axial_(axial),
      c_ax_(axial_clearance),
      mu_(mu),
      r_pin_(pin_radius) {}

int RevoluteClearance::num_gaps() const {
  return radial_gaps() + (axial_ == Axial::kClearance ? 2 : 0);
}

std::string RevoluteClearance::gap_name(int k) const {
  if (k < radial_gaps()) return d_ > 0.0 ? (k == 0 ? "pin end +d" : "pin end −d") : "radial";
  return k == radial_gaps() ? "thrust face +u" : "thrust face −u";
}

void RevoluteClearance::gaps(const ElementInput& in, GapBlock& out) const {
  out.reset(num_gaps());
  const Vec3 u_bar = bearing_.R_BM.col(2);
  const Vec3 v_bar = pin_.R_BM.col(2);
  const Vec3 u = in.i->R_WB * u_bar;  // bearing axis u″
  for (int a = 0; a < radial_gaps(); ++a) {
    const double sign = (a == 0) ? 1.0 : -1.0;
    const Vec3 s_j = pin_.p_B + sign * d_ * v_bar;  // end-sphere centre C_α on the pin body
    const auto p = point_coincidence(*in.i, bearing_.p_B, *in.j, s_j);  // x_AC = C_α − x_A
    const double along = u.dot(p.phi);
    const Vec3 t = p.phi - along * u;
    const double e = t.norm();
    out.g(a) = c_ - e;
    if (e > 1e-12 * c_) {
      const Vec3 et = t / e;
      // δg = −e_t·δx_AC + (u″·x_AC) e_t·δu″ (reference.md §2.2).
      out.G.row(a) = -et.transpose() * p.B;
      out.G.block<1, 3>(a, 3) += along * u_bar.cross(in.i->R_WB.transpose() * et).transpose();
      if (mu_ > 0.0) {
        const Vec3 C = in.j->x_W + in.j->R_WB * s_j;
        out.T.middleRows<2>(2 * a) = joints::tangential_jacobian(*in.i, *in.j, C + r_pin_ * et, et);
      }
    }
  }
  if (axial_ == Axial::kClearance) {
    const auto s = dot2(*in.i, u_bar, bearing_.p_B, *in.j, pin_.p_B);
    const int k = radial_gaps();
    out.g(k) = c_ax_ - s.phi;
    out.G.row(k) = -s.B;
    out.g(k + 1) = c_ax_ + s.phi;
    out.G.row(k + 1) = s.B;
  }
}

void RevoluteClearance::ideal_rows(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(5);
  out.B.topRows<3>() = point_coincidence(*in.i, bearing_.p_B, *in.j, pin_.p_B).B;
  out.B.row(3) = joints::dot1(*in.i, bearing_.R_BM.col(0), *in.j, pin_.R_BM.col(2)).B;
  out.B.row(4) = joints::dot1(*in.i, bearing_.R_BM.col(1), *in.j, pin_.R_BM.col(2)).B;
}

void RevoluteClearance::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(num_constraints());
  if (axial_ != Axial::kIdeal) return;
  const auto s = dot2(*in.i, bearing_.R_BM.col(2), bearing_.p_B, *in.j, pin_.p_B, out.want_zeta);
  out.phi(0) = s.phi;
  out.B.row(0) = s.B;
  out.zeta(0) = s.zeta;
}

void RevoluteClearance::constraint_tangent(const ElementInput& in, const double* lambda,
                                           Mat12& K) const {
  if (axial_ != Axial::kIdeal) return;
  joints::dot2_tangent(*in.i, bearing_.R_BM.col(2), bearing_.p_B, *in.j, pin_.p_B, lambda[0], K);
}

std::vector<std::string> RevoluteClearance::channel_names() const {
  std::vector<std::string> names = {"gap1", "eccentricity1", "journal1.x", "journal1.y",
                                    "journal1.z"};
  if (d_ > 0.0) {
    for (const char* n : {"gap2", "eccentricity2", "journal2.x", "journal2.y", "journal2.z"})
      names.push_back(n);
  }
  names.push_back("axial");
  return names;
}

double RevoluteClearance::channel_value(int k, const ElementInput& in, const double*) const {
  const Mat3 R_WM = in.i->R_WB * bearing_.R_BM;
  const Vec3 x_A = in.i->x_W + in.i->R_WB * bearing_.p_B;
  const Vec3 u = R_WM.col(2);
  const int per_end = 5;
  if (k == (d_ > 0.0 ? 2 * per_end : per_end)) {
    return u.dot(in.j->x_W + in.j->R_WB * pin_.p_B - x_A);
  }
  const int a = k / per_end, q = k % per_end;
  const double sign = (a == 0) ? 1.0 : -1.0;
  const Vec3 C = in.j->x_W + in.j->R_WB * (pin_.p_B + sign * d_ * pin_.R_BM.col(2));
  const Vec3 x_AC = C - x_A;
  const Vec3 t = x_AC - u.dot(x_AC) * u;
  switch (q) {
    case 0:
      return c_ - t.norm();
    case 1:
      return t.norm();
    default:
      return (R_WM.transpose() * x_AC)(q - 2);
  }
}

}  // namespace cs::contact
