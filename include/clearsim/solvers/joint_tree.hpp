// Joint coordinates of a spanning tree: ideal joints (revolute, prismatic, fixed, spherical)
// that connect every body to ground along exactly one path. One coordinate per revolute (angle θ
// about the joint axis) and prismatic (slide s along it) joint, none for a fixed one, and a
// rotation Q ∈ SO(3) with 3 velocity coordinates (the relative angular velocity, child frame) per
// spherical one; every pose these coordinates give satisfies the tree's joints exactly, so they
// need no rows and no multipliers. Coordinates are measured from a reference state (θ = s = 0,
// Q = I there). The other constraint elements — joints that close loops, drivers — keep their
// rows (loop_elements()).
//
// Recursive in the tree's order (parents before children), O(bodies) each:
//   kinematics   poses, body velocities v = J(q) q̇ and accelerations v̇ = J q̈ + J̇ q̇;
//   J-transpose  generalized forces Jᵀ y of body forces y (the subtrees' wrenches, projected on
//                each joint's axis);
//   reactions    each joint's multipliers λ from the wrench its subtree needs.
// The velocities are System's: per body [v_W; Ω_B] (centre of mass, world; body frame).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/state/state.hpp"

namespace cs {

class JointTree {
 public:
  // The tree of `sys` with `ref` as reference state (its poses are q = 0), or nullopt and the
  // reason in `why` if the bodies cannot all be reached from ground through revolute, prismatic,
  // fixed and spherical joints, or the model has contacts or element memory.
  static std::optional<JointTree> build(const System& sys, const State& ref, std::string* why);

  // Velocity coordinates (3 per spherical joint).
  int num_coordinates() const { return num_coords_; }
  int num_bodies() const { return static_cast<int>(links_.size()); }
  // The first velocity coordinate of each spherical joint's rotation, in the order of the
  // rotations passed to kinematics().
  const std::vector<int>& rotation_slots() const { return rotation_slots_; }
  // The coordinate of the revolute (rotation) or prismatic (slide) tree joint between bodies a and
  // b, either way round; −1 if no such joint is in the tree.
  int coordinate_between(int a, int b, bool rotation) const;
  // The body that velocity coordinate k moves relative to its parent.
  int body_of_coordinate(int k) const;
  // Constraint elements outside the tree (closing joints, drivers), and their row count.
  const std::vector<int>& loop_elements() const { return loop_elements_; }
  int num_loop_rows() const { return num_loop_rows_; }

  // Poses and velocities of every body at joint coordinates q (the scalar joints' entries; the
  // spherical ones' are unused), rotations Q and rates qd, into kin (sized by the caller).
  void kinematics(const VecX& q, const std::vector<Mat3>& Q, const VecX& qd,
                  std::vector<BodyKinematics>& kin) const;
  // The next three work at the configuration of the last kinematics() call, `kin`.
  // Body accelerations v̇ = J q̈ + J̇ q̇ (6 per body).
  void accelerations(const std::vector<BodyKinematics>& kin, const VecX& qd, const VecX& qdd,
                     VecX& vdot) const;
  // y_red = Jᵀ y of body forces y (6 per body, [F_W; τ_B about the centre of mass]).
  void transpose_times(const std::vector<BodyKinematics>& kin, const VecX& y, VecX& y_red) const;
  // J (6·bodies × coordinates).
  void jacobian(const std::vector<BodyKinematics>& kin, MatX& J) const;
  // A = Jᵀ D J for body-diagonal 6 × 6 blocks D (System's coordinates, e.g. the mass and
  // the body-diagonal force tangents), by composite blocks summed up the tree (the composite-
  // rigid-body algorithm): O(bodies · depth), no J formed.
  void project_blocks(const std::vector<BodyKinematics>& kin, const std::vector<Mat6>& D,
                      MatX& A) const;
  // One link of the tree as the recursive (articulated-body) algorithms see it: spatial
  // quantities about the world origin in world axes, motions (ω; v_O), so that no transform is
  // needed between a body and its parent.
  struct SpatialLink {
    int body = 0;
    int parent_link = -1;           // −1: hangs from ground
    int coord = 0;                  // first velocity coordinate (unused when ncols = 0)
    int ncols = 0;                  // 0 fixed, 1 revolute or prismatic, 3 spherical
    Eigen::Matrix<double, 6, 3> S;  // motion columns (ω; v_O) of the joint's coordinates
    Mat6 I_O;                       // the body's block X_bᵀ D_b X_b about the origin
  };
  // Per link, parents before children: the links of `kin` with the blocks D (System's body
  // coordinates [v_W; Ω_B]) moved to the origin. A = Jᵀ D J is then, for link l and each ancestor
  // k, A(l, l) = S_lᵀ C_l S_l, A(k, l) = S_kᵀ C_l S_l, A(l, k) = S_lᵀ C_l S_k with C_l the sum of
  // I_O over l's subtree.
  void spatial_links(const std::vector<BodyKinematics>& kin, const std::vector<Mat6>& D,
                     std::vector<SpatialLink>& out) const;
  // Joint rates of the body velocities of `kin` (exact where they come from joint rates).
  void rates(const std::vector<BodyKinematics>& kin, VecX& qd) const;
  // The multipliers of the tree joints' rows (System's global rows; the other rows of lambda are
  // left as they are) for which the bodies move with accelerations vdot under forces f, which
  // must include the loop rows' forces −B_loopᵀλ_loop: M v̇ − f + Bᵀλ = 0 body by body.
  void reactions(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                 const VecX& vdot, const VecX& f, VecX& lambda) const;
  // The geometric stiffness of the joints' tension, the term (∂Jᵀ/∂q)·y of the joint-coordinate
  // residual Jᵀy that the iteration matrix Jᵀ D J leaves out, as body-diagonal blocks added to
  // K: J(q)ᵀB(q)ᵀ ≡ 0 for the tree joints' rows B, so where the bodies' M v̇ − f is held by
  // their reactions λ (y = −Bᵀλ, reactions()), (∂Jᵀ/∂q)·y = Jᵀ K_c J with K_c = ∂(Bᵀλ)/∂q at
  // fixed λ, the joints' constraint tangent, body-diagonal for the point rows of spherical,
  // revolute and prismatic joints (their few blocks between two bodies are left out). `lambda`
  // holds the loop rows' multipliers (their forces are in f, as for reactions()) and receives
  // the tree rows'; the loops' own K_c is added too. K is scaled by `scale` and accumulated.
  void add_geometric_stiffness(const System& sys, const std::vector<BodyKinematics>& kin, double t,
                               const VecX& vdot, const VecX& f, VecX& lambda, double scale,
                               std::vector<Mat6>& K) const;

