#include "clearsim/elements/joints/ideal_joint.hpp"

#include "clearsim/elements/joints/constraint_primitives.hpp"

namespace cs::joints {

const char* to_string(JointType t) {
  switch (t) {
    case JointType::kFixed:
      return "fixed";
    case JointType::kSpherical:
      return "spherical";
    case JointType::kRevolute:
      return "revolute";
    case JointType::kUniversal:
      return "universal";
    case JointType::kCylindrical:
      return "cylindrical";
    case JointType::kPrismatic:
      return "prismatic";
    case JointType::kPlanar:
      return "planar";
  }
  return "?";
}

namespace {
using K = PrimitiveRow::Kind;
constexpr int X = 0, Y = 1, Z = 2;

// The rows of each joint type (see the table in ideal_joint.hpp).
std::vector<PrimitiveRow> rows_of(JointType t) {
  const PrimitiveRow point{K::kPoint, 0, 0, "point coincidence"};
  switch (t) {
    case JointType::kSpherical:
      return {point};
    case JointType::kRevolute:
      return {point,
              {K::kDot1, X, Z, "axis alignment x_i·z_j"},
              {K::kDot1, Y, Z, "axis alignment y_i·z_j"}};
    case JointType::kUniversal:
      return {point, {K::kDot1, Z, Z, "cross axes z_i·z_j"}};
    case JointType::kCylindrical:
      return {{K::kDot1, X, Z, "axis alignment x_i·z_j"},
              {K::kDot1, Y, Z, "axis alignment y_i·z_j"},
              {K::kDot2, X, 0, "on axis x_i·d"},
              {K::kDot2, Y, 0, "on axis y_i·d"}};
    case JointType::kPrismatic:
      return {{K::kDot1, X, Z, "axis alignment x_i·z_j"},
              {K::kDot1, Y, Z, "axis alignment y_i·z_j"},
              {K::kDot2, X, 0, "on axis x_i·d"},
              {K::kDot2, Y, 0, "on axis y_i·d"},
              {K::kDot1, X, Y, "no rotation x_i·y_j"}};
    case JointType::kPlanar:
      return {{K::kDot2, Z, 0, "in plane z_i·d"},
              {K::kDot1, Z, X, "normal alignment z_i·x_j"},
              {K::kDot1, Z, Y, "normal alignment z_i·y_j"}};
    case JointType::kFixed:
      return {point,
              {K::kDot1, Y, Z, "no rotation y_i·z_j"},
              {K::kDot1, Z, X, "no rotation z_i·x_j"},
              {K::kDot1, X, Y, "no rotation x_i·y_j"}};
  }
  return {};
}

int row_count(const std::vector<PrimitiveRow>& prims) {
  int n = 0;
  for (const auto& p : prims) n += (p.kind == K::kPoint) ? 3 : 1;
  return n;
}
}  // namespace

IdealJoint::IdealJoint(std::string name, JointType type, Marker marker_i, Marker marker_j)
    : Element(std::move(name), marker_i.body, marker_j.body),
      type_(type),
      mi_(marker_i),
      mj_(marker_j),
      prims_(rows_of(type)),
      rows_(row_count(prims_)) {}

std::optional<TreeJointSpec> IdealJoint::tree_joint() const {
  using Kind = TreeJointSpec::Kind;
  switch (type_) {
    case JointType::kRevolute:
      return TreeJointSpec{Kind::kRevolute, mi_, mj_};
    case JointType::kPrismatic:
      return TreeJointSpec{Kind::kPrismatic, mi_, mj_};
    case JointType::kFixed:
      return TreeJointSpec{Kind::kFixed, mi_, mj_};
    case JointType::kSpherical:
      return TreeJointSpec{Kind::kSpherical, mi_, mj_};
    default:
      return std::nullopt;
  }
}

void IdealJoint::constraint(const ElementInput& in, ConstraintBlock& out) const {
  out.reset(rows_);
  int r = 0;
  for (const auto& p : prims_) {
    if (p.kind == K::kPoint) {
      const PointResult pr =
          point_coincidence(*in.i, mi_.p_B, *in.j, mj_.p_B, out.want_zeta, out.want_jacobian);
      out.phi.segment<3>(r) = pr.phi;
      if (out.want_jacobian) {
        out.B.block<3, 12>(r, 0) = pr.B;
        out.zeta.segment<3>(r) = pr.zeta;
      }
      r += 3;
      continue;
    }
    const ScalarResult s = (p.kind == K::kDot1)
                               ? dot1(*in.i, mi_.R_BM.col(p.axis_i), *in.j, mj_.R_BM.col(p.axis_j),
                                      out.want_zeta, out.want_jacobian)
                               : dot2(*in.i, mi_.R_BM.col(p.axis_i), mi_.p_B, *in.j, mj_.p_B,
                                      out.want_zeta, out.want_jacobian);
    out.phi(r) = s.phi;
    if (out.want_jacobian) {
      out.B.row(r) = s.B;
      out.zeta(r) = s.zeta;
    }
    ++r;
  }
}

void IdealJoint::constraint_tangent(const ElementInput& in, const double* lambda, Mat12& K) const {
  int r = 0;
  for (const auto& p : prims_) {
    if (p.kind == K::kPoint) {
      point_coincidence_tangent(*in.i, mi_.p_B, *in.j, mj_.p_B,
                                Vec3(lambda[r], lambda[r + 1], lambda[r + 2]), K);
      r += 3;
    } else if (p.kind == K::kDot1) {
      dot1_tangent(*in.i, mi_.R_BM.col(p.axis_i), *in.j, mj_.R_BM.col(p.axis_j), lambda[r++], K);
    } else {
      dot2_tangent(*in.i, mi_.R_BM.col(p.axis_i), mi_.p_B, *in.j, mj_.p_B, lambda[r++], K);
    }
  }
}

std::string IdealJoint::constraint_row_name(int r) const {
  int base = 0;
  for (const auto& p : prims_) {
    const int n = (p.kind == K::kPoint) ? 3 : 1;
    if (r < base + n) {
      if (n == 3) return std::string(p.meaning) + " " + "xyz"[r - base];
      return p.meaning;
    }
    base += n;
  }
  return "row " + std::to_string(r);
}

std::vector<std::string> IdealJoint::channel_names() const {
  std::vector<std::string> names = {"force.x",  "force.y",  "force.z",
                                    "torque.x", "torque.y", "torque.z"};
  if (loss_)
    names.insert(names.end(),
                 {"friction_torque", "power_loss", "bearing_load", "eccentricity_ratio"});
  return names;
}

std::pair<Vec3, Vec3> IdealJoint::reaction(const ElementInput& in, const double* lambda) const {
  ConstraintBlock c;
  constraint(in, c);
  Eigen::Map<const VecX> lam(lambda, rows_);
  // Generalized reaction on body j: −B_jᵀλ = [F (world); τ_B (body j, about its CoM)].
  const Vec12 g = -c.B.topRows(rows_).transpose() * lam;
  return {g.segment<3>(6), in.j->R_WB * g.segment<3>(9)};
}

double IdealJoint::channel_value(int k, const ElementInput& in, const double* lambda) const {
  if (k >= 6) return loss_channel(k - 6, in);
  const auto [F, tau_W] = reaction(in, lambda);
  if (k < 3) return F(k);
  // Moment about the marker-j origin: τ_W − (p_j − x_j) × F.
  const Vec3 arm = in.j->R_WB * mj_.p_B;
  return (tau_W - arm.cross(F))(k - 3);
}

}  // namespace cs::joints
