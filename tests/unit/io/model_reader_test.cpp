// The YAML model-file reader: a model with every section reads into the expected Model and
// RunSettings; every <function>, inertia and orientation form; exact messages (with line and
// column) for bad input; every file in tests/models/bad rejected with its `# expect:` message at
// its `# at:` position; and no input makes it throw anything but ModelFileError.
#include "clearsim/io/model_reader.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <regex>
#include <string>

#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/elements/joints/joint_driver.hpp"
#include "clearsim/math/so3.hpp"

namespace cs {
namespace {

constexpr double kTol = 1e-12;

const char* const kFullModel = R"(model: slider_crank
gravity: [0, 0, -9.81]
bodies:
  crank:
    mass: 0.3
    inertia: [1.0e-5, 2.0e-5, 2.5e-5]
    position: [0.025, 0, 0]
    orientation: {axis: [0, 0, 2], angle: 0.5}
    angular_velocity: [0, 0, 523.599]
  rod:
    mass: 0.21
    inertia: {xx: 2.5e-4, yy: 2.5e-4, zz: 3.0e-4, xy: 1.0e-5}
    position: [0.11, 0, 0]
    velocity: [1, 2, 3]
  slider: {mass: 0.14, inertia: [[1e-6, 0, 0], [0, 2e-6, 0], [0, 0, 2e-6]], position: [0.17, 0, 0]}
markers:
  crank_tip: {body: crank, position: [0.05, 0, 0]}
  origin: {body: ground, position: [0, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, crank], at: [0, 0, 0], axis: [0, 0, 1]}
  crank_rod: {type: spherical, bodies: [crank, rod], at: [0.05, 0, 0]}
  rod_slider:
    type: universal
    bodies: [rod, slider]
    at: [0.17, 0, 0]
    axes: [[0, 0, 1], [0, 1, 0]]
  guide: {type: prismatic, bodies: [ground, slider], axis: [1, 0, 0]}
drivers:
  crank_speed: {joint: pivot, angular_velocity: 523.599}
forces:
  load: {type: point_load, body: slider, force: [10, 0, {type: ramp, slope: 2}], torque: [0, 0, 1]}
  spring: {type: spring_damper, bodies: [ground, slider], points: [[0.3, 0, 0], [0.17, 0, 0]],
           stiffness: 1000, damping: 2, preload: 5}
  twist: {type: rotational_spring_damper, joint: pivot, stiffness: 0.5, free_angle: 0.1}
  motor: {type: speed_torque, joint: pivot, coefficients: [1, -0.01, 1e-5], speed_unit: rpm,
          oppose_motion: true}
solver:
  analysis: dynamic
  integrator: newmark
  beta: 0.3
  gamma: 0.6
  step: 1.0e-5
  end: 0.3
  adaptive: true
  rtol: 1e-5
  atol: 1e-7
  min_step: 1e-10
  max_step: 1e-4
  newton_tol: 1e-9
  max_newton_iterations: 12
  newton: modified
  linear_solver: sparse
output:
  every: 10
  channels: [slider.position.x, crank_speed.torque, system.kinetic_energy]
  file: results.csv
  progress: false
)";

// The message of the ModelFileError that reading `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    load_model_string(text, "m.yaml");
  } catch (const ModelFileError& e) {
    return e.what();
  }
  return "";
}

const Element& element(const Model& m, const std::string& name) {
  const Element* e = m.find_element(name);
  EXPECT_NE(e, nullptr) << name;
  return *e;
}

