// The one interface through which every solver drives every element (DESIGN.md "One element
// interface"). An element touches at most two bodies, i and j (either may be ground). Its local
// generalized coordinates are 12 right-trivialized increments
//   δq_loc = [δx_i (world), δΘ_i (body i), δx_j (world), δΘ_j (body j)],
// matching the body velocity layout [v_W; w_B]. Ground columns are dropped by the assembly.
//
// Sign conventions (reference.md §0): the equations of motion are M v̇ = f − Bᵀλ, so a generalized
// force block f is what the element applies to the bodies, and the constraint reaction on the
// bodies is −Bᵀλ.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "clearsim/math/body_kinematics.hpp"
#include "clearsim/math/types.hpp"
#include "clearsim/model/body.hpp"

namespace cs {

struct ElementInput {
  double t = 0.0;  // time [s]
  const BodyKinematics* i = nullptr;
  const BodyKinematics* j = nullptr;
  // The element's own memory (num_memory() values, see Element::update_memory) as it was after
  // the last accepted step; nullptr if it has none.
  const double* memory = nullptr;
  // This element's constraint multipliers after the step (num_constraints() values), given to
  // update_memory only, and only where the run knows them; nullptr otherwise.
  const double* lambda = nullptr;
};

// Up to 6 bilateral constraint rows. Rows [0, m) are meaningful.
struct ConstraintBlock {
  static constexpr int kMaxRows = 6;
  int m = 0;
  // Zero from the start, so that a block whose B and ζ are not asked for holds numbers.
  Eigen::Matrix<double, kMaxRows, 1> phi = decltype(phi)::Zero();      // Φ(q, t)
  Eigen::Matrix<double, kMaxRows, 12> B = decltype(B)::Zero();         // ∂Φ/∂q_loc
  Eigen::Matrix<double, kMaxRows, 1> phi_t = decltype(phi_t)::Zero();  // ∂Φ/∂t: Φ̇ = B v + Φ_t
  Eigen::Matrix<double, kMaxRows, 1> zeta = decltype(zeta)::Zero();  // Φ̈ − B v̇ (v² and t terms)
  // Set by the caller: false when ζ is not needed (elements may then leave it at zero).
  bool want_zeta = true;
  // Set by the caller: false when only Φ and Φ_t are needed (the ‖Φ‖ of output points, Φ
  // checks); B and ζ are then not read, and elements may leave them as they are.
  bool want_jacobian = true;
  void reset(int rows) {
    m = rows;
    phi.setZero();
    phi_t.setZero();
    if (!want_jacobian) return;
    B.setZero();
    zeta.setZero();
  }
};

// Up to 4 unilateral contacts (gaps). Rows [0, p) are meaningful.
struct GapBlock {
  static constexpr int kMaxGaps = 4;
  int p = 0;
  Eigen::Matrix<double, kMaxGaps, 1> g;   // gap g_N [m], > 0 when open, 0 at contact
  Eigen::Matrix<double, kMaxGaps, 12> G;  // ∂g_N/∂q_loc (its transpose maps Λ_N to forces)
  // Tangential relative velocity at contact k along two unit directions ⟂ the normal:
  // v_T = T.middleRows<2>(2k) v_loc (filled by elements whose friction coefficient is > 0).
  Eigen::Matrix<double, 2 * kMaxGaps, 12> T;
  void reset(int count) {
    p = count;
    g.setZero();
    G.setZero();
    T.setZero();
  }
};

// What a spanning tree of joint coordinates needs of a joint it carries (solvers/joint_tree.hpp):
// its kind and its two markers (the axis is the markers' z; the parent's marker origin lies on
// the axis or is the centre).
struct TreeJointSpec {
  enum class Kind { kRevolute, kPrismatic, kFixed, kSpherical };
  Kind kind = Kind::kFixed;
  Marker marker_i, marker_j;
};

// A driver's one row θ(q) − θ_d(t) of the relative rotation (or slide) about the axis between
// its two bodies: what joint coordinates can hold in the coordinate itself.
enum class DrivenMotion { kNone, kRotation, kSlide };

class Element {
 public:
  Element(std::string name, int body_i, int body_j)
      : name_(std::move(name)), bodies_{body_i, body_j} {}
  virtual ~Element() = default;
  Element(const Element&) = delete;
  Element& operator=(const Element&) = delete;

  const std::string& name() const { return name_; }
  // Body indices touched (kGround for the fixed frame).
  int body_i() const { return bodies_[0]; }
  int body_j() const { return bodies_[1]; }
  // Short kind tag for messages and docs ("revolute", "spring_damper", ...).
  virtual std::string kind() const = 0;

  // --- bilateral constraints --------------------------------------------------------------
  virtual int num_constraints() const { return 0; }
  // Fills Φ, B, Φ_t, ζ at (q, v, t).
  virtual void constraint(const ElementInput&, ConstraintBlock&) const {}
  // K = ∂(Bᵀλ)/∂q_loc for the multipliers λ (size num_constraints()), added to K_out.
  virtual void constraint_tangent(const ElementInput&, const double* /*lambda*/,
                                  Mat12& /*K_out*/) const {}
  // Human-readable meaning of constraint row r (for redundancy and failure diagnostics).
  virtual std::string constraint_row_name(int r) const { return "row " + std::to_string(r); }

