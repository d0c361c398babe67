// Compliant contact between two bodies' triangle meshes (seed 004 §4.2, issue 10 item 2).
//
// Each evaluation finds the contact regions (mesh_penetration.hpp: FCL broad phase, vertex-inside
// depths here) and applies, per region, the normal law and the friction law of a compliant
// contact at one point:
//   per penetrating vertex e: depth δ_e = n_f·(a_f − p_e) behind the other mesh's nearest face f
//   (outward unit normal n_f, a point a_f), contact direction N_e (along which body j is pushed:
//   n_f for a vertex of j, −n_f for a vertex of i), midpoint c_e = p_e + ½ δ_e n_f;
//   region: δ = max δ_e, N = Σ δ_e N_e / ‖Σ δ_e N_e‖, point c = Σ δ_e c_e / Σ δ_e;
//   relative velocity v = v_j(c) − v_i(c), δ̇ = −Nᵀv, v_T = v − (Nᵀv) N.
// Region force (MeshContactOptions::region_force):
//   point  F_N = F_law(δ, δ̇, δ̇⁻): the law is a point-contact law for the whole region (Hertz:
//          K = (4/3) E* √R*); a sphere on a plane.
//   line   F_N = (L/L_ref) F_law(δ, δ̇, δ̇⁻): the law's stiffness is that of a contact line of
//          length L_ref (reference_length), so the force per unit length is F_law/L_ref and a
//          region carries it over its length L: the distance ‖c_a − c_b‖ between the region's two
//          extreme points c_e along its principal direction in the tangent plane (the largest
//          eigenvector of the points' covariance projected on N⊥). A tooth pair's stiffness then
//          grows with its contact line, as in the analytic gear mesh (gear_mesh.hpp, same L_ref).
//          Friction (a law without bristle memory) is then spread over the region: the law
//          at each point c_e with its own tangential velocity, averaged with the depth shares
//          δ_e/Σδ, each share acting at c_e. A contact line crossing the pitch line of a gear
//          slides both ways; one velocity at c would cancel them (the analytic mesh cuts the
//          line at the pitch point for the same reason). The line's ends are the crossings of
//          the edges leaving the region, interpolated from the inside vertex's depth and the
//          outside vertex's distance to the other mesh, so L grows continuously as vertices
//          enter and is not short by the vertex spacing (only edges on the surface facing the
//          mate, to a vertex whose nearest face is within 60° of the inside vertex's).
// The force F = F_N N + F_T acts on body j at c, −F on body i. With the vertex–face pairs held
// fixed, these are smooth functions of both poses and the tangents ∂f/∂q, ∂f/∂v are exact (AD,
// math/autodiff.hpp); changes of the contact set are not differentiated, so the set is held
// through a step (MeshContactOptions::hold_contact_set) and found again at the next one.
//
// Memory: max_regions slots of kMemoryPerRegion values (State::memory, written after accepted
// steps only):
//   [0]     δ̇⁻, approach speed at onset (0: free slot)
//   [1..3]  the region's point c, body-i frame [m] (to recognise the region at the next step)
//   [4..6]  bristle anchor on body i, body-i frame [m]
//   [7..9]  bristle anchor on body j, body-j frame [m]
// Matching rule: a region takes over the slot whose stored point (body-i frame) is nearest to its
// own point c, if that distance is at most the region's extent (largest ‖c_e − c‖) plus
// match_distance; pairs are assigned one-to-one, nearest first. A matched region keeps δ̇⁻ and its
// anchors; an unmatched one starts (onset) in a free slot; slots no region took are cleared.
// Regions beyond max_regions get forces but no memory (δ̇⁻ from the current rate, no bristle).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clearsim/elements/contact/compliant_contact.hpp"
#include "clearsim/elements/contact/gear_mesh.hpp"
#include "clearsim/elements/contact/mesh_patch_tracker.hpp"
#include "clearsim/elements/contact/mesh_penetration.hpp"
#include "clearsim/elements/element.hpp"
#include "clearsim/geometry/mesh_bvh.hpp"
#include "clearsim/model/shape.hpp"