TEST(ModelReader, ReadsEverySection) {
  const LoadedModel lm = load_model_string(kFullModel, "slider.yaml");
  const Model& m = lm.model;
  EXPECT_EQ(lm.path, "slider.yaml");
  EXPECT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  EXPECT_EQ(m.name, "slider_crank");
  EXPECT_TRUE(m.gravity_W.isApprox(Vec3(0, 0, -9.81)));

  ASSERT_EQ(m.num_bodies(), 3);
  const Body& crank = m.bodies[0];
  EXPECT_EQ(crank.name, "crank");
  EXPECT_DOUBLE_EQ(crank.mass, 0.3);
  EXPECT_TRUE(crank.inertia_B.isApprox(Vec3(1.0e-5, 2.0e-5, 2.5e-5).asDiagonal().toDenseMatrix()));
  EXPECT_TRUE(crank.x0_W.isApprox(Vec3(0.025, 0, 0)));
  EXPECT_TRUE(crank.R0_WB.isApprox(so3::exp(Vec3(0, 0, 0.5)), kTol));
  EXPECT_FALSE(crank.v0_prescribed);
  EXPECT_TRUE(crank.w0_prescribed);
  EXPECT_TRUE(crank.w0_W.isApprox(Vec3(0, 0, 523.599)));
  const Body& rod = m.bodies[1];
  EXPECT_TRUE(rod.v0_prescribed);
  EXPECT_FALSE(rod.w0_prescribed);
  EXPECT_TRUE(rod.v0_W.isApprox(Vec3(1, 2, 3)));
  EXPECT_TRUE(rod.R0_WB.isIdentity());
  EXPECT_DOUBLE_EQ(m.bodies[2].inertia_B(2, 2), 2e-6);

  ASSERT_EQ(m.markers.size(), 2u);
  const NamedMarker* tip = m.find_marker("crank_tip");
  ASSERT_NE(tip, nullptr);
  EXPECT_EQ(tip->marker.body, 0);
  // World point (0.05, 0, 0) seen from the crank, rotated by 0.5 rad about z.
  EXPECT_TRUE(tip->marker.p_B.isApprox(so3::exp(Vec3(0, 0, -0.5)) * Vec3(0.025, 0, 0), kTol));
  EXPECT_EQ(m.find_marker("origin")->marker.body, kGround);

  ASSERT_EQ(m.elements.size(), 9u);
  const auto& pivot = dynamic_cast<const joints::IdealJoint&>(element(m, "pivot"));
  EXPECT_EQ(pivot.type(), joints::JointType::kRevolute);
  EXPECT_EQ(pivot.body_i(), kGround);
  EXPECT_EQ(pivot.body_j(), 0);
  EXPECT_TRUE(pivot.marker_i().R_BM.col(2).isApprox(Vec3::UnitZ(), kTol));
  const auto& guide = dynamic_cast<const joints::IdealJoint&>(element(m, "guide"));
  EXPECT_EQ(guide.type(), joints::JointType::kPrismatic);
  // Default location of a prismatic joint: the second body's centre of mass.
  EXPECT_TRUE(guide.marker_i().p_B.isApprox(Vec3(0.17, 0, 0), kTol));
  EXPECT_TRUE(guide.marker_i().R_BM.col(2).isApprox(Vec3::UnitX(), kTol));
  const auto& cross = dynamic_cast<const joints::IdealJoint&>(element(m, "rod_slider"));
  EXPECT_EQ(cross.type(), joints::JointType::kUniversal);
  EXPECT_EQ(element(m, "crank_rod").kind(), "spherical");

  const auto& driver = dynamic_cast<const joints::JointDriver&>(element(m, "crank_speed"));
  EXPECT_NEAR(driver.target_d1(0.1), 523.599, 1e-9);
  EXPECT_NEAR(driver.target(0.1), 52.3599, 1e-9);

  EXPECT_EQ(element(m, "load").kind(), "point_load");
  EXPECT_EQ(element(m, "load").body_i(), 2);
  EXPECT_EQ(element(m, "spring").kind(), "spring_damper");
  EXPECT_EQ(element(m, "twist").kind(), "rotational_spring_damper");
  EXPECT_EQ(element(m, "motor").kind(), "speed_torque");

  const SolverSettings& s = lm.run.solver;
  EXPECT_EQ(s.analysis, Analysis::kDynamic);
  EXPECT_EQ(s.integrator, IntegratorKind::kNewmark);
  EXPECT_DOUBLE_EQ(s.newmark_beta, 0.3);
  EXPECT_DOUBLE_EQ(s.newmark_gamma, 0.6);
  EXPECT_DOUBLE_EQ(s.step, 1.0e-5);
  EXPECT_DOUBLE_EQ(s.end, 0.3);
  EXPECT_TRUE(s.adaptive);
  EXPECT_DOUBLE_EQ(s.rtol, 1e-5);
  EXPECT_DOUBLE_EQ(s.atol, 1e-7);
  EXPECT_DOUBLE_EQ(s.min_step, 1e-10);
  EXPECT_DOUBLE_EQ(s.max_step, 1e-4);
  EXPECT_DOUBLE_EQ(s.newton_tol, 1e-9);
  EXPECT_EQ(s.max_newton_iterations, 12);
  EXPECT_EQ(s.newton, NewtonMode::kModified);
  EXPECT_EQ(s.linear_solver, LinearSolverKind::kSparse);

  const OutputSettings& o = lm.run.output;
  EXPECT_EQ(o.every, 10);
  EXPECT_EQ(o.channels, (std::vector<std::string>{"slider.position.x", "crank_speed.torque",
                                                  "system.kinetic_energy"}));
  EXPECT_EQ(o.file, "results.csv");
  EXPECT_FALSE(o.progress);
}

