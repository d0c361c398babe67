#include "clearsim/io/plausibility_watch.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace cs {

namespace {
bool has(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}
}  // namespace

struct PlausibilityWatch::Watched {
  enum class Kind { kClearance, kMesh } kind;
  std::string element;                   // name
  std::string suffix;                    // "", "1" or "2" (pin ends)
  double size = 0.0;                     // mesh: the smaller moving body's size [m]
  std::unique_ptr<ChannelSet> channels;  // clearance: gap, eccentricity; mesh: penetration
  bool said = false;
};

double body_size_estimate(const Body& b) {
  const double j_max = Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia_B, Eigen::EigenvaluesOnly)
                           .eigenvalues()
                           .maxCoeff();
  return 2.0 * std::sqrt(3.0) * std::sqrt(std::max(j_max, 0.0) / b.mass);
}

PlausibilityWatch::PlausibilityWatch(const System& sys) {
  const Model& m = sys.model();
  for (const auto& element : m.elements) {
    const std::vector<std::string> names = element->channel_names();
    const std::string& n = element->name();
    for (const std::string suffix : {"", "1", "2"}) {
      if (!has(names, "gap" + suffix) || !has(names, "eccentricity" + suffix)) continue;
      if (element->num_gaps() > 0) continue;  // rigid (NSGA): max_penetration says it
      Watched w{Watched::Kind::kClearance, n, suffix, 0.0, nullptr, false};
      w.channels = std::make_unique<ChannelSet>(
          sys, std::vector<std::string>{n + ".gap" + suffix, n + ".eccentricity" + suffix});
      watched_.push_back(std::move(w));
    }
    if (has(names, "regions") && has(names, "penetration")) {
      double size = 0.0;
      for (const int b : {element->body_i(), element->body_j()}) {
        if (b == kGround) continue;
        const double s = body_size_estimate(m.bodies[b]);
        size = size > 0.0 ? std::min(size, s) : s;
      }
      if (!(size > 0.0)) continue;
      Watched w{Watched::Kind::kMesh, n, "", size, nullptr, false};
      w.channels = std::make_unique<ChannelSet>(sys, std::vector<std::string>{n + ".penetration"});
      watched_.push_back(std::move(w));
    }
  }
}

PlausibilityWatch::~PlausibilityWatch() = default;

bool PlausibilityWatch::watches_meshes() const {
  for (const Watched& w : watched_)
    if (w.kind == Watched::Kind::kMesh) return true;
  return false;
}

std::vector<std::string> PlausibilityWatch::check(const State& s, const RunStats& stats) {
  std::vector<std::string> found;
  std::vector<double> v;
  for (Watched& w : watched_) {
    if (w.said) continue;
    w.channels->evaluate(s, stats, v);
    std::ostringstream os;
    os.precision(3);
    if (w.kind == Watched::Kind::kClearance) {
      // gap = c − e0 − e (e0 the asperity), so the effective clearance is gap + e.
      const double penetration = -v[0], clearance = v[0] + v[1];
      if (!(penetration > kClearanceShare * clearance) || !(clearance > 0.0)) continue;
      os << "at t = " << s.t << " s clearance joint '" << w.element << "'"
         << (w.suffix.empty() ? "" : " (pin end " + w.suffix + ")") << " penetrates by "
         << penetration << " m, " << penetration / clearance << " times its clearance " << clearance
         << " m (eccentricity " << v[1]
         << " m): no real joint does; its contact law is far too soft for the load, or the step "
            "too large for it, and the results from here on are not meaningful";
    } else {
      const double limit = kMeshOverlapShare * w.size;
      if (!(v[0] > limit)) continue;
      os << "at t = " << s.t << " s mesh contact '" << w.element << "' penetrates by " << v[0]
         << " m, more than a tenth of the smaller body's size (about " << w.size
         << " m): the bodies overlap; their contact force cannot separate them realistically";
    }
    w.said = true;
    found.push_back(os.str());
  }
  return found;
}

std::string PlausibilityWatch::initial_problem(const State& s) const {
  std::vector<double> v;
  const RunStats none;
  for (const Watched& w : watched_) {
    if (w.kind != Watched::Kind::kMesh) continue;
    w.channels->evaluate(s, none, v);
    if (!(v[0] > kMeshOverlapShare * w.size)) continue;
    std::ostringstream os;
    os.precision(3);
    os << "mesh contact '" << w.element << "' starts with its bodies inside one another: "
       << "penetration " << v[0] << " m at t = " << s.t << " s, more than a tenth of the smaller "
       << "body's size (about " << w.size << " m); place the bodies apart or touching";
    return os.str();
  }
  return {};
}

}  // namespace cs
