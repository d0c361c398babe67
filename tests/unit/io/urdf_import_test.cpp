// URDF import (a model file's `urdf:` key, docs/model-format.md "URDF import"): the round trip of
// masses, inertias and joint axes, including a link whose inertial frame is rotated; the imported
// example arm against the same arm written by hand, bit for bit; bad input named with its URDF
// line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "clearsim/elements/forces/joint_limit.hpp"
#include "clearsim/elements/joints/ideal_joint.hpp"
#include "clearsim/geometry/triangle_mesh.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/model/shape.hpp"
#include "support/channel_recorder.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

namespace fs = std::filesystem;

// A folder of its own for each test's files.
fs::path scratch(const std::string& test) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("clearsim_urdf_" + test);
  fs::create_directories(dir);
  return dir;
}

std::string write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

// Rotation of URDF rpy (fixed axes x, then y, then z): R = Rz(yaw) Ry(pitch) Rx(roll).
Mat3 rpy(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Vec3::UnitZ()) * Eigen::AngleAxisd(pitch, Vec3::UnitY()) *
          Eigen::AngleAxisd(roll, Vec3::UnitX()))
      .toRotationMatrix();
}

const joints::IdealJoint& joint(const Model& m, const std::string& name) {
  const auto* j = dynamic_cast<const joints::IdealJoint*>(m.find_element(name));
  EXPECT_NE(j, nullptr) << name;
  return *j;
}

// The joint's axis in the world at the reference configuration (marker i's z).
Vec3 axis_W(const Model& m, const joints::IdealJoint& j) {
  const Marker& mi = j.marker_i();
  const Mat3 R_WB = mi.body == kGround ? Mat3::Identity() : m.bodies[mi.body].R0_WB;
  return R_WB * mi.R_BM.col(2);
}

// Two links: `link1` on a revolute about a tilted axis of a rotated joint frame, `link2` with its
// inertial frame rotated and full products of inertia, on a prismatic joint.
const char* const kTwoLinks = R"(<?xml version="1.0"?>
<robot name="two">
  <link name="world"/>
  <joint name="hinge" type="continuous">
    <parent link="world"/>
    <child link="link1"/>
    <origin xyz="0.1 0.2 0.3" rpy="0 0 1.5707963267948966"/>
    <axis xyz="0 1 1"/>
  </joint>
  <link name="link1">
    <inertial>
      <origin xyz="0.5 0 0"/>
      <mass value="2.5"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.25"/>
    </inertial>
  </link>
  <joint name="slide" type="prismatic">
    <parent link="link1"/>
    <child link="link2"/>
    <origin xyz="1 0 0" rpy="0.3 0 0"/>
    <axis xyz="1 0 0"/>
    <limit lower="0" upper="0.2" effort="10" velocity="1"/>
  </joint>
  <link name="link2">
    <inertial>
      <origin xyz="0 0.1 0" rpy="0.2 -0.4 0.7"/>
      <mass value="0.75"/>
      <inertia ixx="0.03" ixy="-0.002" ixz="0.001" iyy="0.04" iyz="0.003" izz="0.05"/>
    </inertial>
  </link>
</robot>
)";