TEST(ModelReader, MinimalModelTakesTheDefaults) {
  const LoadedModel lm = load_model_string(
      "bodies:\n  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n", "dir/pendulum.yaml");
  EXPECT_EQ(lm.model.name, "pendulum");
  EXPECT_TRUE(lm.model.gravity_W.isZero());
  EXPECT_TRUE(lm.model.elements.empty());
  const RunSettings defaults;
  EXPECT_EQ(lm.run.solver.integrator, defaults.solver.integrator);
  EXPECT_EQ(lm.run.solver.rho_inf, defaults.solver.rho_inf);
  EXPECT_EQ(lm.run.solver.step, defaults.solver.step);
  EXPECT_EQ(lm.run.solver.end, defaults.solver.end);
  EXPECT_EQ(lm.run.output.every, defaults.output.every);
  EXPECT_TRUE(lm.run.output.channels.empty());
  // Empty optional sections are the same as missing ones.
  const LoadedModel empty_sections = load_model_string(
      "bodies:\n  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\nmarkers:\njoints:\n"
      "drivers:\nforces:\nsolver:\noutput:\n",
      "x.yaml");
  EXPECT_TRUE(empty_sections.model.elements.empty());
}

// A model whose driver `d` prescribes the angle of a revolute joint as `function`.
const joints::JointDriver& driver_of(const LoadedModel& lm) {
  return dynamic_cast<const joints::JointDriver&>(*lm.model.find_element("d"));
}
LoadedModel with_angle(const std::string& function) {
  return load_model_string(
      "bodies:\n  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n"
      "joints:\n  j: {type: revolute, bodies: [ground, b], at: [0, 0, 0], axis: [0, 0, 1]}\n"
      "drivers:\n  d: {joint: j, angle: " +
          function + "}\n",
      "f.yaml");
}

TEST(ModelReader, FunctionForms) {
  EXPECT_DOUBLE_EQ(driver_of(with_angle("1.5")).target(3.0), 1.5);
  EXPECT_DOUBLE_EQ(driver_of(with_angle("{type: constant, value: -2}")).target(3.0), -2.0);
  const LoadedModel ramp = with_angle("{type: ramp, initial: 1, slope: 2, start: 0.5}");
  EXPECT_DOUBLE_EQ(driver_of(ramp).target(0.25), 1.0);
  EXPECT_DOUBLE_EQ(driver_of(ramp).target(1.5), 3.0);
  EXPECT_DOUBLE_EQ(driver_of(with_angle("{type: ramp, slope: 2}")).target(1.5), 3.0);
  const LoadedModel poly = with_angle("{type: polynomial, coefficients: [1, 2, 3]}");
  EXPECT_DOUBLE_EQ(driver_of(poly).target(2.0), 1.0 + 4.0 + 12.0);
  const LoadedModel harmonic =
      with_angle("{type: harmonic, amplitude: 2, frequency: 0.25, phase: 0.1, offset: 1}");
  EXPECT_NEAR(driver_of(harmonic).target(1.0),
              1.0 + 2.0 * std::sin(2.0 * std::numbers::pi * 0.25 + 0.1), kTol);
  const LoadedModel step = with_angle("{type: smooth_step, t0: 1, v0: 2, t1: 3, v1: 6}");
  EXPECT_DOUBLE_EQ(driver_of(step).target(0.5), 2.0);
  EXPECT_DOUBLE_EQ(driver_of(step).target(2.0), 4.0);
  EXPECT_DOUBLE_EQ(driver_of(step).target(4.0), 6.0);
}

