// Analytic gear-mesh contact between a pinion (body i) and a wheel (body j) carrying an external
// involute pair (geometry/gear_geometry.hpp): no triangles, the rigid-involute kinematics of the
// plane of action (reference.md §7.1, §7.4) with the compliant laws of normal_laws.hpp and
// friction_laws.hpp at each tooth pair. Tangents are exact (forward AD of the same kernel).
//
// Transverse plane (per helix): e_c from the pinion axis to the wheel axis, e_y = n × e_c, n the
// pinion axis. The mesh phase is the base-circle transmission error
//   ψ = r_b1 (γ₁ + φ₁) + r_b2 (γ₂ + φ₂ − π − π/z₂),   e = ψ wrapped to (−p_bt/2, p_bt/2],
// with γ the angle of a gear's tooth 0 from e_c about n and φ its section twist; e = 0 puts a
// pinion tooth on the centre line with the wheel's tooth space round it (both flanks open by
// half the backlash). Flank f = +1 (the pinion's front flank for rotation about +n) and f = −1:
//   transverse penetration δ_t = f e − j_bt/2 (j_bt = j_t cos α_wt, the backlash along the line
//   of action), normal penetration δ = δ_t cos β_b, equal for every pair of that flank;
//   line of action u_f = sin α_wt e_c + f cos α_wt e_y through the pitch point C = r_w1 e_c;
//   tooth k's contact line on the plane of action s(w) = r_b1 (ψ_b1 + f Γ − inv α_wt) + k p_bt
//   + f r_b1 φ₁′ (w − W), Γ = γ₁ + φ₁(W), clipped to the path of contact s ∈ [s_A, s_E] and to
//   the face; its length L_k, mid-point P_k and the flank normal
//   N = cos β_b u_f − f sgn(φ₁′) sin β_b n (the two helices' axial forces cancel).
// Pair k carries F_N = (L_k/L_ref) F_law(δ, δ̇, δ̇⁻_k) along N on the wheel (−N on the pinion):
// L_ref = ε_α b/(cos β_b ε_γ), so the weights sum on average to ε_γ contacts of the law's
// stiffness and a pair enters and leaves the path smoothly (its line grows from a corner).
// Friction: the law's force with the relative velocity of the flanks projected on the tangent
// plane; sliding changes sign at the pitch point, so a contact line that crosses it is cut there
// into two parts, each with its share of F_N and the velocity at its own mid-point (exact for the
// mean of the linear sliding speed, hence for the friction power). Bristle deflection along the
// profile direction τ̂ (from the pinion axis to the base-circle tangent point): d = λ₁ + λ₂ − c*, λ
// the involute arc lengths ρ²/(2 r_b) of the contact on each flank, whose rate is the sliding
// speed.
//
// Memory: per helix and flank, `slots` records [pinion tooth + 1 (0: free), δ̇⁻, c*], re-armed
// when a tooth pair enters the path of contact with positive penetration.
#pragma once

#include <string>
#include <vector>

#include "clearsim/elements/contact/compliant_contact.hpp"
#include "clearsim/geometry/gear_geometry.hpp"

namespace cs::contact {

namespace gear_mesh_detail {  // the kernel's intermediate values (gear_mesh.cpp)
template <class S>
struct MeshFrame;
template <class S>
struct Flank;
}  // namespace gear_mesh_detail

// The gears as placed on their bodies: shape frames (z: gear axis, x: tooth 0) in the body frames.
struct GearMeshPlacement {
  GearParameters pinion, wheel;
  Vec3 p_pinion = Vec3::Zero(), p_wheel = Vec3::Zero();  // shape origins in the body frames [m]
  Mat3 R_pinion = Mat3::Identity(), R_wheel = Mat3::Identity();
};

// One helix of the pair on the pinion's axis (coordinate w along n from the pinion shape origin).
struct GearHelix {
  double lo = 0.0, hi = 0.0;  // face span in contact [m]
  double mid = 0.0;           // W = (lo + hi)/2
  double twist_rate = 0.0;    // φ₁′ of the pinion on this helix [rad/m]
  double pinion_twist = 0.0;  // φ₁(W) about n [rad]
  double wheel_twist = 0.0;   // φ₂(W) about n [rad] (the wheel's section at W)
  double L_ref = 0.0;         // contact-line length of one reference pair [m]
};

class GearMeshContact final : public Element {
 public:
  static constexpr int kSlotSize = 3;
  // `helices` from gear_mesh_helices (which carry the sign of the wheel's shape axis against
  // the pinion's). Laws: normal and friction (lubrication unused).
  GearMeshContact(std::string name, int pinion_body, int wheel_body, GearMeshPlacement placement,
                  GearPairGeometry pair, std::vector<GearHelix> helices, ContactLaws laws);
  std::string kind() const override { return "gear_mesh"; }

  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // Σ w_k E(δ) with E the law's elastic energy. Not an exact potential: the weights w_k vary
  // with the mesh phase (the mesh stiffness is time-varying), so energy is exchanged with the
  // rotation as pairs enter and leave — the parametric excitation of a real gear mesh.
  double potential_energy(const ElementInput& in) const override;
  // Σ w_k dF/dδ over the pairs in contact [N/m].
  ContactRates contact_rates(const ElementInput& in) const override;
  int num_memory() const override { return 2 * num_helices() * slots_ * kSlotSize; }
  void update_memory(const ElementInput& in, double* memory) const override;

