// URDF → model-file sections (urdf_import.hpp). Frames: urdfdom gives each joint's origin (the
// child link's frame) in its parent link's frame, each link's inertial frame in the link's frame,
// and each joint axis in the joint's frame. Composing them from the root at joint angles 0 gives
// every frame in the world, which is what a model file states (docs/model-format.md
// "Conventions": geometry in world coordinates in the reference configuration).
#include "urdf_import.hpp"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Eigenvalues>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/types.hpp"
#include "urdf_scan.hpp"

namespace cs::model_file {

namespace {

struct Frame {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();
  Frame operator*(const urdf::Pose& pose) const {
    const urdf::Rotation& q = pose.rotation;
    const Mat3 Rq = Eigen::Quaterniond(q.w, q.x, q.y, q.z).toRotationMatrix();
    const Vec3 t(pose.position.x, pose.position.y, pose.position.z);
    return {R * Rq, p + R * t};
  }
};

// Exactly the double: the reader parses it back to the same bits.
YAML::Node number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return YAML::Node(std::string(text));
}

YAML::Node vec_node(const Vec3& v) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (int k = 0; k < 3; ++k) n.push_back(number(v[k]));
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

YAML::Node mat_node(const Mat3& m) {
  YAML::Node n(YAML::NodeType::Sequence);
  for (int r = 0; r < 3; ++r) n.push_back(vec_node(m.row(r).transpose()));
  return n;
}

// urdfdom reports through console_bridge; its last error becomes our message.
class LastError : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) last = text;
  }
  std::string last;
};

urdf::ModelInterfaceSharedPtr parse_model(const std::string& text, const std::string& path) {
  static std::mutex console;  // console_bridge's handler is global
  const std::lock_guard<std::mutex> lock(console);
  LastError errors;
  console_bridge::useOutputHandler(&errors);
  urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(text);
  console_bridge::restorePreviousOutputHandler();
  if (!model) fail_urdf(path, 0, 0, "urdfdom cannot read the robot: " + errors.last);
  return model;
}

// World frame of every link at joint angles 0, from the root down.
void place_links(const urdf::ModelInterface& model, const urdf::Link& link, const Frame& frame,
                 std::map<std::string, Frame>& out) {
  out[link.name] = frame;
  for (const auto& joint : link.child_joints)
    place_links(model, *model.getLink(joint->child_link_name),
                frame * joint->parent_to_joint_origin_transform, out);
}

Mat3 inertia_matrix(const urdf::Inertial& inertial) {
  Mat3 J;
  J << inertial.ixx, inertial.ixy, inertial.ixz, inertial.ixy, inertial.iyy, inertial.iyz,
      inertial.ixz, inertial.iyz, inertial.izz;
  return J;
}

// The reader refuses such a tensor too, but at the model file; here the message has the line.
void check_positive_definite(const Mat3& J, const std::string& link, const UrdfScan& scan,
                             const std::string& path) {
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(J).eigenvalues();
  if (moments.minCoeff() > 0.0) return;
  char text[128];
  std::snprintf(text, sizeof text, "%g, %g, %g", moments[0], moments[1], moments[2]);
  const auto [line, column] = scan.inertia_at.at(link);
  fail_urdf(path, line, column,
            "link '" + link + "': <inertia> is not positive definite (principal moments " + text +
                " kg·m²)");
}

YAML::Node body_entry(const urdf::Inertial& inertial, const Frame& link) {
  const Frame com = link * inertial.origin;
  const Mat3 J = inertia_matrix(inertial);
  YAML::Node b(YAML::NodeType::Map);
  b["mass"] = number(inertial.mass);
  b["inertia"] = mat_node(J);  // in the inertial frame, which is the body's frame
  b["position"] = vec_node(com.p);
  if (!com.R.isIdentity(0.0)) b["orientation"] = mat_node(com.R);
  return b;
}