  // --- unilateral contacts (treated as constraints by the nonsmooth integrator) -------------
  // Gaps g_N(q) ≥ 0 with their gradients. The contact impulse Λ_N ≥ 0 acts on the bodies as
  // +Gᵀ Λ_N (it opens the gap).
  virtual int num_gaps() const { return 0; }
  virtual void gaps(const ElementInput&, GapBlock&) const {}
  // Newton restitution coefficient e_N ∈ [0, 1] of gap k.
  virtual double restitution(int /*k*/) const { return 0.0; }
  virtual std::string gap_name(int k) const { return "gap " + std::to_string(k); }
  // Coulomb friction coefficient μ ≥ 0 of gap k (0: frictionless, T rows unused).
  virtual double friction(int /*k*/) const { return 0.0; }
  // Velocity rows of the ideal joint a clearance joint stands for (only B is used): the
  // initial-velocity assembly makes a clearance joint start moving as its ideal joint.
  virtual int num_ideal_rows() const { return 0; }
  virtual void ideal_rows(const ElementInput&, ConstraintBlock&) const {}

  // --- smooth forces ------------------------------------------------------------------------
  virtual bool has_force() const { return false; }
  // Adds f (and, when `tangents`, ∂f/∂q and ∂f/∂v) to `out`.
  virtual void force(const ElementInput&, ForceBlock& /*out*/, bool /*tangents*/) const {}
  virtual double potential_energy(const ElementInput&) const { return 0.0; }
  // Normal stiffness dF_N/dδ [N/m] and damping dF_N/dδ̇ [N·s/m] of the element's closed
  // contacts at this state (the largest over its points, or their sum where they act in
  // parallel; 0 if none): what bounds an explicit scheme's step (ω = √(k/m) and c/m against h).
  struct ContactRates {
    double stiffness = 0.0;
    double damping = 0.0;
  };
  virtual ContactRates contact_rates(const ElementInput&) const { return {}; }

  // Where the element attaches to its bodies (marker origins on body i, then body j): what a
  // drawing of the mechanism links to each body's centre (io/vtk_series.hpp).
  virtual std::vector<Marker> attachments() const { return {}; }

  // --- capabilities the solvers ask for (never what an element is) ------------------------
  // A joint that joint coordinates can carry in a spanning tree; nullopt if it keeps its rows.
  virtual std::optional<TreeJointSpec> tree_joint() const { return std::nullopt; }
  // kRotation/kSlide if the element's single row is θ(q) − θ_d(t) about its markers' axis, with
  // θ_d = driven_target(t) and θ̇_d = driven_target_rate(t).
  virtual DrivenMotion driven_motion() const { return DrivenMotion::kNone; }
  virtual double driven_target(double /*t*/) const { return 0.0; }
  virtual double driven_target_rate(double /*t*/) const { return 0.0; }
  // True if the rows depend on time explicitly (Φ_t ≠ 0): their reactions do work on the bodies
  // (drivers). The energy watch counts that work as a source.
  virtual bool rows_depend_on_time() const { return false; }
  // True if the element feeds power into the mechanism from outside (loads, motor torques):
  // delivered_power is that power [W]. The energy watch counts its work as a source.
  virtual bool delivers_power() const { return false; }
  virtual double delivered_power(const ElementInput&) const { return 0.0; }

  // --- element memory ---------------------------------------------------------------------
  // Values an element remembers between steps (the approach speed at contact onset, a bristle's
  // anchor points, ...). They live in State::memory, are read (constant) during a step through
  // ElementInput::memory, and are updated only after a step is accepted — so a rejected or
  // split step leaves them untouched (DESIGN.md "Element state lives in State").
  virtual int num_memory() const { return 0; }
  // Called after each accepted step (and once at t₀) with the new configuration; reads the old
  // values through in.memory and writes the new ones to `memory` (the same slot).
  virtual void update_memory(const ElementInput& /*in*/, double* /*memory*/) const {}
  // True if update_memory reads the element's multipliers (in.lambda): the run then completes
  // them after every accepted step, as it does for output (a joint's reaction as a load).
  virtual bool memory_reads_reactions() const { return false; }

  // --- output channels ----------------------------------------------------------------------
  // Quantity names this element publishes, e.g. "torque", "force.x".
  virtual std::vector<std::string> channel_names() const { return {}; }
  // Value of channel k; `lambda` are this element's multipliers (nullptr if none).
  virtual double channel_value(int /*k*/, const ElementInput&, const double* /*lambda*/) const {
    return 0.0;
  }
  // Channels k[0..n) into out[0..n): the same values as channel_value, for elements whose
  // channels share work (a clearance joint's journal) to do it once.
  virtual void channel_values(const int* k, int n, const ElementInput& in, const double* lambda,
                              double* out) const {
    for (int i = 0; i < n; ++i) out[i] = channel_value(k[i], in, lambda);
  }

 private:
  std::string name_;
  std::array<int, 2> bodies_;
};

}  // namespace cs
