// Typed, position-aware access to a parsed YAML document for the model-file reader (private to
// src/io). Every accessor either returns a valid value or throws ModelFileError with the file,
// line and column of the offending node and a message "<path>: expected <what>, found <what>",
// where <path> is the dotted name of the value in the file (bodies.crank.mass, solver.step,
// joints.pivot.axis[2]).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "clearsim/io/suggest.hpp"
#include "clearsim/math/types.hpp"

namespace cs::model_file {

// A 1-based line and column in the file.
struct Position {
  int line = 1;
  int column = 1;
};

// yaml-cpp's 0-based mark as a Position; `fallback` when the mark is unset (negative).
Position to_position(const YAML::Mark& mark, Position fallback);

// The file being read: its display name, for messages, and the warnings collected so far.
//
// Values given as overrides (model_overrides.hpp) are parsed with line numbers past the end of
// the file: override k occupies the lines first_line + k·lines_each onwards. A message at such a
// line names the override ("override PATH=VALUE: ...") instead of a file position.
class Source {
 public:
  explicit Source(std::string display_name) : name_(std::move(display_name)) {}
  const std::string& name() const { return name_; }
  [[noreturn]] void fail(Position at, const std::string& message) const;
  void warn(Position at, const std::string& message);
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Lines from `first_line` (1-based) on belong to the overrides `labels`, `lines_each` lines
  // apiece.
  void set_overrides(int first_line, int lines_each, std::vector<std::string> labels);
  // The override a position lies in, or nullptr when it is in the file.
  const std::string* override_at(Position at) const;

  // For text generated from data (clearsim.from_dict), whose lines and columns mean nothing to
  // the user: messages then have no position and name the item at it by its path
  // ("bodies.crank.mas: unknown key 'mas' ..."). Records the path of every node of `doc`.
  void name_items_by_path(const YAML::Node& doc);

  // The unit of the number read at each path (the path as an override names it:
  // joints.pivot.clearance.radial, bodies.crank.position[0]), recorded by read_number,
  // read_positive and read_non_negative (and the readers built on them). The last read wins.
  void record_unit(const std::string& path, std::string unit) {
    units_.insert_or_assign(path, std::move(unit));
  }
  const std::map<std::string, std::string>& units() const { return units_; }
  std::map<std::string, std::string> take_units() { return std::move(units_); }

 private:
  // `message`, preceded by the path of the item at `at` unless it names that item already.
  std::string with_item_path(Position at, const std::string& message) const;

  std::string name_;
  std::vector<std::string> warnings_;
  bool by_path_ = false;
  std::map<std::pair<int, int>, std::string> item_paths_;  // (line, column) -> path
  int override_line_ = 0;                                  // 0: no overrides
  int override_lines_each_ = 1;
  std::vector<std::string> override_labels_;
  std::map<std::string, std::string> units_;  // path -> unit (record_unit)
};

// A node of the document with its dotted path (for messages) and the position to report: the
// node's own mark, or that of its key when the value is empty (yaml-cpp marks an empty value at
// the start of the next token, often the next line).
class Cursor {
 public:
  Cursor(Source& source, YAML::Node node, std::string path, Position pos, Position key_pos)
      : source_(&source),
        node_(std::move(node)),
        path_(std::move(path)),
        pos_(pos),
        key_pos_(key_pos) {}

  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  Position pos() const { return pos_; }
  // The key that names this value (`crank:` for bodies.crank); pos() for list items and the root.
  Position key_pos() const { return key_pos_; }
  Source& source() const { return *source_; }
  bool is_null() const { return !node_.IsDefined() || node_.IsNull(); }

  [[noreturn]] void fail(const std::string& message) const { source_->fail(pos_, message); }
  [[noreturn]] void fail_at_key(const std::string& message) const {
    source_->fail(key_pos_, message);
  }
  // "<path>: expected <what>, found <description of the node>".
  [[noreturn]] void expected(const std::string& what) const;
  void warn(const std::string& message) const { source_->warn(pos_, message); }
  void warn_at_key(const std::string& message) const { source_->warn(key_pos_, message); }

  // The items of a list (paths <path>[k]); fails with `expected` unless this is a list.
  std::vector<Cursor> items(const std::string& expected) const;
  // Same, and the list must have exactly `count` items.
  std::vector<Cursor> items(const std::string& expected, std::size_t count) const;

