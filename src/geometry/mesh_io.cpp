#include "clearsim/geometry/mesh_io.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "clearsim/geometry/mesh_file_plugin.hpp"
#include "clearsim/io/plugin.hpp"

namespace cs {

namespace {
std::string located(const std::string& file, const std::string& message) {
  std::ostringstream os;
  os << file << ": error: " << message;
  return os.str();
}
}  // namespace

MeshFileError::MeshFileError(std::string file, std::string message)
    : std::runtime_error(located(file, message)),
      file_(std::move(file)),
      message_(std::move(message)) {}

namespace {

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

void check_readable(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw MeshFileError(path, "no such file");
  if (!std::filesystem::is_regular_file(path, ec)) throw MeshFileError(path, "not a regular file");
  if (std::filesystem::file_size(path, ec) == 0) throw MeshFileError(path, "the file is empty");
  const std::string ext = lower_extension(path);
  if (ext != ".stl" && ext != ".obj") {
    std::ostringstream os;
    os << "unsupported mesh format '" << ext << "' (expected .stl or .obj)";
    throw MeshFileError(path, os.str());
  }
}

// Issue 28: a binary STL whose triangle count does not match its size got assimp's "Failed to
// determine STL storage representation". A binary STL is an 80-byte header, a 32-bit triangle
// count N and 50 bytes per triangle; an ASCII one starts with "solid" (so may a binary header:
// the size decides first, as in assimp).
void check_stl_layout(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[84] = {};
  in.read(head, sizeof head);
  const std::streamsize got = in.gcount();
  std::error_code ec;
  const auto size = static_cast<std::uint64_t>(std::filesystem::file_size(path, ec));
  std::uint32_t count = 0;
  if (got == 84) std::memcpy(&count, head + 80, 4);
  if (got == 84 && size == 84 + 50 * static_cast<std::uint64_t>(count)) return;  // binary
  std::size_t k = 0;
  while (k < static_cast<std::size_t>(got) && std::isspace(static_cast<unsigned char>(head[k])))
    ++k;
  if (static_cast<std::size_t>(got) >= k + 5 && std::strncmp(head + k, "solid", 5) == 0) return;
  std::ostringstream os;
  if (got < 84) {
    os << "not an STL file: " << size << " bytes, less than a binary STL's 84-byte header, and "
       << "it does not start with 'solid' as an ASCII STL does";
  } else {
    os << "a binary STL (it does not start with 'solid') whose header says " << count
       << " triangles, which take 84 + 50 × " << count << " = "
       << 84 + 50 * static_cast<std::uint64_t>(count) << " bytes, but the file has " << size
       << " bytes";
    if (size > 84 && (size - 84) % 50 == 0)
      os << " (" << (size - 84) / 50 << " triangles): the count in bytes 80 to 83 is wrong";
    else
      os << ": it is truncated or not an STL file";
  }
  throw MeshFileError(path, os.str());
}

// Issue 28: an OBJ vertex with a coordinate that is not a number was read by assimp as a vertex
// of fewer coordinates and reported as "vertex index out of range". Each "v" line must hold 3
// (or 4, with w) numbers; named by line.
void check_obj_vertices(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string tag;
    if (!(words >> tag) || tag != "v") continue;
    std::vector<std::string> values;
    for (std::string w; words >> w;) values.push_back(w);
    std::ostringstream os;
    os << "line " << number << ": ";
    if (values.size() < 3 || values.size() > 4 + 3) {  // x y z [w] or x y z r g b
      os << "a vertex 'v' needs 3 coordinates x y z, found " << values.size() << " values";
      throw MeshFileError(path, os.str());
    }
    for (std::size_t c = 0; c < values.size(); ++c) {
      char* end = nullptr;
      const double x = std::strtod(values[c].c_str(), &end);
      if (end != values[c].c_str() && *end == '\0' && std::isfinite(x)) continue;
      static const char* kNames[] = {"coordinate x", "coordinate y", "coordinate z"};
      if (c < 3)
        os << "vertex " << kNames[c];
      else
        os << "vertex value " << c + 1;
      os << " '" << values[c] << "' is not a finite number";
      throw MeshFileError(path, os.str());
    }
  }
}

// Welds vertices with bit-identical coordinates (STL stores each triangle's corners separately;
// CAD exporters print a shared corner identically), so the topology checks see shared edges.
class VertexWelder {
 public:
  explicit VertexWelder(TriangleMesh& mesh) : mesh_(mesh) {}
  int index_of(const Vec3& p) {
    const Key key{std::bit_cast<std::uint64_t>(p.x() + 0.0),
                  std::bit_cast<std::uint64_t>(p.y() + 0.0),
                  std::bit_cast<std::uint64_t>(p.z() + 0.0)};  // + 0.0 folds −0 into +0
    const auto [it, inserted] = index_.emplace(key, mesh_.num_vertices());
    if (inserted) mesh_.vertices.push_back(p);
    return it->second;
  }

