// The ParaView series (io/vtk_series.hpp): written for a sphere mesh pressed into a plane mesh,
// then read back with VTK's reader: the shapes' points are the meshes at their bodies'
// poses, the contact point is the region's, and series.pvd lists both parts of every step.
#include "clearsim/io/vtk_series.hpp"

#include <gtest/gtest.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkXMLPolyDataReader.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "clearsim/assembly/system.hpp"
#include "clearsim/elements/contact/clearance_joints.hpp"
#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/geometry/grid_box_mesh.hpp"
#include "clearsim/geometry/primitive_meshes.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/math/so3.hpp"
#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "support/temp_dir.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A step file read back with VTK's own reader (the files are binary and compressed).
vtkSmartPointer<vtkPolyData> read_vtp(const std::filesystem::path& p) {
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(p.c_str());
  reader->Update();
  EXPECT_EQ(reader->GetErrorCode(), 0UL) << p;
  vtkSmartPointer<vtkPolyData> out = reader->GetOutput();
  return out;
}

std::vector<double> values(vtkDataArray* a) {
  std::vector<double> v;
  if (!a) return v;
  for (vtkIdType t = 0; t < a->GetNumberOfTuples(); ++t)
    for (int c = 0; c < a->GetNumberOfComponents(); ++c) v.push_back(a->GetComponent(t, c));
  return v;
}

// The numbers of `what`: "<Points>" the points, "<Lines>" or "<Verts>" those cells'
// connectivity, "Name=\"x\"" the point or cell data array x.
std::vector<double> array_after(vtkPolyData* pd, const std::string& what) {
  if (what == "<Points>") return values(pd->GetPoints()->GetData());
  if (what == "<Lines>") return values(pd->GetLines()->GetConnectivityArray());
  if (what == "<Verts>") return values(pd->GetVerts()->GetConnectivityArray());
  const std::string name = what.substr(6, what.size() - 7);
  vtkDataArray* a = pd->GetPointData()->GetArray(name.c_str());
  if (!a) a = pd->GetCellData()->GetArray(name.c_str());
  EXPECT_NE(a, nullptr) << name;
  return values(a);
}

TEST(VtkSeries, WritesShapesAndContactsThatReadBack) {
  Model model;
  Body ball;
  ball.name = "ball";
  ball.mass = 1.0;
  ball.inertia_B = 1e-3 * Mat3::Identity();
  ball.x0_W = Vec3(0.01, 0.02, 0.049);
  ball.R0_WB = so3::exp(Vec3(0.1, 0.2, 0.3));
  const int b = add_body(model, ball);
  add_shape(model, "plane_mesh", kGround, Vec3(0, 0, -0.05), Mat3::Identity(),
            std::make_shared<const TriangleMesh>(grid_box_mesh(Vec3(1, 1, 0.1), {4, 4, 1})));
  add_shape(model, "ball_mesh", b, ball.x0_W, ball.R0_WB,
            std::make_shared<const TriangleMesh>(sphere_mesh(0.05, 2)));
  contact::ContactLaws laws;
  laws.normal.kind = contact::NormalLawKind::kHertz;
  laws.normal.stiffness = 1e9;
  add_element(model, std::make_unique<contact::MeshContact>("floor", model.shapes[0],
                                                            model.shapes[1], laws));
  System sys(model);
  State s = initial_state(sys);
  s.t = 0.25;
  const auto dir = testing::test_temp_dir("clearsim_vtk_test");
  std::filesystem::remove_all(dir);
  VtkSeries series(dir);
  series.write(sys, s);
  series.write(sys, s);

  const auto shapes = read_vtp(dir / "shapes_000001.vtp");
  const std::vector<double> pts = array_after(shapes, "<Points>");
  const TriangleMesh& plane = *model.shapes[0].mesh;
  const TriangleMesh& sphere = *model.shapes[1].mesh;
  ASSERT_EQ(pts.size(), 3u * (plane.vertices.size() + sphere.vertices.size()));
  const std::size_t n0 = plane.vertices.size();
  for (std::size_t k = 0; k < sphere.vertices.size(); ++k) {
    const Vec3 expected = s.x_W[b] + s.R_WB[b] * sphere.vertices[k];  // shape at the body origin
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(pts[3 * (n0 + k) + c], expected(c), 1e-9);
  }
  EXPECT_NEAR(pts[2], plane.vertices[0].z() - 0.05, 1e-9);

  const auto contacts = read_vtp(dir / "contacts_000001.vtp");
  const std::vector<double> cp = array_after(contacts, "<Points>");
  const auto regions = mesh_contact_points(sys, s);
  ASSERT_EQ(regions.size(), 1u);
  ASSERT_EQ(cp.size(), 3u);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(cp[c], regions[0].point(c), 1e-9);
  const std::vector<double> force = array_after(contacts, "Name=\"force\"");
  EXPECT_GT(force[2], 0.0);  // pushes the ball up

  const std::string pvd = slurp(dir / "series.pvd");
  EXPECT_NE(pvd.find("timestep=\"0.25\" part=\"1\" name=\"contacts\" file=\"contacts_000001.vtp\""),
            std::string::npos)
      << pvd;
  std::filesystem::remove_all(dir);
}