 private:
  Source* source_;
  YAML::Node node_;
  std::string path_;
  Position pos_;
  Position key_pos_;
};

// One key: value pair of a map.
struct Entry {
  std::string key;
  Cursor value;  // value.key_pos() is the position of the key
};

// A map whose keys have been checked: scalars, each given once.
class MapView {
 public:
  // Fails with "<path>: expected <expected>, found ..." unless `map` is a map; fails on a
  // non-scalar or duplicate key.
  MapView(const Cursor& map, const std::string& expected);

  // Fails on the first key not in `allowed`; `where` names the map ("in body 'crank'"):
  //   "unknown key 'mas' in body 'crank' (allowed: mass, inertia, ...)[; did you mean 'mass'?]".
  void allow_only(const std::string& where, const std::vector<std::string>& allowed) const;

  bool has(std::string_view key) const { return find(key).has_value(); }
  std::optional<Cursor> find(std::string_view key) const;
  // The value of a required key; fails at the map's key with
  // "<path>: missing required key '<key>' (<expected>)".
  Cursor need(std::string_view key, const std::string& expected) const;

  const std::vector<Entry>& entries() const { return entries_; }
  const Cursor& cursor() const { return map_; }

 private:
  Cursor map_;
  std::vector<Entry> entries_;                          // in file order
  std::unordered_map<std::string, std::size_t> index_;  // key -> index into entries_
};

// A short description of a node for "found ..." ("'-0.3'", "the string \"0.3\"", "nothing",
// "a list of 2 items [0, 1]", "a map (keys: axis, angle)").
std::string describe(const YAML::Node& node);

// "a number", "a number [kg]".
std::string with_unit(const std::string& what, const std::string& unit);

// The value of a plain (unquoted) scalar that is a finite number, else nothing.
std::optional<double> number_of(const YAML::Node& node);

// The unit of a number as the model's results spell it (channel_unit: ASCII, "1" when
// dimensionless, "" when unknown) from the unit the reader names in its messages (`unit`):
// "kg·m²" -> "kg*m^2", "N·m·s/rad" -> "N*m*s/rad", "" (a pure number) -> "1"; a text that is
// no unit ("m, rad", "N/m for ali3p, kg for penalty") -> "". For item `index` of a list whose
// unit has "^k" (a polynomial's c_k in "m/s^k"), k is the index: "m", "m/s", "m/s^2", ...
std::string result_unit(const std::string& unit, std::size_t index = 0);

// Typed scalar readers. `unit` is used in messages ("kg", "m/s"; may be empty: a pure number)
// and recorded with the path (Source::record_unit, as result_unit spells it).
double read_number(const Cursor& c, const std::string& unit);        // any finite number
double read_positive(const Cursor& c, const std::string& unit);      // > 0
double read_non_negative(const Cursor& c, const std::string& unit);  // >= 0
int read_integer(const Cursor& c, int min_value);                    // decimal, >= min_value
bool read_bool(const Cursor& c);                                     // true | false
// A non-empty scalar (names, file names); `what` is e.g. "a body name".
std::string read_text(const Cursor& c, const std::string& what);

// Vectors and matrices (lists of numbers; matrices as a list of 3 rows).
Vec3 read_vec3(const Cursor& c, const std::string& unit);
Vec3 read_direction(const Cursor& c);  // a non-zero vec3 (not normalised)
Mat3 read_mat3(const Cursor& c, const std::string& unit);
std::vector<double> read_numbers(const Cursor& c, const std::string& unit, std::size_t min_count);
std::vector<std::string> read_texts(const Cursor& c, const std::string& what);

// Index into `names` of the scalar at `c`; fails with "expected one of a, b, c, found 'x'".
std::size_t read_choice_index(const Cursor& c, const std::vector<std::string>& names);

template <class E>
E read_choice(const Cursor& c, const std::vector<std::pair<std::string, E>>& choices) {
  std::vector<std::string> names;
  names.reserve(choices.size());
  for (const auto& [name, value] : choices) names.push_back(name);
  return choices[read_choice_index(c, names)].second;
}

// "a, b, c".
std::string join(const std::vector<std::string>& words, std::string_view separator = ", ");
// Suggestions for a mistyped key (clearsim/io/suggest.hpp).
using cs::closest;
using cs::did_you_mean;
// A computed number as messages show it (6 significant digits).
std::string format_number(double x);

}  // namespace cs::model_file
