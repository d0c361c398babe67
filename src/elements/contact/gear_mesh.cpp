#include "clearsim/elements/contact/gear_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "clearsim/elements/contact/pair_efficiency.hpp"
#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/involute.hpp"

namespace cs::contact {

namespace {
constexpr double kPi = std::numbers::pi;

// atan2(s, c) with the derivatives of its arguments (the value is what std::atan2 gives).
template <class S>
S angle_of(const S& c, const S& s) {
  const double cv = value_of(c), sv = value_of(s);
  return S(std::atan2(sv, cv)) + (cv * (s - sv) - sv * (c - cv)) / (cv * cv + sv * sv);
}
template <class S>
S value_min(const S& a, const S& b) {
  return value_of(a) <= value_of(b) ? a : b;
}
template <class S>
S value_max(const S& a, const S& b) {
  return value_of(a) >= value_of(b) ? a : b;
}

template <class S>
Vec3 values(const V3<S>& v) {
  return Vec3(value_of(v(0)), value_of(v(1)), value_of(v(2)));
}

using Span = std::pair<double, double>;
std::vector<Span> face_spans(const GearParameters& p) {
  const double b = p.face_width, gap = p.helix_gap;
  if (!p.double_helical) return {{-b / 2, b / 2}};
  return {{-gap / 2 - b, -gap / 2}, {gap / 2, gap / 2 + b}};
}
}  // namespace

std::vector<GearHelix> gear_mesh_helices(const GearParameters& pinion, const GearParameters& wheel,
                                         const GearPairGeometry& pair, double wheel_offset,
                                         double axis_sign) {
  if (pinion.double_helical != wheel.double_helical)
    throw GearError("double_helical", "one gear is double-helical and its mate is not");
  const GearGeometry g1 = gear_geometry(pinion), g2 = gear_geometry(wheel);
  std::vector<GearHelix> helices;
  for (const Span& sp : face_spans(pinion)) {
    // The wheel helix (on the pinion's axis) that covers most of this pinion helix.
    double lo = 0.0, hi = 0.0;
    for (const Span& sw : face_spans(wheel)) {
      const double a = wheel_offset + axis_sign * sw.first,
                   b = wheel_offset + axis_sign * sw.second;
      const double l = std::max(sp.first, std::min(a, b)), h = std::min(sp.second, std::max(a, b));
      if (h - l > hi - lo) lo = l, hi = h;
    }
    if (hi - lo < 1e-6)
      throw GearError("face_width", "the two gears' faces do not overlap along the axis");
    GearHelix hx;
    hx.lo = lo;
    hx.hi = hi;
    hx.mid = 0.5 * (lo + hi);
    hx.twist_rate = section_twist_rate(pinion, g1, hx.mid);
    hx.pinion_twist = section_twist(pinion, g1, hx.mid);
    hx.wheel_twist = axis_sign * section_twist(wheel, g2, axis_sign * (hx.mid - wheel_offset));
    const double b = hi - lo, eps_beta = b * std::tan(g1.beta_b) / g1.p_bt;
    hx.L_ref = pair.eps_alpha * b / (std::cos(g1.beta_b) * (pair.eps_alpha + eps_beta));
    helices.push_back(hx);
  }
  return helices;
}

GearMeshContact::GearMeshContact(std::string name, int pinion_body, int wheel_body,
                                 GearMeshPlacement placement, GearPairGeometry pair,
                                 std::vector<GearHelix> helices, ContactLaws laws)
    : Element(std::move(name), pinion_body, wheel_body),
      place_(std::move(placement)),
      g1_(gear_geometry(place_.pinion)),
      g2_(gear_geometry(place_.wheel)),
      pair_(pair),
      helices_(std::move(helices)),
      laws_(std::move(laws)),
      slots_(static_cast<int>(std::ceil(pair.eps_gamma)) + 1) {
  // Path of contact on the line of action, from the pitch point: it starts where the wheel's
  // tip circle cuts it (pinion root side, s < 0) and ends at the pinion's tip circle.
  const double rb1 = g1_.d_b / 2, rb2 = g2_.d_b / 2, ra1 = g1_.d_a / 2, ra2 = g2_.d_a / 2;
  const double t = std::tan(pair_.alpha_wt);
  s_start_ = rb2 * t - std::sqrt(ra2 * ra2 - rb2 * rb2);
  s_end_ = std::sqrt(ra1 * ra1 - rb1 * rb1) - rb1 * t;
}

namespace {
// Adds one pair to the per-helix sums and the torques.
void add_pair(GearMeshContact::Evaluation& ev, const GearMeshContact::Pair& p) {
  ev.pinion_torque += p.pinion_torque;
  ev.wheel_torque += p.wheel_torque;
  ev.F_N[p.helix] += p.F_N;
  ev.F_T[p.helix] += p.friction_force;
  ev.count[p.helix] += 1;
  ev.friction_power += p.friction_power;
  ev.pairs.push_back(p);
}
}  // namespace

const double* GearMeshContact::slot_of(const double* memory, int group, int tooth) const {
  const double* g = memory + group * slots_ * kSlotSize;
  for (int s = 0; s < slots_; ++s)
    if (g[s * kSlotSize] == tooth + 1) return g + s * kSlotSize;
  return nullptr;
}

namespace gear_mesh_detail {
// The transverse frame and the rotation angles and rates of the two gears (see the header).
template <class S>
struct MeshFrame {
  V3<S> c1, c2, n, e_c, e_y;
  S gamma1, gamma2;  // tooth 0 of each gear from e_c about n [rad]
  S omega1, omega2;  // gear rates about n, relative to the line of centres [rad/s]
};

// One flank (sign +1 or −1) of one helix: its penetration and directions, and the position of
// its tooth-0 contact line on the plane of action, s = A0 + B (w − W).
template <class S>
struct Flank {
  int helix = 0, sign = 1;
  S delta, delta_dot;  // normal penetration δ and its rate, equal for every pair of the flank
  V3<S> u, tau, N;     // line of action, profile direction τ̂, flank normal
  S A0;                // s of tooth 0's contact line at the helix mid-plane W
  double B = 0.0;      // ds/dw along the face
};
}  // namespace gear_mesh_detail

namespace {
using gear_mesh_detail::Flank;
using gear_mesh_detail::MeshFrame;

template <class S>
MeshFrame<S> mesh_frame(const GearMeshPlacement& pl, const Pose<S>& i, const Pose<S>& j) {
  MeshFrame<S> m;
  m.c1 = i.point(pl.p_pinion);
  m.c2 = j.point(pl.p_wheel);
  m.n = i.direction(pl.R_pinion.col(2));
  const V3<S> d = m.c2 - m.c1;
  const V3<S> d_perp = d - m.n * m.n.dot(d);
  const S a = sqrt(d_perp.squaredNorm());
  m.e_c = d_perp / a;
  m.e_y = m.n.cross(m.e_c);
  const V3<S> x1 = i.direction(pl.R_pinion.col(0)), x2 = j.direction(pl.R_wheel.col(0));
  m.gamma1 = angle_of(S(m.e_c.dot(x1)), S(m.e_y.dot(x1)));
  m.gamma2 = angle_of(S(m.e_c.dot(x2)), S(m.e_y.dot(x2)));
  const S omega_c = m.e_y.dot(j.velocity_at(m.c2) - i.velocity_at(m.c1)) / a;
  m.omega1 = m.n.dot(i.omega_W()) - omega_c;
  m.omega2 = m.n.dot(j.omega_W()) - omega_c;
  return m;
}

// The face span [w_lo, w_hi] of the contact line s = A + B (w − W) that lies on the path of
// contact [s_start, s_end]; false if there is none.
template <class S>
bool clip_contact_line(const S& A, double B, const GearHelix& hx, double s_start, double s_end,
                       S& w_lo, S& w_hi) {
  w_lo = S(hx.lo);
  w_hi = S(hx.hi);
  if (B == 0.0) return value_of(A) >= s_start && value_of(A) <= s_end;
  S wa = hx.mid + (s_start - A) / B, wb = hx.mid + (s_end - A) / B;
  if (B < 0.0) std::swap(wa, wb);
  w_lo = value_max(wa, w_lo);
  w_hi = value_min(wb, w_hi);
  return value_of(w_hi) > value_of(w_lo);
}
}  // namespace

template <class S>
Eigen::Matrix<S, 12, 1> GearMeshContact::generalized_force(const Pose<S>& i, const Pose<S>& j,
                                                           const double* memory,
                                                           Evaluation* ev) const {
  const MeshFrame<S> m = mesh_frame(place_, i, j);
  const double rb1 = g1_.d_b / 2, rb2 = g2_.d_b / 2, pbt = g1_.p_bt, aw = pair_.alpha_wt;
  const double cb = std::cos(g1_.beta_b), sb = std::sin(g1_.beta_b);
  const double j_bt = pair_.j_t * std::cos(aw), psi_b1 = half_tooth_angle(g1_, rb1);
  const S e_dot = rb1 * m.omega1 + rb2 * m.omega2;
  Eigen::Matrix<S, 12, 1> f = Eigen::Matrix<S, 12, 1>::Zero();
  for (int h = 0; h < num_helices(); ++h) {
    const GearHelix& hx = helices_[h];
    const S Gamma = m.gamma1 + hx.pinion_twist;
    const S psi = rb1 * Gamma + rb2 * (m.gamma2 + hx.wheel_twist - kPi - kPi / place_.wheel.teeth);
    const S e = psi - pbt * std::round(value_of(psi) / pbt);
    if (ev && h == 0) ev->e = value_of(e);
    for (const int sign : {1, -1}) {
      Flank<S> fk;
      fk.helix = h;
      fk.sign = sign;
      fk.delta = (sign * e - 0.5 * j_bt) * cb;
      if (value_of(fk.delta) <= 0.0) continue;
      fk.delta_dot = (sign * cb) * e_dot;
      fk.u = std::sin(aw) * m.e_c + (sign * std::cos(aw)) * m.e_y;
      fk.tau = std::cos(aw) * m.e_c - (sign * std::sin(aw)) * m.e_y;
      fk.N = cb * fk.u - (sign * (hx.twist_rate >= 0.0 ? 1.0 : -1.0) * sb) * m.n;
      fk.A0 = rb1 * (psi_b1 + sign * Gamma - involute(aw));
      fk.B = sign * rb1 * hx.twist_rate;
      const double spread = 0.5 * std::abs(fk.B) * (hx.hi - hx.lo);
      const int k_lo = static_cast<int>(std::ceil((s_start_ - value_of(fk.A0) - spread) / pbt));
      const int k_hi = static_cast<int>(std::floor((s_end_ - value_of(fk.A0) + spread) / pbt));
      for (int k = k_lo; k <= k_hi; ++k) pair_force(i, j, m, fk, k, memory, f, ev);
    }
  }
  return f;
}

template <class S>
void GearMeshContact::pair_force(const Pose<S>& i, const Pose<S>& j, const MeshFrame<S>& m,
                                 const Flank<S>& fk, int k, const double* memory,
                                 Eigen::Matrix<S, 12, 1>& f, Evaluation* ev) const {
  const GearHelix& hx = helices_[fk.helix];
  const S A = fk.A0 + k * g1_.p_bt;
  S w_lo, w_hi;
  if (!clip_contact_line(A, fk.B, hx, s_start_, s_end_, w_lo, w_hi)) return;
  const double cb = std::cos(g1_.beta_b), rb1 = g1_.d_b / 2, rb2 = g2_.d_b / 2;
  const double ta = std::tan(pair_.alpha_wt);
  const int z1 = place_.pinion.teeth;
  const S weight = (w_hi - w_lo) / (cb * hx.L_ref);
  const S w_m = 0.5 * (w_lo + w_hi), s_m = A + fk.B * (w_m - hx.mid);
  const auto point = [&](const S& w, const S& s) -> V3<S> {
    return m.c1 + w * m.n + (0.5 * pair_.d_w1) * m.e_c + s * fk.u;
  };
  const int tooth = ((fk.sign > 0 ? k : -k) % z1 + z1) % z1;
  const double* slot =
      memory ? slot_of(memory, 2 * fk.helix + (fk.sign > 0 ? 0 : 1), tooth) : nullptr;
  const double v_minus = (slot && slot[1] > 0.0) ? slot[1] : std::max(value_of(fk.delta_dot), 0.0);
  const S F_N = weight * laws_.normal.force(fk.delta, fk.delta_dot, v_minus);
  // Involute arc lengths ρ²/(2 r_b) of the contact on both flanks: their sum moves at the
  // sliding speed, so it measures the pair's bristle deflection along τ̂.
  const S rho1 = s_m + rb1 * ta, rho2 = rb2 * ta - s_m;
  const S lambda = rho1 * rho1 / (2 * rb1) + rho2 * rho2 / (2 * rb2);
  const FrictionLaw& fr = laws_.friction;
  const bool friction = fr.kind != FrictionLawKind::kNone || fr.viscous > 0.0;
  const bool anchored = fr.has_bristle() && slot && slot[1] > 0.0;
  // Sliding reverses at the pitch point (s = 0): a line that crosses it is cut there, and each
  // part carries its share of F_N and the friction of its own mid-point's sliding.
  S cut[3] = {w_lo, w_hi, w_hi};
  int parts = 1;
  if (fk.B != 0.0) {
    const S w0 = hx.mid - A / fk.B;
    if (value_of(w0) > value_of(w_lo) && value_of(w0) < value_of(w_hi)) {
      cut[1] = w0;
      parts = 2;
    }
  }
  Pair p;
  for (int q = 0; q < parts; ++q) {
    const S share = (cut[q + 1] - cut[q]) / (w_hi - w_lo);
    const S w_q = 0.5 * (cut[q] + cut[q + 1]);
    const V3<S> P = point(w_q, A + fk.B * (w_q - hx.mid));
    const S F_Nq = share * F_N;
    const V3<S> v_q = j.velocity_at(P) - i.velocity_at(P);
    V3<S> F_T = V3<S>::Zero();
    if (friction) {
      const V3<S> v_T = v_q - fk.N * fk.N.dot(v_q);
      V3<S> d = V3<S>::Zero(), d_dot = v_T;
      if (anchored) {  // the pair's bristle, shared by its parts like F_N
        d = (share * (lambda - slot[2])) * fk.tau;
        d_dot = (share * fk.tau.dot(v_q)) * fk.tau;
      }
      F_T = fr.force(v_T, F_Nq, d, d_dot);
    }
    const V3<S> F = F_Nq * fk.N + F_T;  // on the wheel
    f.template head<6>() += wrench_at(i, P, V3<S>(-F));
    f.template tail<6>() += wrench_at(j, P, F);
    if (!ev) continue;
    p.F_T += values(F_T);
    p.friction_force += values(F_T).norm();
    p.friction_power -= value_of(F_T.dot(v_q));
    p.pinion_torque += value_of((P - m.c1).cross(F).dot(m.n));
    p.wheel_torque -= value_of((P - m.c2).cross(F).dot(m.n));
  }
  if (!ev) return;
  p.helix = fk.helix;
  p.flank = fk.sign;
  p.tooth = tooth;
  p.parts = parts;
  p.delta = value_of(fk.delta);
  p.delta_dot = value_of(fk.delta_dot);
  p.weight = value_of(weight);
  p.F_N = value_of(F_N);
  p.lambda = value_of(lambda);
  p.s = value_of(s_m);
  p.P = values(point(w_m, s_m));
  p.N = values(fk.N);
  p.tau = values(fk.tau);
  p.v_rel = values(V3<S>(j.velocity_at(point(w_m, s_m)) - i.velocity_at(point(w_m, s_m))));
  add_pair(*ev, p);
}

void GearMeshContact::force(const ElementInput& in, ForceBlock& out, bool tangents) const {
  if (!tangents) {
    out.f += generalized_force(pose_of(*in.i), pose_of(*in.j), in.memory, nullptr);
    return;
  }
  unpack_force(generalized_force(seeded_pose(*in.i, 0), seeded_pose(*in.j, 1), in.memory, nullptr),
               out);
}

GearMeshContact::Evaluation GearMeshContact::evaluate(const ElementInput& in) const {
  Evaluation ev;
  generalized_force(pose_of(*in.i), pose_of(*in.j), in.memory, &ev);
  return ev;
}

double GearMeshContact::potential_energy(const ElementInput& in) const {
  double V = 0.0;
  for (const Pair& p : evaluate(in).pairs) V += p.weight * laws_.normal.elastic_energy(p.delta);
  return V;
}

Element::ContactRates GearMeshContact::contact_rates(const ElementInput& in) const {
  ContactRates r;  // the pairs of a flank act in parallel: their rates add up
  for (const Pair& p : evaluate(in).pairs) {
    const double* slot =
        in.memory ? slot_of(in.memory, 2 * p.helix + (p.flank > 0 ? 0 : 1), p.tooth) : nullptr;
    const double v_minus = (slot && slot[1] > 0.0) ? slot[1] : std::max(p.delta_dot, 0.0);
    r.stiffness += p.weight * laws_.normal.elastic_stiffness(p.delta);
    r.damping += p.weight * laws_.normal.damping_rate(p.delta, v_minus);
  }
  return r;
}

void GearMeshContact::update_memory(const ElementInput& in, double* memory) const {
  const Evaluation ev = evaluate(in);
  const int size = num_memory();
  std::vector<double> old(size, 0.0);
  if (in.memory) std::copy(in.memory, in.memory + size, old.begin());
  std::fill(memory, memory + size, 0.0);
  const FrictionLaw& fr = laws_.friction;
  for (const Pair& p : ev.pairs) {
    const int group = 2 * p.helix + (p.flank > 0 ? 0 : 1);
    double* dst = memory + group * slots_ * kSlotSize;
    int s = 0;
    while (s < slots_ && dst[s * kSlotSize] != 0.0) ++s;
    if (s == slots_) continue;  // more pairs than ε_γ allows: not expected
    dst += s * kSlotSize;
    dst[0] = p.tooth + 1;
    const double* o = slot_of(old.data(), group, p.tooth);
    if (!o || o[1] <= 0.0) {  // entered the path of contact: re-arm δ̇⁻ and the bristle
      dst[1] = std::max(p.delta_dot, laws_.normal.min_approach_speed);
      dst[2] = p.lambda;
      continue;
    }
    dst[1] = o[1];
    dst[2] = o[2];
    if (!fr.has_bristle()) continue;
    const Vec3 v_T = p.v_rel - p.N * p.N.dot(p.v_rel);
    const Vec3 d = (p.lambda - o[2]) * p.tau, d_dot = p.tau * p.tau.dot(p.v_rel);
    // Slipping beyond the static limit: the anchor follows, η μ_s F_N/k_stick behind.
    dst[2] = p.lambda - fr.settled_deflection(v_T, p.F_N, d, d_dot).dot(p.tau);
  }
}

int GearMeshContact::helix_at(double w) const {
  int best = 0;
  double best_gap = std::numeric_limits<double>::infinity();
  for (int h = 0; h < num_helices(); ++h) {
    const double gap = std::max({helices_[h].lo - w, w - helices_[h].hi, 0.0});
    if (gap < best_gap) best = h, best_gap = gap;
  }
  return best;
}

std::vector<std::string> GearMeshContact::channel_names() const {
  std::vector<std::string> names;
  for (int h = 1; h <= num_helices(); ++h)
    for (const char* q : {"normal_force", "friction_force", "pairs"})
      names.push_back(q + std::to_string(h));
  for (const char* q : {"friction_power", "pinion_torque", "wheel_torque", "transmission_error",
                        "input_power", "output_power", "efficiency"})
    names.emplace_back(q);
  return names;
}

double GearMeshContact::channel_value(int k, const ElementInput& in, const double*) const {
  const int per_helix = 3 * num_helices();
  if (k >= per_helix + 4) {
    const PairPower p = pair_power(*this, in);
    return k == per_helix + 4 ? p.input : k == per_helix + 5 ? p.output : p.efficiency;
  }
  const Evaluation ev = evaluate(in);
  if (k < per_helix) {
    const int h = k / 3;
    return k % 3 == 0 ? ev.F_N[h] : k % 3 == 1 ? ev.F_T[h] : ev.count[h];
  }
  switch (k - per_helix) {
    case 0:
      return ev.friction_power;
    case 1:
      return ev.pinion_torque;
    case 2:
      return ev.wheel_torque;
    default:
      return ev.e;
  }
}

}  // namespace cs::contact
