// Maps element contributions into global vectors and matrices, and owns the coordinate layout:
// body b has generalized velocity columns [6b, 6b+6) = [v_W; w_B]; each independent constraint
// row has one multiplier. Redundant rows (found at the start of a run) are dropped, as
// commercial codes do, and reported; which rows are dropped may change along the motion
// (rechoose_rows), their number does not.
#pragma once

#include <Eigen/QR>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/assembly/matrix_sink.hpp"
#include "clearsim/model/model.hpp"
#include "clearsim/state/state.hpp"

namespace cs {

// A load held on a body from outside the model between steps (Simulation::apply_load): the
// generalized force of a point_load element with constant F_W and τ_W at the body point p_B.
struct ExternalLoad {
  int body = 0;
  Vec3 p_B = Vec3::Zero();    // application point, body frame, from the centre of mass [m]
  Vec3 F_W = Vec3::Zero();    // force, world frame [N]
  Vec3 tau_W = Vec3::Zero();  // torque, world frame [N·m]
};

class System {
 public:
  explicit System(const Model& model);

  const Model& model() const { return *model_; }
  int num_dofs() const { return model_->num_dofs(); }
  int num_constraints() const { return num_rows_; }  // independent rows only

  // Global row of element e's local row r, or −1 if the element has no such row or it was
  // removed as redundant.
  int global_row(int e, int r) const { return rows_[e].global[r]; }

  // Per-body poses and velocities from a state (ground excluded). Also takes the state's element
  // memory, which the following evaluations read (it changes only between steps, so every state
  // of one step carries the same).
  void gather(const State& s, std::vector<BodyKinematics>& kin) const;
  ElementInput input(int e, double t, const std::vector<BodyKinematics>& kin) const;

  // Φ, B, Φ_t, ζ of the independent rows; null / inactive outputs are skipped.
  void constraints(const std::vector<BodyKinematics>& kin, double t, VecX* phi, MatrixSink B,
                   VecX* phi_t, VecX* zeta) const;
  // Φ of the independent rows, Bᵀλ added to Btl and, with v, B v + Φ_t into Bv, without
  // assembling B (the residuals of an iteration whose matrix is not refreshed). With `only`
  // (a flag per element), the rows of the flagged elements alone: the others' Φ and B v + Φ_t
  // are left as they were and their Bᵀλ is not added.
  void constraint_products(const std::vector<BodyKinematics>& kin, double t, const VecX& lambda,
                           const VecX* v, VecX& phi, VecX& Btl, VecX* Bv,
                           const std::vector<char>* only = nullptr) const;
  // Adds ∂(Bᵀλ)/∂q.
  void constraint_tangent(const std::vector<BodyKinematics>& kin, double t, const VecX& lambda,
                          MatrixSink K) const;
  // Adds ∂(B v + Φ_t)/∂q at fixed v, the stabilized rows' position tangent: row r is vᵀ K_r
  // with K_r = ∂(B_rᵀ)/∂q, the element's constraint_tangent with a unit multiplier on r (Φ_t
  // is a function of t alone).
  void velocity_rows_tangent(const std::vector<BodyKinematics>& kin, double t, const VecX& v,
                             MatrixSink D) const;
  // Generalized forces f(q, v, t) of elements, gravity and the gyroscopic term −Ω × JΩ;
  // with active sinks also ∂f/∂q and ∂f/∂v. With `only` (a flag per element), of the flagged
  // elements alone besides the bodies' terms and the external loads.
  void forces(const std::vector<BodyKinematics>& kin, double t, VecX& f, MatrixSink df_dq,
              MatrixSink df_dv, const std::vector<char>* only = nullptr) const;
  // Adds scale·M.
  void mass(MatrixSink M) const;
  // y = M x.
  void mass_times(const VecX& x, VecX& y) const;

  double kinetic_energy(const std::vector<BodyKinematics>& kin) const;
  // ‖Φ‖∞ of the kept rows at the kinematics `kin` (0 without rows): the run's constraint check
  // and the system.constraint_violation channel.
  double constraint_violation(const std::vector<BodyKinematics>& kin, double t) const;
  double potential_energy(const std::vector<BodyKinematics>& kin, double t) const;

  // Finds redundant constraint rows at the given state (rank-revealing QR of Bᵀ), removes them
  // from the layout and returns one message per removed row.
  std::vector<std::string> remove_redundant_rows(const State& s);
  // Removes the rows `other` removed, a system of a model with the same elements and rows (the
  // same model with other numbers: a filter's plant built again at a new parameter estimate),
  // so that both keep the same independent set. False, and nothing changed, if the elements'
  // rows differ.
  bool remove_rows_as(const System& other);
  // Why the drivers cannot move the mechanism at s (a driver's rows dependent on the joints' and
  // the other drivers': locked or over-driven), naming the drivers; empty if they can.
  std::string conflicting_drivers(const State& s) const;