TEST(UrdfImport, MassesInertiasAndAxesEqualTheFile) {
  const fs::path dir = scratch("round_trip");
  write(dir / "two.urdf", kTwoLinks);
  const LoadedModel lm = load_model_string("urdf: two.urdf\n", (dir / "model.yaml").string());
  const Model& m = lm.model;
  ASSERT_EQ(m.bodies.size(), 2u);  // the root link is the ground
  const Body& b1 = m.bodies[*m.find_body("link1")];
  const Body& b2 = m.bodies[*m.find_body("link2")];
  EXPECT_EQ(b1.mass, 2.5);
  EXPECT_EQ(b2.mass, 0.75);
  // The body frame is the inertial frame: the file's tensor, entry for entry.
  EXPECT_EQ(b1.inertia_B, Vec3(0.1, 0.2, 0.25).asDiagonal().toDenseMatrix());
  Mat3 J2;
  J2 << 0.03, -0.002, 0.001, -0.002, 0.04, 0.003, 0.001, 0.003, 0.05;
  EXPECT_EQ(b2.inertia_B, J2);
  // Frames composed from the root: joint frames, then the inertial frame (to round-off of the
  // quaternions urdfdom keeps, 1e-15).
  const Mat3 R1 = rpy(0, 0, std::numbers::pi / 2);
  const Vec3 p1(0.1, 0.2, 0.3);
  EXPECT_LT((b1.R0_WB - R1).norm(), 1e-15);
  EXPECT_LT((b1.x0_W - (p1 + R1 * Vec3(0.5, 0, 0))).norm(), 1e-15);
  const Mat3 R2 = R1 * rpy(0.3, 0, 0);
  const Vec3 p2 = p1 + R1 * Vec3(1, 0, 0);
  EXPECT_LT((b2.R0_WB - R2 * rpy(0.2, -0.4, 0.7)).norm(), 1e-15);
  EXPECT_LT((b2.x0_W - (p2 + R2 * Vec3(0, 0.1, 0))).norm(), 1e-15);
  // Axes: the file's, given in the joint frame, seen in the world.
  const auto& hinge = joint(m, "hinge");
  EXPECT_EQ(hinge.type(), joints::JointType::kRevolute);  // continuous → revolute
  EXPECT_LT((axis_W(m, hinge) - R1 * Vec3(0, 1, 1).normalized()).norm(), 1e-15);
  const auto& slide = joint(m, "slide");
  EXPECT_EQ(slide.type(), joints::JointType::kPrismatic);
  EXPECT_LT((axis_W(m, slide) - R2 * Vec3(1, 0, 0)).norm(), 1e-15);
  // The prismatic joint's <limit> becomes its stops: the range, a stiffness that the effort
  // (10 N) presses in by 0.1 mm, damping that stiffness × 1 ms.
  EXPECT_TRUE(lm.warnings.empty());
  const auto* stops = dynamic_cast<const forces::JointLimit*>(m.find_element("slide_limits"));
  ASSERT_NE(stops, nullptr);
  EXPECT_EQ(stops->params().lower, 0.0);
  EXPECT_EQ(stops->params().upper, 0.2);
  EXPECT_DOUBLE_EQ(stops->params().stiffness, 1.0e5);
  EXPECT_DOUBLE_EQ(stops->params().damping, 100.0);
}

TEST(UrdfImport, LimitsMapMergesKeyByKey) {
  const fs::path dir = scratch("limits_merge");
  write(dir / "two.urdf", kTwoLinks);
  const LoadedModel lm =
      load_model_string("urdf: two.urdf\njoints:\n  slide: {limits: {stiffness: 3.0e5}}\n",
                        (dir / "model.yaml").string());
  const auto* stops =
      dynamic_cast<const forces::JointLimit*>(lm.model.find_element("slide_limits"));
  ASSERT_NE(stops, nullptr);
  EXPECT_EQ(stops->params().stiffness, 3.0e5);  // the file's
  EXPECT_EQ(stops->params().upper, 0.2);        // the URDF's
  EXPECT_DOUBLE_EQ(stops->params().damping, 100.0);
}

// A limit without effort cannot size its stops, and a range of a full turn has none: both are
// left out and named in one warning.
TEST(UrdfImport, LimitsThatCannotBeStopsAreNamed) {
  const fs::path dir = scratch("limits_unsized");
  std::string urdf = kTwoLinks;
  urdf.replace(urdf.find("effort=\"10\""), 11, "effort=\"0\"");
  urdf.replace(urdf.find("type=\"continuous\""), 17, "type=\"revolute\"");
  urdf.replace(
      urdf.find("<axis xyz=\"0 1 1\"/>"), 19,
      "<axis xyz=\"0 1 1\"/><limit lower=\"-4\" upper=\"4\" effort=\"5\" velocity=\"1\"/>");
  write(dir / "two.urdf", urdf);
  const LoadedModel lm = load_model_string("urdf: two.urdf\n", (dir / "model.yaml").string());
  EXPECT_EQ(lm.model.find_element("slide_limits"), nullptr);
  EXPECT_EQ(lm.model.find_element("hinge_limits"), nullptr);
  ASSERT_EQ(lm.warnings.size(), 1u);
  const std::string& w = lm.warnings[0];
  EXPECT_NE(w.find("position limits not enforced"), std::string::npos) << w;
  EXPECT_NE(w.find("hinge: a range of a full turn or more"), std::string::npos) << w;
  EXPECT_NE(w.find("slide: no effort limit"), std::string::npos) << w;
}

