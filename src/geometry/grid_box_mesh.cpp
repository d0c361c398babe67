#include "clearsim/geometry/grid_box_mesh.hpp"

#include <map>
#include <stdexcept>

namespace cs {

TriangleMesh grid_box_mesh(const Vec3& size, const Eigen::Vector3i& cells) {
  if ((cells.array() < 1).any()) throw std::invalid_argument("grid_box_mesh: cells must be ≥ 1");
  TriangleMesh m;
  std::map<std::array<int, 3>, int> index;  // lattice point → vertex (welds face borders)
  auto vertex = [&](const std::array<int, 3>& g) {
    auto [it, added] = index.try_emplace(g, m.num_vertices());
    if (added) {
      Vec3 p;
      for (int a = 0; a < 3; ++a) p(a) = size(a) * (double(g[a]) / cells(a) - 0.5);
      m.vertices.push_back(p);
    }
    return it->second;
  };
  for (int a = 0; a < 3; ++a) {
    const int u = (a + 1) % 3, v = (a + 2) % 3;  // e_u × e_v = e_a
    for (int side = 0; side < 2; ++side) {
      for (int i = 0; i < cells(u); ++i)
        for (int j = 0; j < cells(v); ++j) {
          int q[4];
          const int corner[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
          for (int c = 0; c < 4; ++c) {
            std::array<int, 3> g{};
            g[a] = side * cells(a);
            g[u] = corner[c][0];
            g[v] = corner[c][1];
            q[c] = vertex(g);
          }
          if (side == 1) {  // outward +e_a: counter-clockwise in (u, v)
            m.triangles.push_back({q[0], q[1], q[2]});
            m.triangles.push_back({q[0], q[2], q[3]});
          } else {
            m.triangles.push_back({q[0], q[2], q[1]});
            m.triangles.push_back({q[0], q[3], q[2]});
          }
        }
    }
  }
  return m;
}

}  // namespace cs
