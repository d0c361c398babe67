// The `shapes` section: gear and mesh-file shapes on bodies, their poses in the body frame, meshes
// shared between shapes, and errors at the key that caused them (FILE:LINE:COL).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "clearsim/geometry/mesh_check.hpp"
#include "clearsim/geometry/mesh_io.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/io/model_reader.hpp"

namespace cs {
namespace {

namespace fs = std::filesystem;

class ShapesSection : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("clearsim_shapes_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
    write_stl_binary(box_mesh(Vec3(0.1, 0.2, 0.3)), (dir_ / "box_mm.stl").string(), 1e3);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Writes `shapes` (the text after "shapes:") into a model with bodies pinion and wheel.
  std::string model_file(const std::string& shapes) const {
    const std::string path = (dir_ / "model.yaml").string();
    std::ofstream(path) << "bodies:\n"
                           "  pinion: {mass: 564, inertia: [103, 103, 26.4], position: [0, 0, "
                           "1]}\n"
                           "  wheel: {mass: 3998, inertia: [1153, 1129, 1129], position: [1, 0, "
                           "0]}\n"
                           "shapes:\n"
                        << shapes;
    return path;
  }
  std::string error_of(const std::string& shapes) const {
    try {
      load_model_file(model_file(shapes));
    } catch (const ModelFileError& e) {
      return e.what();
    }
    return "no error";
  }
  fs::path dir_;
};

const char* const kPinionGear =
    "    gear: {module: 0.010, teeth: 27, pressure_angle: 20, helix_angle: 27.12, angle_unit: "
    "deg,\n"
    "           hand: right, double_helical: true, profile_shift: 0.236, dedendum: 1.4,\n"
    "           root_fillet: 0.35, face_width: 0.135, backlash_allowance: 0.15e-3,\n"
    "           resolution: {flank_points: 8, fillet_points: 3, slices: 4}}\n";

TEST_F(ShapesSection, GearAndMeshFileShapesAreReadOntoTheirBodies) {
  const LoadedModel lm = load_model_file(model_file(std::string("  pinion_teeth:\n"
                                                                "    body: pinion\n") +
                                                    kPinionGear +
                                                    "  housing: {body: ground, position: [0, 0, "
                                                    "2], mesh: {file: box_mm.stl, unit: mm}}\n"
                                                    "  cover: {body: wheel, mesh: {file: "
                                                    "box_mm.stl, unit: mm}}\n"));
  ASSERT_EQ(lm.model.shapes.size(), 3u);
  const Shape& gear = *lm.model.find_shape("pinion_teeth");
  EXPECT_EQ(gear.body, 0);
  EXPECT_LT(gear.p_BS.norm(), 1e-15);  // defaults to the body frame
  ASSERT_TRUE(gear.gear.has_value());
  EXPECT_EQ(gear.gear->teeth, 27);
  EXPECT_NEAR(gear.gear->helix_angle, 27.12 * M_PI / 180, 1e-15);
  EXPECT_TRUE(check_mesh(*gear.mesh).valid_solid());
  const Shape& housing = *lm.model.find_shape("housing");
  EXPECT_EQ(housing.body, kGround);
  EXPECT_LT((housing.p_BS - Vec3(0, 0, 2)).norm(), 1e-15);
  EXPECT_NEAR(mass_properties(*housing.mesh).volume, 0.1 * 0.2 * 0.3, 1e-9);
  EXPECT_EQ(housing.source, (dir_ / "box_mm.stl").string());
  // One file, one mesh: the two shapes share it.
  EXPECT_EQ(housing.mesh.get(), lm.model.find_shape("cover")->mesh.get());
  EXPECT_LT((lm.model.find_shape("cover")->p_BS).norm(), 1e-15);
}

TEST_F(ShapesSection, MissingMeshFileIsReportedAtItsKey) {
  const std::string what =
      error_of("  housing:\n    body: ground\n    mesh: {file: no_such.stl}\n");
  EXPECT_NE(what.find("model.yaml:7:18: error: shapes.housing.mesh.file: "), std::string::npos)
      << what;
  EXPECT_NE(what.find("no_such.stl: no such file"), std::string::npos) << what;
}

TEST_F(ShapesSection, GarbageMeshFileIsReportedAtItsKey) {
  std::ofstream((dir_ / "garbage.stl").string()) << std::string(300, '\x7f');
  const std::string what = error_of("  housing: {body: ground, mesh: {file: garbage.stl}}\n");
  EXPECT_NE(what.find("model.yaml:5:40: error: shapes.housing.mesh.file: "), std::string::npos)
      << what;
}

TEST_F(ShapesSection, GearErrorsPointAtTheParameter) {
  const std::string what = error_of(
      "  small:\n"
      "    body: pinion\n"
      "    gear: {module: 0.002, teeth: 9, pressure_angle: 0.349, profile_shift: -0.2,\n"
      "           face_width: 0.01}\n");
  EXPECT_NE(what.find("model.yaml:7:75: error: shapes.small.gear.profile_shift: x = -0.2 undercuts "
                      "a 9-tooth gear"),
            std::string::npos)
      << what;
  const std::string module = error_of(
      "  small: {body: pinion, gear: {module: -1, teeth: 20, pressure_angle: 0.349, face_width: "
      "0.01}}\n");
  EXPECT_NE(module.find("model.yaml:5:40: error: shapes.small.gear.module: expected a positive"),
            std::string::npos)
      << module;
}

TEST_F(ShapesSection, ShapeNeedsExactlyOneSourceAndAFreeName) {
  EXPECT_NE(error_of("  s: {body: ground}\n").find("expected exactly one of 'mesh' and 'gear'"),
            std::string::npos);
  EXPECT_NE(error_of("  pinion: {body: ground, mesh: {file: box_mm.stl, unit: mm}}\n")
                .find("name 'pinion' is already used"),
            std::string::npos);
  EXPECT_NE(error_of("  s: {body: ground, mesh: {file: box_mm.stl, units: mm}}\n")
                .find("unknown key 'units'"),
            std::string::npos);
  EXPECT_NE(error_of("  s: {body: nobody, mesh: {file: box_mm.stl}}\n").find("nobody"),
            std::string::npos);
}

}  // namespace
}  // namespace cs
