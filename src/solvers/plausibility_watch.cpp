#include "clearsim/solvers/plausibility_watch.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace cs {

namespace {
// The index of channel `n` among `names`, or −1.
int index_of(const std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

// The smaller size of the element's moving bodies (0 if it joins none).
double smaller_body_size(const Model& m, const Element& element) {
  double size = 0.0;
  for (const int b : {element.body_i(), element.body_j()}) {
    if (b == kGround) continue;
    const double s = body_size_estimate(m.bodies[b]);
    size = size > 0.0 ? std::min(size, s) : s;
  }
  return size;
}
}  // namespace

double body_size_estimate(const Body& b) {
  const double j_max = Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia_B, Eigen::EigenvaluesOnly)
                           .eigenvalues()
                           .maxCoeff();
  return 2.0 * std::sqrt(3.0) * std::sqrt(std::max(j_max, 0.0) / b.mass);
}

PlausibilityWatch::PlausibilityWatch(const System& sys) : sys_(sys) {
  const Model& m = sys.model();
  for (int e = 0; e < static_cast<int>(m.elements.size()); ++e) {
    const Element& element = *m.elements[e];
    const std::vector<std::string> names = element.channel_names();
    for (const std::string suffix : {"", "1", "2"}) {
      const int gap = index_of(names, "gap" + suffix);
      const int ecc = index_of(names, "eccentricity" + suffix);
      if (gap < 0 || ecc < 0) continue;
      if (element.num_gaps() > 0) continue;  // rigid (NSGA): max_penetration says it
      watched_.push_back({Watched::Kind::kClearance, e, suffix, gap, ecc, 0.0, false});
      has_clearance_ = true;
    }
    const int penetration = index_of(names, "penetration");
    if (index_of(names, "regions") < 0 || penetration < 0) continue;
    const double size = smaller_body_size(m, element);
    if (!(size > 0.0)) continue;
    watched_.push_back({Watched::Kind::kMesh, e, "", penetration, -1, size, false});
    has_mesh_ = true;
  }
}

bool PlausibilityWatch::watches_meshes() const { return has_mesh_; }

void PlausibilityWatch::restart() {
  for (Watched& w : watched_) w.said = false;
  calls_ = 0;
}

void PlausibilityWatch::after_step(const State& s, RunStats& stats, long mesh_every) {
  // Nothing watched: no gather (most models).
  const bool meshes = has_mesh_ && ++calls_ % mesh_every == 0;
  if (!has_clearance_ && !meshes) return;
  look(s, meshes, stats.warnings);
}

void PlausibilityWatch::look(const State& s, bool meshes, std::vector<std::string>& found) {
  bool gathered = false;
  for (Watched& w : watched_) {
    if (w.said || (w.kind == Watched::Kind::kMesh && !meshes)) continue;
    if (!gathered) sys_.gather(s, kin_), gathered = true;
    std::string what = finding(w, s);
    if (what.empty()) continue;
    w.said = true;
    found.push_back(std::move(what));
  }
}

double PlausibilityWatch::channel(const Watched& w, int k, const State& s) const {
  const double no_multipliers[ConstraintBlock::kMaxRows] = {};
  return sys_.model().elements[w.element]->channel_value(k, sys_.input(w.element, s.t, kin_),
                                                         no_multipliers);
}

// What is wrong with w at s (kin_ gathered there), or empty.
std::string PlausibilityWatch::finding(const Watched& w, const State& s) const {
  // The stream is made only for a finding: making one costs more than the look itself.
  const std::string& name = sys_.model().elements[w.element]->name();
  if (w.kind == Watched::Kind::kClearance) {
    // gap = c − e0 − e (e0 the asperity), so the effective clearance is gap + e.
    const double gap = channel(w, w.first, s), e = channel(w, w.second, s);
    const double penetration = -gap, clearance = gap + e;
    if (!(penetration > kClearanceShare * clearance) || !(clearance > 0.0)) return {};
    std::ostringstream os;
    os.precision(3);
    os << "at t = " << s.t << " s clearance joint '" << name << "'"
       << (w.suffix.empty() ? "" : " (pin end " + w.suffix + ")") << " penetrates by "
       << penetration << " m, " << penetration / clearance << " times its clearance " << clearance
       << " m (eccentricity " << e
       << " m): no real joint does; its contact law is far too soft for the load, or the step "
          "too large for it, and the results from here on are not meaningful";
    return os.str();
  }
  const double penetration = channel(w, w.first, s);
  if (!(penetration > kMeshOverlapShare * w.size)) return {};
  std::ostringstream os;
  os.precision(3);
  os << "at t = " << s.t << " s mesh contact '" << name << "' penetrates by " << penetration
     << " m, more than a tenth of the smaller body's size (about " << w.size
     << " m): the bodies overlap; their contact force cannot separate them realistically";
  return os.str();
}

std::string PlausibilityWatch::initial_problem(const State& s) const {
  if (!has_mesh_) return {};
  std::vector<BodyKinematics> kin;
  sys_.gather(s, kin);
  const double no_multipliers[ConstraintBlock::kMaxRows] = {};
  for (const Watched& w : watched_) {
    if (w.kind != Watched::Kind::kMesh) continue;
    const Element& element = *sys_.model().elements[w.element];
    const double penetration =
        element.channel_value(w.first, sys_.input(w.element, s.t, kin), no_multipliers);
    if (!(penetration > kMeshOverlapShare * w.size)) continue;
    std::ostringstream os;
    os.precision(3);
    os << "mesh contact '" << element.name() << "' starts with its bodies inside one another: "
       << "penetration " << penetration << " m at t = " << s.t << " s, more than a tenth of the "
       << "smaller body's size (about " << w.size << " m); place the bodies apart or touching";
    return os.str();
  }
  return {};
}

}  // namespace cs
