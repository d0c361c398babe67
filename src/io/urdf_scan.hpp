// A first pass over a URDF file's XML (private to src/io): the line of every link and joint, their
// order in the file, and the checks whose failure urdfdom reports without a line or not at all
// (a link without an inertia, a joint type clearsim lacks, a mesh file that is not there). Every
// failure is a ModelFileError "FILE.urdf:LINE:COLUMN: error: link 'x': ...".
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cs::model_file {

struct UrdfScan {
  std::vector<std::string> links;                    // link names in file order
  std::vector<std::string> joints;                   // joint names in file order
  std::map<std::string, int> link_line, joint_line;  // 1-based lines of <link>, <joint>
  std::map<std::string, int> link_column;
  std::map<std::string, std::pair<int, int>> inertia_at;  // line, column of a link's <inertia>
  // Links without <inertial>: only the root may be one (it is fixed to the ground).
  std::vector<std::string> links_without_inertial;
  // The collision meshes of each link in file order: resolved path, and the <mesh> line.
  struct Mesh {
    std::string link;
    std::string path;
    int line = 0;
  };
  std::vector<Mesh> collision_meshes;
};

// Scans the text of the URDF file at `path` (for messages and to resolve mesh file names).
UrdfScan scan_urdf(const std::string& text, const std::string& path);

// "FILE:LINE:COLUMN: error: MESSAGE" as a ModelFileError (line 0: no position).
[[noreturn]] void fail_urdf(const std::string& path, int line, int column,
                            const std::string& message);

}  // namespace cs::model_file
