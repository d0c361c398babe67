#include "clearsim/model/model_builder.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <sstream>

#include "clearsim/math/so3.hpp"

namespace cs {

namespace {
// Appends an element and records its name in the model's index (Model::name_index).
int push_element(Model& model, std::unique_ptr<Element> element) {
  const std::string name = element->name();
  model.elements.push_back(std::move(element));
  const int index = static_cast<int>(model.elements.size()) - 1;
  model.index_name(name, Model::ItemKind::kElement, index);
  return index;
}

bool name_taken(const Model& m, const std::string& n) {
  if (n == "ground" || n == "system") return true;
  if (m.find_body(n).has_value() || m.find_element(n) != nullptr || m.find_marker(n) != nullptr ||
      m.find_shape(n) != nullptr)
    return true;
  return false;
}

void require_unique(const Model& m, const std::string& n) {
  if (n.empty()) throw ModelError("a name must not be empty");
  if (n.find('.') != std::string::npos)
    throw ModelError("name '" + n + "' must not contain '.' (it separates channel names)");
  if (name_taken(m, n))
    throw ModelError("name '" + n +
                     "' is already used (names are shared by "
                     "bodies, markers and elements; 'ground' and 'system' "
                     "are reserved)");
}

void require_body(const Model& m, int b) {
  if (b != kGround && (b < 0 || b >= m.num_bodies()))
    throw ModelError("body index " + std::to_string(b) + " is out of range");
}

Vec3 unit(const Vec3& a, const std::string& what) {
  const double n = a.norm();
  if (!(n > 1e-12) || !std::isfinite(n)) throw ModelError(what + " must be a non-zero vector");
  return a / n;
}
}  // namespace

int add_body(Model& model, Body body) {
  require_unique(model, body.name);
  if (!(body.mass > 0.0) || !std::isfinite(body.mass)) {
    std::ostringstream os;
    os << "body '" << body.name << "': mass must be positive, found " << body.mass;
    throw ModelError(os.str());
  }
  const Mat3& J = body.inertia_B;
  if ((J - J.transpose()).norm() > 1e-12 * (1.0 + J.norm()))
    throw ModelError("body '" + body.name + "': inertia matrix is not symmetric");
  const double min_eig = Eigen::SelfAdjointEigenSolver<Mat3>(J).eigenvalues().minCoeff();
  if (!(min_eig > 0.0)) {
    std::ostringstream os;
    os << "body '" << body.name << "': inertia must be positive definite (smallest principal "
       << "moment " << min_eig << " kg·m²)";
    throw ModelError(os.str());
  }
  const Mat3& R = body.R0_WB;
  if ((R.transpose() * R - Mat3::Identity()).norm() > 1e-9 || R.determinant() < 0.0)
    throw ModelError("body '" + body.name + "': orientation is not a rotation matrix");
  const std::string name = body.name;
  model.bodies.push_back(std::move(body));
  model.index_name(name, Model::ItemKind::kBody, model.num_bodies() - 1);
  return model.num_bodies() - 1;
}

Marker marker_at(const Model& model, int body, const Vec3& p_W, const Mat3& R_WM) {
  require_body(model, body);
  Marker m;
  m.body = body;
  if (body == kGround) {
    m.p_B = p_W;
    m.R_BM = R_WM;
  } else {
    const Body& b = model.bodies[body];
    m.p_B = b.R0_WB.transpose() * (p_W - b.x0_W);
    m.R_BM = b.R0_WB.transpose() * R_WM;
  }
  return m;
}

void add_marker(Model& model, const std::string& name, int body, const Vec3& p_W) {
  require_unique(model, name);
  model.markers.push_back({name, marker_at(model, body, p_W, Mat3::Identity())});
  model.index_name(name, Model::ItemKind::kMarker, static_cast<int>(model.markers.size()) - 1);
}

void add_shape(Model& model, const std::string& name, int body, const Vec3& p_W, const Mat3& R_WS,
               std::shared_ptr<const TriangleMesh> mesh, std::optional<GearParameters> gear,
               std::string source) {
  require_unique(model, name);
  if (mesh == nullptr || mesh->triangles.empty())
    throw ModelError("shape '" + name + "' has no triangles");
  const Marker frame = marker_at(model, body, p_W, R_WS);
  model.shapes.push_back(
      {name, body, frame.p_B, frame.R_BM, std::move(mesh), std::move(gear), std::move(source)});
  model.index_name(name, Model::ItemKind::kShape, static_cast<int>(model.shapes.size()) - 1);
}

int add_joint(Model& model, const std::string& name, joints::JointType type, int body_i, int body_j,
              const Vec3& at_W, const Vec3& axis_W, const Vec3& axis2_W) {
  require_unique(model, name);
  require_body(model, body_i);
  require_body(model, body_j);
  if (body_i == body_j) throw ModelError("joint '" + name + "' connects a body to itself");
  Mat3 Ri, Rj;
  using joints::JointType;
  if (type == JointType::kUniversal) {
    const Vec3 a1 = unit(axis_W, "joint '" + name + "': axes[0]");
    const Vec3 a2 = unit(axis2_W, "joint '" + name + "': axes[1]");
    if (std::abs(a1.dot(a2)) > 1e-9)
      throw ModelError("joint '" + name + "': the two universal-joint axes must be perpendicular");
    // Marker i: z = a1, x = a2. Marker j: z = a2, x = −a1 (so both frames are right-handed).
    Ri.col(2) = a1;
    Ri.col(0) = a2;
    Ri.col(1) = a1.cross(a2);
    Rj.col(2) = a2;
    Rj.col(0) = -a1;
    Rj.col(1) = a2.cross(-a1);
  } else if (type == JointType::kSpherical || type == JointType::kFixed) {
    Ri = Rj = Mat3::Identity();
  } else {
    Ri = Rj = so3::frame_with_z_axis(unit(axis_W, "joint '" + name + "': axis"));
  }
  auto j = std::make_unique<joints::IdealJoint>(name, type, marker_at(model, body_i, at_W, Ri),
                                                marker_at(model, body_j, at_W, Rj));
  return push_element(model, std::move(j));
}

int add_driver(Model& model, const std::string& name, const std::string& joint_name,
               joints::JointDriver::Motion motion, joints::JointDriver::Given given,
               TimeFunction f) {
  require_unique(model, name);
  const auto* joint = dynamic_cast<const joints::IdealJoint*>(model.find_element(joint_name));
  if (joint == nullptr)
    throw ModelError("driver '" + name + "': '" + joint_name + "' is not an ideal joint");
  using joints::JointType;
  using Motion = joints::JointDriver::Motion;
  const JointType t = joint->type();
  const bool rot_ok = t == JointType::kRevolute || t == JointType::kCylindrical;
  const bool tra_ok = t == JointType::kPrismatic || t == JointType::kCylindrical;
  if (motion == Motion::kRotation && !rot_ok)
    throw ModelError("driver '" + name + "': a rotation needs a revolute or cylindrical joint, '" +
                     joint_name + "' is " + joints::to_string(t));
  if (motion == Motion::kTranslation && !tra_ok)
    throw ModelError("driver '" + name +
                     "': a translation needs a prismatic or cylindrical "
                     "joint, '" +
                     joint_name + "' is " + joints::to_string(t));
  return push_element(
      model, std::make_unique<joints::JointDriver>(name, joint_name, motion, given, std::move(f),
                                                   joint->marker_i(), joint->marker_j()));
}

int add_element(Model& model, std::unique_ptr<Element> element) {
  require_unique(model, element->name());
  require_body(model, element->body_i());
  require_body(model, element->body_j());
  return push_element(model, std::move(element));
}

}  // namespace cs