  // --- redundant rows along the motion ------------------------------------------------------
  // The rows kept at the start are independent near the start only: in an over-constrained
  // mechanism whose dependencies move (Bricard's, IFToMM A04: 30 rows of rank 29 throughout),
  // the kept set itself becomes singular later while the full set keeps its rank. The run loop
  // watches the kept set's conditioning and re-chooses it, same count, when it falls
  // (docs/coordinates-and-constraints.md, "Redundant constraints along the motion").
  //
  // Reciprocal condition estimate of the kept rows at `kin`: |R_mm| / |R_11| of the
  // column-pivoted QR of Bᵀ with unit rows; 1 if no row was removed or the model has more
  // than kDenseRowChoiceDofs velocity coordinates (no dense check).
  static constexpr int kDenseRowChoiceDofs = 300;
  double kept_rows_conditioning(const std::vector<BodyKinematics>& kin, double t) const;
  struct RowChoice {
    bool changed = false;       // another set of rows is kept now
    double conditioning = 0.0;  // of the rows kept now, as kept_rows_conditioning
    int full_rank = 0;          // numerical rank of all rows, kept and removed, at the state
    std::vector<std::string> now_kept, now_removed;  // rows that changed side, described
  };
  // Re-chooses the kept rows at s: the num_constraints() first pivots of the column-pivoted QR
  // of all rows (the best-conditioned choice greedy pivoting finds), taken only if their
  // conditioning exceeds `gain` times the current set's. The constraint forces Bᵀλ (and
  // impulses Bᵀλ_jump) are kept: s.lambda and s.lambda_jump are mapped to the new rows by
  // least squares, so reactions stay continuous.
  RowChoice rechoose_rows(State& s, double gain);

  // Takes every removed row back into the layout (the formulations that need no independent
  // set: ali3p and penalty, whose n × n matrix stays regular with dependent rows). s.lambda and
  // s.lambda_jump keep their values on the kept rows and are zero on the restored ones. Returns
  // the number of rows restored.
  int restore_removed_rows(State& s);

  // Elements' local multipliers (zeros for removed rows).
  void element_lambda(int e, const VecX& lambda, double* out) const;

  // "joint 'name' (revolute): axis alignment x_i·z_j" for a global row.
  std::string describe_row(int global_row) const;

  // For a failed step: the force element acting on `body` with the largest translational tangent
  // stiffness k = ‖∂F/∂x‖ at `kin` (element −1 if none is stiff there). A stiffness the step
  // cannot resolve, ω h ≫ 1 with ω = √(k/m_body), names the contact or spring to blame.
  struct StiffestForce {
    int element = -1;
    double stiffness = 0.0;  // [N/m]
  };
  // The closed contact with the fastest mode at `kin`, from Element::contact_rates with the
  // reduced mass 1/m = 1/m_i + 1/m_j (ground: infinite mass): the largest of ω = √(k/m) and the
  // damping rate c/m; element −1 if no contact is closed.
  struct FastestContact {
    int element = -1;
    double omega = 0.0;         // √(k/m) [rad/s]
    double damping_rate = 0.0;  // c/m [1/s]
    double rate() const { return std::max(omega, damping_rate); }
  };
  FastestContact fastest_contact(const std::vector<BodyKinematics>& kin, double t) const;
  StiffestForce stiffest_force(int body, const std::vector<BodyKinematics>& kin, double t) const;
  // "stiffest force on body 'b': kind 'name', stiffness k N/m, ω h = …" for a failed step of size
  // h from `start`, looking also at `last` (the step's last iterate, time start.t + h) when given:
  // a contact the iterations open and close may be loaded at only one of them. Empty if none.
  // Integrators end their failure reports with it, which the run loop finds by kStiffestForce.
  static constexpr const char* kStiffestForce = "stiffest force on body";
  std::string describe_stiffest_force(int body, const State& start,
                                      const std::vector<BodyKinematics>* last, double h) const;

  // --- loads from outside the model (Simulation::apply_load) --------------------------------
  // forces() adds them after every element, in the order their bodies were first loaded: one
  // per body, a second load on a body replaces the first. They are not part of the (immutable)
  // model: the stepping API changes them between steps.
  void set_external_load(const ExternalLoad& load);
  void clear_external_loads() { external_loads_.clear(); }
  const std::vector<ExternalLoad>& external_loads() const { return external_loads_; }
  // Σ |F·v_P + τ·ω_W| over the external loads at kin [W] (a source for the energy watch).
  double external_load_power(const std::vector<BodyKinematics>& kin) const;