LoadedModel with_body(const std::string& extra) {
  return load_model_string("bodies:\n  b: {mass: 1, position: [1, 2, 3], " + extra + "}\n",
                           "b.yaml");
}

TEST(ModelReader, InertiaForms) {
  Mat3 expected;
  expected << 4, 0.5, -0.25, 0.5, 5, 0.125, -0.25, 0.125, 6;
  EXPECT_TRUE(with_body("inertia: [4, 5, 6]")
                  .model.bodies[0]
                  .inertia_B.isApprox(Vec3(4, 5, 6).asDiagonal().toDenseMatrix()));
  EXPECT_TRUE(with_body("inertia: [[4, 0.5, -0.25], [0.5, 5, 0.125], [-0.25, 0.125, 6]]")
                  .model.bodies[0]
                  .inertia_B.isApprox(expected));
  EXPECT_TRUE(with_body("inertia: {xx: 4, yy: 5, zz: 6, xy: 0.5, xz: -0.25, yz: 0.125}")
                  .model.bodies[0]
                  .inertia_B.isApprox(expected));
  EXPECT_TRUE(with_body("inertia: {xx: 4, yy: 5, zz: 6}")
                  .model.bodies[0]
                  .inertia_B.isApprox(Vec3(4, 5, 6).asDiagonal().toDenseMatrix()));
  // Moments that no real body has are accepted with a warning.
  const LoadedModel odd = with_body("inertia: [1, 1, 3]");
  ASSERT_EQ(odd.warnings.size(), 1u);
  EXPECT_EQ(odd.warnings[0],
            "b.yaml:2:46: warning: bodies.b.inertia: principal moments 1, 1, 3 break the triangle "
            "inequality I3 <= I1 + I2 that every real body satisfies");
}

TEST(ModelReader, OrientationForms) {
  const Mat3 R = so3::exp(Vec3(1, -2, 0.5).normalized() * 0.7);
  const LoadedModel axis_angle =
      with_body("inertia: [1, 1, 1], orientation: {axis: [1, -2, 0.5], angle: 0.7}");
  EXPECT_TRUE(axis_angle.model.bodies[0].R0_WB.isApprox(R, kTol));
  // A matrix given to 7 digits is accepted and made exactly orthonormal.
  std::ostringstream rows;
  rows.precision(7);
  rows << "inertia: [1, 1, 1], orientation: [";
  for (int r = 0; r < 3; ++r)
    rows << (r ? ", " : "") << "[" << R(r, 0) << ", " << R(r, 1) << ", " << R(r, 2) << "]";
  rows << "]";
  const Mat3 read = with_body(rows.str()).model.bodies[0].R0_WB;
  EXPECT_TRUE(read.isApprox(R, 1e-6));
  EXPECT_NEAR((read.transpose() * read - Mat3::Identity()).norm(), 0.0, 1e-14);
}

TEST(ModelReader, SettingsWarnings) {
  const LoadedModel lm = load_model_string(
      "bodies:\n  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n"
      "solver:\n  integrator: generalized_alpha\n  beta: 0.3\n  rtol: 1e-4\n",
      "w.yaml");
  ASSERT_EQ(lm.warnings.size(), 2u);
  EXPECT_EQ(lm.warnings[0],
            "w.yaml:5:3: warning: solver.beta is ignored: beta and gamma are used by the newmark "
            "integrator only");
  EXPECT_EQ(lm.warnings[1],
            "w.yaml:6:3: warning: solver.rtol is ignored: step-size control is off (adaptive: "
            "false)");
}

