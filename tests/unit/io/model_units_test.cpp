// LoadedModel::units: the unit of every number the reader read, by its path as --set and
// `clearsim estimate --parameter` spell it, in the results' spelling (channel_unit: ASCII, "1"
// for a pure number), from the unit the reader itself reads the number in.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/io/result_writer.hpp"

namespace cs {
namespace {

// examples/estimation_clearance_pendulum, with a wheel on an axle turned by a speed-torque motor.
const char* const kModel = R"(model: units
gravity: [0, -9.81, 0]
bodies:
  arm: {mass: 1.0, inertia: [0.03, 0.03, 0.03], position: [0.3, 0, 0]}
  wheel: {mass: 1.0, inertia: [0.01, 0.01, 0.02], position: [0, 1, 0]}
joints:
  axle: {type: revolute, bodies: [ground, wheel], at: [0, 1, 0], axis: [0, 0, 1]}
  pivot:
    type: revolute
    bodies: [ground, arm]
    at: [0, 0, 0]
    axis: [0, 0, 1]
    clearance:
      treatment: compliant
      radial: 0.5e-3
      pin_radius: 10.0e-3
      pin_length: 0
      axial: ideal
      restitution: 0.5
      contact: {law: lankarani_nikravesh, young_modulus: 2.0e9, poisson_ratio: 0.3,
                min_approach_speed: 0.01}
forces:
  motor: {type: speed_torque, joint: axle, coefficients: [1, -0.01, 1e-5], speed_unit: rpm,
          ramp: {type: polynomial, coefficients: [0, 2, 0.5]}}
  twist: {type: rotational_spring_damper, joint: axle, stiffness: 0.5, damping: 0.02}
solver: {integrator: generalized_alpha, coordinates: absolute, step: 1.0e-4, end: 0.5,
         rtol: 1e-5, atol: 1e-7}
sensors:
  encoder:       {channel: arm.rotation.z, noise: 1.0e-3, rate: 1000}
  accelerometer: {channel: arm.acceleration.y, noise: 5.0e-2, rate: 1000}
)";

TEST(ModelUnits, EveryNumberHasTheUnitTheReaderReadsItIn) {
  const LoadedModel lm = load_model_string(kModel, "units.yaml");
  const auto unit = [&](const std::string& path) { return unit_at(lm, path); };
  EXPECT_EQ(unit("bodies.arm.mass"), "kg");
  EXPECT_EQ(unit("bodies.arm.position[0]"), "m");
  EXPECT_EQ(unit("bodies.arm.inertia[2]"), "kg*m^2");  // the reader's "kg·m²" in ASCII
  EXPECT_EQ(unit("gravity[1]"), "m/s^2");
  EXPECT_EQ(unit("joints.pivot.at[0]"), "m");
  EXPECT_EQ(unit("joints.pivot.axis[2]"), "1");  // a direction
  EXPECT_EQ(unit("joints.pivot.clearance.radial"), "m");
  EXPECT_EQ(unit("joints.pivot.clearance.pin_radius"), "m");
  // A pure number is "1", as a dimensionless channel's unit (eccentricity_ratio).
  EXPECT_EQ(unit("joints.pivot.clearance.restitution"), "1");
  EXPECT_EQ(unit("joints.pivot.clearance.contact.poisson_ratio"), "1");
  EXPECT_EQ(unit("joints.pivot.clearance.contact.young_modulus"), "Pa");
  EXPECT_EQ(unit("joints.pivot.clearance.contact.min_approach_speed"), "m/s");
  EXPECT_EQ(unit("forces.twist.stiffness"), "N*m/rad");
  EXPECT_EQ(unit("forces.twist.damping"), "N*m*s/rad");
  // A polynomial's coefficient a_k is in N·m/(rpm)^k.
  EXPECT_EQ(unit("forces.motor.coefficients[0]"), "N*m");
  EXPECT_EQ(unit("forces.motor.coefficients[1]"), "N*m/(rpm)");
  EXPECT_EQ(unit("forces.motor.coefficients[2]"), "N*m/(rpm)^2");
  // The ramp is a pure factor of time: c_k in 1/s^k.
  EXPECT_EQ(unit("forces.motor.ramp.coefficients[0]"), "1");
  EXPECT_EQ(unit("forces.motor.ramp.coefficients[1]"), "1/s");
  EXPECT_EQ(unit("forces.motor.ramp.coefficients[2]"), "1/s^2");
  EXPECT_EQ(unit("solver.step"), "s");
  EXPECT_EQ(unit("solver.rtol"), "1");
  EXPECT_EQ(unit("solver.atol"), "");  // m for lengths, rad for angles: no single unit
  // A sensor's noise is in its channel's unit.
  EXPECT_EQ(unit("sensors.encoder.noise"), "rad");
  EXPECT_EQ(unit("sensors.accelerometer.noise"), "m/s^2");
  EXPECT_EQ(unit("sensors.encoder.rate"), "Hz");
  // Not a number the reader read: no unit.
  EXPECT_EQ(unit("bodies.arm"), "");
  EXPECT_EQ(unit("bodies.crank.mass"), "");
  EXPECT_EQ(lm.units.count("joints.pivot.type"), 0u);
}

TEST(ModelUnits, AnOverriddenNumberKeepsItsPathAndUnit) {
  const LoadedModel lm = load_model_string(
      kModel, "units.yaml",
      {parse_override("joints.pivot.clearance.radial=0.1e-3"),
       parse_override("forces.twist.free_angle=0.2"), parse_override("bodies.arm.mass=2")});
  EXPECT_EQ(unit_at(lm, "joints.pivot.clearance.radial"), "m");
  EXPECT_EQ(unit_at(lm, "forces.twist.free_angle"), "rad");  // added by the override
  EXPECT_EQ(unit_at(lm, "bodies.arm.mass"), "kg");
}

// A sensitivity column's unit is its channel's per its parameter's, as the model file reads it.
TEST(ModelUnits, ASensitivityColumnIsInTheChannelsUnitPerTheParameters) {
  const LoadedModel lm = load_model_string(kModel, "units.yaml");
  EXPECT_EQ(column_unit(lm, "d(arm.acceleration.y)/d(bodies.arm.mass)"), "m/s^2/kg");
  EXPECT_EQ(column_unit(lm, "d(arm.position.x)/d(forces.twist.damping)"), "m/(N*m*s/rad)");
  EXPECT_EQ(column_unit(lm, "d(arm.position.x)/d(joints.pivot.clearance.restitution)"), "m");
  EXPECT_EQ(column_unit(lm, "d(arm.position.x)/d(solver.atol)"), "m/[solver.atol]");
  EXPECT_EQ(column_unit(lm, "d(system.constraint_violation)/d(bodies.arm.mass)"), "");
  EXPECT_EQ(column_unit(lm, "arm.velocity.x"), "m/s");
  // Without the model, the parameter's unit is not known: the path stands for it.
  EXPECT_EQ(channel_unit("d(arm.acceleration.y)/d(bodies.arm.mass)"), "m/s^2/[bodies.arm.mass]");
  EXPECT_EQ(column_units(lm, {"arm.rotation.z", "d(arm.rotation.z)/d(gravity[1])"}),
            (std::vector<std::string>{"rad", "rad/(m/s^2)"}));
}

// Angles given in degrees are in degrees in the file: the unit of the number written there.
TEST(ModelUnits, AnAngleUnitOfTheFileIsTheNumbersUnit) {
  const char* const text = R"(bodies:
  arm: {mass: 1.0, inertia: [0.03, 0.03, 0.03], position: [0.3, 0, 0]}
joints:
  pivot:
    type: revolute
    bodies: [ground, arm]
    at: [0, 0, 0]
    axis: [0, 0, 1]
    limits: {lower: -30, upper: 45, angle_unit: deg, stiffness: 1e4, damping: 2}
)";
  const LoadedModel lm = load_model_string(text, "deg.yaml");
  EXPECT_EQ(unit_at(lm, "joints.pivot.limits.lower"), "deg");
  EXPECT_EQ(unit_at(lm, "joints.pivot.limits.upper"), "deg");
  EXPECT_EQ(unit_at(lm, "joints.pivot.limits.stiffness"), "N*m/rad");
  EXPECT_EQ(unit_at(lm, "joints.pivot.limits.damping"), "N*m*s/rad");
}

}  // namespace
}  // namespace cs
