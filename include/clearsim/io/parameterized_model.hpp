// A model file read once whose chosen numbers can be changed and the model built again without
// reading the text again: what a filter that estimates a parameter, or a loop over a parameter's
// values, needs at every change. Parsing the text (yaml-cpp's scanner) is most of a model's
// load; building the model from the parsed document is the rest. The model built for values x
// is the one load_model_string gives with the overrides PATH=x added (the same checks, the same
// messages, the same bits).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "clearsim/io/model_reader.hpp"

namespace cs {

class ParameterizedModel {
 public:
  // The text with `overrides` applied, its numbers at `paths` (as --set names them) the
  // parameters. Throws ModelFileError for the text and overrides as load_model_string does, and
  // naming the path when it leads nowhere or to something that is not a number. Messages name
  // parameter k as labels[k] ("parameter PATH" when labels is empty) and say `what` a parameter
  // must be.
  ParameterizedModel(const std::string& yaml_text, const std::string& display_name,
                     const std::vector<Override>& overrides, std::vector<std::string> paths,
                     std::vector<std::string> labels = {},
                     const std::string& what = "a parameter is a numeric scalar of the model file");
  ~ParameterizedModel();
  ParameterizedModel(ParameterizedModel&&) noexcept;
  ParameterizedModel& operator=(ParameterizedModel&&) noexcept;

  const std::vector<std::string>& paths() const { return paths_; }
  // The name messages give the model (the file's).
  const std::string& display_name() const { return display_name_; }
  // The parameters' values in the text (with the overrides).
  const std::vector<double>& values() const { return values_; }
  // The model with parameter k at values[k] (written "%.17g", so read back exactly). Throws
  // ModelFileError when a value is not valid there (a negative mass), naming it as the
  // override "parameter PATH". Not thread-safe: it writes the values into the one parsed
  // document it keeps.
  LoadedModel load(std::span<const double> values);

  // What the number at `path` (one of paths()) can change, read from the document: the entry of
  // a named section (bodies, markers, shapes, joints, drivers, forces, contacts) it lies in, the
  // entries that hold the same number through a YAML alias, and
  // every entry of those sections whose text names one of the entries reached, transitively (a
  // driver names its joint, the joint its bodies). Any text containing a name counts, so the
  // set errs on the large side. A body's mass and inertia reach their body alone (elements
  // read a body's pose, never its inertia). A number outside those sections (gravity) reaches
  // everything.
  struct Reach {
    bool everything = true;
    std::vector<std::string> entries;  // the names of the entries reached
    std::vector<std::string> all;      // the names of every entry of the named sections
  };
  Reach reach(const std::string& path) const;

 private:
  struct Document;
  std::unique_ptr<Document> doc_;
  std::vector<std::string> paths_;
  std::string display_name_;
  std::vector<double> values_;
};

}  // namespace cs