namespace cs::contact {

// How a region's normal force follows its extent (header).
enum class RegionForce { kPoint, kLine };

struct MeshContactOptions {
  RegionForce region_force = RegionForce::kPoint;
  double reference_length = 0.0;  // L_ref [m], > 0 for kLine
  int max_regions = 32;           // memory slots
  double match_distance = 0.0;    // [m]; 0: the mean edge length of the two meshes
  // Broad-phase reuse (ContactCandidates): triangle pairs within this distance are kept and
  // re-tested while the relative pose moves less than it. 0: 5 % of the mean edge length of the
  // two meshes; < 0: none (FCL's collide at every evaluation).
  double candidate_margin = 0.0;  // [m]
  // Broad phase with temporal coherence (PatchTracker, mesh_patch_tracker.hpp): patches of one
  // mesh certified clear of the other until their own motion could have closed the gap, the
  // rest tested through a grid of the other mesh; the same pairs as FCL's collide. Takes the
  // place of the candidates above when true. Off by default: on seed 004's herringbone pair it
  // does not yet beat FCL's collide (docs/PERFORMANCE.md, "Mesh–mesh contact").
  bool patch_tracking = false;
  // Without candidates or patch tracking, the intersecting triangle pairs come from a traversal
  // of FCL's hierarchies written here (MeshBvh::intersecting_triangles), less than half the
  // instructions of FCL's own collide on seed 004's gears; true: from FCL's collide (the same
  // pairs, so the same results bit for bit; for comparison).
  bool fcl_collide = false;
  // Patches nearer than this to the other mesh are tested triangle by triangle. 0: a tenth of
  // the larger median triangle size of the two meshes (PatchTracker).
  double tracking_margin = 0.0;  // [m]
  // Hold the contact set through a step: the regions (vertex–face pairs, line-end crossings)
  // found at the first evaluation at a time t (an implicit step's predictor) are reused by the
  // later evaluations at the same t (its Newton iterates, the accepted state's memory and
  // outputs) while the meshes' relative motion since then (bounded at the corners of their
  // bounding boxes) stays within hold_distance; only the smooth quantities (depths, normal, line
  // length, velocities) are evaluated again, so the tangents are those of the residual Newton
  // solves. Otherwise, or with false, the set is detected at every evaluation.
  bool hold_contact_set = true;
  double hold_distance = 0.0;  // [m]; 0: 1 % of the smaller mean edge length of the two meshes
};

// Checks a mesh for use as a contact shape: throws std::invalid_argument (naming the shape) if it
// is open, non-manifold, inconsistently or inward oriented, or has non-finite vertices; appends
// a warning for degenerate or duplicated triangles (ignored by the detector).
void check_contact_mesh(const Shape& shape, std::vector<std::string>& warnings);

class MeshContact final : public Element {
 public:
  static constexpr int kMemoryPerRegion = 10;

  // Shapes' bodies are body_i and body_j. Throws std::invalid_argument if a mesh fails
  // check_contact_mesh, both shapes are on one body, or kLine has no reference_length > 0.
  MeshContact(std::string name, const Shape& shape_i, const Shape& shape_j, ContactLaws laws,
              MeshContactOptions options = {});
  std::string kind() const override { return "mesh_contact"; }

  bool has_force() const override { return true; }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  double potential_energy(const ElementInput& in) const override;
  ContactRates contact_rates(const ElementInput& in) const override;

  int num_memory() const override { return kMemoryPerRegion * options_.max_regions; }
  void update_memory(const ElementInput& in, double* memory) const override;

  // "regions" (count), "normal_force" ΣF_N [N], "friction_force" Σ‖F_T‖ over every point the
  // friction acts at (μ ΣF_N when all slide: the analytic gear mesh's meaning), "penetration"
  // max δ [m], "triangle_pairs" (intersecting), "unresolved_pairs" (no vertex inside: a mesh
  // too coarse for the patch, DetectionStats), "friction_power" −Σ F_T·v_rel [W] (lost, ≥ 0
  // for sliding), "torque_i.x|y|z" and "torque_j.x|y|z" the contact forces' moment about each
  // body's centre of mass, in that body's frame [N·m]. Between two generated gears with a gear
  // pair set (set_gear_pair), also the analytic gear mesh's channels with their meaning: per
  // helix "normal_forceH", "friction_forceH", "pairsH" (regions), then "pinion_torque",
  // "wheel_torque" and "transmission_error" (mesh_contact_gears.cpp).
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;
  void channel_values(const int* k, int n, const ElementInput& in, const double* lambda,
                      double* out) const override;

  struct RegionResult {
    Vec3 point_W = Vec3::Zero();   // c [m]
    Vec3 normal_W = Vec3::Zero();  // N, along which body j is pushed
    double depth = 0.0;            // δ [m]
    double F_N = 0.0;              // [N] (weighted)
    double weight = 1.0;           // L/L_ref (line), 1 (point)
    // Friction spread over the region (line): its moment about point_W [N·m] and its power
    // −Σ F_T,e·v_e [W] (point: 0 and −F_T·v(point)).
    Vec3 friction_moment_W = Vec3::Zero();
    double friction_power = 0.0;
    Vec3 F_T_W = Vec3::Zero();  // friction force on body j [N]
    // Σ‖F_T,e‖ over the points the friction is spread on (point: ‖F_T‖) [N]. Not ‖F_T_W‖: along
    // a tooth contact line crossing the pitch line the sliding reverses and the vectors cancel.
    double friction_magnitude = 0.0;
    int vertices = 0;  // penetrating vertices in the region
    int slot = -1;     // memory slot it matched (−1: none)
  };
  std::vector<RegionResult> evaluate(const ElementInput& in, DetectionStats* stats = nullptr) const;
  // Regions (vertex–face pairs) at this configuration; `full`: FCL's own collide, not the
  // traversal written here, the patch tracking or the reused candidates (the same result by
  // their guarantees; for tests and benchmarks).
  std::vector<Region> detect(const ElementInput& in, DetectionStats* stats = nullptr,
                             bool full = false) const;

