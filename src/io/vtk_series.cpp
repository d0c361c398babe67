#include "clearsim/io/vtk_series.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "clearsim/elements/contact/gear_mesh.hpp"
#include "clearsim/elements/contact/mesh_contact.hpp"
#include "clearsim/io/plugin.hpp"
#include "clearsim/io/vtp_file.hpp"

namespace cs {

namespace {

namespace fs = std::filesystem;

std::string step_name(const char* stem, int k) {
  std::ostringstream os;
  os << stem << '_' << std::setw(6) << std::setfill('0') << k << ".vtp";
  return os.str();
}

// The XML text of a file (series.pvd) written under a temporary name and renamed: no
// half-written file.
void write_text(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp);
    f << text;
    if (!f) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

// A step file through the VTK plugin (vtp_file.hpp): VTK's own XML writer, binary,
// zlib-compressed, under a temporary name and renamed.
void write_vtp(const fs::path& path, const VtpPolyData& data) {
  static VtpWriteFunction* const write = plugin_function<VtpWriteFunction>("vtk", kVtpWriteSymbol);
  std::string error;
  if (!write(path.string(), data, error)) throw std::runtime_error(error);
}

VtpArray vectors(const char* name, const std::vector<Vec3>& v, bool active = false) {
  VtpArray a{name, 3, false, active, {}};
  for (const Vec3& x : v) a.values.insert(a.values.end(), {x(0), x(1), x(2)});
  return a;
}

VtpArray doubles(const char* name, const std::vector<double>& v) {
  return {name, 1, false, false, v};
}

VtpArray ints(const char* name, const std::vector<int>& v, bool active = false) {
  return {name, 1, true, active, std::vector<double>(v.begin(), v.end())};
}

VtpPolyData shapes_vtp(const Model& model, const State& s) {
  std::vector<Vec3> points;
  std::vector<int> conn, shape_of_cell;
  for (std::size_t k = 0; k < model.shapes.size(); ++k) {
    const Shape& sh = model.shapes[k];
    Mat3 R = sh.R_BS;
    Vec3 p = sh.p_BS;
    if (sh.body != kGround) {
      p = s.x_W[sh.body] + s.R_WB[sh.body] * sh.p_BS;
      R = s.R_WB[sh.body] * sh.R_BS;
    }
    const int first = static_cast<int>(points.size());
    for (const Vec3& v : sh.mesh->vertices) points.push_back(p + R * v);
    for (const auto& t : sh.mesh->triangles) {
      for (int c : t) conn.push_back(first + c);
      shape_of_cell.push_back(static_cast<int>(k));
    }
  }
  VtpPolyData pd;
  pd.points = std::move(points);
  pd.polys = std::move(conn);
  pd.cell_data.push_back(ints("shape", shape_of_cell, /*active=*/true));
  return pd;
}

// The mechanism as lines: per body a frame glyph (its axes from the centre of mass, cell data
// kind 0, 1, 2 = x, y, z) and a link from the centre of mass to every element attachment on it
// (kind 3); ground attachments are drawn as points (kind 4). Cell data "body": the body index,
// −1 for ground. The glyph is 0.3 of the body's longest link, or 0.05 m without links.
VtpPolyData bodies_vtp(const System& sys, const State& s) {
  const Model& model = sys.model();
  std::vector<std::vector<Vec3>> attach(model.bodies.size());
  std::vector<Vec3> ground;
  for (const auto& el : model.elements)
    for (const Marker& m : el->attachments()) {
      if (m.body == kGround)
        ground.push_back(m.p_B);
      else
        attach[m.body].push_back(s.x_W[m.body] + s.R_WB[m.body] * m.p_B);
    }
  std::vector<Vec3> points;
  std::vector<int> lines, line_body, line_kind, verts, vert_body, vert_kind;
  const auto segment = [&](const Vec3& a, const Vec3& b, int body, int kind) {
    lines.push_back(static_cast<int>(points.size()));
    points.push_back(a);
    lines.push_back(static_cast<int>(points.size()));
    points.push_back(b);
    line_body.push_back(body);
    line_kind.push_back(kind);
  };
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Vec3& c = s.x_W[b];
    double reach = 0.0;
    for (const Vec3& p : attach[b]) reach = std::max(reach, (p - c).norm());
    const double glyph = reach > 0.0 ? 0.3 * reach : 0.05;
    for (int k = 0; k < 3; ++k) segment(c, c + glyph * s.R_WB[b].col(k), static_cast<int>(b), k);
    for (const Vec3& p : attach[b]) segment(c, p, static_cast<int>(b), 3);
  }
  for (const Vec3& p : ground) {
    verts.push_back(static_cast<int>(points.size()));
    points.push_back(p);
  }
  vert_body.assign(verts.size(), kGround);
  vert_kind.assign(verts.size(), 4);
  // VTK orders cell data as verts, then lines.
  std::vector<int> body = vert_body, kind = vert_kind;
  body.insert(body.end(), line_body.begin(), line_body.end());
  kind.insert(kind.end(), line_kind.begin(), line_kind.end());
  VtpPolyData pd;
  pd.points = std::move(points);
  pd.verts = std::move(verts);
  pd.lines = std::move(lines);
  pd.cell_data.push_back(ints("body", body, /*active=*/true));
  pd.cell_data.push_back(ints("kind", kind));
  return pd;
}

VtpPolyData contacts_vtp(const std::vector<VtkContactPoint>& cps) {
  std::vector<Vec3> points, normals, forces;
  std::vector<double> fn, depth;
  std::vector<int> conn, element;
  for (const VtkContactPoint& c : cps) {
    conn.push_back(static_cast<int>(points.size()));
    points.push_back(c.point);
    normals.push_back(c.normal);
    forces.push_back(c.force);
    fn.push_back(c.normal_force);
    depth.push_back(c.penetration);
    element.push_back(c.element);
  }
  VtpPolyData pd;
  pd.points = std::move(points);
  pd.verts = std::move(conn);
  pd.point_data = {vectors("normal", normals), vectors("force", forces, /*active=*/true),
                   doubles("normal_force", fn), doubles("penetration", depth),
                   ints("element", element)};
  return pd;
}

}  // namespace