TEST(UrdfImport, ExampleArmMatchesTheFile) {
  const LoadedModel lm = load_model_file(testing::example_path("urdf_arm", "model_ideal.yaml"));
  const Model& m = lm.model;
  struct Link {
    const char* name;
    double mass;
    Vec3 moments;
  };
  for (const Link& l : {Link{"turret", 4, {0.015625, 0.015625, 0.0078125}},
                        Link{"upper_arm", 3, {0.00390625, 0.0625, 0.0625}},
                        Link{"forearm", 1.5, {0.0009765625, 0.017578125, 0.017578125}},
                        Link{"tool", 0.5, Vec3::Constant(0.0001220703125)}}) {
    const Body& b = m.bodies[*m.find_body(l.name)];
    EXPECT_EQ(b.mass, l.mass) << l.name;
    EXPECT_EQ(b.inertia_B, l.moments.asDiagonal().toDenseMatrix()) << l.name;
  }
  EXPECT_EQ(axis_W(m, joint(m, "shoulder_yaw")), Vec3(0, 0, 1));
  EXPECT_EQ(axis_W(m, joint(m, "shoulder_pitch")), Vec3(0, 1, 0));
  EXPECT_EQ(axis_W(m, joint(m, "elbow")), Vec3(0, 1, 0));
  EXPECT_EQ(joint(m, "tool_mount").type(), joints::JointType::kFixed);
}

// Runs a model for `end` seconds and returns every output row of `channels`.
std::vector<std::vector<double>> run_rows(LoadedModel lm, double end,
                                          const std::vector<std::string>& channels) {
  lm.run.solver.end = end;
  lm.run.output.every = 1;
  System sys(lm.model);
  ChannelSet set(sys, channels);
  testing::ChannelRecorder rec(set);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, lm.run, rec, s, notes);
  EXPECT_TRUE(stats.ok) << stats.message;
  return rec.rows;
}

TEST(UrdfImport, ImportedArmRunsBitForBitAsTheArmWrittenByHand) {
  // 0.4 s = 2000 steps: through the start of the move (t0 = 0.2 s), all three joints turning.
  const std::vector<std::string> channels = {
      "tip.position.x", "tip.position.y",     "tip.position.z", "yaw.torque",
      "pitch.torque",   "elbow_motor.torque", "elbow.force.z",  "system.kinetic_energy"};
  const auto imported = run_rows(
      load_model_file(testing::example_path("urdf_arm", "model_ideal.yaml")), 0.4, channels);
  const auto by_hand = run_rows(
      load_model_file(testing::example_path("urdf_arm", "model_by_hand.yaml")), 0.4, channels);
  ASSERT_EQ(imported.size(), 2001u);
  ASSERT_EQ(imported.size(), by_hand.size());
  for (std::size_t k = 0; k < imported.size(); ++k)
    ASSERT_EQ(imported[k], by_hand[k]) << "row " << k;
  EXPECT_GT(std::abs(imported.back()[0] - imported.front()[0]), 1e-3);  // the arm did move
}

// --- bad input -------------------------------------------------------------------------------

// The message of loading `urdf` (written as bad.urdf next to the model file).
std::string error_of(const std::string& test, const std::string& urdf) {
  const fs::path dir = scratch(test);
  write(dir / "bad.urdf", urdf);
  try {
    load_model_string("urdf: bad.urdf\n", (dir / "model.yaml").string());
  } catch (const ModelFileError& e) {
    return e.what();
  }
  return "no error";
}