  // Between two generated gears (shape i the pinion): the analytic gear mesh of the same pair.
  // Its helix spans split a double-helical pair's regions at the apex (line force) and sort
  // them per helix for the gear channels, which also give its transmission error; nothing of
  // its force is used (mesh_contact_gears.cpp).
  void set_gear_pair(std::shared_ptr<const GearMeshContact> analytic) {
    gear_pair_ = std::move(analytic);
  }

  const Shape& shape(int side) const { return sides_[side].shape; }
  // Degenerate or duplicated triangles found by check_contact_mesh (the detector ignores them).
  const std::vector<std::string>& warnings() const { return warnings_; }
  const ContactLaws& laws() const { return laws_; }
  const MeshContactOptions& options() const { return options_; }

 private:
  struct Side {
    Shape shape;
    std::shared_ptr<const MeshBvh> bvh;
    std::vector<std::vector<int>> neighbours;
    std::vector<Vec3> vertices_B, normals_B;     // body frame (normals zero for degenerate faces)
    std::vector<std::vector<int>> vertex_faces;  // triangles at each vertex (line force only)
    std::vector<Vec3> box_corners;               // the mesh's bounding box, mesh frame
  };
  template <class S>
  struct RegionKinematics {
    V3<S> point, N;
    S depth;
    S weight;  // L/L_ref (line), 1 (point)
    double extent = 0.0;
    // line: the points c_e and their depth shares δ_e/Σδ, over which friction is spread
    std::vector<V3<S>> points;
    std::vector<S> shares;
  };
  template <class S>
  RegionKinematics<S> region_kinematics(const Region& r, const Pose<S>& i, const Pose<S>& j) const;
  template <class S>
  S line_weight(const std::vector<V3<S>>& c, const std::vector<V3<S>>& ends, const V3<S>& N) const;
  std::vector<int> match(const std::vector<RegionKinematics<double>>& k, const Pose<double>& i,
                         const double* memory) const;
  template <class S>
  Eigen::Matrix<S, 12, 1> generalized_force(const std::vector<Region>& regions, const Pose<S>& i,
                                            const Pose<S>& j, const double* memory,
                                            std::vector<RegionResult>* out) const;
  MeshInstance instance(int side, const BodyKinematics& b) const;
  // Regions of a double-helical gear pair split at the apex plane (mesh_contact_gears.cpp).
  std::vector<Region> split_at_apex(std::vector<Region> regions, const MeshInstance& m0,
                                    const MeshInstance& m1) const;
  static constexpr int kOwnChannels = 13;  // before the gear channels
  std::vector<std::string> gear_channel_names() const;
  // Gear channel k (counted from the first one) from the regions of the same state.
  double gear_channel(int k, const ElementInput& in,
                      const std::vector<RegionResult>& regions) const;
  bool gear_channel_reads_regions(int k) const;
  double own_channel(int k, const ElementInput& in, const std::vector<RegionResult>& regions,
                     const DetectionStats& stats) const;

  Side sides_[2];
  ContactLaws laws_;
  MeshContactOptions options_;
  std::vector<std::string> warnings_;
  std::shared_ptr<const GearMeshContact> gear_pair_;
  // A cache of the broad phase: its answers do not depend on which poses came before (it checks
  // their displacement itself), so it is invisible to the const interface; the mutex keeps it
  // whole if one model is evaluated from two threads.
  mutable std::mutex candidates_mutex_;
  std::unique_ptr<ContactCandidates> candidates_;
  std::unique_ptr<PatchTracker> tracker_;  // under the same mutex
  // The contact set held through a step (MeshContactOptions::hold_contact_set), under the same
  // mutex: found at time t with mesh 1's frame at M q + c in mesh 0's (q ↦ M q + c).
  struct HeldSet {
    bool valid = false;
    double t = 0.0;
    Mat3 M = Mat3::Identity();
    Vec3 c = Vec3::Zero();
    std::vector<Region> regions;
    DetectionStats stats;
  };
  mutable HeldSet held_;
};

}  // namespace cs::contact