const std::string kBody =
    "bodies:\n  crank: {mass: 0.3, inertia: [1, 1, 1], position: [0, 0, 0]}\n";

TEST(ModelReader, ErrorMessagesNameFileLineColumnExpectedAndFound) {
  EXPECT_EQ(error_of("bodies:\n  crank:\n    mass: -0.3\n"),
            "m.yaml:3:11: error: bodies.crank.mass: expected a positive number [kg], found '-0.3'");
  EXPECT_EQ(error_of("bodies:\n  crank: {mas: 1}\n"),
            "m.yaml:2:11: error: unknown key 'mas' in body 'crank' (allowed: mass, inertia, "
            "position, orientation, velocity, angular_velocity); did you mean 'mass'?");
  EXPECT_EQ(error_of("bodies:\n  crank: {mass: 1, inertia: [1, 1, 1]}\n"),
            "m.yaml:2:3: error: bodies.crank: missing required key 'position' (the centre of mass, "
            "a list of 3 numbers [m])");
  EXPECT_EQ(error_of("bodies:\n  crank: {mass: 1, inertia: [1, 1, 1], position: [0, x, 0]}\n"),
            "m.yaml:2:54: error: bodies.crank.position[1]: expected a number [m], found 'x'");
  EXPECT_EQ(error_of(kBody + "joints:\n  j: {type: revolute, bodies: [ground, crank], at: [0, 0, "
                             "0], axis: {x: 1}}\n"),
            "m.yaml:4:69: error: joints.j.axis: expected a list of 3 numbers, found a map (keys: "
            "x)");
  EXPECT_EQ(error_of(kBody + "solver: {step: 1e-3, end: 2, rho_inf: .nan}\n"),
            "m.yaml:3:39: error: solver.rho_inf: expected a number, found '.nan'");
  EXPECT_EQ(error_of(kBody + "solver: {integrator: hht, rho_inf: 0.3}\n"),
            "m.yaml:3:36: error: solver.rho_inf: expected a number in [0.5, 1] for the hht "
            "integrator, found '0.3'");
  EXPECT_EQ(error_of(kBody + "output: {every: 010}\n"), "");  // decimal, not octal
  EXPECT_EQ(load_model_string(kBody + "output: {every: 010}\n", "m.yaml").run.output.every, 10);
  EXPECT_EQ(error_of(kBody + "output: {every: 2.5}\n"),
            "m.yaml:3:17: error: output.every: expected a positive integer, found '2.5'");
  EXPECT_EQ(error_of(kBody + "output: {channels: slider.x}\n"),
            "m.yaml:3:20: error: output.channels: expected a list of channel names, found "
            "'slider.x'");
  EXPECT_EQ(error_of(kBody + "bodies: {}\n"),
            "m.yaml:3:1: error: duplicate key 'bodies' at the top level (first given at line 1, "
            "column 1)");
  EXPECT_EQ(
      error_of("bodies:\n  a: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n"
               "forces:\n  s: {type: spring_damper, bodies: [a, a], points: [[0, 0, 0], [1, 0, "
               "0]], stiffness: 1}\n"),
      "m.yaml:4:36: error: forces.s.bodies: expected two different bodies, found 'a' twice");
}

TEST(ModelReader, BuilderErrorsCarryThePositionOfTheItem) {
  EXPECT_EQ(error_of(kBody + "markers:\n  crank: {body: crank, position: [0, 0, 0]}\n"),
            "m.yaml:4:3: error: name 'crank' is already used (names are shared by bodies, markers "
            "and elements; 'ground' and 'system' are reserved)");
  EXPECT_EQ(
      error_of(kBody + "joints:\n  j: {type: prismatic, bodies: [ground, crank], axis: [1, 0, "
                       "0]}\ndrivers:\n  d: {joint: j, angular_velocity: 1}\n"),
      "m.yaml:6:17: error: driver 'd': a rotation needs a revolute or cylindrical joint, 'j' "
      "is prismatic");
}