VtkSeries::VtkSeries(std::filesystem::path folder) : folder_(std::move(folder)) {
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (!fs::is_directory(folder_))
    throw std::runtime_error("cannot create the VTK folder " + folder_.string());
}

namespace {
// The contact points `points(element, input)` gives for every element of type E, tagged with
// the element's index.
template <class E, class Points>
std::vector<VtkContactPoint> points_of_each(const System& sys, const State& s, Points points) {
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  std::vector<VtkContactPoint> out;
  const Model& model = sys.model();
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    const auto* element = dynamic_cast<const E*>(model.elements[e].get());
    if (!element) continue;
    for (VtkContactPoint c : points(*element, sys.input(static_cast<int>(e), s.t, kin))) {
      c.element = static_cast<int>(e);
      out.push_back(c);
    }
  }
  return out;
}
}  // namespace

std::vector<VtkContactPoint> mesh_contact_points(const System& sys, const State& s) {
  return points_of_each<contact::MeshContact>(
      sys, s, [](const contact::MeshContact& mc, const ElementInput& in) {
        std::vector<VtkContactPoint> out;
        for (const auto& r : mc.evaluate(in)) {
          VtkContactPoint& c = out.emplace_back();
          c.point = r.point_W;
          c.normal = r.normal_W;
          c.force = r.F_N * r.normal_W + r.F_T_W;
          c.normal_force = r.F_N;
          c.penetration = r.depth;
        }
        return out;
      });
}

std::vector<VtkContactPoint> gear_mesh_contact_points(const System& sys, const State& s) {
  return points_of_each<contact::GearMeshContact>(
      sys, s, [](const contact::GearMeshContact& gm, const ElementInput& in) {
        std::vector<VtkContactPoint> out;
        for (const auto& p : gm.evaluate(in).pairs) {
          VtkContactPoint& c = out.emplace_back();
          c.point = p.P;
          c.normal = p.N;
          c.force = p.F_N * p.N + p.F_T;
          c.normal_force = p.F_N;
          c.penetration = p.delta;
        }
        return out;
      });
}