// The mechanism drawn as lines (bodies_k.vtp) for seed 000's slider–crank at t = 0 (crank along
// x): each body's axes start at its centre of mass, and its links end at its joints — the crank's
// at the pivot (0, 0, 0) and the crank pin (0.05, 0, 0), the rod's at the crank pin and the
// slider pin (0.17, 0, 0), the slider's at its pin and its guide marker (0.17, 0, 0); the ground
// markers (pivot, guide) are points.
TEST(VtkSeries, DrawsTheMechanismFromCentresToJoints) {
  const Model model = testing::slider_crank();
  System sys(model);
  const State s = initial_state(sys);
  const auto dir = testing::test_temp_dir("clearsim_vtk_bodies_test");
  std::filesystem::remove_all(dir);
  VtkSeries series(dir);
  series.write(sys, s);
  const auto xml = read_vtp(dir / "bodies_000000.vtp");
  const std::vector<double> pts = array_after(xml, "<Points>");
  const std::vector<double> body = array_after(xml, "Name=\"body\"");
  const std::vector<double> kind = array_after(xml, "Name=\"kind\"");
  const std::vector<double> lines = array_after(xml, "<Lines>");
  const std::vector<double> verts = array_after(xml, "<Verts>");
  const auto point = [&](double i) {
    const auto k = static_cast<std::size_t>(i);
    return Vec3(pts[3 * k], pts[3 * k + 1], pts[3 * k + 2]);
  };
  // Cell data: the 2 ground points first, then 3 axes + links per body (2 + 2 + 2 links).
  ASSERT_EQ(verts.size(), 2u);
  ASSERT_EQ(kind.size(), 2u + 3u * 3u + 6u);
  std::vector<std::vector<Vec3>> link_ends(3);
  for (std::size_t c = 0; c < lines.size() / 2; ++c) {
    const int b = static_cast<int>(body[2 + c]);
    EXPECT_LT((point(lines[2 * c]) - s.x_W[b]).norm(), 1e-12) << "cell " << c;
    if (kind[2 + c] == 3) link_ends[b].push_back(point(lines[2 * c + 1]));
  }
  const auto has = [](const std::vector<Vec3>& v, const Vec3& p) {
    return std::any_of(v.begin(), v.end(), [&](const Vec3& q) { return (q - p).norm() < 1e-12; });
  };
  const Vec3 pivot = Vec3::Zero(), pin(0.05, 0, 0), slider_pin(0.17, 0, 0);
  EXPECT_TRUE(has(link_ends[0], pivot) && has(link_ends[0], pin));
  EXPECT_TRUE(has(link_ends[1], pin) && has(link_ends[1], slider_pin));
  EXPECT_TRUE(has(link_ends[2], slider_pin));
  EXPECT_TRUE(has({point(verts[0]), point(verts[1])}, pivot));
  const std::string pvd = slurp(dir / "series.pvd");
  EXPECT_NE(pvd.find("part=\"2\" name=\"bodies\" file=\"bodies_000000.vtp\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A unilateral gap in contact (sphere–plane, ball centre 10 mm off its body's centre of mass,
// plane on ground): one contact point on the force's line of action — the vertical through the
// ball centre — nearest the centre of mass, normal +z, force (λ_N + Λ_N/h)·z, penetration −g.
// An open gap writes nothing.
TEST(VtkSeries, WritesTheGapsInContact) {
  Model model;
  Body ball;
  ball.name = "ball";
  ball.mass = 1.0;
  ball.inertia_B = 1e-3 * Mat3::Identity();
  ball.x0_W = Vec3(0.1, 0.2, 0.045);
  ball.R0_WB = so3::exp(Vec3(0.3, -0.2, 0.5));
  const int b = add_body(model, ball);
  const Vec3 offset(0.01, 0.0, 0.0);
  add_element(model, std::make_unique<contact::SpherePlane>("floor", Marker{}, Marker{b, offset},
                                                            0.05, 0.5));
  System sys(model);
  State s = initial_state(sys);
  const Vec3 centre = s.x_W[b] + s.R_WB[b] * offset;
  ASSERT_EQ(s.contact.size(), 1u);
  EXPECT_TRUE(gap_contact_points(sys, s, 1e-3).empty());  // open until the step says otherwise
  s.contact[0] = ContactState::kImpact;
  s.lambda_N(0) = 3.0;
  s.Lambda(0) = 2e-3;
  const auto cps = gap_contact_points(sys, s, 1e-3);
  ASSERT_EQ(cps.size(), 1u);
  const VtkContactPoint& c = cps[0];
  EXPECT_LT((c.point - Vec3(centre.x(), centre.y(), s.x_W[b].z())).norm(), 1e-14);
  EXPECT_LT((c.normal - Vec3::UnitZ()).norm(), 1e-14);
  EXPECT_NEAR(c.normal_force, 5.0, 1e-12);  // 3 N + 2e-3 N·s / 1e-3 s
  EXPECT_LT((c.force - 5.0 * Vec3::UnitZ()).norm(), 1e-12);
  EXPECT_NEAR(c.penetration, 0.05 - centre.z(), 1e-15);
  EXPECT_EQ(c.element, 0);

  const auto dir = testing::test_temp_dir("clearsim_vtk_gap_test");
  std::filesystem::remove_all(dir);
  VtkSeries series(dir);
  series.write(sys, s, 1e-3);
  const auto xml = read_vtp(dir / "contacts_000000.vtp");
  EXPECT_EQ(xml->GetNumberOfPoints(), 1);
  EXPECT_NEAR(array_after(xml, "Name=\"normal_force\"").at(0), 5.0, 1e-9);
  std::filesystem::remove_all(dir);
}

// The analytic gear mesh's tooth pairs in contacts_k.vtp: seed 004's reducer at its operating
// point (examples/ship_reducer/steady.yaml, under load from the static deflection): one vertex
// per pair in contact, as many as the pairs channels count; their normal forces add up to the
// helices' ΣF_N and their forces to the element's force on the wheel. About the wheel's axis
// they give the mesh torque on the wheel to 0.1 %: a pair's friction, which changes direction at
// the pitch point, acts at the mid-points of its two parts, and the file puts it at the line's.
TEST(VtkSeries, WritesTheToothPairsOfAnAnalyticGearMesh) {
  const LoadedModel lm =
      load_model_file(std::string(CLEARSIM_SOURCE_DIR) + "/examples/ship_reducer/steady.yaml");
  System sys(lm.model);
  const State s = initial_state(sys);
  const std::vector<VtkContactPoint> pairs = gear_mesh_contact_points(sys, s);
  ChannelSet set(sys, {"mesh.pairs1", "mesh.pairs2", "mesh.normal_force1", "mesh.normal_force2",
                       "mesh.wheel_torque"});
  std::vector<double> ch;
  set.evaluate(s, RunStats{}, ch);
  ASSERT_EQ(static_cast<double>(pairs.size()), ch[0] + ch[1]);
  ASSERT_GE(pairs.size(), 6u);  // 3 or 4 per helix
  double sum_F_N = 0.0, torque_z = 0.0;
  Vec3 sum_F = Vec3::Zero();
  const Vec3 wheel_centre(1.0000006, 0.0, 0.0);  // the wheel's axis, along world z
  for (const VtkContactPoint& c : pairs) {
    sum_F_N += c.normal_force;
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    EXPECT_NEAR(c.force.dot(c.normal), c.normal_force, 1e-9 * c.normal_force);
    EXPECT_GT(c.penetration, 0.0);
    torque_z += (c.point - wheel_centre).cross(c.force).z();
    sum_F += c.force;
  }
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  const auto& elements = sys.model().elements;
  const auto mesh = std::find_if(elements.begin(), elements.end(),
                                 [](const auto& e) { return e->kind() == "gear_mesh"; });
  ASSERT_NE(mesh, elements.end());
  ForceBlock block;
  (*mesh)->force(sys.input(static_cast<int>(mesh - elements.begin()), s.t, kin), block, false);
  EXPECT_LT((sum_F - block.f.segment<3>(6)).norm(), 1e-9 * sum_F.norm());
  EXPECT_NEAR(sum_F_N, ch[2] + ch[3], 1e-9 * sum_F_N);
  // wheel_torque is about −z (the wheel turns about −z when driven).
  EXPECT_NEAR(-torque_z, ch[4], 1e-3 * std::abs(ch[4]));

  const auto dir = testing::test_temp_dir("clearsim_vtk_gear_test");
  std::filesystem::remove_all(dir);
  VtkSeries series(dir);
  series.write(sys, s);
  const std::vector<double> cp = array_after(read_vtp(dir / "contacts_000000.vtp"), "<Points>");
  ASSERT_EQ(cp.size(), 3 * pairs.size());
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(cp[c], pairs[0].point(c), 1e-9);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cs
