// Readers of the sections of a model file (private to src/io; format in docs/model-format.md).
// Each takes the cursor of its section and adds what it reads to the Model through
// model_builder.hpp, in the order bodies, markers, joints, drivers, forces, so that every name is
// defined before it is referenced.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "clearsim/elements/contact/gear_mesh.hpp"
#include "clearsim/elements/forces/joint_backlash.hpp"
#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/time_function.hpp"
#include "clearsim/model/model.hpp"
#include "clearsim/solvers/settings.hpp"
#include "yaml_access.hpp"

namespace cs::model_file {

// model_reader_bodies.cpp
void read_bodies(const Cursor& section, Model& model);
void read_markers(const Cursor& section, Model& model);
// An orientation: {axis, angle} or a rotation matrix.
Mat3 read_orientation(const Cursor& c);

// model_reader_shapes.cpp
void read_shapes(const Cursor& section, Model& model);

// A revolute joint's `backlash` map, read with the joint and built once the drivers are known
// (model_reader_backlash.cpp): a driver of that joint turns the motor side of the play instead
// of the joint itself; a joint without a driver has its motor held at rest.
struct BacklashSpec {
  std::string joint;
  Cursor at;  // the `backlash` map
  forces::BacklashParams params;
  bool driven = false;
};
using BacklashJoints = std::vector<BacklashSpec>;
BacklashSpec read_backlash(const Entry& joint, const Cursor& backlash);
// The driver `e` of a joint with backlash: adds the backlash element named after the driver,
// with the driver's motion as the motor angle.
void add_driven_backlash(const Entry& e, BacklashSpec& spec, const Cursor& motion_c,
                         const TimeFunction& f, bool given_as_velocity, Model& model);
// The backlash elements of the joints no driver turns (motor held at θ_m = 0), named
// <joint>_backlash.
void add_held_backlash(const BacklashJoints& backlash, Model& model);

// A revolute or prismatic joint's `limits` map (model_reader_limits.cpp): adds the stops as the
// element <joint>_limits on the ideal joint model.elements[joint_index].
void read_joint_limits(const Entry& joint, const Cursor& limits, int joint_index, Model& model);

// model_reader_joints.cpp; `backlash` collects the joints with a backlash map.
void read_joints(const Cursor& section, Model& model, BacklashJoints& backlash);
void read_drivers(const Cursor& section, Model& model, BacklashJoints& backlash);

// model_reader_contacts.cpp: the `clearance` map of joint `joint` (spherical or revolute) and
// the `contacts` section.
void read_clearance(const Entry& joint, const Cursor& clearance, joints::JointType type, int body_i,
                    int body_j, const Vec3& at_W, const Vec3& axis_W, Model& model);
void read_contacts(const Cursor& section, Model& model);
// Refuses, at its `contact: unilateral` key, a lubricated clearance joint with rigid contact
// under the film (contact::LubricatedClearance) unless the analysis is dynamic with
// integrator: nsga — the only integrator with an impact law. Called once the solver is read.
void check_film_integrator(const Cursor& joints, const SolverSettings& solver);
// model_reader_gear_mesh.cpp: a `contacts` entry of type gear_mesh.
void read_gear_mesh(const Entry& e, const MapView& m, Model& model);
// The contact-line length of one reference tooth pair, L_ref = ε_α b/(cos β_b ε_γ), of two gear
// shapes as placed at the model's initial poses (the analytic gear mesh's weight unit); fails
// at `at` if the pair cannot mesh or its helices' L_ref differ.
double gear_reference_length(const Cursor& at, const Model& model, const Shape& s1,
                             const Shape& s2);
// The analytic gear mesh of gear shapes s1 (pinion) and s2 (wheel) as placed at the model's
// initial poses, with `laws`; fails at `at` if the pair cannot mesh.
std::unique_ptr<contact::GearMeshContact> analytic_gear_mesh(const std::string& name,
                                                             const Cursor& at, const Model& model,
                                                             const Shape& s1, const Shape& s2,
                                                             const contact::ContactLaws& laws);
// A `type: mesh` entry of the contacts section (model_reader_mesh_contact.cpp).
void read_mesh_contact(const Entry& e, const MapView& m, Model& model);

// model_reader_forces.cpp
void read_forces(const Cursor& section, Model& model);
// A <function> of time: a number (constant) or a map {type: ..., ...}; `unit` is its value's.
TimeFunction read_time_function(const Cursor& c, const std::string& unit);

// model_reader_urdf.cpp: replaces a `urdf: FILE` key of the document by the robot's bodies,
// joints and shapes, merged with the file's own entries (the file's keys win).
void expand_urdf(YAML::Node& doc, Source& source);

// model_reader_settings.cpp
SolverSettings read_solver(const Cursor& section);
OutputSettings read_output(const Cursor& section);

// model_reader_sensors.cpp: the `sensors` section (after the solver: a sensor's rate must be a
// whole number of fixed steps).
std::vector<Sensor> read_sensors(const Cursor& section, const SolverSettings& solver);

// References by name (model_reader_joints.cpp): the index of a body ("ground" gives kGround) and
// an ideal joint; both fail with the known names when the name is not one.
int read_body_ref(const Cursor& c, const Model& model);
const joints::IdealJoint& read_joint_ref(const Cursor& c, const Model& model);

// The entries of a section that maps names to items (bodies, joints, ...); an empty section
// (`joints:` with nothing after it) has none. `what` names one item ("body").
std::vector<Entry> named_items(const Cursor& section, const std::string& what);

// Runs a model-builder call; any error it throws (cs::ModelError, std::invalid_argument from an
// element constructor, ...) becomes a ModelFileError at `at` with the builder's message.
template <class F>
decltype(auto) build_at(const Source& source, Position at, F&& call) {
  try {
    return std::forward<F>(call)();
  } catch (const ModelFileError&) {
    throw;
  } catch (const std::exception& e) {
    source.fail(at, e.what());
  }
}

}  // namespace cs::model_file
