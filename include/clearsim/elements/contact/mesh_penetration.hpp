// Narrow phase of mesh–mesh contact: which vertices of each mesh lie inside the other, how deep
// (signed distance to the nearest face, along its normal), grouped into contact regions.
//
// Rule (docs/contact-meshes-and-gears.md "Mesh contact"): FCL's BVHs give the intersecting
// triangle pairs; the vertices of those triangles seed a flood fill over each mesh's edges that
// keeps the vertices found inside the other mesh (closest point of the nearest face behind the
// vertex).
// Each inside vertex is a Penetration (vertex, face of the other mesh). Penetrations joined by a
// mesh edge, or whose triangles are an intersecting pair, form one region (union–find).
// Edge–edge crossings with no vertex inside are not seen (they vanish as the mesh is refined).
#pragma once

#include <array>
#include <vector>

#include "clearsim/geometry/mesh_bvh.hpp"
#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs::contact {

// One mesh as the detector reads it: the mesh, its hierarchy, its vertex neighbours, and its
// placement in the world at this configuration.
struct MeshInstance {
  const TriangleMesh* mesh = nullptr;
  const MeshBvh* bvh = nullptr;
  const std::vector<std::vector<int>>* neighbours = nullptr;  // per vertex, along edges
  MeshPose pose;                                              // mesh frame → world
};

struct Penetration {
  int side = 0;        // 0: a vertex of mesh 0 inside mesh 1; 1: a vertex of mesh 1 inside mesh 0
  int vertex = -1;     // vertex index in its own mesh
  int face = -1;       // nearest triangle of the other mesh
  double depth = 0.0;  // distance behind that face's plane [m], > 0
};

// A mesh edge from an inside vertex to one found outside the other mesh: where the region ends
// along that edge (mesh_contact.hpp interpolates the crossing from the two signed distances).
struct Crossing {
  int side = 0;                 // whose edge (as Penetration::side)
  int inside = -1;              // the inside end: index into Region::points
  int vertex = -1;              // the outside end, vertex index in its own mesh
  int face = -1;                // the outside end's nearest triangle of the other mesh
  Vec3 closest = Vec3::Zero();  // its closest point on that triangle, other mesh's frame [m]
};

struct Region {
  std::vector<Penetration> points;
  std::vector<Crossing> crossings;  // every edge leaving the region's inside vertices
};

struct DetectionStats {
  int triangle_pairs = 0;   // intersecting triangle pairs (FCL)
  int vertices_tested = 0;  // nearest-face queries
  // Intersecting pairs with no vertex inside the other mesh: surfaces cross where no vertex
  // lies (edge–edge, or long triangles over the patch). Regions miss them; refine the meshes.
  int unresolved_pairs = 0;
  // Candidate reuse (ContactCandidates): pairs held, whether they were rebuilt for this call.
  int candidate_pairs = 0;
  bool candidates_rebuilt = false;
  // Patch tracking (PatchTracker): patches whose clearance was measured again, and of those
  // the ones tested triangle by triangle (within the margin).
  int patches_refreshed = 0;
  int patches_tested = 0;
};

// Vertex neighbours along edges (for the flood fill), built once per mesh.
std::vector<std::vector<int>> vertex_neighbours(const TriangleMesh& mesh);

std::vector<Region> find_regions(const MeshInstance& m0, const MeshInstance& m1,
                                 DetectionStats* stats = nullptr);
// The same from given intersecting triangle pairs (pair[0] of m0, pair[1] of m1).
std::vector<Region> find_regions(const MeshInstance& m0, const MeshInstance& m1,
                                 const std::vector<std::array<int, 2>>& pairs,
                                 DetectionStats* stats = nullptr);

// Reuse of the broad phase between evaluations while the meshes' relative pose stays close.
//
// Built at a relative pose X₀ with a margin m: every triangle pair within distance m
// (MeshBvh::triangles_within). One mesh (the one with the larger root box, P) is cut into its
// hierarchy's boxes at kPartitionDepth; a box is "near" if it comes within D = kFarFactor·m of
// one of the other mesh's boxes at kReferenceDepth, "far" otherwise. At a later pose X, u(q) is
// the displacement of P's point q relative to the other mesh between X₀ and X (an affine
// function of q, so its norm is largest at a box corner). Guarantee: if u ≤ m on every near box
// and u ≤ D on every far box, every triangle pair that intersects at X is a candidate (a pair
// not held was farther apart than m at X₀ and neither triangle moved by m relative to the
// other; a far box's triangles were farther than D from the whole other mesh), and a held pair
// whose distance at X₀ exceeds max u cannot intersect. The pairs returned are then exactly
// MeshBvh::intersecting_triangles' (same FCL triangle test), so regions and forces are those
// of the full detection. Otherwise the candidates are rebuilt at X.
class ContactCandidates {
 public:
  static constexpr int kPartitionDepth = 8;
  static constexpr int kReferenceDepth = 5;
  static constexpr double kFarFactor = 8.0;

  ContactCandidates(const MeshBvh& bvh0, const MeshBvh& bvh1, double margin);
  // Intersecting triangle pairs (of mesh 0, of mesh 1) at m0's and m1's poses.
  std::vector<std::array<int, 2>> intersecting(const MeshInstance& m0, const MeshInstance& m1,
                                               DetectionStats* stats = nullptr);
  double margin() const { return margin_; }

 private:
  using Relative = RelativePose;  // P's frame in the other mesh's (mesh_bvh.hpp)
  Relative relative(const MeshInstance& m0, const MeshInstance& m1) const;
  void rebuild(const MeshInstance& m0, const MeshInstance& m1, const Relative& X);
  // Largest displacement of P's near (far) box corners since the build.
  std::pair<double, double> displacement(const Relative& X) const;

  const MeshBvh* bvh_[2];
  double margin_;
  int partitioned_ = 1;  // P: the side whose boxes are checked
  std::vector<MeshBox> boxes_;
  std::vector<std::array<Vec3, 8>> corners_;
  std::vector<char> near_;
  std::vector<MeshBox> reference_boxes_;
  bool built_ = false;
  Relative built_at_;
  std::vector<CandidatePair> pairs_;
};

}  // namespace cs::contact