TEST(ModelReader, ErrorCarriesItsParts) {
  try {
    load_model_string("bodies:\n  b: {mass: 0}\n", "p.yaml");
    FAIL() << "no error";
  } catch (const ModelFileError& e) {
    EXPECT_EQ(e.file(), "p.yaml");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 13);
    EXPECT_EQ(e.message(), "bodies.b.mass: expected a positive number [kg], found '0'");
  }
}

TEST(ModelReader, MissingFile) {
  try {
    load_model_file("/nonexistent/model.yaml");
    FAIL() << "no error";
  } catch (const ModelFileError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/model.yaml: error: cannot open", 0), 0u)
        << e.what();
  }
}

// Whatever the input, the reader throws ModelFileError with a position, or succeeds.
TEST(ModelReader, NeverThrowsAnythingElse) {
  const std::vector<std::string> inputs = {
      "",
      "~",
      "[]",
      "{}",
      "42",
      "'text'",
      ",a: 1",
      "- 1\n,",
      "[1],",
      "bodies: 5",
      "bodies:\n  - a\n",
      "bodies:\n  ? [a, b]\n  : {}\n",
      "bodies: {a: 5}",
      "bodies: {a: {mass: [1]}}",
      "bodies: {a: {mass: 1, inertia: [[1, 2], [3]], position: 0}}",
      "bodies: {a: {mass: 1, inertia: {xx: 1}, position: [0, 0, 0]}}",
      "bodies: {a: {mass: 1e999, inertia: [1, 1, 1], position: [0, 0, 0]}}",
      "bodies: {a: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0], orientation: [[]]}}",
      "bodies: &x {a: *x}",
      "a: *undefined",
      "bodies: !!binary abc",
      std::string(3, '\0'),
      "bodies:\n\tcrank: 1",
      std::string(5000, '[') + std::string(5000, ']'),
      "%YAML 1.2\n---\n",
      kBody + "joints: {j: {type: universal, bodies: [ground, crank], at: [0, 0, 0], axes: [[1]]}}",
      kBody + "joints: {j: {type: [revolute]}}",
      kBody + "drivers: {d: {joint: crank, angle: 1}}",
      kBody + "forces: {f: {type: point_load, body: ground, force: [1, 2, 3]}}",
      kBody + "forces: {f: {type: point_load, body: crank, force: [{type: ramp}, 0, 0]}}",
      kBody + "solver: {step: 2}",
      kBody + "solver: {max_newton_iterations: 99999999999999}"};
  for (const std::string& text : inputs) {
    try {
      load_model_string(text, "n.yaml");
    } catch (const ModelFileError& e) {
      EXPECT_GE(e.line(), 1) << text;
      EXPECT_GE(e.column(), 1) << text;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception for '" << text << "': " << e.what();
    }
  }
}

// Every tests/models/bad/<name>.yaml starts with "# expect: <regex>" and "# at: LINE:COL".
TEST(ModelReader, BadModelFilesAreRejectedWithTheirMessage) {
  const std::filesystem::path dir = std::filesystem::path(CLEARSIM_SOURCE_DIR) / "tests/models/bad";
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    ++count;
    std::ifstream in(entry.path());
    std::string expect_line, at_line;
    std::getline(in, expect_line);
    std::getline(in, at_line);
    ASSERT_EQ(expect_line.rfind("# expect: ", 0), 0u) << entry.path();
    ASSERT_EQ(at_line.rfind("# at: ", 0), 0u) << entry.path();
    const std::string name = entry.path().filename().string();
    try {
      load_model_file(entry.path().string());
      ADD_FAILURE() << name << " was accepted";
    } catch (const ModelFileError& e) {
      const std::string what = e.what();
      const std::regex pattern(std::regex_replace(name, std::regex("\\."), "\\.") +
                               ":[0-9]+:[0-9]+: .*" + expect_line.substr(10));
      EXPECT_TRUE(std::regex_search(what, pattern)) << what << "\n  expected: " << expect_line;
      EXPECT_EQ(std::to_string(e.line()) + ":" + std::to_string(e.column()), at_line.substr(6))
          << what;
    }
  }
  EXPECT_GE(count, 14);
}

}  // namespace
}  // namespace cs
