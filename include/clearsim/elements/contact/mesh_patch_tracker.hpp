// The broad phase of mesh contact with temporal coherence (issue 30 item 2): patches of one mesh
// that follow its body, each certified clear of the other mesh until its own motion could have
// closed the gap, and the triangles of the rest tested against a grid of the other mesh.
//
// One mesh, P (the one with fewer triangles), is cut into patches (MeshBvh::patches: subtrees of
// its hierarchy, kPatchTriangles triangles at most). The other, Q, is read in its own frame,
// where P's frame sits at q ↦ M q + c. At every evaluation, each patch A is either
//   skipped   when it holds a certificate: at an earlier pose (M₀, c₀) the distance from A's box
//             to Q's triangles was at least C_A (MeshBvh::clearance), and since then no point of
//             A has moved relative to Q by as much: the move of a point q of A is
//             (M − M₀) q + (c − c₀), whose length is at most ‖(M − M₀) o + (c − c₀)‖ +
//             ‖M − M₀‖_F ρ for the box's centre o and half diagonal ρ (‖q − o‖ ≤ ρ, and the
//             Frobenius norm bounds the spectral one). Bound < C_A − slack: every triangle of A
//             is still farther than 0 from Q, so none intersects (the skip is conservative);
//   refreshed when the bound has reached C_A: its clearance is measured again at this pose and,
//             if it is at least `margin`, becomes the new certificate (the patch is skipped);
//   tested    otherwise (within `margin` of Q; its clearance is tried again after a move of
//             half the margin): each of its triangles, mapped into Q's frame, is
//             paired with the triangles of Q listed in the grid cells its bounding box covers
//             whose bounding boxes overlap its own and that no face plane of the two separates
//             by more than the slack (a cell lists every triangle of Q whose leaf
//             box meets the cell, MeshBvh::triangles_in_box, found once and kept; a triangle
//             spanning more than kMaxCells cells asks Q's hierarchy with its own box instead).
//             A pair that intersects has a common point, inside both bounding boxes and in one
//             of the cells, so it is listed.
//             Cells are 0.35 of Q's median triangle size: on seed 004's pair (helical flank
//             triangles about 22 mm long) 1.0 listed many more triangles per cell and 0.2 made
//             a triangle span too many cells (80-step run: 1.0 and 0.2 both about 1.4× the
//             stepping time of 0.35).
// The listed pairs go through FCL's triangle test in FCL's relative frame
// (MeshBvh::intersecting_among), so the pairs found are MeshBvh::intersecting_triangles' (every
// box and slack above errs on the side of listing), sorted. Nothing depends on the order of
// earlier calls but the work: the answer at a pose is the full query's
// (tests/unit/contact/mesh_patch_tracker_test.cpp).
//
// Cost: a bound per patch per call; clearances only where the motion has used up a patch's
// certificate (rarely far from contact: there they are large); and the tested patches' triangles
// against a few cells each. FCL's collide traverses both hierarchies down to the many
// overlapping leaf boxes of flanks in near-conformal contact at every call
// (docs/PERFORMANCE.md, "Mesh–mesh contact").
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "clearsim/elements/contact/mesh_penetration.hpp"

namespace cs::contact {

class PatchTracker {
 public:
  static constexpr int kPatchTriangles = 32;
  static constexpr int kMaxCells = 64;
  static constexpr double kCellFraction = 0.35;  // grid cell / median triangle size of Q (header)
  // Clearances are measured up to this many margins: enough for a patch to outlast a few
  // evaluations, cheap to prove far from the other mesh (the hierarchy's top boxes suffice; a
  // larger cap opens many more boxes: 64 margins cost 3× as much on seed 004's pair).
  static constexpr double kClearanceCap = 4.0;

  // Patches nearer than `margin` [m] to the other mesh are tested triangle by triangle; ≤ 0: a
  // tenth of the larger of the two meshes' median triangle sizes (bounding-box extents; 2.25 mm
  // on seed 004's pair, where 2 and 5 mm cost about the same).
  PatchTracker(const MeshInstance& m0, const MeshInstance& m1, double margin);
  // Intersecting triangle pairs (of mesh 0, of mesh 1) at m0's and m1's poses, sorted.
  std::vector<std::array<int, 2>> intersecting(const MeshInstance& m0, const MeshInstance& m1,
                                               DetectionStats* stats = nullptr);
  double margin() const { return margin_; }

 private:
  using Relative = RelativePose;  // P's frame in the other mesh's (mesh_bvh.hpp)
  struct Patch {
    MeshPatch piece;       // box and triangles, P's frame
    double radius = 0.0;   // ‖half extents‖ [m]
    double clearance = 0;  // certified distance to Q at `at` [m]; 0: none
    Relative at;
  };
  struct Box {
    Vec3 lo, hi;
  };
  Relative relative(const MeshInstance& m0, const MeshInstance& m1) const;
  double moved_since(const Patch& p, const Relative& X) const;
  void refresh(Patch& p, const MeshBvh& q_bvh, const Relative& X) const;
  // Appends the pairs (triangle t of P, triangle of Q) whose bounding boxes overlap in Q's frame.
  void list_pairs(int t, const TriangleMesh& p_mesh, const TriangleMesh& q_mesh,
                  const MeshBvh& q_bvh, const Relative& X, std::vector<CandidatePair>& out);
  bool beyond_plane(const Vec3& n, double d, const Vec3 (&p)[3]) const;
  bool beyond_plane(const Vec3& n, double d, const TriangleMesh& q, int b) const;
  // The triangles of Q whose leaf boxes meet grid cell (i, j, k), found once.
  const std::vector<int>& cell(const std::array<std::int64_t, 3>& ijk, const MeshBvh& q_bvh);

  int p_side_ = 0;  // which mesh is P
  double margin_;
  double slack_;      // rounding allowance on distances [m]
  double cell_size_;  // grid cells of Q [m]
  std::vector<Patch> patches_;
  std::vector<Box> q_boxes_;       // Q's triangles' bounding boxes, Q's frame
  std::vector<Vec3> q_normals_;    // (b − a) × (c − a) of Q's triangles, Q's frame
  std::vector<double> q_offsets_;  // their planes: normal · x = offset
  std::unordered_map<std::uint64_t, std::vector<int>> cells_;
  std::vector<std::uint64_t> seen_;  // per triangle of Q: the last query that listed it
  std::uint64_t query_ = 0;
  std::vector<int> scratch_;
};

}  // namespace cs::contact
