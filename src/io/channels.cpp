#include "clearsim/io/channels.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/math/so3.hpp"
#include "power_channels.hpp"

namespace cs {

namespace {
const char* kAxes[3] = {"x", "y", "z"};

using Getter =
    std::function<double(const State&, const RunStats&, const std::vector<BodyKinematics>&)>;

// The multipliers an element's channels read: reactions and driver efforts are the smooth
// multiplier plus, under NSGA, the mean of the velocity jump's impulse over the step (μ/h), as
// body accelerations include W/h.
void element_channel_lambda(const System& sys, int e, const State& s, const RunStats& st,
                            double (&lam)[ConstraintBlock::kMaxRows]) {
  std::fill(std::begin(lam), std::end(lam), 0.0);
  sys.element_lambda(e, s.lambda, lam);
  if (st.last_step > 0.0 && s.lambda_jump.size() == s.lambda.size()) {
    double mu[ConstraintBlock::kMaxRows] = {0, 0, 0, 0, 0, 0};
    sys.element_lambda(e, s.lambda_jump, mu);
    for (int r = 0; r < ConstraintBlock::kMaxRows; ++r) lam[r] += mu[r] / st.last_step;
  }
}

// Every channel of the model with its evaluator, in a stable order.
std::vector<std::pair<std::string, Getter>> catalogue(const System& sys) {
  std::vector<std::pair<std::string, Getter>> out;
  const Model& m = sys.model();
  for (int b = 0; b < m.num_bodies(); ++b) {
    const std::string& n = m.bodies[b].name;
    for (int c = 0; c < 3; ++c) {
      const std::string ax = kAxes[c];
      out.emplace_back(n + ".position." + ax, [b, c](const State&, const RunStats&, const auto& k) {
        return k[b].x_W(c);
      });
      out.emplace_back(n + ".velocity." + ax, [b, c](const State&, const RunStats&, const auto& k) {
        return k[b].v_W(c);
      });
      // With NSGA the mean acceleration over the step includes the velocity jump: v̇ + W/h.
      out.emplace_back(n + ".acceleration." + ax, [b, c](const State& s, const RunStats& st,
                                                         const auto&) {
        const double jump =
            (st.last_step > 0.0 && s.v_jump.size() > 0) ? s.v_jump(6 * b + c) / st.last_step : 0.0;
        return s.vdot(6 * b + c) + jump;
      });
      out.emplace_back(n + ".angular_velocity." + ax,
                       [b, c](const State&, const RunStats&, const auto& k) {
                         return (k[b].R_WB * k[b].w_B)(c);
                       });
      out.emplace_back(n + ".angular_acceleration." + ax,
                       [b, c](const State& s, const RunStats&, const auto& k) {
                         return (k[b].R_WB * s.vdot.template segment<3>(6 * b + 3))(c);
                       });
      out.emplace_back(n + ".rotation." + ax, [b, c](const State&, const RunStats&, const auto& k) {
        return so3::log(k[b].R_WB)(c);
      });
    }
  }
  for (const NamedMarker& nm : m.markers) {
    const Marker mk = nm.marker;
    for (int c = 0; c < 3; ++c) {
      const std::string ax = kAxes[c];
      const int b = mk.body;
      const Vec3 p = mk.p_B;
      out.emplace_back(nm.name + ".position." + ax,
                       [b, p, c](const State&, const RunStats&, const auto& k) {
                         return b < 0 ? p(c) : (k[b].x_W + k[b].R_WB * p)(c);
                       });
      out.emplace_back(nm.name + ".velocity." + ax,
                       [b, p, c](const State&, const RunStats&, const auto& k) {
                         return b < 0 ? 0.0 : (k[b].v_W + k[b].R_WB * k[b].w_B.cross(p))(c);
                       });
      out.emplace_back(nm.name + ".acceleration." + ax,
                       [b, p, c](const State& s, const RunStats&, const auto& k) {
                         if (b < 0) return 0.0;
                         const Vec3 wd = s.vdot.template segment<3>(6 * b + 3);
                         const Vec3& w = k[b].w_B;
                         return (s.vdot.template segment<3>(6 * b) +
                                 k[b].R_WB * (wd.cross(p) + w.cross(w.cross(p))))(c);
                       });
    }
  }
  for (std::size_t e = 0; e < m.elements.size(); ++e) {
    const Element& el = *m.elements[e];
    const auto names = el.channel_names();
    for (std::size_t k = 0; k < names.size(); ++k) {
      const int ei = static_cast<int>(e), ki = static_cast<int>(k);
      out.emplace_back(el.name() + "." + names[k],
                       [&sys, ei, ki](const State& s, const RunStats& st, const auto& kin) {
                         double lam[ConstraintBlock::kMaxRows];
                         element_channel_lambda(sys, ei, s, st, lam);
                         return sys.model().elements[ei]->channel_value(ki, sys.input(ei, s.t, kin),
                                                                        lam);
                       });
    }
  }
  // Unilateral contacts (NSGA): normal impulse Λ_N of the last step [N·s]; the contact force
  // [N], smooth force of a persistent contact plus the impulse's mean over the step, λ_N + Λ_N/h;
  // and the regime (0 free flight, 1 contact, 2 impact), per gap.
  for (std::size_t e = 0; e < m.elements.size(); ++e) {
    const Element& el = *m.elements[e];
    const int p = el.num_gaps();
    for (int k = 0; k < p; ++k) {
      const int g = sys.first_gap(static_cast<int>(e)) + k;
      const std::string suffix = p > 1 ? std::to_string(k + 1) : "";
      out.emplace_back(el.name() + ".impulse" + suffix,
                       [g](const State& s, const RunStats&, const auto&) { return s.Lambda(g); });
      out.emplace_back(el.name() + ".contact_force" + suffix,
                       [g](const State& s, const RunStats& st, const auto&) {
                         const double smooth = s.lambda_N.size() > g ? s.lambda_N(g) : 0.0;
                         return smooth + (st.last_step > 0.0 ? s.Lambda(g) / st.last_step : 0.0);
                       });
      out.emplace_back(el.name() + ".contact_state" + suffix,
                       [g](const State& s, const RunStats&, const auto&) {
                         return static_cast<double>(s.contact[g]);
                       });
    }
  }
  out.emplace_back("system.kinetic_energy", [&sys](const State&, const RunStats&, const auto& k) {
    return sys.kinetic_energy(k);
  });
  out.emplace_back("system.potential_energy",
                   [&sys](const State& s, const RunStats&, const auto& k) {
                     return sys.potential_energy(k, s.t);
                   });
  out.emplace_back("system.total_energy", [&sys](const State& s, const RunStats&, const auto& k) {
    return sys.kinetic_energy(k) + sys.potential_energy(k, s.t);
  });
  out.emplace_back("system.constraint_violation",
                   [&sys](const State& s, const RunStats& st, const auto& k) {
                     const RunStats::OutputViolation& given = st.output_violation;
                     if (given.system == &sys && given.state == &s) return given.value;
                     return sys.constraint_violation(k, s.t);
                   });
  out.emplace_back("system.velocity_violation",
                   [&sys](const State& s, const RunStats&, const auto& k) {
                     const int nc = sys.num_constraints();
                     if (nc == 0) return 0.0;
                     VecX phi_t(nc);
                     MatX B = MatX::Zero(nc, sys.num_dofs());
                     sys.constraints(k, s.t, nullptr, MatrixSink(&B), &phi_t, nullptr);
                     return (B * s.v + phi_t).lpNorm<Eigen::Infinity>();
                   });
  out.emplace_back("system.contact_onsets", [](const State&, const RunStats& st, const auto&) {
    return static_cast<double>(st.contact_onsets);
  });
  out.emplace_back("system.impact_steps", [](const State&, const RunStats& st, const auto&) {
    return static_cast<double>(st.impact_steps);
  });
  out.emplace_back("system.max_penetration", [](const State&, const RunStats& st, const auto&) {
    return st.max_penetration;
  });
  out.emplace_back("system.newton_iterations", [](const State&, const RunStats& st, const auto&) {
    return static_cast<double>(st.last_iterations);
  });
  out.emplace_back("system.step_size",
                   [](const State&, const RunStats& st, const auto&) { return st.last_step; });
  add_power_channels(sys, out);
  return out;
}
// The body quantities of the catalogue and whether they read accelerations.
bool body_quantity(const std::string& q, bool& accelerations) {
  for (const char* name : {"position", "velocity", "angular_velocity", "rotation"})
    for (const char* ax : kAxes)
      if (q == std::string(name) + "." + ax) return true;
  for (const char* name : {"acceleration", "angular_acceleration"})
    for (const char* ax : kAxes)
      if (q == std::string(name) + "." + ax) return accelerations = true;
  return false;
}

bool marker_quantity(const std::string& q, bool& accelerations) {
  for (const char* name : {"position", "velocity"})
    for (const char* ax : kAxes)
      if (q == std::string(name) + "." + ax) return true;
  for (const char* ax : kAxes)
    if (q == std::string("acceleration.") + ax) return accelerations = true;
  return false;
}

bool element_quantity(const Element& el, const std::string& q) {
  for (const std::string& n : el.channel_names())
    if (q == n) return true;
  for (const char* stem : {"impulse", "contact_force", "contact_state"})
    if (q.compare(0, std::string(stem).size(), stem) == 0) return el.num_gaps() > 0;
  return false;
}

// The global constraint rows of element e: System::element_lambda of a λ that holds each row's
// index plus one (0 where the element's row was removed as redundant).
std::vector<int> element_rows(const System& sys, int e) {
  VecX index(sys.num_constraints());
  for (Eigen::Index g = 0; g < index.size(); ++g) index(g) = static_cast<double>(g + 1);
  double out[ConstraintBlock::kMaxRows] = {0, 0, 0, 0, 0, 0};
  sys.element_lambda(e, index, out);
  std::vector<int> rows;
  for (const double r : out)
    if (r > 0.0) rows.push_back(static_cast<int>(r) - 1);
  return rows;
}

// The footprint of the catalogue's channel `name`, from its first part (a body, a marker, an
// element) and the rest (one of that item's quantities); `whole` for anything else.
ChannelFootprint footprint_of(const System& sys, const std::string& name) {
  ChannelFootprint f;
  const std::size_t dot = name.find('.');
  if (dot == std::string::npos) return f;
  const std::string head = name.substr(0, dot), q = name.substr(dot + 1);
  const Model& m = sys.model();
  const auto add_body = [&f](int b) {
    if (b >= 0) f.bodies.push_back(b);
  };
  if (const auto b = m.find_body(head); b && *b != kGround && body_quantity(q, f.accelerations)) {
    add_body(*b);
  } else if (const NamedMarker* mk = m.find_marker(head);
             mk != nullptr && marker_quantity(q, f.accelerations)) {
    add_body(mk->marker.body);
  } else if (const Element* el = m.find_element(head); el != nullptr && element_quantity(*el, q)) {
    add_body(el->body_i());
    add_body(el->body_j());
    for (int e = 0; e < static_cast<int>(m.elements.size()); ++e)
      if (m.elements[e].get() == el) f.rows = element_rows(sys, e);
  } else {
    return f;
  }
  f.whole = false;
  return f;
}
}  // namespace

ChannelSet::ChannelSet(const System& sys, const std::vector<std::string>& names) : sys_(sys) {
  const auto all = catalogue(sys);
  std::map<std::string, std::size_t> index;
  for (std::size_t k = 0; k < all.size(); ++k) index[all[k].first] = k;
  for (const std::string& want : names) {
    if (auto it = index.find(want); it != index.end()) {
      names_.push_back(want);
      getters_.push_back(all[it->second].second);
      continue;
    }
    // Prefix: "slider.velocity" → x, y, z, in the catalogue's order. Found through the sorted
    // index, not by scanning the catalogue: the default channels are two prefixes per body, and
    // a scan made `check` quadratic in the bodies (over 20 s for 20 000).
    const std::string stem = want + ".";
    std::vector<std::size_t> matches;
    for (auto it = index.lower_bound(stem);
         it != index.end() && it->first.compare(0, stem.size(), stem) == 0; ++it)
      matches.push_back(it->second);
    std::sort(matches.begin(), matches.end());
    for (const std::size_t k : matches) {
      names_.push_back(all[k].first);
      getters_.push_back(all[k].second);
    }
    if (!matches.empty()) continue;
    // Unknown: list what exists for the same first part.
    const std::string head = want.substr(0, want.find('.'));
    std::ostringstream os;
    os << "unknown output channel '" << want << "'";
    std::vector<std::string> same;
    for (const auto& [n, g] : all)
      if (n.compare(0, head.size() + 1, head + ".") == 0) same.push_back(n);
    if (same.empty()) {
      os << ": no body, marker or element is named '" << head << "'";
    } else {
      os << "; '" << head << "' offers:";
      for (std::size_t k = 0; k < same.size() && k < 40; ++k) os << " " << same[k];
    }
    throw std::invalid_argument(os.str());
  }
  // The power balance reads the drivers' multipliers and the accelerations of every body.
  for (const std::string& n : names_)
    reads_joint_reactions_ = reads_joint_reactions_ || n.compare(0, 6, "power.") == 0;
  // Joint reactions: a channel of an ideal joint (drivers and clearance joints are not ones).
  for (const auto& element : sys.model().elements) {
    if (dynamic_cast<const joints::IdealJoint*>(element.get()) == nullptr) continue;
    const std::string stem = element->name() + ".";
    for (const std::string& n : names_)
      reads_joint_reactions_ = reads_joint_reactions_ || n.compare(0, stem.size(), stem) == 0;
  }
  // Which channels are an element's (names are unique across bodies, markers and elements),
  // so that evaluate() hands an element its channels together.
  std::map<std::string, std::pair<int, int>> of_element;
  const Model& m = sys.model();
  for (std::size_t e = 0; e < m.elements.size(); ++e) {
    const auto quantities = m.elements[e]->channel_names();
    for (std::size_t k = 0; k < quantities.size(); ++k)
      of_element[m.elements[e]->name() + "." + quantities[k]] = {static_cast<int>(e),
                                                                 static_cast<int>(k)};
  }
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (may_be_undefined(i)) undefined_candidates_.push_back(i);
  element_of_.assign(names_.size(), {-1, -1});
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (auto it = of_element.find(names_[i]); it != of_element.end()) element_of_[i] = it->second;
}

ChannelFootprint ChannelSet::footprint(std::size_t k) const {
  return footprint_of(sys_, names_[k]);
}

bool ChannelSet::may_be_undefined(std::size_t k) const {
  const std::string& n = names_[k];
  const std::string tail = "efficiency";
  return n.size() >= tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0;
}

std::vector<std::string> ChannelSet::undefined_now(const std::vector<double>& values, double t,
                                                   std::vector<bool>& warned) const {
  std::vector<std::string> out;
  warned.resize(values.size(), false);
  for (const std::size_t k : undefined_candidates_) {
    if (k >= values.size() || warned[k] || !std::isnan(values[k])) continue;
    warned[k] = true;
    std::ostringstream os;
    os << "at t = " << t << " s the channel " << names_[k]
       << " is undefined (nan): no power enters, so there is no efficiency; written as nan "
          "where it stays so";
    out.push_back(os.str());
  }
  return out;
}

void ChannelSet::evaluate(const State& s, const RunStats& stats, std::vector<double>& out) const {
  out.resize(getters_.size());
  const RunStats::OutputViolation& given = stats.output_violation;
  std::vector<BodyKinematics> gathered;
  const bool reuse = given.system == &sys_ && given.state == &s && given.kinematics;
  if (!reuse) sys_.gather(s, gathered);
  const std::vector<BodyKinematics>& kin = reuse ? *given.kinematics : gathered;
  for (std::size_t k = 0; k < getters_.size();) {
    const int e = element_of_[k].first;
    if (e < 0) {
      out[k] = getters_[k](s, stats, kin);
      ++k;
      continue;
    }
    // A run of channels of one element in one call: the element works out what they share
    // (a clearance joint's journal, once for its five channels) once.
    std::size_t end = k + 1;
    while (end < getters_.size() && element_of_[end].first == e) ++end;
    int which[16];
    const int n = static_cast<int>(std::min<std::size_t>(end - k, 16));
    for (int i = 0; i < n; ++i) which[i] = element_of_[k + static_cast<std::size_t>(i)].second;
    double lam[ConstraintBlock::kMaxRows];
    element_channel_lambda(sys_, e, s, stats, lam);
    sys_.model().elements[static_cast<std::size_t>(e)]->channel_values(
        which, n, sys_.input(e, s.t, kin), lam, out.data() + k);
    k += static_cast<std::size_t>(n);
  }
}

std::vector<std::string> ChannelSet::available(const System& sys) {
  std::vector<std::string> out;
  for (const auto& [n, g] : catalogue(sys)) out.push_back(n);
  return out;
}

}  // namespace cs