 private:
  enum class Kind { kRevolute, kPrismatic, kFixed, kSpherical };
  // The joint that carries a body, in the parent's frame (ground: world).
  struct Link {
    int body = 0;
    int parent = kGround;
    int element = 0;
    Kind kind = Kind::kFixed;
    int coord = -1;     // index of θ or s, or the first of a rotation's 3; −1 for a fixed joint
    int rotation = -1;  // spherical: index of its rotation Q
    Vec3 axis_P;        // unit joint axis
    Vec3 anchor_P;      // a point on the axis, from the parent's centre of mass
    Mat3 R_rel;         // child orientation at q = 0, relative to the parent
    Vec3 offset_rel;    // child centre of mass from the anchor at q = 0 (spherical: child frame)
    // Revolute: K = skew(axis_P); R(θ) R_rel = R_rel + sin θ K R_rel + (1 − cos θ) K² R_rel, and
    // likewise for the offset.
    Mat3 KR, K2R;
    Vec3 Ko, K2o;
  };
  // The link of `child` below `parent` through `joint` (element e), its coordinates numbered after
  // those taken so far, with its constants at the reference poses `kin`.
  Link make_link(const TreeJointSpec& joint, int e, int parent, int child,
                 const std::vector<BodyKinematics>& kin);
  std::vector<Link> links_;  // parents before children
  // Per body: the coordinates on its path to ground (for J).
  std::vector<std::vector<int>> path_links_;
  int num_coords_ = 0;
  std::vector<int> rotation_slots_, loop_elements_;
  int num_loop_rows_ = 0;
  // Pose and velocity of link l's body from its parent's (kinematics()).
  template <bool kOnGround>
  void place(const Link& L, int l, const VecX& q, const std::vector<Mat3>& Q, const VecX& qd,
             std::vector<BodyKinematics>& kin) const;
  // The motion of link l's coordinate k ∈ [0, 3) (revolute, prismatic: k = 0) as a world axis
  // and whether it turns (axis through the anchor) or slides.
  Vec3 motion_axis(int l, int k, const std::vector<BodyKinematics>& kin) const;
  mutable std::vector<Vec3> work_f_, work_n_;  // subtree wrenches of transpose_times/reactions
  // Per link, from the last kinematics(): joint axis and anchor (world); per body: Ω (world).
  mutable std::vector<Vec3> axis_W_, anchor_W_, w_W_;
  mutable std::vector<SpatialLink> spatial_;  // project_blocks: per link, C_l summed in I_O
  std::vector<int> link_of_;                  // per body: the link that carries it
};

}  // namespace cs
