// Mesh contact between two generated gears (mesh_contact.hpp), what it takes from the analytic
// gear mesh of the pair (gear_mesh.hpp):
//   helices  a double-helical pair's contact lines meet at the apex in a V, which the flood fill
//            joins into one region. With the line force such a region is split at the apex plane
//            into one region per helix (split_at_apex), each with its own line, normal and depth,
//            as the analytic mesh has one pair per helix: joined, its principal extent would be
//            the V's axial span rather than its arms' length, and its mean normal would lose the
//            arms' axial components. The vertices on the apex plane end both parts.
//   channels the analytic mesh's channels from the regions, so that one output list serves both
//            contact models. A region belongs to the helix whose face span holds its point (with
//            region_force: point a region at the apex is not split and counts on one helix);
//            input_power, output_power and efficiency from this contact's own force block
//            (pair_efficiency.hpp), as the analytic mesh's from its own.

#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/elements/contact/pair_efficiency.hpp"

namespace cs::contact {

std::vector<Region> MeshContact::split_at_apex(std::vector<Region> regions, const MeshInstance& m0,
                                               const MeshInstance& m1) const {
  if (!gear_pair_ || gear_pair_->num_helices() != 2 || options_.region_force != RegionForce::kLine)
    return regions;
  const std::vector<GearHelix>& hx = gear_pair_->helices();
  const GearHelix& lower = hx[0].lo < hx[1].lo ? hx[0] : hx[1];
  const GearHelix& upper = hx[0].lo < hx[1].lo ? hx[1] : hx[0];
  const double apex = 0.5 * (lower.hi + upper.lo);  // w of the apex plane
  const double on_plane = 1e-9 * (upper.hi - lower.lo);
  // Axial coordinate w of a region point's vertex on the pinion's axis (mesh 0's z).
  const Mat3 R0t = m0.pose.R_WM.transpose();
  const auto w_of = [&](const Penetration& e) {
    const MeshInstance& m = e.side == 0 ? m0 : m1;
    if (e.side == 0) return m.mesh->vertices[e.vertex].z();
    return (R0t * (m.pose.R_WM * m.mesh->vertices[e.vertex] + m.pose.p_WM - m0.pose.p_WM)).z();
  };
  std::vector<Region> out;
  for (Region& r : regions) {
    std::vector<double> w(r.points.size());
    bool below = false, above = false;
    for (std::size_t e = 0; e < r.points.size(); ++e) {
      w[e] = w_of(r.points[e]);
      below = below || w[e] < apex - on_plane;
      above = above || w[e] > apex + on_plane;
    }
    if (!(below && above)) {
      out.push_back(std::move(r));
      continue;
    }
    for (const int part : {-1, 1}) {
      Region p;
      std::vector<int> index(r.points.size(), -1);
      for (std::size_t e = 0; e < r.points.size(); ++e) {
        if (part * (w[e] - apex) < -on_plane) continue;  // on the other helix
        index[e] = static_cast<int>(p.points.size());
        p.points.push_back(r.points[e]);
      }
      for (const Crossing& c : r.crossings) {
        if (index[c.inside] < 0) continue;
        p.crossings.push_back(c);
        p.crossings.back().inside = index[c.inside];
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::vector<std::string> MeshContact::gear_channel_names() const {
  std::vector<std::string> names;
  if (!gear_pair_) return names;
  for (const std::string& name : gear_pair_->channel_names())
    if (name != "friction_power") names.push_back(name);  // already one of this contact's own
  return names;
}

bool MeshContact::gear_channel_reads_regions(int k) const {
  return k >= 0 && k < 3 * gear_pair_->num_helices() + 2;
}

double MeshContact::gear_channel(int k, const ElementInput& in,
                                 const std::vector<RegionResult>& regions) const {
  const int per_helix = 3 * gear_pair_->num_helices();
  if (k == per_helix + 2) return gear_pair_->transmission_error(in);
  if (k > per_helix + 2) {  // input_power, output_power, efficiency from this contact's forces
    const PairPower p = pair_power(*this, in);
    return k == per_helix + 3 ? p.input : k == per_helix + 4 ? p.output : p.efficiency;
  }
  const MeshInstance pinion = instance(0, *in.i), wheel = instance(1, *in.j);
  const Vec3 n = pinion.pose.R_WM.col(2);
  const auto helix_of = [&](const Vec3& p) {
    return gear_pair_->helix_at(n.dot(p - pinion.pose.p_WM));
  };
  double sum = 0.0;
  for (const RegionResult& r : regions) {
    const Vec3 F = r.F_N * r.normal_W + r.F_T_W;  // on the wheel
    if (k >= per_helix) {
      const Vec3& c = k == per_helix ? pinion.pose.p_WM : wheel.pose.p_WM;
      const double about_n = ((r.point_W - c).cross(F) + r.friction_moment_W).dot(n);
      sum += k == per_helix ? about_n : -about_n;
      continue;
    }
    if (helix_of(r.point_W) != k / 3) continue;
    sum += k % 3 == 0 ? r.F_N : k % 3 == 1 ? r.friction_magnitude : 1.0;
  }
  return sum;
}

}  // namespace cs::contact
