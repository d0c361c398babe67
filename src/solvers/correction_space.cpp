#include "clearsim/solvers/correction_space.hpp"

#include "clearsim/solvers/configuration.hpp"

namespace cs {

BodyPoseSpace::BodyPoseSpace(const System& sys) : sys_(sys) {
  for (const Body& b : sys.model().bodies) inv_inertia_.push_back(b.inertia_B.inverse());
}

void BodyPoseSpace::evaluate(const State& x, VecX* phi, VecX* phi_t, MatX* B, VecX* g, MatX* G) {
  // One pass over the elements gives Φ, Φ_t and B together (a kernel computes all of them at
  // once, so separate passes would pay twice).
  const int n = sys_.num_dofs(), m = sys_.num_constraints(), p = sys_.num_gaps();
  sys_.gather(x, kin_);
  if (B != nullptr) {
    B->setZero(m, n);
    phi->resize(m);
    phi_t->resize(m);
    sys_.constraints(kin_, x.t, phi, MatrixSink(B), phi_t, nullptr);
  }
  if (G != nullptr) {
    G->setZero(p, n);
    g->resize(p);
    if (p > 0) sys_.gaps(kin_, x.t, g, MatrixSink(G));
  }
}

void BodyPoseSpace::block_weights(const System& sys, const std::vector<Mat3>& inv_inertia,
                                  const MatX& G, VecX& w) {
  const Model& model = sys.model();
  w.setZero(G.rows());
  for (Eigen::Index j = 0; j < G.rows(); ++j) {
    for (int b = 0; b < model.num_bodies(); ++b) {
      w(j) += G.row(j).segment<3>(6 * b).squaredNorm() / model.bodies[b].mass;
      const Vec3 gr = G.row(j).segment<3>(6 * b + 3).transpose();
      w(j) += gr.dot(inv_inertia[b] * gr);
    }
  }
}

void BodyPoseSpace::integrate(const State& base, const VecX& U, State& x) const {
  integrate_configuration(base, U, x);
}

}  // namespace cs
