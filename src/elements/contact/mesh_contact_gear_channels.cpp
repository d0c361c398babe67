// Mesh contact between two generated gears: the analytic gear mesh's channels (gear_mesh.hpp)
// from the regions, so that one output list serves both contact models of a pair. A line region
// can span both helices of a double-helical pair (the V of two contact lines meeting at the
// apex): its points c_e are split by the helix whose face span holds them, F_N by their depth
// shares and the friction by their own forces, and it counts as a tooth pair on each helix it
// reaches. A point region belongs to its point's helix. The torques are the contact forces'
// moments about the pinion axis n through each gear's shape origin, with the analytic mesh's
// signs (about −n on each gear: positive when the pinion drives forward).
#include "clearsim/elements/contact/mesh_contact.hpp"

namespace cs::contact {

std::vector<std::string> MeshContact::gear_channel_names() const {
  std::vector<std::string> names;
  if (!gear_pair_) return names;
  for (const std::string& name : gear_pair_->channel_names())
    if (name != "friction_power") names.push_back(name);  // already one of this contact's own
  return names;
}

double MeshContact::gear_channel(int k, const ElementInput& in) const {
  const int per_helix = 3 * gear_pair_->num_helices();
  if (k == per_helix + 2) return gear_pair_->transmission_error(in);
  const MeshInstance pinion = instance(0, *in.i), wheel = instance(1, *in.j);
  const Vec3 n = pinion.pose.R_WM.col(2);
  const auto helix_of = [&](const Vec3& p) {
    return gear_pair_->helix_at(n.dot(p - pinion.pose.p_WM));
  };
  double sum = 0.0;
  for (const RegionResult& r : evaluate(in)) {
    const Vec3 F = r.F_N * r.normal_W + r.F_T_W;  // on the wheel
    if (k >= per_helix) {
      const Vec3& c = k == per_helix ? pinion.pose.p_WM : wheel.pose.p_WM;
      const double about_n = ((r.point_W - c).cross(F) + r.friction_moment_W).dot(n);
      sum += k == per_helix ? about_n : -about_n;
      continue;
    }
    const int h = k / 3;
    if (r.points_W.empty()) {
      if (helix_of(r.point_W) != h) continue;
      sum += k % 3 == 0 ? r.F_N : k % 3 == 1 ? r.F_T_W.norm() : 1.0;
      continue;
    }
    double share = 0.0;
    Vec3 F_T = Vec3::Zero();
    for (std::size_t e = 0; e < r.points_W.size(); ++e) {
      if (helix_of(r.points_W[e]) != h) continue;
      share += r.shares[e];
      F_T += r.friction_W[e];
    }
    if (share == 0.0) continue;
    sum += k % 3 == 0 ? share * r.F_N : k % 3 == 1 ? F_T.norm() : 1.0;
  }
  return sum;
}

}  // namespace cs::contact
