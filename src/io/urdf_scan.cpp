// The line-aware first pass over a URDF file (urdf_scan.hpp). tinyxml (the parser urdfdom itself
// uses on Debian) keeps each element's row; urdfdom's model does not, so the messages that name a
// line are made here.
#include "urdf_scan.hpp"

#include <tinyxml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "clearsim/io/model_reader.hpp"

namespace cs::model_file {

namespace {

const std::set<std::string> kSupportedJoints = {"revolute", "continuous", "prismatic", "fixed"};
const char* const kInertiaEntries[] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};

std::string attribute(const TiXmlElement& e, const char* name) {
  const char* value = e.Attribute(name);
  return value == nullptr ? std::string() : std::string(value);
}

bool is_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  while (end != nullptr && *end == ' ') ++end;
  return end != nullptr && *end == '\0' && std::isfinite(x);
}

void check_inertial(const TiXmlElement& inertial, const std::string& link, const std::string& path,
                    UrdfScan& out) {
  const std::string where = "link '" + link + "': ";
  const TiXmlElement* mass = inertial.FirstChildElement("mass");
  if (mass == nullptr)
    fail_urdf(path, inertial.Row(), inertial.Column(),
              where + "<inertial> without <mass value=\"...\"/>");
  const std::string m = attribute(*mass, "value");
  if (!is_number(m) || !(std::strtod(m.c_str(), nullptr) > 0.0))
    fail_urdf(path, mass->Row(), mass->Column(),
              where + "mass '" + m + "' is not a positive number [kg] (clearsim needs a mass on " +
                  "every link that moves)");
  const TiXmlElement* inertia = inertial.FirstChildElement("inertia");
  if (inertia == nullptr)
    fail_urdf(
        path, inertial.Row(), inertial.Column(),
        where + "<inertial> without <inertia ixx=... ixy=... ixz=... iyy=... iyz=... izz=.../>");
  out.inertia_at[link] = {inertia->Row(), inertia->Column()};
  for (const char* entry : kInertiaEntries)
    if (!is_number(attribute(*inertia, entry)))
      fail_urdf(path, inertia->Row(), inertia->Column(),
                where + "<inertia> attribute " + entry + " is missing or not a number [kg·m²]");
}

// A mesh file name as the URDF gives it, resolved relative to the URDF file's folder.
std::string resolve_mesh(const std::string& name, const std::string& urdf_path,
                         const TiXmlElement& mesh, const std::string& link) {
  if (name.rfind("package://", 0) == 0)
    fail_urdf(urdf_path, mesh.Row(), mesh.Column(),
              "link '" + link + "': mesh '" + name +
                  "': package:// names need a ROS package path, which clearsim does not search; "
                  "give the file relative to the URDF file");
  std::string file = name.rfind("file://", 0) == 0 ? name.substr(7) : name;
  std::filesystem::path p(file);
  if (p.is_relative()) p = std::filesystem::path(urdf_path).parent_path() / p;
  return p.string();
}

void scan_link(const TiXmlElement& link, const std::string& path, UrdfScan& out) {
  const std::string name = attribute(link, "name");
  if (name.empty()) fail_urdf(path, link.Row(), link.Column(), "a <link> without a name");
  out.links.push_back(name);
  out.link_line[name] = link.Row();
  out.link_column[name] = link.Column();
  if (const TiXmlElement* inertial = link.FirstChildElement("inertial")) {
    check_inertial(*inertial, name, path, out);
  } else {
    out.links_without_inertial.push_back(name);
  }
  for (const TiXmlElement* c = link.FirstChildElement("collision"); c != nullptr;
       c = c->NextSiblingElement("collision")) {
    const TiXmlElement* geometry = c->FirstChildElement("geometry");
    const TiXmlElement* mesh = geometry ? geometry->FirstChildElement("mesh") : nullptr;
    if (mesh == nullptr) continue;  // boxes, cylinders, spheres: not imported (docs)
    const std::string file = resolve_mesh(attribute(*mesh, "filename"), path, *mesh, name);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      fail_urdf(path, mesh->Row(), mesh->Column(),
                "link '" + name + "': collision mesh '" + attribute(*mesh, "filename") +
                    "' not found (looked for " + file + ")");
    out.collision_meshes.push_back({name, file, mesh->Row()});
  }
}

void scan_joint(const TiXmlElement& joint, const std::string& path, UrdfScan& out) {
  const std::string name = attribute(joint, "name");
  if (name.empty()) fail_urdf(path, joint.Row(), joint.Column(), "a <joint> without a name");
  const std::string type = attribute(joint, "type");
  if (kSupportedJoints.count(type) == 0)
    fail_urdf(path, joint.Row(), joint.Column(),
              "joint '" + name + "': type '" + type +
                  "' is not supported (revolute, continuous, prismatic, fixed are)");
  // urdfdom refuses these too, but without naming the joint.
  if ((type == "revolute" || type == "prismatic") && joint.FirstChildElement("limit") == nullptr)
    fail_urdf(path, joint.Row(), joint.Column(),
              "joint '" + name + "': a " + type +
                  " joint needs <limit lower=... upper=... effort=... velocity=.../> (URDF "
                  "requires it; a revolute joint without limits is type 'continuous')");
  out.joints.push_back(name);
  out.joint_line[name] = joint.Row();
}

}  // namespace

void fail_urdf(const std::string& path, int line, int column, const std::string& message) {
  throw ModelFileError(path, line, line > 0 ? std::max(column, 1) : 0, message);
}

UrdfScan scan_urdf(const std::string& text, const std::string& path) {
  TiXmlDocument doc;
  doc.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
  if (doc.Error())
    fail_urdf(path, doc.ErrorRow(), doc.ErrorCol(), std::string("invalid XML: ") + doc.ErrorDesc());
  const TiXmlElement* robot = doc.RootElement();
  if (robot == nullptr || std::string(robot->Value()) != "robot")
    fail_urdf(path, robot ? robot->Row() : 1, robot ? robot->Column() : 1,
              "expected a <robot> element at the top");
  UrdfScan out;
  for (const TiXmlElement* e = robot->FirstChildElement(); e != nullptr;
       e = e->NextSiblingElement()) {
    const std::string tag = e->Value();
    if (tag == "link") scan_link(*e, path, out);
    if (tag == "joint") scan_joint(*e, path, out);
  }
  if (out.links.empty()) fail_urdf(path, robot->Row(), robot->Column(), "the robot has no <link>");
  return out;
}

}  // namespace cs::model_file