std::string joint_type(const urdf::Joint& joint) {
  switch (joint.type) {
    case urdf::Joint::REVOLUTE:
    case urdf::Joint::CONTINUOUS:
      return "revolute";
    case urdf::Joint::PRISMATIC:
      return "prismatic";
    default:
      return "fixed";  // urdf_scan refused the others
  }
}

YAML::Node joint_entry(const urdf::Joint& joint, const std::string& parent, const Frame& child) {
  YAML::Node j(YAML::NodeType::Map);
  const std::string type = joint_type(joint);
  j["type"] = type;
  YAML::Node bodies(YAML::NodeType::Sequence);
  bodies.push_back(parent);
  bodies.push_back(joint.child_link_name);
  bodies.SetStyle(YAML::EmitterStyle::Flow);
  j["bodies"] = bodies;
  j["at"] = vec_node(child.p);
  if (type != "fixed") {
    const Vec3 axis(joint.axis.x, joint.axis.y, joint.axis.z);
    j["axis"] = vec_node(child.R * axis);
  }
  return j;
}

// A collision mesh as a shape: its frame is the collision origin; scale 1 (m) or 0.001 (mm).
YAML::Node shape_entry(const urdf::Collision& collision, const UrdfScan::Mesh& mesh,
                       const Frame& link, const std::string& path) {
  const auto& geometry = static_cast<const urdf::Mesh&>(*collision.geometry);
  const urdf::Vector3& s = geometry.scale;
  std::string unit;
  if (s.x == 1.0 && s.y == 1.0 && s.z == 1.0) unit = "m";
  if (s.x == 0.001 && s.y == 0.001 && s.z == 0.001) unit = "mm";
  if (unit.empty())
    fail_urdf(path, mesh.line, 1,
              "link '" + mesh.link + "': mesh scale other than 1 (m) or 0.001 (mm) is not " +
                  "supported");
  const Frame frame = link * collision.origin;
  YAML::Node shape(YAML::NodeType::Map);
  shape["body"] = mesh.link;
  shape["position"] = vec_node(frame.p);
  shape["orientation"] = mat_node(frame.R);
  shape["mesh"]["file"] = mesh.path;
  shape["mesh"]["unit"] = unit;
  return shape;
}

std::string read_urdf_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_urdf(path, 0, 0, "cannot open the URDF file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void add_bodies(const urdf::ModelInterface& model, const UrdfScan& scan,
                const std::map<std::string, Frame>& frames, const std::string& path,
                UrdfSections& out) {
  const std::string root = model.getRoot()->name;
  for (const std::string& name : scan.links) {
    if (name == root) continue;  // the ground
    const auto link = model.getLink(name);
    if (!link->inertial)
      fail_urdf(path, scan.link_line.at(name), scan.link_column.at(name),
                "link '" + name + "' has no <inertial>: every link but the root (fixed to the " +
                    "ground) needs a mass and an inertia");
    check_positive_definite(inertia_matrix(*link->inertial), name, scan, path);
    out.bodies[name] = body_entry(*link->inertial, frames.at(name));
  }
}