std::vector<VtkContactPoint> gap_contact_points(const System& sys, const State& s,
                                                double last_step) {
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  std::vector<VtkContactPoint> out;
  const Model& model = sys.model();
  GapBlock gb;
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    const Element& el = *model.elements[e];
    if (el.num_gaps() == 0) continue;
    const int first = sys.first_gap(static_cast<int>(e));
    const ElementInput in = sys.input(static_cast<int>(e), s.t, kin);
    el.gaps(in, gb);
    // Columns and sign of the body the force is reported on: j, or i (force −F) if j is ground.
    const bool on_j = el.body_j() != kGround;
    const BodyKinematics& b = on_j ? *in.j : *in.i;
    const int col = on_j ? 6 : 0;
    const double sign = on_j ? 1.0 : -1.0;
    for (int k = 0; k < gb.p; ++k) {
      const int g = first + k;
      if (g >= static_cast<int>(s.contact.size()) || s.contact[g] == ContactState::kOpen) continue;
      const Vec3 n = gb.G.row(k).segment<3>(col).transpose();
      const double n2 = n.squaredNorm();
      if (n2 == 0.0) continue;
      // δg = n·δx + (ρ × n)·R δθ_B for a force along n through x + ρ: the moment part gives
      // ρ × n, and n × (ρ × n)/|n|² is ρ's part across n.
      const Vec3 rho_x_n = b.R_WB * gb.G.row(k).segment<3>(col + 3).transpose();
      VtkContactPoint c;
      c.point = b.x_W + n.cross(rho_x_n) / n2;
      c.normal = sign * n / std::sqrt(n2);
      const double smooth = s.lambda_N.size() > g ? s.lambda_N(g) : 0.0;
      c.normal_force = smooth + (last_step > 0.0 ? s.Lambda(g) / last_step : 0.0);
      c.force = c.normal_force * c.normal;
      c.penetration = std::max(0.0, -gb.g(k));
      c.element = static_cast<int>(e);
      out.push_back(c);
    }
  }
  return out;
}

void VtkSeries::write(const System& sys, const State& s, double last_step) {
  const int k = steps();
  write_vtp(folder_ / step_name("shapes", k), shapes_vtp(sys.model(), s));
  std::vector<VtkContactPoint> contacts = mesh_contact_points(sys, s);
  const std::vector<VtkContactPoint> pairs = gear_mesh_contact_points(sys, s);
  contacts.insert(contacts.end(), pairs.begin(), pairs.end());
  if (sys.num_gaps() > 0) {
    const std::vector<VtkContactPoint> gaps = gap_contact_points(sys, s, last_step);
    contacts.insert(contacts.end(), gaps.begin(), gaps.end());
  }
  write_vtp(folder_ / step_name("contacts", k), contacts_vtp(contacts));
  write_vtp(folder_ / step_name("bodies", k), bodies_vtp(sys, s));
  times_.push_back(s.t);
  // series.pvd lists every step, so rewriting it at each step would cost O(N²) bytes over a run
  // (170 MB for mesh_drop's 1201 steps). It is rewritten, atomically, once the steps written
  // since have grown by 1/16 of those listed, and on flush(): O(N) bytes in all, and a killed
  // run's series.pvd still lists at least 94 % of its step files.
  if (times_.size() - pvd_steps_ >= std::max<std::size_t>(1, pvd_steps_ / 16)) write_pvd();
}

void VtkSeries::flush() {
  if (pvd_steps_ != times_.size()) write_pvd();
}

VtkSeries::~VtkSeries() {
  try {
    flush();
  } catch (const std::exception&) {
    // A destructor must not throw; the step files are all there, only the index lags.
  }
}

void VtkSeries::write_pvd() {
  std::ostringstream os;
  os << std::setprecision(12);
  os << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n<Collection>\n";
  for (std::size_t k = 0; k < times_.size(); ++k) {
    os << "<DataSet timestep=\"" << times_[k] << "\" part=\"0\" name=\"shapes\" file=\""
       << step_name("shapes", static_cast<int>(k)) << "\"/>\n";
    os << "<DataSet timestep=\"" << times_[k] << "\" part=\"1\" name=\"contacts\" file=\""
       << step_name("contacts", static_cast<int>(k)) << "\"/>\n";
    os << "<DataSet timestep=\"" << times_[k] << "\" part=\"2\" name=\"bodies\" file=\""
       << step_name("bodies", static_cast<int>(k)) << "\"/>\n";
  }
  os << "</Collection>\n</VTKFile>\n";
  write_text(folder_ / "series.pvd", os.str());
  pvd_steps_ = times_.size();
}

void VtkObserver::on_output(const State& s, const RunStats& stats) {
  next_.on_output(s, stats);
  if (outputs_++ % every_ == 0) series_.write(sys_, s, stats.last_step);
}

}  // namespace cs