 private:
  using Key = std::array<std::uint64_t, 3>;
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()(k[0] * 0x9E3779B97F4A7C15ull ^
                                        k[1] * 0xC2B2AE3D27D4EB4Full ^ k[2]);
    }
  };
  TriangleMesh& mesh_;
  std::unordered_map<Key, int, KeyHash> index_;
};

// Fails on a non-finite coordinate, naming the triangle (in file order) and the point.
void require_finite(const std::array<double, 3>& p, int triangle, const std::string& path) {
  if (std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2])) return;
  std::ostringstream os;
  os << "triangle " << triangle << " (counted from 0 in file order) has a vertex with a NaN or "
     << "infinite coordinate (" << p[0] << ", " << p[1] << ", " << p[2] << ")";
  throw MeshFileError(path, os.str());
}

// Copies the file's triangles into `out`, scaled, equal corners welded into one vertex.
void collect_triangles(const MeshFileTriangles& file, const std::string& path, double scale,
                       TriangleMesh& out) {
  VertexWelder welder(out);
  for (const auto& corners : file.corners) {
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      const auto& p = corners[static_cast<std::size_t>(k)];
      require_finite(p, out.num_triangles(), path);
      tri[static_cast<std::size_t>(k)] = welder.index_of(scale * Vec3(p[0], p[1], p[2]));
    }
    out.triangles.push_back(tri);
  }
}

}  // namespace

LoadedMesh load_mesh_file(const std::string& path, const MeshFileOptions& options) {
  check_readable(path);
  if (lower_extension(path) == ".stl")
    check_stl_layout(path);
  else
    check_obj_vertices(path);
  MeshFileTriangles file;
  std::string error;
  if (!plugin_function<MeshFileReadFunction>("assimp", kMeshFileReadSymbol)(path, file, error))
    throw MeshFileError(path, error);
  LoadedMesh loaded;
  collect_triangles(file, path, options.scale, loaded.mesh);
  if (loaded.mesh.triangles.empty()) throw MeshFileError(path, "the file holds no triangles");
  loaded.report = check_mesh(loaded.mesh);
  if (options.require_solid && !loaded.report.valid_solid()) {
    std::ostringstream os;
    os << "the mesh does not bound a solid:";
    for (const auto& p : loaded.report.problems()) os << "\n  " << p;
    throw MeshFileError(path, os.str());
  }
  return loaded;
}

namespace {

void put_float(std::ofstream& out, double value) {
  const float f = static_cast<float>(value);
  char bytes[4];
  std::memcpy(bytes, &f, 4);  // STL is little-endian, as is every machine clearsim builds on
  out.write(bytes, 4);
}

void write_stl_body(const TriangleMesh& mesh, std::ofstream& out, double scale) {
  char header[80] = {};
  std::snprintf(header, sizeof header, "binary STL written by clearsim");
  out.write(header, 80);
  const auto count = static_cast<std::uint32_t>(mesh.triangles.size());
  char count_bytes[4];
  std::memcpy(count_bytes, &count, 4);
  out.write(count_bytes, 4);
  const char attribute[2] = {0, 0};
  for (int t = 0; t < mesh.num_triangles(); ++t) {
    const Vec3 n = face_normal(mesh, t);
    for (int k = 0; k < 3; ++k) put_float(out, n[k]);
    for (int v : mesh.triangles[t])
      for (int k = 0; k < 3; ++k) put_float(out, scale * mesh.vertices[v][k]);
    out.write(attribute, 2);
  }
}

}  // namespace

void write_stl_binary(const TriangleMesh& mesh, const std::string& path, double scale) {
  static_assert(std::endian::native == std::endian::little, "binary STL is little-endian");
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw MeshFileError(path, "cannot open the file for writing");
    write_stl_body(mesh, out, scale);
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(partial);
      throw MeshFileError(path, "write failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    std::filesystem::remove(partial);
    std::ostringstream os;
    os << "cannot move the finished file into place: " << ec.message();
    throw MeshFileError(path, os.str());
  }
}

}  // namespace cs
