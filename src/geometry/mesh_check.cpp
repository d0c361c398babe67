#include "clearsim/geometry/mesh_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <unordered_map>

namespace cs {

namespace {

constexpr std::size_t kListedIndices = 10;  // indices shown per problem in messages

std::uint64_t edge_key(int a, int b) {  // undirected: smaller index first
  const auto lo = static_cast<std::uint64_t>(std::min(a, b));
  const auto hi = static_cast<std::uint64_t>(std::max(a, b));
  return (lo << 32) | hi;
}

struct EdgeUse {
  int forward = 0;   // triangles running along it from the smaller to the larger index
  int backward = 0;  // the other way
  std::array<int, 2> triangles{-1, -1};  // the first two triangles on it
};

using EdgeMap = std::unordered_map<std::uint64_t, EdgeUse>;

EdgeMap collect_edges(const TriangleMesh& mesh) {
  EdgeMap edges;
  edges.reserve(mesh.triangles.size() * 2);
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      if (a == b) continue;  // a degenerate triangle's collapsed edge
      EdgeUse& use = edges[edge_key(a, b)];
      const int uses = use.forward + use.backward;
      if (uses < 2) use.triangles[uses] = t;
      ++(a < b ? use.forward : use.backward);
    }
  }
  return edges;
}

// Does triangle t run along the edge from the smaller to the larger vertex index?
bool runs_forward(const std::array<int, 3>& tri, std::uint64_t key) {
  for (int k = 0; k < 3; ++k)
    if (edge_key(tri[k], tri[(k + 1) % 3]) == key) return tri[k] < tri[(k + 1) % 3];
  return false;
}

// Propagates an orientation over each connected patch of triangles (across edges shared by two)
// and lists the triangles that disagree with the majority of their patch: in a mesh with one
// flipped triangle, exactly that triangle.
void find_misoriented(const TriangleMesh& mesh, const EdgeMap& edges, MeshReport& report) {
  std::vector<int> sign(mesh.triangles.size(), 0), patch;
  for (int seed = 0; seed < mesh.num_triangles(); ++seed) {
    if (sign[seed] != 0) continue;
    patch.assign(1, seed);
    sign[seed] = 1;
    int flipped = 0;
    for (std::size_t next = 0; next < patch.size(); ++next) {
      const int t = patch[next];
      const auto& tri = mesh.triangles[t];
      for (int k = 0; k < 3; ++k) {
        if (tri[k] == tri[(k + 1) % 3]) continue;
        const std::uint64_t key = edge_key(tri[k], tri[(k + 1) % 3]);
        const EdgeUse& use = edges.at(key);
        if (use.forward + use.backward != 2) continue;  // open or non-manifold: reported apart
        const int n = use.triangles[0] == t ? use.triangles[1] : use.triangles[0];
        if (sign[n] != 0) continue;
        const bool same_direction = runs_forward(tri, key) == runs_forward(mesh.triangles[n], key);
        sign[n] = same_direction ? -sign[t] : sign[t];
        if (sign[n] < 0) ++flipped;
        patch.push_back(n);
      }
    }
    const int minority = 2 * flipped <= static_cast<int>(patch.size()) ? -1 : 1;
    for (int t : patch)
      if (sign[t] == minority) report.misoriented_triangles.push_back(t);
  }
  std::sort(report.misoriented_triangles.begin(), report.misoriented_triangles.end());
}

void check_edges(const TriangleMesh& mesh, MeshReport& report) {
  const EdgeMap edges = collect_edges(mesh);
  for (const auto& [key, use] : edges) {
    const std::array<int, 2> edge{static_cast<int>(key >> 32), static_cast<int>(key & 0xffffffffu)};
    const int uses = use.forward + use.backward;
    if (uses == 1) report.open_edges.push_back(edge);
    if (uses > 2) report.nonmanifold_edges.push_back(edge);
  }
  std::sort(report.open_edges.begin(), report.open_edges.end());
  std::sort(report.nonmanifold_edges.begin(), report.nonmanifold_edges.end());
  find_misoriented(mesh, edges, report);
}

bool is_degenerate(const TriangleMesh& mesh, int t, double relative_area_tolerance) {
  const auto& tri = mesh.triangles[t];
  if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0]) return true;
  const Vec3 &a = mesh.vertices[tri[0]], &b = mesh.vertices[tri[1]], &c = mesh.vertices[tri[2]];
  const double longest2 =
      std::max({(b - a).squaredNorm(), (c - b).squaredNorm(), (a - c).squaredNorm()});
  return face_area(mesh, t) <= relative_area_tolerance * longest2;
}

void check_triangles(const TriangleMesh& mesh, double tol, MeshReport& report) {
  std::map<std::array<int, 3>, int> first_with_vertices;
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    if (is_degenerate(mesh, t, tol)) report.degenerate_triangles.push_back(t);
    std::array<int, 3> sorted = mesh.triangles[t];
    std::sort(sorted.begin(), sorted.end());
    const auto [it, inserted] = first_with_vertices.emplace(sorted, t);
    if (!inserted) report.duplicated_triangles.push_back({it->second, t});
  }
}

template <class List>
std::string first_indices(const List& list) {
  std::ostringstream os;
  for (std::size_t k = 0; k < std::min(list.size(), kListedIndices); ++k) {
    if (k > 0) os << ", ";
    if constexpr (std::is_same_v<typename List::value_type, int>) {
      os << list[k];
    } else {
      os << '(' << list[k][0] << ' ' << list[k][1] << ')';
    }
  }
  if (list.size() > kListedIndices) os << ", ...";
  return os.str();
}

template <class List>
void add_problem(std::vector<std::string>& out, const List& list, const char* what) {
  if (list.empty()) return;
  std::ostringstream os;
  os << list.size() << ' ' << what << ": " << first_indices(list);
  out.push_back(os.str());
}

}  // namespace

MeshReport check_mesh(const TriangleMesh& mesh, double relative_area_tolerance) {
  MeshReport report;
  std::vector<char> used(mesh.vertices.size(), 0);
  for (const auto& tri : mesh.triangles)
    for (int v : tri) used[v] = 1;
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    if (!used[v]) ++report.unused_vertices;
    if (!mesh.vertices[v].allFinite()) report.nonfinite_vertices.push_back(v);
  }
  if (!report.nonfinite_vertices.empty()) return report;  // no geometry to measure
  check_edges(mesh, report);
  check_triangles(mesh, relative_area_tolerance, report);
  report.volume = mass_properties(mesh).volume;
  report.inward = report.closed() && report.consistently_oriented() && report.volume < 0.0;
  return report;
}

bool MeshReport::valid_solid() const { return problems().empty(); }

std::vector<std::string> MeshReport::problems() const {
  std::vector<std::string> out;
  add_problem(out, nonfinite_vertices,
              "vertices with a NaN or infinite coordinate (vertex indices)");
  add_problem(out, open_edges, "open edges, used by one triangle only (vertex pairs)");
  add_problem(out, nonmanifold_edges, "edges shared by more than two triangles (vertex pairs)");
  add_problem(out, misoriented_triangles,
              "triangles oriented against a neighbour (triangle indices)");
  add_problem(out, degenerate_triangles, "degenerate triangles of zero area (triangle indices)");
  add_problem(out, duplicated_triangles, "duplicated triangles (triangle index pairs)");
  if (inward) out.push_back("the normals point inward (the enclosed volume is negative)");
  if (nonfinite_vertices.empty() && closed() && volume == 0.0)
    out.push_back("the mesh encloses no volume");
  return out;
}

}  // namespace cs