  // --- element memory (Element::update_memory) ----------------------------------------------
  int num_memory() const { return num_memory_; }
  // Updates s.memory from the configuration of s, after an accepted step (and at t₀).
  void update_memory(State& s) const;
  // True if an element's memory reads its multipliers (Element::memory_reads_reactions).
  bool memory_reads_reactions() const { return memory_reads_reactions_; }

  // --- unilateral contacts -------------------------------------------------------------
  int num_gaps() const { return num_gaps_; }
  // Gaps g_N and their gradients G = ∂g_N/∂q (one row per gap).
  void gaps(const std::vector<BodyKinematics>& kin, double t, VecX* g, MatrixSink G) const;
  // Newton restitution coefficient and Coulomb friction coefficient of each gap.
  const VecX& restitution() const { return restitution_; }
  const VecX& friction() const { return friction_; }
  bool has_friction() const { return friction_.size() > 0 && friction_.maxCoeff() > 0.0; }
  // Tangential velocity rows (2 per gap) of the gaps with friction.
  void tangential(const std::vector<BodyKinematics>& kin, double t, MatrixSink T) const;
  // Velocity rows of the ideal joints that clearance joints stand for (Element::ideal_rows).
  int num_ideal_rows() const { return num_ideal_rows_; }
  void ideal_rows(const std::vector<BodyKinematics>& kin, double t, MatrixSink Q) const;
  // "spherical_clearance 'rod_slider': gap"
  std::string describe_gap(int k) const;
  // First global gap index of element e (its gaps are consecutive).
  int first_gap(int e) const { return gap_offset_[e]; }

  // Largest |Φ| over the rows removed as redundant, and which row it is. A removed row that
  // becomes violated means it was not structurally redundant (e.g. the run started at a
  // singular, dead-centre configuration) — the run must stop rather than ignore it.
  double removed_rows_violation(const std::vector<BodyKinematics>& kin, double t,
                                std::string* which = nullptr) const;
  bool has_removed_rows() const;

 private:
  // Calls fn(cb, r, g, ci, cj) for every kept row: the element's ConstraintBlock cb, its local
  // row r, global row g and the bodies' first columns (−1: ground); with `only`, of the flagged
  // elements alone. Defined in system.cpp, the one place that uses it.
  template <class RowFn>
  void for_each_constraint_row(const std::vector<BodyKinematics>& kin, double t, bool want_zeta,
                               RowFn&& fn, bool want_jacobian = true,
                               const std::vector<char>* only = nullptr) const;
  void layout();
  // Bᵀ of every constraint row, kept or removed, with unit rows, as columns (element order);
  // `which` receives each column's (element, local row).
  MatX all_rows_transposed(const std::vector<BodyKinematics>& kin, double t,
                           std::vector<std::pair<int, int>>& which) const;
  std::string row_name(int e, int r) const;
  double kept_conditioning_dense(const std::vector<BodyKinematics>& kin, double t) const;
  // True if [M Bᵀ; B 0] (B given as triplets) factors accurately: B has full row rank.
  bool saddle_is_regular(const std::vector<Eigen::Triplet<double>>& tB) const;
  struct ElementRows {
    int count = 0;
    std::vector<int> global;  // local row → global row or −1
    std::vector<bool> removed;
  };
  const Model* model_;
  std::vector<ElementRows> rows_;
  std::vector<int> constraint_elements_;  // elements with rows
  std::vector<int> force_elements_;       // elements with forces
  std::vector<int> gap_elements_;         // elements with unilateral gaps
  std::vector<int> gap_offset_;           // per element: first global gap index
  std::vector<int> ideal_row_elements_;   // elements standing for an ideal joint (ideal_rows)
  std::vector<int> memory_elements_;      // elements with memory
  bool memory_reads_reactions_ = false;
  std::vector<int> memory_offset_;  // per element: first index in State::memory, or −1
  int num_memory_ = 0;
  // The memory of the last gathered state (copied so no evaluation can see a dangling pointer).
  mutable VecX memory_;
  std::vector<ExternalLoad> external_loads_;
  VecX restitution_;  // per gap
  VecX friction_;     // per gap
  int num_gaps_ = 0;
  int num_ideal_rows_ = 0;
  int num_rows_ = 0;
  // Workspace of kept_rows_conditioning (called after every step of a redundant model).
  mutable MatX cond_B_;
  mutable Eigen::ColPivHouseholderQR<MatX> cond_qr_;
};

}  // namespace cs
