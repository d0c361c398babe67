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

// Channels k[0..n) of each geometry into out[0..n), what they share (the contact point, the
// journals) worked out once.
void channel_values_of(const SpherePlaneGeometry& sp, double, const int*, int n,
                       const ElementInput& in, double* out) {
  ContactPoint<double> cp;
  sp.contacts(pose_of(*in.i), pose_of(*in.j), &cp);
  for (int i = 0; i < n; ++i) out[i] = cp.g;  // its one channel, the gap
}

void channel_values_of(const SphericalClearanceGeometry& s, double asperity, const int* k, int n,
                       const ElementInput& in, double* out) {
  Journal<double> J[SphericalClearanceGeometry::kMaxPoints];
  s.journals(pose_of(*in.i), pose_of(*in.j), J);
  const Vec3 t = J[0].e;
  const Mat3 R_WM = in.i->R_WB * s.housing.R_BM;
  for (int i = 0; i < n; ++i) {
    if (k[i] == 0)
      out[i] = s.clearance - asperity - t.norm();
    else if (k[i] == 1)
      out[i] = t.norm();
    else if (k[i] == 2)
      out[i] = t.norm() / s.clearance;
    else
      out[i] = (R_WM.transpose() * t)(k[i] - 3);
  }
}

void channel_values_of(const RevoluteClearanceGeometry& r, double asperity, const int* k, int n,
                       const ElementInput& in, double* out) {
  const Mat3 R_WM = in.i->R_WB * r.bearing.R_BM;
  const Vec3 x_A = in.i->x_W + in.i->R_WB * r.bearing.p_B;
  const int per_end = 5, axial = r.num_ends() * per_end;
  Journal<double> J[RevoluteClearanceGeometry::kMaxPoints];
  bool have_journals = false;
  for (int i = 0; i < n; ++i) {
    if (k[i] == axial) {
      out[i] = R_WM.col(2).dot(in.j->x_W + in.j->R_WB * r.pin.p_B - x_A);
      continue;
    }
    if (!have_journals) r.journals(pose_of(*in.i), pose_of(*in.j), J);
    have_journals = true;
    const int a = k[i] / per_end, q = k[i] % per_end;
    if (q == 0)
      out[i] = r.clearance - asperity - J[a].e.norm();
    else if (q == 1)
      out[i] = J[a].e.norm();
    // The pin end relative to the bearing's axis point, in the bearing marker frame.
    else
      out[i] = (R_WM.transpose() * (J[a].centre_j - x_A))(q - 2);
  }
}
}  // namespace

std::vector<std::string> geometry_channel_names(const Geometry& g) {
  return std::visit([](const auto& x) { return channel_names_of(x); }, g);
}

double geometry_channel_value(const Geometry& g, double asperity, int k, const ElementInput& in) {
  double v = 0.0;
  geometry_channel_values(g, asperity, &k, 1, in, &v);
  return v;
}

void geometry_channel_values(const Geometry& g, double asperity, const int* k, int n,
                             const ElementInput& in, double* out) {
  std::visit([&](const auto& x) { channel_values_of(x, asperity, k, n, in, out); }, g);
}

}  // namespace cs::contact
