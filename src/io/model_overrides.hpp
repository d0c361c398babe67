// Overrides of model-file values (PATH=VALUE, model_reader.hpp), applied to the parsed document
// before it is read, so that every check of the reader applies to them (private to src/io).
#pragma once

#include <yaml-cpp/yaml.h>

#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "yaml_access.hpp"

namespace cs::model_file {

// Applies `overrides` in order to `doc`, the parsed file of `text_lines` lines. Each value is
// parsed with line numbers past the end of the file and registered with `source`, so that a
// message about it names the override. Throws ModelFileError when a value is not valid YAML or a
// path leads nowhere (naming the missing key and the keys that exist).
void apply_overrides(YAML::Node& doc, int text_lines, const std::vector<Override>& overrides,
                     Source& source);

// The node at `path` of `doc` (as an override names it); throws ModelFileError, labelled with
// `label`, when the path leads nowhere.
YAML::Node node_at(const YAML::Node& doc, const std::string& path, const std::string& label,
                   const Source& source);

}  // namespace cs::model_file
