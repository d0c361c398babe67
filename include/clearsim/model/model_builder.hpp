// C++ construction of a Model with validation. Every function throws cs::ModelError with a message
// that names the offending item; the model-file reader adds the file position.
//
// Geometry is given in the reference configuration (the bodies' initial poses): joint locations
// and axes are world-frame points and directions there, and the builder turns them into markers
// fixed on each body.
#pragma once

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

// Ideal joint between bodies i and j at point at_W with axis axis_W (ignored by spherical and
// fixed). Universal joints take axis_W on body i and axis2_W on body j, which must be
// perpendicular. Returns the element index.
int add_joint(Model& model, const std::string& name, joints::JointType type, int body_i,
              int body_j, const Vec3& at_W, const Vec3& axis_W, const Vec3& axis2_W = Vec3::Zero());

// Driver on an existing revolute/cylindrical (rotation) or prismatic/cylindrical (translation)
// joint.
int add_driver(Model& model, const std::string& name, const std::string& joint_name,
               joints::JointDriver::Motion motion, joints::JointDriver::Given given,
               TimeFunction f);

// Adds any element (forces, contacts); checks the name is unique. Returns its index.
int add_element(Model& model, std::unique_ptr<Element> element);

}  // namespace cs