// The stops of a joint's <limit>: its position range, with a stiffness sized so that the joint's
// effort limit presses a stop in by 1 mrad (revolute) or 0.1 mm (prismatic) and a damping of
// that stiffness × 1 ms (URDF gives neither; docs/model-format.md "URDF import"). Empty, with
// `why`, where the stops cannot be sized or the range has no stop.
YAML::Node limits_entry(const urdf::Joint& joint, std::string& why) {
  const urdf::JointLimits& l = *joint.limits;
  const bool revolute = joint.type == urdf::Joint::REVOLUTE;
  if (!(l.effort > 0.0)) {
    why = "no effort limit to size the stops";
    return {};
  }
  if (revolute && l.upper - l.lower >= 2 * std::numbers::pi) {
    why = "a range of a full turn or more";
    return {};
  }
  const double stiffness = l.effort / (revolute ? 1e-3 : 1e-4);
  YAML::Node n(YAML::NodeType::Map);
  n["lower"] = number(l.lower);
  n["upper"] = number(l.upper);
  n["stiffness"] = number(stiffness);
  n["damping"] = number(stiffness * 1e-3);
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

void add_joints(const urdf::ModelInterface& model, const UrdfScan& scan,
                const std::map<std::string, Frame>& frames, UrdfSections& out) {
  const std::string root = model.getRoot()->name;
  std::vector<std::string> unlimited, dynamic, mimic;
  for (const std::string& name : scan.joints) {
    const auto joint = model.getJoint(name);
    const std::string parent = joint->parent_link_name == root ? "ground" : joint->parent_link_name;
    YAML::Node entry = joint_entry(*joint, parent, frames.at(joint->child_link_name));
    const bool limited =
        joint->type == urdf::Joint::REVOLUTE || joint->type == urdf::Joint::PRISMATIC;
    if (limited && joint->limits) {
      std::string why;
      YAML::Node limits = limits_entry(*joint, why);
      if (limits.IsNull())
        unlimited.push_back(name + ": " + why);
      else
        entry["limits"] = limits;
    }
    out.joints[name] = entry;
    if (joint->dynamics && (joint->dynamics->damping != 0.0 || joint->dynamics->friction != 0.0))
      dynamic.push_back(name);
    if (joint->mimic) mimic.push_back(name);
  }
  auto note = [&](const std::vector<std::string>& names, const std::string& what) {
    if (names.empty()) return;
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : "; ") + n;
    out.notes.push_back(what + " (" + list + ")");
  };
  note(unlimited, "position limits not enforced; give the joint a `limits` map to enforce them");
  note(dynamic, "<dynamics> damping and friction are not imported");
  note(mimic, "<mimic> couplings are not imported");
}

// The n-th collision mesh of a link, in file order (urdf_scan lists them in the same order).
const urdf::Collision& collision_mesh(const urdf::Link& link, int n) {
  for (const auto& c : link.collision_array)
    if (c->geometry && c->geometry->type == urdf::Geometry::MESH && n-- == 0) return *c;
  throw std::logic_error("urdf import: collision meshes out of step with the scan");
}

void add_shapes(const urdf::ModelInterface& model, const UrdfScan& scan,
                const std::map<std::string, Frame>& frames, const std::string& path,
                UrdfSections& out) {
  std::map<std::string, int> count;
  const std::string root = model.getRoot()->name;
  for (const UrdfScan::Mesh& mesh : scan.collision_meshes) {
    const int n = count[mesh.link]++;
    const urdf::Collision& c = collision_mesh(*model.getLink(mesh.link), n);
    YAML::Node shape = shape_entry(c, mesh, frames.at(mesh.link), path);
    if (mesh.link == root) shape["body"] = "ground";
    out.shapes[mesh.link + "_collision" + (n == 0 ? "" : "_" + std::to_string(n))] = shape;
  }
}

}  // namespace

UrdfSections import_urdf(const std::string& path) {
  const std::string text = read_urdf_text(path);
  const UrdfScan scan = scan_urdf(text, path);
  const urdf::ModelInterfaceSharedPtr model = parse_model(text, path);
  std::map<std::string, Frame> frames;
  place_links(*model, *model->getRoot(), Frame{}, frames);
  UrdfSections out;
  out.bodies = YAML::Node(YAML::NodeType::Map);
  out.joints = YAML::Node(YAML::NodeType::Map);
  add_bodies(*model, scan, frames, path, out);
  add_joints(*model, scan, frames, out);
  if (!scan.collision_meshes.empty()) {
    out.shapes = YAML::Node(YAML::NodeType::Map);
    add_shapes(*model, scan, frames, path, out);
  }
  return out;
}

}  // namespace cs::model_file
