// Topology and quality checks of a triangle mesh, the ones a contact detector relies on: the mesh
// is closed (every edge shared by exactly two triangles), consistently oriented (the two
// triangles at an edge run along it in opposite directions), oriented outward (positive volume),
// and has no degenerate or duplicated triangles. Problems are listed with their indices.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/geometry/triangle_mesh.hpp"

namespace cs {

struct MeshReport {
  // Edges (vertex index pairs, smaller first) used by one triangle only: holes in the surface.
  std::vector<std::array<int, 2>> open_edges;
  // Edges used by three or more triangles.
  std::vector<std::array<int, 2>> nonmanifold_edges;
  // Triangles oriented against the majority of their connected patch (a neighbour across a
  // shared edge runs along it in the same direction): with one flipped triangle, that one.
  std::vector<int> misoriented_triangles;
  // Triangles with a repeated vertex or (numerically) zero area.
  std::vector<int> degenerate_triangles;
  // Pairs of triangles with the same three vertices (in any order), the first one listed first.
  std::vector<std::array<int, 2>> duplicated_triangles;
  std::vector<int> nonfinite_vertices;  // vertices with a NaN or infinite coordinate
  int unused_vertices = 0;              // vertices no triangle refers to (harmless)
  double volume = 0.0;                  // signed volume [m³] (mass_properties)
  bool inward = false;                  // closed, consistent, but the volume is negative

  bool closed() const { return open_edges.empty() && nonmanifold_edges.empty(); }
  bool consistently_oriented() const { return misoriented_triangles.empty(); }
  // Closed, consistently and outward oriented, no degenerate, duplicated or non-finite data.
  bool valid_solid() const;
  // One line per kind of problem, with the first few indices; empty when valid_solid().
  std::vector<std::string> problems() const;
};

// Checks `mesh`. A triangle is degenerate when its area is below `relative_area_tolerance` times
// the square of its longest edge (a sliver or a needle), or when it repeats a vertex index.
MeshReport check_mesh(const TriangleMesh& mesh, double relative_area_tolerance = 1e-10);

}  // namespace cs
