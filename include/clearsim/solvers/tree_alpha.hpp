// Generalized-α in joint coordinates, for open trees of revolute, prismatic and fixed joints
// (JointTree): the same scheme and Newton stop as GeneralizedAlpha, on the tree's coordinates q
// (a vector space, one angle or slide per joint) instead of the bodies' poses, with no joint rows:
//   q_{n+1} = q_n + h q̇_n + h²(½ − β) a_n + h²β a_{n+1}
//   q̇_{n+1} = q̇_n + h(1 − γ) a_n + hγ a_{n+1}
//   (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) q̈_{n+1} + α_f q̈_n
//   Jᵀ(M v̇ − f)(q_{n+1}, q̇_{n+1}, q̈_{n+1}, t_{n+1}) = 0,   v̇ = J q̈ + J̇ q̇.
// The residual is evaluated in O(bodies) by the tree's recursions; the iteration matrix
// A = Jᵀ(M + (γ′/β′)C_t + (1/β′)K_t)J (C_t = −∂f/∂v, K_t = −∂f/∂q; without the derivatives of J,
// which modified Newton can leave out) is dense, of the size of q, factorized when an iteration
// contracts slowly and kept across steps otherwise (modified Newton). The joint reactions are
// computed for the outputs only (complete_outputs).
#pragma once

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <string>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/integrator.hpp"
#include "clearsim/solvers/joint_tree.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

class TreeAlpha final : public Integrator {
 public:
  // The tree is built at the first step, whose start is its reference state.
  TreeAlpha(const System& sys, const SolverSettings& settings);

  // True if `sys` can run in joint coordinates with `settings` (generalized-α family, modified
  // Newton, solver.coordinates auto); otherwise false and why in `why`.
  static bool applies(const System& sys, const SolverSettings& settings, std::string* why);

  StepResult step(State& s, double h) override;
  int order() const override { return 2; }
  std::string name() const override { return "generalized-alpha (joint coordinates)"; }
  // Joint reactions λ of s (the step leaves them out).
  void complete_outputs(State& s) override;

 private:
  // Joint coordinates of s, with s as reference state if the tree has none yet.
  void start(State& s);
  // Kinematics, body accelerations, forces and the residual r_ = Jᵀ(M v̇ − f) at (q, q̇, q̈).
  void evaluate(double t, const VecX& q, const VecX& qd, const VecX& qdd);
  // Factorizes the iteration matrix at the last evaluation's kinematics, for step h.
  bool factor(double t, double h);
  void write_state(double t, State& s) const;
  double scaled_local_error(const State& x, const VecX& da, double h);

  const System& sys_;
  SolverSettings settings_;
  AlphaParameters p_;
  std::optional<JointTree> tree_;
  Eigen::PartialPivLU<MatX> lu_;
  double factored_h_ = -1.0;
  // Predictor history: q̈ at the start of the last accepted step, its size and end time.
  VecX qdd_hist_;
  double hist_h_ = 0.0, hist_end_t_ = -INFINITY;
  // Workspace.
  std::vector<BodyKinematics> kin_;
  VecX q_, qd_, qdd_, a_, r_, xi_, vdot_, f_, y_;
  MatX J_, A_;
  std::vector<Mat6> blocks_;
  std::vector<Eigen::Triplet<double>> tangents_, couplings_;
  Eigen::SparseMatrix<double> K_;
  State scratch_, zero_;
};

}  // namespace cs
