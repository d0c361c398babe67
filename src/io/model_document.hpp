// A model file's document, parsed and with its overrides applied, and its reading into a
// LoadedModel: the two halves of load_model_string (model_reader.cpp), apart so that a document
// can be read again after a value in it changed (parameterized_model.cpp). Private to src/io.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"
#include "yaml_access.hpp"

namespace cs::model_file {

struct ModelDocument {
  YAML::Node doc;
  Source source;  // positions of the overrides' lines; copied by each read
  bool by_path = false;
};

// Parses `yaml_text` and applies `overrides` (the urdf: import included). `by_path`: messages
// name items by their paths (generated text). Throws ModelFileError.
ModelDocument parse_model_document(const std::string& yaml_text, const std::string& display_name,
                                   const std::vector<Override>& overrides, bool by_path);

// The model `d` describes, every check of the reader applied. Throws ModelFileError.
LoadedModel read_model_document(const ModelDocument& d);

// The finite number at `path` of `d` (as an override names it). Throws ModelFileError, labelled
// `label`, when the path leads nowhere or to something that is not a number; `why` says what
// needs a number ("a sensitivity is taken with respect to a numeric scalar of the model file").
double number_at(const ModelDocument& d, const std::string& path, const std::string& label,
                 const std::string& why);

}  // namespace cs::model_file
