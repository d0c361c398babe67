// Ideal (bilateral) joints between a marker on body i and a marker on body j, each composed of the
// basic constraints of constraint_primitives.hpp. The joint frame is the marker frame: z is the
// joint axis (revolute, cylindrical, prismatic), the plane normal (planar), or the first cross
// axis (universal, whose second axis is marker j's z).
//
// | type        | rows | equations                                              |
// |-------------|------|--------------------------------------------------------|
// | spherical   | 3    | p_j − p_i = 0                                          |
// | revolute    | 5    | point, x_i·z_j = 0, y_i·z_j = 0                        |
// | universal   | 4    | point, z_i·z_j = 0                                     |
// | cylindrical | 4    | x_i·z_j, y_i·z_j, x_i·d, y_i·d  (d = p_j − p_i)        |
// | prismatic   | 5    | cylindrical + x_i·y_j = 0                              |
// | planar      | 3    | z_i·d, z_i·x_j, z_i·y_j                                |
// | fixed       | 6    | point, y_i·z_j, z_i·x_j, x_i·y_j                       |
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "clearsim/elements/element.hpp"
#include "clearsim/elements/joints/joint_bearing_loss.hpp"
#include "clearsim/model/body.hpp"

namespace cs::joints {

enum class JointType {
  kFixed,
  kSpherical,
  kRevolute,
  kUniversal,
  kCylindrical,
  kPrismatic,
  kPlanar
};

const char* to_string(JointType t);

// One scalar basic constraint (dot-1 or dot-2) in marker axes, or the 3-row point coincidence.
struct PrimitiveRow {
  enum class Kind { kPoint, kDot1, kDot2 } kind;
  int axis_i = 0;  // marker-i axis index (0 = x, 1 = y, 2 = z) for dot-1/dot-2
  int axis_j = 0;  // marker-j axis index for dot-1
  const char* meaning = "";
};

class IdealJoint final : public Element {
 public:
  IdealJoint(std::string name, JointType type, Marker marker_i, Marker marker_j);

  std::string kind() const override { return to_string(type_); }
  JointType type() const { return type_; }
  const Marker& marker_i() const { return mi_; }
  std::vector<Marker> attachments() const override { return {mi_, mj_}; }
  const Marker& marker_j() const { return mj_; }
  // Revolute, prismatic, fixed and spherical joints can be carried by joint coordinates.
  std::optional<TreeJointSpec> tree_joint() const override;

  int num_constraints() const override { return rows_; }
  void constraint(const ElementInput& in, ConstraintBlock& out) const override;
  void constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const override;
  std::string constraint_row_name(int r) const override;

  // Reaction on body j: force (world) and moment about the marker-j origin (world); with a
  // bearing loss model also "friction_torque" T_J [N·m] (on body j about +z), "power_loss" [W]
  // (−T_J θ̇ ≥ 0), "bearing_load" W [N] and "eccentricity_ratio" (the steady ε carrying it).
  std::vector<std::string> channel_names() const override;
  double channel_value(int k, const ElementInput& in, const double* lambda) const override;

  // --- bearing loss model (joint_bearing_loss.hpp), revolute and cylindrical only ----------
  // Throws std::invalid_argument for a joint that cannot rotate about its axis.
  void set_bearing_loss(JointBearingLoss loss);
  const std::optional<JointBearingLoss>& bearing_loss() const { return loss_; }
  bool has_force() const override { return loss_.has_value(); }
  void force(const ElementInput& in, ForceBlock& out, bool tangents) const override;
  // The load W [N] (joint_bearing_loss.hpp): [t of the last update, W before it, W after it].
  int num_memory() const override { return loss_ ? 3 : 0; }
  void update_memory(const ElementInput& in, double* memory) const override;
  bool memory_reads_reactions() const override { return loss_.has_value(); }

 private:
  // The reaction on body j: force (world) and moment (world) about its centre of mass.
  std::pair<Vec3, Vec3> reaction(const ElementInput& in, const double* lambda) const;
  // The load W [N] the loss model uses at in.t, from memory (joint_bearing_loss.hpp).
  double loss_load(const ElementInput& in) const;
  // T_J and ∂T_J/∂θ̇ of the loss model at this state (the load from memory) and θ̇.
  lubrication::LoadedTorque loss_torque(const ElementInput& in, double theta_dot) const;
  double loss_channel(int k, const ElementInput& in) const;

  JointType type_;
  Marker mi_, mj_;
  std::vector<PrimitiveRow> prims_;
  int rows_ = 0;
  std::optional<JointBearingLoss> loss_;
};

}  // namespace cs::joints
