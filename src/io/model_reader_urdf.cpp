// The `urdf:` key of a model file: the URDF robot's bodies, joints and collision shapes merged
// into the document before it is read (docs/model-format.md, "URDF import"). The file's own
// entries win: a joint the file also lists keeps the file's keys and gains the URDF's others (maps
// merged key by key), so `joints: {elbow: {backlash: {...}}}` adds backlash to the imported elbow
// and `joints: {elbow: {limits: {stiffness: 1.0e5}}}` changes only its stops' stiffness.
#include <filesystem>

#include "model_reader_sections.hpp"
#include "urdf_import.hpp"

namespace cs::model_file {

namespace {

// Adds to the map `mine` the keys of `imported` it lacks; a map both have is merged the same way
// (so `limits: {stiffness: ...}` keeps the URDF's bounds).
void merge_map(YAML::Node mine, const YAML::Node& imported) {
  const YAML::Node& const_mine = mine;
  for (const auto& item : imported) {
    const std::string key = item.first.Scalar();
    YAML::Node entry = const_mine[key];
    if (!entry)
      mine[key] = item.second;
    else if (entry.IsMap() && item.second.IsMap())
      merge_map(entry, item.second);
    // otherwise the file's value wins; the reader reports it if it is of the wrong kind
  }
}

// Adds the imported entries of one section to the document's, the file's keys first.
void merge_section(YAML::Node& doc, const std::string& section, const YAML::Node& imported) {
  if (!imported || imported.IsNull()) return;
  const YAML::Node& const_doc = doc;
  YAML::Node mine = const_doc[section];
  if (!mine || mine.IsNull()) {
    doc[section] = imported;
    return;
  }
  if (!mine.IsMap()) return;  // the reader reports the file's section as it is
  merge_map(mine, imported);
}

std::string urdf_path(const Cursor& c) {
  const std::filesystem::path p(read_text(c, "the name of a URDF file"));
  if (p.is_absolute()) return p.string();
  return (std::filesystem::path(c.source().name()).parent_path() / p).string();
}

}  // namespace

void expand_urdf(YAML::Node& doc, Source& source) {
  const YAML::Node& const_doc = doc;
  if (!const_doc.IsMap() || !const_doc["urdf"]) return;
  Position key_pos{}, value_pos{};
  for (const auto& item : const_doc)
    if (item.first.Scalar() == "urdf") {
      key_pos = to_position(item.first.Mark(), {});
      value_pos = to_position(item.second.Mark(), key_pos);
    }
  const Cursor c(source, const_doc["urdf"], "urdf", value_pos, key_pos);
  const std::string path = urdf_path(c);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    c.fail("urdf: cannot open the URDF file '" + path + "': no such file");
  const UrdfSections robot = import_urdf(path);
  merge_section(doc, "bodies", robot.bodies);
  merge_section(doc, "joints", robot.joints);
  merge_section(doc, "shapes", robot.shapes);
  for (const std::string& note : robot.notes) source.warn(key_pos, "urdf: " + note);
  doc.remove("urdf");
}

}  // namespace cs::model_file
