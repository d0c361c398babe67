// Narrow phase of mesh–mesh contact: which vertices of each mesh lie inside the other, how deep
// (signed distance to the nearest face, along its normal), grouped into contact regions.
//
// Rule (docs/ARCHITECTURE.md "Mesh contact"): FCL's BVHs give the intersecting triangle pairs;
// the vertices of those triangles seed a flood fill over each mesh's edges that keeps the
// vertices found inside the other mesh (closest point of the nearest face behind the vertex).
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

struct Region {
  std::vector<Penetration> points;
};

struct DetectionStats {
  int triangle_pairs = 0;   // intersecting triangle pairs (FCL)
  int vertices_tested = 0;  // nearest-face queries
  // Intersecting pairs with no vertex inside the other mesh: surfaces cross where no vertex
  // lies (edge–edge, or long triangles over the patch). Regions miss them; refine the meshes.
  int unresolved_pairs = 0;
};

// Vertex neighbours along edges (for the flood fill), built once per mesh.
std::vector<std::vector<int>> vertex_neighbours(const TriangleMesh& mesh);

std::vector<Region> find_regions(const MeshInstance& m0, const MeshInstance& m1,
                                 DetectionStats* stats = nullptr);

}  // namespace cs::contact
