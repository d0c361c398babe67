// Measures what FCL's own mesh–mesh contact reports for a sphere mesh pressed δ into a plane mesh
// (the figures quoted in docs/contact-meshes-and-gears.md "Mesh contact"). Not part of the build:
//   g++ -std=c++20 -O2 -I include -isystem /usr/include/eigen3 bench/tools/fcl_contact_depth.cpp \
//       build/mc/libclearsim.a -lfcl -o /tmp/fcl_contact_depth && /tmp/fcl_contact_depth
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/narrowphase/collision.h>

#include <cstdio>

#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
using namespace cs;
std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> bvh(const TriangleMesh& m) {
  auto b = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
  std::vector<fcl::Triangle> t;
  for (auto& x : m.triangles) t.emplace_back(x[0], x[1], x[2]);
  b->beginModel();
  b->addSubModel(m.vertices, t);
  b->endModel();
  return b;
}
int main() {
  const double r = 0.05;
  for (int cells : {4, 64})
    for (int s : {3, 4})
      for (double d : {2e-4, 1e-3, 4e-3}) {
        auto sp = bvh(sphere_mesh(r, s));
        auto pl = bvh(grid_box_mesh(Vec3(1, 1, 0.1), {cells, cells, 1}));
        fcl::Transform3d Ts = fcl::Transform3d::Identity(), Tp = fcl::Transform3d::Identity();
        Ts.translation() = Vec3(0.013, -0.021, r - d);
        Tp.translation() = Vec3(0, 0, -0.05);
        fcl::CollisionRequestd req(100000, true);
        fcl::CollisionResultd res;
        fcl::collide(sp.get(), Ts, pl.get(), Tp, req, res);
        double dmin = 1e9, dmax = 0, nz = 0;
        int n = res.numContacts();
        for (int k = 0; k < n; ++k) {
          auto& c = res.getContact(k);
          dmin = std::min(dmin, c.penetration_depth);
          dmax = std::max(dmax, c.penetration_depth);
          nz += std::abs(c.normal.z());
        }
        std::printf(
            "plane %3d cells, sphere s=%d, delta=%.1e: %4d contacts, depth min %.3e max %.3e (true "
            "%.1e), mean |n_z| %.3f\n",
            cells, s, d, n, dmin, dmax, d, n ? nz / n : 0.0);
      }
}