  // Per helix h = 1, 2 ("1" only for a single helix): "normal_forceH" ΣF_N [N],
  // "friction_forceH" Σ‖F_T‖ [N], "pairsH" tooth pairs in contact; then "friction_power" [W]
  // (lost, ≥ 0), "pinion_torque" and "wheel_torque" [N·m] (the mesh's torque on each gear
  // about −n: positive on the pinion when it drives forward, on the wheel when it is driven),
  // "transmission_error" e [m] of helix 1; "input_power", "output_power" [W] and "efficiency"
  // P_out/P_in of the pair (pair_efficiency.hpp: NaN, with a warning, when no power enters).
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

  // One tooth pair in contact (double values, for memory, channels and tests). P, v_rel, λ at
  // the mid-point of its contact line; F_T, power and torques summed over its parts.
  struct Pair {
    int helix = 0, flank = 1, tooth = 0, parts = 1;
    double friction_force = 0.0;  // Σ‖F_T‖ over the parts [N]
    double friction_power = 0.0, pinion_torque = 0.0, wheel_torque = 0.0;
    double delta = 0.0, delta_dot = 0.0, weight = 0.0, F_N = 0.0, lambda = 0.0, s = 0.0;
    Vec3 P = Vec3::Zero(), N = Vec3::Zero(), tau = Vec3::Zero();
    Vec3 F_T = Vec3::Zero(), v_rel = Vec3::Zero();
  };
  struct Evaluation {
    std::vector<Pair> pairs;
    double e = 0.0;                                   // transmission error, helix 1 [m]
    double pinion_torque = 0.0, wheel_torque = 0.0;   // [N·m], see channel_names
    double F_N[2] = {0.0, 0.0}, F_T[2] = {0.0, 0.0};  // per helix [N]
    int count[2] = {0, 0};                            // pairs in contact per helix
    double friction_power = 0.0;                      // [W]
  };
  Evaluation evaluate(const ElementInput& in) const;

  int num_helices() const { return static_cast<int>(helices_.size()); }
  const std::vector<GearHelix>& helices() const { return helices_; }
  // The helix (index from 0) whose face span holds the axial coordinate w [m] along n from the
  // pinion's shape origin; the nearest span for a w outside all. For other contact models of the
  // same pair (mesh contact's gear channels).
  int helix_at(double w) const;
  // e of helix 1 [m], as the "transmission_error" channel.
  double transmission_error(const ElementInput& in) const { return evaluate(in).e; }
  int slots() const { return slots_; }
  const GearPairGeometry& pair() const { return pair_; }

 private:
  template <class S>
  Eigen::Matrix<S, 12, 1> generalized_force(const Pose<S>& i, const Pose<S>& j,
                                            const double* memory, Evaluation* ev) const;
  // Tooth pair k of flank `fk`: its force added to f (and recorded in ev).
  template <class S>
  void pair_force(const Pose<S>& i, const Pose<S>& j, const gear_mesh_detail::MeshFrame<S>& m,
                  const gear_mesh_detail::Flank<S>& fk, int k, const double* memory,
                  Eigen::Matrix<S, 12, 1>& f, Evaluation* ev) const;
  const double* slot_of(const double* memory, int group, int tooth) const;

  GearMeshPlacement place_;
  GearGeometry g1_, g2_;
  GearPairGeometry pair_;
  std::vector<GearHelix> helices_;
  ContactLaws laws_;
  int slots_ = 0;
  double s_start_ = 0.0, s_end_ = 0.0;  // path of contact on the line of action from C [m]
};

// The helices of a pair (face spans on the pinion's axis that both gears cover), from the
// pinion's and wheel's parameters and the wheel shape origin's axial offset `wheel_offset` [m]
// along n from the pinion's (with `axis_sign` as above). Throws GearError("face_width") when the
// faces do not overlap.
std::vector<GearHelix> gear_mesh_helices(const GearParameters& pinion, const GearParameters& wheel,
                                         const GearPairGeometry& pair, double wheel_offset,
                                         double axis_sign);

}  // namespace cs::contact