std::string robot(const std::string& body) {
  return "<robot name=\"r\">\n  <link name=\"base\"/>\n" + body + "</robot>\n";
}

const std::string kArmJoint =
    "  <joint name=\"j\" type=\"revolute\">\n    <parent link=\"base\"/><child link=\"arm\"/>\n"
    "    <axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n"
    "  </joint>\n";

TEST(UrdfImport, LinkWithoutInertialIsNamedWithItsLine) {
  const std::string what = error_of("no_inertial", robot(kArmJoint + "  <link name=\"arm\"/>\n"));
  EXPECT_NE(what.find("bad.urdf:7:3: error: link 'arm' has no <inertial>"), std::string::npos)
      << what;
}

TEST(UrdfImport, ZeroMassAndMissingInertiaAreNamedWithTheirLines) {
  const std::string zero = error_of(
      "zero_mass", robot(kArmJoint + "  <link name=\"arm\">\n    <inertial>\n"
                                     "      <mass value=\"0\"/>\n"
                                     "      <inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" "
                                     "iyz=\"0\" izz=\"1\"/>\n    </inertial>\n  </link>\n"));
  EXPECT_NE(zero.find("bad.urdf:9:7: error: link 'arm': mass '0' is not a positive number"),
            std::string::npos)
      << zero;
  const std::string no_tensor = error_of(
      "no_tensor", robot(kArmJoint + "  <link name=\"arm\">\n    <inertial>\n"
                                     "      <mass value=\"1\"/>\n    </inertial>\n  </link>\n"));
  EXPECT_NE(no_tensor.find("bad.urdf:8:5: error: link 'arm': <inertial> without <inertia"),
            std::string::npos)
      << no_tensor;
}

TEST(UrdfImport, UnsupportedJointTypeIsNamedWithItsLine) {
  const std::string what = error_of(
      "floating", robot("  <joint name=\"free\" type=\"floating\">\n    <parent link=\"base\"/>"
                        "<child link=\"arm\"/>\n  </joint>\n"));
  EXPECT_NE(what.find("bad.urdf:3:3: error: joint 'free': type 'floating' is not supported "
                      "(revolute, continuous, prismatic, fixed are)"),
            std::string::npos)
      << what;
}

TEST(UrdfImport, MissingLimitAndIndefiniteInertiaAreNamedWithTheirLines) {
  // urdfdom refuses a revolute joint without <limit> without naming it; the reader refuses an
  // indefinite tensor at the model file. Both are said at the URDF line instead.
  const std::string no_limit = error_of(
      "no_limit", robot("  <joint name=\"j\" type=\"revolute\">\n    <parent link=\"base\"/>"
                        "<child link=\"arm\"/>\n  </joint>\n"));
  EXPECT_NE(no_limit.find("bad.urdf:3:3: error: joint 'j': a revolute joint needs <limit"),
            std::string::npos)
      << no_limit;
  const std::string indefinite = error_of(
      "indefinite", robot(kArmJoint + "  <link name=\"arm\">\n    <inertial>\n"
                                      "      <mass value=\"1\"/>\n"
                                      "      <inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" "
                                      "iyz=\"0\" izz=\"-1\"/>\n    </inertial>\n  </link>\n"));
  EXPECT_NE(indefinite.find("bad.urdf:10:7: error: link 'arm': <inertia> is not positive "
                            "definite (principal moments -1, 1, 1"),
            std::string::npos)
      << indefinite;
}

TEST(UrdfImport, MissingMeshIsNamedWithItsLine) {
  const std::string what = error_of(
      "mesh",
      robot(kArmJoint + "  <link name=\"arm\">\n    <inertial><mass value=\"1\"/>"
                        "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"
                        "</inertial>\n    <collision><geometry>\n"
                        "      <mesh filename=\"meshes/arm.stl\"/>\n"
                        "    </geometry></collision>\n  </link>\n"));
  EXPECT_NE(what.find("bad.urdf:10:7: error: link 'arm': collision mesh 'meshes/arm.stl' not "
                      "found"),
            std::string::npos)
      << what;
}