#include "clearsim/elements/contact/clearance_joints.hpp"

namespace cs {

namespace {
void check_contact_law(const std::string& name, double e_n, double mu) {
  if (!(e_n >= 0.0 && e_n <= 1.0))
    throw ModelError("'" + name + "': restitution must be in [0, 1], found " + std::to_string(e_n));
  if (!(mu >= 0.0) || !std::isfinite(mu))
    throw ModelError("'" + name + "': friction must be ≥ 0, found " + std::to_string(mu));
}
}  // namespace

int add_spherical_clearance(Model& model, const std::string& name, int body_i, int body_j,
                            const Vec3& at_W, const ClearanceParams& p) {
  require_unique(model, name);
  require_body(model, body_i);
  require_body(model, body_j);
  if (body_i == body_j) throw ModelError("joint '" + name + "' connects a body to itself");
  if (!(p.clearance > 0.0) || !std::isfinite(p.clearance))
    throw ModelError("'" + name + "': radial clearance must be positive");
  if (!(p.asperity >= 0.0 && p.asperity < p.clearance))
    throw ModelError("'" + name + "': asperity e0 must be in [0, clearance)");
  if (!(p.contact_radius >= 0.0)) throw ModelError("'" + name + "': ball radius must be ≥ 0");
  check_contact_law(name, p.restitution, p.friction);
  if (p.laws) {
    contact::ContactLaws laws = *p.laws;
    laws.asperity = p.asperity;
    return add_compliant_contact(
        model, name, body_i, body_j,
        contact::SphericalClearanceGeometry{marker_at(model, body_i, at_W, Mat3::Identity()),
                                            marker_at(model, body_j, at_W, Mat3::Identity()),
                                            p.clearance, p.asperity, p.contact_radius},
        laws);
  }
  if (p.film) {
    return add_lubricated_clearance(
        model, name, body_i, body_j,
        contact::SphericalClearanceGeometry{marker_at(model, body_i, at_W, Mat3::Identity()),
                                            marker_at(model, body_j, at_W, Mat3::Identity()),
                                            p.clearance, p.asperity, p.contact_radius},
        *p.film, p.asperity, p.restitution, p.friction);
  }
  return push_element(model, std::make_unique<contact::SphericalClearance>(
                                 name, marker_at(model, body_i, at_W, Mat3::Identity()),
                                 marker_at(model, body_j, at_W, Mat3::Identity()), p.clearance,
                                 p.asperity, p.restitution, p.friction, p.contact_radius));
}

int add_revolute_clearance(Model& model, const std::string& name, int body_i, int body_j,
                           const Vec3& at_W, const Vec3& axis_W, const Vec3& pin_axis_W,
                           const ClearanceParams& p) {
  require_unique(model, name);
  require_body(model, body_i);
  require_body(model, body_j);
  if (body_i == body_j) throw ModelError("joint '" + name + "' connects a body to itself");
  if (!(p.clearance > 0.0) || !std::isfinite(p.clearance))
    throw ModelError("'" + name + "': radial clearance must be positive");
  if (!(p.pin_length >= 0.0)) throw ModelError("'" + name + "': pin length must be ≥ 0");
  if (!(p.contact_radius >= 0.0)) throw ModelError("'" + name + "': pin radius must be ≥ 0");
  using Axial = contact::RevoluteClearance::Axial;
  if (p.axial == Axial::kClearance && !(p.axial_clearance > 0.0))
    throw ModelError("'" + name + "': axial clearance must be positive");
  check_contact_law(name, p.restitution, p.friction);
  const Vec3 u = unit(axis_W, "joint '" + name + "': axis");
  const Vec3 v = unit(pin_axis_W, "joint '" + name + "': pin_axis");
  if (p.laws) {
    if (p.axial == Axial::kClearance)
      throw ModelError("'" + name +
                       "': thrust faces (axial clearance) are available with the unilateral "
                       "treatment only; use axial: free or ideal");
    if (!(p.asperity >= 0.0 && p.asperity < p.clearance))
      throw ModelError("'" + name + "': asperity e0 must be in [0, clearance)");
    contact::ContactLaws laws = *p.laws;
    laws.asperity = p.asperity;
    return add_compliant_contact(model, name, body_i, body_j,
                                 contact::RevoluteClearanceGeometry{
                                     marker_at(model, body_i, at_W, so3::frame_with_z_axis(u)),
                                     marker_at(model, body_j, at_W, so3::frame_with_z_axis(v)),
                                     p.clearance, 0.5 * p.pin_length, p.contact_radius},
                                 laws, p.axial == Axial::kIdeal);
  }
  if (p.film) {
    if (p.axial == Axial::kClearance)
      throw ModelError("'" + name +
                       "': thrust faces (axial clearance) are not available under a film; use "
                       "axial: free or ideal");
    return add_lubricated_clearance(model, name, body_i, body_j,
                                    contact::RevoluteClearanceGeometry{
                                        marker_at(model, body_i, at_W, so3::frame_with_z_axis(u)),
                                        marker_at(model, body_j, at_W, so3::frame_with_z_axis(v)),
                                        p.clearance, 0.5 * p.pin_length, p.contact_radius},
                                    *p.film, p.asperity, p.restitution, p.friction,
                                    p.axial == Axial::kIdeal);
  }
  return push_element(model, std::make_unique<contact::RevoluteClearance>(
                                 name, marker_at(model, body_i, at_W, so3::frame_with_z_axis(u)),
                                 marker_at(model, body_j, at_W, so3::frame_with_z_axis(v)),
                                 p.clearance, 0.5 * p.pin_length, p.restitution, p.axial,
                                 p.axial_clearance, p.friction, p.contact_radius));
}

int add_sphere_plane(Model& model, const std::string& name, int plane_body, const Vec3& point_W,
                     const Vec3& normal_W, int sphere_body, const Vec3& centre_W, double radius,
                     double restitution, double friction) {
  require_unique(model, name);
  require_body(model, plane_body);
  require_body(model, sphere_body);
  if (plane_body == sphere_body) throw ModelError("contact '" + name + "' is on a single body");
  if (!(radius >= 0.0) || !std::isfinite(radius))
    throw ModelError("'" + name + "': radius must be ≥ 0");
  check_contact_law(name, restitution, friction);
  const Vec3 n = unit(normal_W, "contact '" + name + "': normal");
  return push_element(
      model, std::make_unique<contact::SpherePlane>(
                 name, marker_at(model, plane_body, point_W, so3::frame_with_z_axis(n)),
                 marker_at(model, sphere_body, centre_W, Mat3::Identity()), radius, restitution,
                 friction));
}

}  // namespace cs
