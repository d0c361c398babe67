// Mesh files: binary STL round trip, ASCII STL and OBJ through assimp, and every bad file giving a
// MeshFileError that names it.
#include "clearsim/geometry/mesh_io.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "clearsim/geometry/gear_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "unit/geometry/seed004_gears.hpp"

namespace cs {
namespace {

namespace fs = std::filesystem;

class MeshFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("clearsim_mesh_io_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write_text(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  fs::path dir_;
};

// Runs `f`, expecting a MeshFileError naming `file`; returns its message.
template <class F>
std::string mesh_error(const std::string& file, F f) {
  try {
    f();
  } catch (const MeshFileError& e) {
    EXPECT_EQ(e.file(), file);
    EXPECT_EQ(std::string(e.what()).rfind(file + ": error: ", 0), 0u) << e.what();
    return e.message();
  }
  ADD_FAILURE() << "no MeshFileError for " << file;
  return "";
}

TEST_F(MeshFiles, BinaryStlRoundTripPreservesTheMesh) {
  const TriangleMesh sphere = sphere_mesh(0.25, 3);
  write_stl_binary(sphere, path("sphere.stl"));
  EXPECT_EQ(fs::file_size(path("sphere.stl")), 84u + 50u * sphere.triangles.size());
  EXPECT_FALSE(fs::exists(path("sphere.stl.partial")));
  const LoadedMesh loaded = load_mesh_file(path("sphere.stl"));
  ASSERT_EQ(loaded.mesh.num_triangles(), sphere.num_triangles());
  ASSERT_EQ(loaded.mesh.num_vertices(), sphere.num_vertices());  // welded back
  EXPECT_TRUE(loaded.report.valid_solid());
  double worst = 0;  // STL stores float: 2^-24 relative
  for (int t = 0; t < sphere.num_triangles(); ++t)
    for (int k = 0; k < 3; ++k)
      worst = std::max(worst, (loaded.mesh.vertices[loaded.mesh.triangles[t][k]] -
                               sphere.vertices[sphere.triangles[t][k]])
                                  .norm());
  EXPECT_LT(worst, 0.25 * 1e-7);
  EXPECT_NEAR(mass_properties(loaded.mesh).volume, mass_properties(sphere).volume, 1e-7 * 0.07);
}

TEST_F(MeshFiles, GearStlInMillimetresRoundTrips) {
  GearParameters p = test::seed004_pinion();
  GearResolution res;
  res.profile = {12, 4, 2, 2};
  res.slices = 6;
  const TriangleMesh gear = gear_mesh(p, res);
  write_stl_binary(gear, path("pinion.stl"), 1e3);
  MeshFileOptions mm;
  mm.scale = 1e-3;
  const LoadedMesh loaded = load_mesh_file(path("pinion.stl"), mm);
  EXPECT_EQ(loaded.mesh.num_triangles(), gear.num_triangles());
  EXPECT_EQ(loaded.mesh.num_vertices(), gear.num_vertices());
  EXPECT_NEAR(loaded.report.volume / mass_properties(gear).volume, 1.0, 1e-6);
}

const char* kAsciiTetrahedron = R"(solid tet
facet normal 0 0 -1
 outer loop
  vertex 0 0 0
  vertex 0 1 0
  vertex 1 0 0
 endloop
endfacet
facet normal 0 -1 0
 outer loop
  vertex 0 0 0
  vertex 1 0 0
  vertex 0 0 1
 endloop
endfacet
facet normal -1 0 0
 outer loop
  vertex 0 0 0
  vertex 0 0 1
  vertex 0 1 0
 endloop
endfacet
facet normal 1 1 1
 outer loop
  vertex 1 0 0
  vertex 0 1 0
  vertex 0 0 1
 endloop
endfacet
endsolid tet
)";

TEST_F(MeshFiles, AsciiStlIsRead) {
  const LoadedMesh m = load_mesh_file(write_text("tet.STL", kAsciiTetrahedron));
  EXPECT_EQ(m.mesh.num_triangles(), 4);
  EXPECT_EQ(m.mesh.num_vertices(), 4);
  EXPECT_NEAR(m.report.volume, 1.0 / 6.0, 1e-12);
}

TEST_F(MeshFiles, ObjWithQuadsIsTriangulated) {
  // A unit cube with quad faces, counter-clockwise from outside.
  const std::string obj =
      "# cube\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
      "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  const LoadedMesh m = load_mesh_file(write_text("cube.obj", obj));
  EXPECT_EQ(m.mesh.num_triangles(), 12);
  EXPECT_EQ(m.mesh.num_vertices(), 8);
  EXPECT_NEAR(m.report.volume, 1.0, 1e-12);
  EXPECT_TRUE(m.report.valid_solid());
}

TEST_F(MeshFiles, OpenMeshIsRejectedOrReported) {
  std::string text = kAsciiTetrahedron;
  text.erase(text.find("facet normal 1 1 1"),
             text.find("endsolid") - text.find("facet normal 1 1 1"));
  const std::string file = write_text("open.stl", text);
  const std::string message = mesh_error(file, [&] { load_mesh_file(file); });
  EXPECT_NE(message.find("3 open edges"), std::string::npos) << message;
  MeshFileOptions lenient;
  lenient.require_solid = false;
  EXPECT_EQ(load_mesh_file(file, lenient).report.open_edges.size(), 3u);
}

TEST_F(MeshFiles, BadFilesGiveAnErrorNamingTheFile) {
  EXPECT_NE(mesh_error(path("missing.stl"), [&] { load_mesh_file(path("missing.stl")); })
                .find("no such file"),
            std::string::npos);
  const std::string empty = write_text("empty.stl", "");
  EXPECT_NE(mesh_error(empty, [&] { load_mesh_file(empty); }).find("empty"), std::string::npos);
  std::string garbage(5000, '\0');
  std::mt19937 rng(7);
  for (char& c : garbage) c = static_cast<char>(rng() & 0xff);
  for (const char* name : {"garbage.stl", "garbage.obj"}) {
    const std::string file = write_text(name, garbage);
    mesh_error(file, [&] { load_mesh_file(file); });
  }
  const std::string text = write_text("notes.txt", "solid x\nendsolid x\n");
  EXPECT_NE(mesh_error(text, [&] { load_mesh_file(text); }).find("unsupported"), std::string::npos);
  const std::string no_facets = write_text("no_facets.stl", "solid x\nendsolid x\n");
  mesh_error(no_facets, [&] { load_mesh_file(no_facets); });
  EXPECT_NE(mesh_error(dir_.string(), [&] { load_mesh_file(dir_.string()); }).find("regular"),
            std::string::npos);
}

TEST_F(MeshFiles, NanVertexInBinaryStlIsRejected) {
  TriangleMesh box = box_mesh(Vec3::Ones());
  box.vertices[3].x() = std::numeric_limits<double>::quiet_NaN();
  write_stl_binary(box, path("nan.stl"));
  const std::string message = mesh_error(path("nan.stl"), [&] { load_mesh_file(path("nan.stl")); });
  EXPECT_NE(message.find("NaN"), std::string::npos) << message;
}

TEST_F(MeshFiles, NanVertexInTextFilesIsRejectedNamingTheTriangle) {
  std::string stl = kAsciiTetrahedron;
  stl.replace(stl.rfind("vertex 1 0 0"), 12, "vertex nan 0 0");
  const std::string stl_file = write_text("nan_ascii.stl", stl);
  EXPECT_NE(mesh_error(stl_file, [&] { load_mesh_file(stl_file); }).find("triangle 3 "),
            std::string::npos);
  const std::string obj_file = write_text(
      "nan.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n");
  EXPECT_EQ(mesh_error(obj_file, [&] { load_mesh_file(obj_file); }),
            "line 4: vertex coordinate x 'nan' is not a finite number");
}

// Issue 28: assimp said "Failed to determine STL storage representation" and "vertex index out
// of range"; the messages now say what is wrong and where.
TEST_F(MeshFiles, BinaryStlWithAWrongTriangleCountSaysSo) {
  write_stl_binary(box_mesh(Vec3::Ones()), path("box.stl"));  // 12 triangles, 684 bytes
  {
    std::fstream f(path("box.stl"), std::ios::binary | std::ios::in | std::ios::out);
    const std::uint32_t wrong = 13;
    f.seekp(80);
    f.write(reinterpret_cast<const char*>(&wrong), 4);
  }
  EXPECT_EQ(mesh_error(path("box.stl"), [&] { load_mesh_file(path("box.stl")); }),
            "a binary STL (it does not start with 'solid') whose header says 13 triangles, which "
            "take 84 + 50 × 13 = 734 bytes, but the file has 684 bytes (12 triangles): the count "
            "in bytes 80 to 83 is wrong");
  fs::resize_file(path("box.stl"), 84 + 50 * 5 + 17);
  EXPECT_EQ(mesh_error(path("box.stl"), [&] { load_mesh_file(path("box.stl")); }),
            "a binary STL (it does not start with 'solid') whose header says 13 triangles, which "
            "take 84 + 50 × 13 = 734 bytes, but the file has 351 bytes: it is truncated or not "
            "an STL file");
  const std::string tiny = write_text("tiny.stl", "abc");
  EXPECT_EQ(mesh_error(tiny, [&] { load_mesh_file(tiny); }),
            "not an STL file: 3 bytes, less than a binary STL's 84-byte header, and it does not "
            "start with 'solid' as an ASCII STL does");
}

TEST_F(MeshFiles, ObjWithACoordinateThatIsNotANumberNamesTheLine) {
  const std::string obj =
      write_text("word.obj",
                 "# a tetrahedron\nv 0 0 0\nv 1 0 0\nv 0 one 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\n"
                 "f 2 3 4\nf 3 1 4\n");
  EXPECT_EQ(mesh_error(obj, [&] { load_mesh_file(obj); }),
            "line 4: vertex coordinate y 'one' is not a finite number");
  const std::string short_obj = write_text("short.obj", "v 0 0 0\nv 1 0\nv 0 1 0\nf 1 2 3\n");
  EXPECT_EQ(mesh_error(short_obj, [&] { load_mesh_file(short_obj); }),
            "line 2: a vertex 'v' needs 3 coordinates x y z, found 2 values");
}

TEST_F(MeshFiles, TruncatedBinaryStlIsRejected) {
  write_stl_binary(box_mesh(Vec3::Ones()), path("box.stl"));
  fs::resize_file(path("box.stl"), 84 + 50 * 5 + 17);
  mesh_error(path("box.stl"), [&] { load_mesh_file(path("box.stl")); });
}

TEST_F(MeshFiles, WritingToAMissingFolderFailsCleanly) {
  const std::string file = path("no/such/folder/x.stl");
  mesh_error(file, [&] { write_stl_binary(box_mesh(Vec3::Ones()), file); });
  EXPECT_FALSE(fs::exists(file));
}

}  // namespace
}  // namespace cs