TEST(UrdfImport, MissingFileAndBadXmlAreErrors) {
  const fs::path dir = scratch("missing");
  try {
    load_model_string("model: m\nurdf: nowhere.urdf\n", (dir / "model.yaml").string());
    FAIL() << "no error";
  } catch (const ModelFileError& e) {
    EXPECT_NE(std::string(e.what()).find("model.yaml:2:7: error: urdf: cannot open the URDF "
                                         "file"),
              std::string::npos)
        << e.what();
  }
  const std::string xml = error_of("xml", "<robot name=\"r\">\n  <link name=\"a\">\n</robot>\n");
  EXPECT_NE(xml.find("bad.urdf:"), std::string::npos) << xml;
  EXPECT_NE(xml.find("invalid XML"), std::string::npos) << xml;
}

TEST(UrdfImport, FileKeysAreMergedOverTheImport) {
  // The file adds backlash to an imported joint and overrides an imported mass.
  const fs::path dir = scratch("merge");
  write(dir / "two.urdf", kTwoLinks);
  const LoadedModel lm = load_model_string(
      "urdf: two.urdf\nbodies:\n  link1: {mass: 3.5}\n"
      "joints:\n  hinge: {backlash: {play: 0.2, angle_unit: deg, stiffness: 1.0e4}}\n",
      (dir / "model.yaml").string());
  EXPECT_EQ(lm.model.bodies[*lm.model.find_body("link1")].mass, 3.5);
  const Element* b = lm.model.find_element("hinge_backlash");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->kind(), "backlash");
}

TEST(UrdfImport, CollisionMeshBecomesAShapeOnItsLink) {
  // A collision mesh 0.1 m along the link, turned 90° about z, in millimetres (scale 0.001):
  // the shape's frame is the collision origin, seen from the body (inertial) frame.
  const fs::path dir = scratch("mesh");
  const std::string stl = testing::example_path("mesh_drop", "ball.stl");
  write(dir / "mesh.urdf",
        robot(kArmJoint +
              "  <link name=\"arm\">\n    <inertial><origin xyz=\"0.05 0 0\"/>"
              "<mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" "
              "iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial>\n"
              "    <collision><origin xyz=\"0.1 0 0\" rpy=\"0 0 1.5707963267948966\"/>"
              "<geometry><mesh filename=\"" +
              stl +
              "\" scale=\"0.001 0.001 0.001\"/></geometry></collision>\n"
              "  </link>\n"));
  const LoadedModel lm = load_model_string("urdf: mesh.urdf\n", (dir / "model.yaml").string());
  const Shape* shape = lm.model.find_shape("arm_collision");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->body, *lm.model.find_body("arm"));
  EXPECT_LT((shape->p_BS - Vec3(0.05, 0, 0)).norm(), 1e-15);
  EXPECT_LT((shape->R_BS - rpy(0, 0, std::numbers::pi / 2)).norm(), 1e-15);
  // Millimetres: the mesh (a ball of radius 0.05 in its file's unit) is 1000 times smaller.
  double extent = 0.0;
  for (const Vec3& v : shape->mesh->vertices) extent = std::max(extent, v.norm());
  EXPECT_LT(extent, 1e-3);
}

TEST(UrdfImport, OverridesNameImportedValuesAndTheUrdfFile) {
  // --set urdf=... picks the robot; the other overrides may then name what it imports.
  const fs::path dir = scratch("overrides");
  write(dir / "two.urdf", kTwoLinks);
  const LoadedModel lm = load_model_string("urdf: missing.urdf\n", (dir / "model.yaml").string(),
                                           {{"bodies.link2.mass", "0.5"}, {"urdf", "two.urdf"}});
  EXPECT_EQ(lm.model.bodies[*lm.model.find_body("link2")].mass, 0.5);
  EXPECT_EQ(lm.model.bodies[*lm.model.find_body("link1")].mass, 2.5);
}

}  // namespace
}  // namespace cs
