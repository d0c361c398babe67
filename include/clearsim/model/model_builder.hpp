// C++ construction of a Model with validation. Every function throws cs::ModelError with a message
// that names the offending item; the model-file reader adds the file position.
//
// Geometry is given in the reference configuration (the bodies' initial poses): joint locations
// and axes are world-frame points and directions there, and the builder turns them into markers
// fixed on each body.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/elements/joints/joint_driver.hpp"
#include "clearsim/model/model.hpp"

namespace cs {

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Adds a body; checks m > 0, J symmetric positive definite, R0 a rotation, unique name.
int add_body(Model& model, Body body);

// Marker on `body` whose origin is p_W and axes R_WM (world, reference configuration).
Marker marker_at(const Model& model, int body, const Vec3& p_W, const Mat3& R_WM);

// Named marker (published as channels <name>.position.x, ...).
void add_marker(Model& model, const std::string& name, int body, const Vec3& p_W);

// Shape `mesh` (in its own frame) carried by `body`, its frame at p_W with axes R_WS (world,
// reference configuration). `gear` and `source` record where the mesh came from.
void add_shape(Model& model, const std::string& name, int body, const Vec3& p_W, const Mat3& R_WS,
               std::shared_ptr<const TriangleMesh> mesh, std::optional<GearParameters> gear = {},
               std::string source = {});

// Ideal joint between bodies i and j at point at_W with axis axis_W (ignored by spherical and
// fixed). Universal joints take axis_W on body i and axis2_W on body j, which must be
// perpendicular. Returns the element index.
int add_joint(Model& model, const std::string& name, joints::JointType type, int body_i, int body_j,
              const Vec3& at_W, const Vec3& axis_W, const Vec3& axis2_W = Vec3::Zero());

// Driver on an existing revolute/cylindrical (rotation) or prismatic/cylindrical (translation)
// joint.
int add_driver(Model& model, const std::string& name, const std::string& joint_name,
               joints::JointDriver::Motion motion, joints::JointDriver::Given given,
               TimeFunction f);

// Adds any element (forces, contacts); checks the name is unique. Returns its index.
int add_element(Model& model, std::unique_ptr<Element> element);

}  // namespace cs

// --- contact geometry: unilateral (NSGA), compliant or lubricated ------------------------------
#include <optional>

#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/elements/contact/compliant_contact.hpp"

namespace cs {

struct ClearanceParams {
  double clearance = 0.0;       // radial clearance c = R − r [m], > 0
  double asperity = 0.0;        // spherical: e0 [m], 0 ≤ e0 < c (contact starts at e = c − e0)
  double restitution = 0.0;     // Newton e_N ∈ [0, 1]
  double friction = 0.0;        // Coulomb μ ≥ 0
  double contact_radius = 0.0;  // ball or pin radius r [m] (where friction acts), ≥ 0
  double pin_length = 0.0;      // revolute: L_pin ≥ 0 (two end spheres at ±L/2; 0: planar)
  // Revolute: the pin's axial motion free, held by an ideal row, or between thrust faces.
  contact::RevoluteClearance::Axial axial = contact::RevoluteClearance::Axial::kFree;
  double axial_clearance = 0.0;  // revolute with thrust faces: c_ax > 0 [m]
  // The compliant or lubricated treatment (contact laws, friction law, lubricant); nullopt: the
  // unilateral NSGA treatment with `restitution` and `friction`. With laws, `asperity` applies
  // to revolute joints too (dry contact starts at ‖e‖ = c − e0) and laws->asperity is set from it.
  std::optional<contact::ContactLaws> laws;
  // The lubricated treatment over RIGID contact (seed 000's model, `contact: unilateral`): the
  // film law, with the unilateral gap at c − e0 (`asperity`) and Newton's `restitution`, for
  // NSGA (contact::LubricatedClearance). Set only when `laws` is not.
  std::optional<contact::Lubrication> film;
};

// Checks contact laws against their geometry (a film law that does not fit it, a missing radius,
// non-positive stiffness or viscosity, ...) and throws ModelError naming the element.
void check_contact_laws(const std::string& name, const contact::ContactLaws& laws,
                        const contact::Geometry& geometry);

// A compliant or lubricated contact element on a geometry (validated by check_contact_laws).
int add_compliant_contact(Model& model, const std::string& name, int body_i, int body_j,
                          contact::Geometry geometry, contact::ContactLaws laws,
                          bool axial_ideal = false);

// A lubricated clearance joint with rigid contact underneath (contact::LubricatedClearance): the
// film law `film` on a spherical or revolute clearance geometry, unilateral gaps at c − e0 with
// restitution e_N and Coulomb μ. Validated as check_contact_laws validates a film (the law fits
// the geometry, 0 < e0 < c, positive viscosity and radii).
int add_lubricated_clearance(Model& model, const std::string& name, int body_i, int body_j,
                             contact::Geometry geometry, contact::Lubrication film, double asperity,
                             double restitution, double mu, bool axial_ideal = false);

// Spherical joint with clearance: housing centred at at_W on body_i, ball centred there on body_j.
int add_spherical_clearance(Model& model, const std::string& name, int body_i, int body_j,
                            const Vec3& at_W, const ClearanceParams& p);

// Revolute joint with clearance: bearing on body_i with axis axis_W through at_W; pin on body_j
// centred at at_W with axis pin_axis_W (= axis_W unless there is an initial misalignment).
int add_revolute_clearance(Model& model, const std::string& name, int body_i, int body_j,
                           const Vec3& at_W, const Vec3& axis_W, const Vec3& pin_axis_W,
                           const ClearanceParams& p);

// A sphere (centre centre_W on body_j, radius ≥ 0) and a plane (through point_W with normal
// normal_W, on body_i).
int add_sphere_plane(Model& model, const std::string& name, int plane_body, const Vec3& point_W,
                     const Vec3& normal_W, int sphere_body, const Vec3& centre_W, double radius,
                     double restitution, double friction);

}  // namespace cs
