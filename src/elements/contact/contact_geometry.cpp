#include "clearsim/elements/contact/contact_geometry.hpp"

namespace cs::contact {

namespace {
std::vector<std::string> channel_names_of(const SpherePlaneGeometry&) { return {"gap"}; }

std::vector<std::string> channel_names_of(const SphericalClearanceGeometry&) {
  return {"gap", "eccentricity", "eccentricity_ratio", "journal.x", "journal.y", "journal.z"};
}

std::vector<std::string> channel_names_of(const RevoluteClearanceGeometry& r) {
  std::vector<std::string> names = {"gap1", "eccentricity1", "journal1.x", "journal1.y",
                                    "journal1.z"};
  if (r.num_ends() == 2) {
    for (const char* n : {"gap2", "eccentricity2", "journal2.x", "journal2.y", "journal2.z"})
      names.push_back(n);
  }
  names.push_back("axial");
  return names;
}

double channel_value_of(const SpherePlaneGeometry& sp, double, int, const ElementInput& in) {
  ContactPoint<double> cp;
  sp.contacts(pose_of(*in.i), pose_of(*in.j), &cp);
  return cp.g;
}

double channel_value_of(const SphericalClearanceGeometry& s, double asperity, int k,
                        const ElementInput& in) {
  Journal<double> J[SphericalClearanceGeometry::kMaxPoints];
  s.journals(pose_of(*in.i), pose_of(*in.j), J);
  const Vec3 t = J[0].e;
  const Mat3 R_WM = in.i->R_WB * s.housing.R_BM;
  if (k == 0) return s.clearance - asperity - t.norm();
  if (k == 1) return t.norm();
  if (k == 2) return t.norm() / s.clearance;
  return (R_WM.transpose() * t)(k - 3);
}

double channel_value_of(const RevoluteClearanceGeometry& r, double asperity, int k,
                        const ElementInput& in) {
  const Mat3 R_WM = in.i->R_WB * r.bearing.R_BM;
  const Vec3 x_A = in.i->x_W + in.i->R_WB * r.bearing.p_B;
  const int per_end = 5;
  if (k == r.num_ends() * per_end) {
    return R_WM.col(2).dot(in.j->x_W + in.j->R_WB * r.pin.p_B - x_A);
  }
  Journal<double> J[RevoluteClearanceGeometry::kMaxPoints];
  r.journals(pose_of(*in.i), pose_of(*in.j), J);
  const int a = k / per_end, q = k % per_end;
  if (q == 0) return r.clearance - asperity - J[a].e.norm();
  if (q == 1) return J[a].e.norm();
  // The pin end relative to the bearing's axis point, in the bearing marker frame.
  return (R_WM.transpose() * (J[a].centre_j - x_A))(q - 2);
}
}  // namespace

std::vector<std::string> geometry_channel_names(const Geometry& g) {
  return std::visit([](const auto& x) { return channel_names_of(x); }, g);
}

double geometry_channel_value(const Geometry& g, double asperity, int k, const ElementInput& in) {
  return std::visit([&](const auto& x) { return channel_value_of(x, asperity, k, in); }, g);
}

}  // namespace cs::contact
