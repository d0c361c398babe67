// The YAML model-file reader (format: docs/model-format.md). It turns a model file into a Model
// (through model_builder.hpp) and the RunSettings of its `solver` and `output` sections.
//
// Every problem with the file is reported as a ModelFileError whose message names the file, the
// 1-based line and column, what was expected and what was found:
//   model.yaml:12:11: error: bodies.crank.mass: expected a positive number [kg], found '-0.3'
// The reader never fills a required value with a default and never crashes on malformed input:
// syntax errors, wrong types, empty files, NaN and builder errors all come out in that form.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/estimation/sensor.hpp"
#include "clearsim/model/model.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

// An error in a model file. what() is "FILE:LINE:COL: error: MESSAGE" (line and column 1-based),
// or "FILE: error: MESSAGE" when there is no position (the file cannot be read, or the error is
// in an override: line() == 0; MESSAGE then starts with "override PATH=VALUE: ").
class ModelFileError : public std::runtime_error {
 public:
  ModelFileError(std::string file, int line, int column, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }      // 1-based; 0 when the error has no position
  int column() const { return column_; }  // 1-based; 0 when the error has no position
  const std::string& message() const { return message_; }  // MESSAGE alone

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

struct LoadedModel {
  Model model;
  RunSettings run;
  // Questionable but accepted input (a key the chosen solver ignores, an inertia no real body
  // has, ...), each "FILE:LINE:COL: warning: MESSAGE".
  std::vector<std::string> warnings;
  std::string path;             // the file name used in messages
  std::vector<Sensor> sensors;  // the sensors section (estimation/sensor.hpp), in file order
  // The unit of every number the reader read, by its path as an Override (or a parameter of
  // `clearsim estimate`, `--sensitivity`) names it: "bodies.crank.mass" -> "kg",
  // "bodies.crank.position[0]" -> "m", "joints.pivot.clearance.radial" -> "m",
  // "forces.bearing.damping" -> "N*m*s/rad". Spelt as channel_unit spells a channel's
  // (result_writer.hpp): ASCII, "1" for a pure number (a restitution, a friction coefficient),
  // "" when the file's value has no single unit. A sensor's noise is in its channel's unit.
  std::map<std::string, std::string> units;
};

// The unit of the number at `path` of the model (LoadedModel::units); "" when the reader read
// no number there.
std::string unit_at(const LoadedModel& model, const std::string& path);

// The unit of a result column of this model: channel_unit's, with a sensitivity
// d(CHANNEL)/d(PATH)'s parameter unit from the model file ("m/s^2/kg" where channel_unit can
// only say "m/s^2/[bodies.slider.mass]").
std::string column_unit(const LoadedModel& model, const std::string& column);
std::vector<std::string> column_units(const LoadedModel& model,
                                      const std::vector<std::string>& columns);

// A change to the model file before it is read: the value at `path` becomes `value`.
//   path   the dotted path of a key as error messages name it, with [k] for list items:
//          joints.rod_slider.clearance.radial, gravity[2], output.channels[0]. Every part must
//          exist, except the last key of a map, which is added (and then checked like any key).
//   value  YAML text: 0.5e-3, nsga, [0, 0, -9.81], {radial: 0.5e-3, restitution: 0.9}.
// Overrides are applied in order to the parsed document, so the value is validated exactly as
// if it were written in the file; an error in it is reported as
//   model.yaml: error: override joints.rod_slider.clearance.radial=-1: joints.rod_slider....
// and a path that does not exist names the missing key and the keys that do exist.
struct Override {
  std::string path;
  std::string value;
  // How messages name the override; empty: "PATH=VALUE". The command line's --step 0 is the
  // override solver.step=0 labelled "--step 0", so its error names the option the user typed.
  std::string label = {};
};

// "PATH=VALUE" (the command line's --set) as an Override; throws std::invalid_argument when
// there is no '=' or the path is empty.
Override parse_override(const std::string& assignment);

// Reads and validates the model file at `path`, with `overrides` applied. Throws ModelFileError.
LoadedModel load_model_file(const std::string& path, const std::vector<Override>& overrides = {});

// Same for YAML text held in memory; `display_name` stands for the file name in messages.
LoadedModel load_model_string(const std::string& yaml_text, const std::string& display_name,
                              const std::vector<Override>& overrides = {});

// Same for YAML text generated from data (clearsim.from_dict): its lines and columns mean nothing
// to the user, so a message has no position and names the item by its path instead:
//   crank: error: bodies.crank.mass: expected a positive number [kg], found '-0.3'
//   crank: error: bodies.crank.mas: unknown key 'mas' in body 'crank' (allowed: ...)
LoadedModel load_model_generated(const std::string& yaml_text, const std::string& display_name,
                                 const std::vector<Override>& overrides = {});

// The model text with `overrides` applied, as YAML that reads to the same model, value for
// value (Model.to_yaml). `yaml_text` itself when there are no overrides; otherwise the document
// is written anew and its comments are lost. Throws ModelFileError as load_model_string does.
std::string model_text_with_overrides(const std::string& yaml_text, const std::string& display_name,
                                      const std::vector<Override>& overrides);

// The number at `path` (as an Override names it) in the model text with `overrides` applied:
// what a sensitivity differentiates with respect to. Throws ModelFileError naming the path when
// it leads nowhere or to something that is not a number (a map, a list, a name).
double read_model_scalar(const std::string& yaml_text, const std::string& display_name,
                         const std::vector<Override>& overrides, const std::string& path);

}  // namespace cs
