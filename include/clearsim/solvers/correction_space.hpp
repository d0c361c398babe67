// The coordinates in which the NSGA corrections (NonsmoothCorrection) work: the bodies' poses
// (6 per body, constant block-diagonal M, every joint a row) or a joint tree's coordinates
// (M̄ = JᵀMJ dense and configuration-dependent, rows only for the loops). The corrections' laws
// (active sets, Newton's impact law, the plastic fallback) are written once, in
// NonsmoothCorrection; a space supplies the rows, the metric and the configuration update.
#pragma once

#include <vector>

#include "clearsim/assembly/matrix_sink.hpp"
#include "clearsim/assembly/system.hpp"
#include "clearsim/state/state.hpp"

namespace cs {

class CorrectionSpace {
 public:
  virtual ~CorrectionSpace() = default;
  // Velocity coordinates n and bilateral rows m of the space.
  virtual int dofs() const = 0;
  virtual int rows() const = 0;
  // At the configuration of x: the bilateral rows Φ, Φ_t (Φ̇ = B v + Φ_t) and B (skipped when B is
  // null) and the gaps g, G (skipped when G is null), in this space's coordinates. Outputs are
  // resized here. The metric M of mass_times() is that of the last configuration evaluated.
  virtual void evaluate(const State& x, VecX* phi, VecX* phi_t, MatX* B, VecX* g, MatX* G) = 0;
  // M into S (rows and columns [0, n)).
  virtual void mass(MatrixSink S) const = 0;
  // Mx = M x.
  virtual void mass_times(const VecX& x, VecX& Mx) const = 0;
  // A positive weight per gap row of G, its inverse effective mass 1/r_j: it scales ν_j against
  // r_j g_j in the active-set rule, which changes the convergence, not the answer (reference.md
  // §1.3). Body poses: G_j M⁻¹ G_jᵀ.
  virtual void inverse_mass_weights(const MatX& G, VecX& w) = 0;
  // x's configuration = base's moved by U (velocity coordinates, rotations on the right).
  virtual void integrate(const State& base, const VecX& U, State& x) const = 0;
  // The velocities of x in this space.
  virtual VecX& velocity(State& x) const = 0;
  // True for body poses: M is the model's constant block-diagonal mass (MassSaddleSchur applies),
  // and the frictional paths, which work on body poses, are available.
  virtual bool body_poses() const { return false; }
};

// Body poses: System's coordinates, rows and constant block-diagonal mass.
class BodyPoseSpace final : public CorrectionSpace {
 public:
  explicit BodyPoseSpace(const System& sys);
  int dofs() const override { return sys_.num_dofs(); }
  int rows() const override { return sys_.num_constraints(); }
  void evaluate(const State& x, VecX* phi, VecX* phi_t, MatX* B, VecX* g, MatX* G) override;
  void mass(MatrixSink S) const override { sys_.mass(S); }
  void mass_times(const VecX& x, VecX& Mx) const override { sys_.mass_times(x, Mx); }
  void inverse_mass_weights(const MatX& G, VecX& w) override {
    block_weights(sys_, inv_inertia_, G, w);
  }
  void integrate(const State& base, const VecX& U, State& x) const override;
  VecX& velocity(State& x) const override { return x.v; }
  bool body_poses() const override { return true; }

  // G_j M⁻¹ G_jᵀ for rows G on the bodies' poses (6 per body), M⁻¹ = diag(I₃/m, J_B⁻¹) per body;
  // inv_inertia: J_B⁻¹ of each body.
  static void block_weights(const System& sys, const std::vector<Mat3>& inv_inertia, const MatX& G,
                            VecX& w);

 private:
  const System& sys_;
  std::vector<BodyKinematics> kin_;
  std::vector<Mat3> inv_inertia_;
};

}  // namespace cs
