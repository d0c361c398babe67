// A model document (a parsed or built YAML::Node) written as YAML text the model reader reads
// back to the same values: what clearsim.from_dict feeds the reader and Model.to_yaml writes.
// (Includes yaml-cpp's headers, unlike the rest of the public API.)
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace cs {

// `doc` as YAML text. Scalars are written as they are, so numbers keep every digit; a scalar
// tagged as a string (quoted in its file, or marked with the tag "!" when built) is written
// double-quoted, so that "0.3" stays a string. Maps and lists keep the style they were parsed
// with; built ones (no style) are written as block maps, and lists of scalars in flow style
// ([0, 0, -9.81]).
std::string write_model_yaml(const YAML::Node& doc);

}  // namespace cs
