#include "model_overrides.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace cs {

Override parse_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos)
    throw std::invalid_argument("expected PATH=VALUE (e.g. solver.step=5e-6), found '" +
                                assignment + "'");
  Override o{assignment.substr(0, eq), assignment.substr(eq + 1)};
  if (o.path.empty())
    throw std::invalid_argument("expected PATH=VALUE, found no path in '" + assignment + "'");
  return o;
}

namespace model_file {
namespace {

// One step of a path: a map key, or a list index ([k]).
struct Part {
  std::string key;
  std::optional<std::size_t> index;
};

class OverrideError {
 public:
  // `what` names the kind of path in messages: "override PATH=VALUE: ...".
  OverrideError(const Source& source, std::string label, std::string what = "override ")
      : source_(source), label_(std::move(label)), what_(std::move(what)) {}
  [[noreturn]] void fail(const std::string& message) const {
    throw ModelFileError(source_.name(), 0, 0, what_ + label_ + ": " + message);
  }

 private:
  const Source& source_;
  std::string label_, what_;
};

std::optional<std::size_t> parse_index(std::string_view s) {
  std::size_t k = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), k);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return k;
}

// "joints.pivot.at[2]" -> joints, pivot, at, [2].
std::vector<Part> parse_path(const std::string& path, const OverrideError& err) {
  std::vector<Part> parts;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const std::size_t dot = std::min(path.find('.', pos), path.size());
    const std::string_view segment(path.data() + pos, dot - pos);
    const std::size_t bracket = segment.find('[');
    const std::string_view key = segment.substr(0, bracket);
    if (key.empty() && (bracket != 0 || parts.empty()))
      err.fail("the path '" + path + "' has an empty key");
    if (!key.empty()) parts.push_back({std::string(key), std::nullopt});
    std::string_view rest =
        bracket == std::string_view::npos ? std::string_view() : segment.substr(bracket);
    while (!rest.empty()) {
      const std::size_t close = rest.find(']');
      const auto k = rest.front() != '[' || close == std::string_view::npos
                         ? std::nullopt
                         : parse_index(rest.substr(1, close - 1));
      if (!k) err.fail("the path '" + path + "' has a bad list index (expected [0], [1], ...)");
      parts.push_back({"", k});
      rest = rest.substr(close + 1);
    }
    pos = dot + 1;
  }
  return parts;
}

std::string describe_path(const std::string& path) {
  return path.empty() ? std::string("the top level") : "'" + path + "'";
}

std::vector<std::string> keys_of(const YAML::Node& map) {
  std::vector<std::string> keys;
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar()) keys.push_back(it->first.Scalar());
  return keys;
}

// The child of `node` at `part`, or nothing when a map has no such key. Fails when
// the step cannot be taken (an index into a map, a key of a scalar, an index out of range).
std::optional<YAML::Node> child(const YAML::Node& node, Part part, const std::string& at,
                                const OverrideError& err) {
  if (!part.index && node.IsSequence()) part.index = parse_index(part.key);  // items.2
  if (part.index) {
    if (!node.IsSequence())
      err.fail(describe_path(at) + " is not a list (found " + describe(node) +
               "), so it has no item [" + std::to_string(*part.index) + "]");
    if (*part.index >= node.size())
      err.fail(describe_path(at) + " has " + std::to_string(node.size()) + " items, no item [" +
               std::to_string(*part.index) + "]");
    std::size_t k = 0;
    for (auto it = node.begin(); it != node.end(); ++it, ++k)
      if (k == *part.index) return *it;
  }
  if (!node.IsMap())
    err.fail(describe_path(at) + " is not a map (found " + describe(node) +
             "), so it has no key '" + part.key + "'");
  for (auto it = node.begin(); it != node.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == part.key) return it->second;
  return std::nullopt;
}

[[noreturn]] void fail_missing(const YAML::Node& map, const std::string& key, const std::string& at,
                               const OverrideError& err) {
  const std::vector<std::string> keys = keys_of(map);
  err.fail(describe_path(at) + " has no key '" + key + "' (keys: " +
           (keys.empty() ? std::string("none") : join(keys)) + ")" + did_you_mean(key, keys));
}

std::string extend(const std::string& at, const Part& part) {
  if (part.index) return at + "[" + std::to_string(*part.index) + "]";
  return at.empty() ? part.key : at + "." + part.key;
}

// `solver` and `output` hold only optional settings, so an override of one of them (the command
// line's --step is solver.step) may create the section; any other missing key is an error.
bool is_optional_section(const Part& part) {
  return !part.index && (part.key == "solver" || part.key == "output");
}

// YAML text parsed as if it started on 0-based line `line`, so that its marks point past the
// end of the file.
YAML::Node parse_at_line(const std::string& text, int line, const OverrideError& err) {
  try {
    return YAML::Load(std::string(static_cast<std::size_t>(line), '\n') + text);
  } catch (const YAML::Exception& e) {
    err.fail("the value is not valid YAML: " + e.msg);
  }
}

void apply_one(YAML::Node& doc, const Override& o, int line, const OverrideError& err) {
  if (o.value.find_first_not_of(" \t\r\n") == std::string::npos)
    err.fail("no value after '=' (write the value in YAML, e.g. 0.5e-3 or [0, 0, -9.81])");
  const std::vector<Part> parts = parse_path(o.path, err);
  YAML::Node node = doc;
  std::string at;
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    std::optional<YAML::Node> next = child(node, parts[k], at, err);
    if (!next && k == 0 && is_optional_section(parts[k])) {
      node[parts[k].key] = YAML::Node(YAML::NodeType::Map);  // solver.step on a file without one
      next = child(node, parts[k], at, err);
    }
    if (!next) fail_missing(node, parts[k].key, at, err);
    at = extend(at, parts[k]);
    node.reset(*next);  // (assignment would overwrite the node inside the document)
  }
  const Part& last = parts.back();
  const YAML::Node value = parse_at_line(o.value, line, err);
  if (!last.index && node.IsNull()) node = YAML::Node(YAML::NodeType::Map);
  if (std::optional<YAML::Node> target = child(node, last, at, err)) {
    *target = value;  // rebinds the node inside the document
  } else {
    // A key the map does not have: added, and checked by the reader like any other key.
    node.force_insert(parse_at_line(last.key, line, err), value);
  }
}

}  // namespace

YAML::Node node_at(const YAML::Node& doc, const std::string& path, const std::string& label,
                   const Source& source) {
  const OverrideError err(source, label, "");
  YAML::Node node = doc;
  std::string at;
  for (const Part& part : parse_path(path, err)) {
    std::optional<YAML::Node> next = child(node, part, at, err);
    if (!next) fail_missing(node, part.key, at, err);
    at = extend(at, part);
    node.reset(*next);
  }
  return node;
}

void apply_overrides(YAML::Node& doc, int text_lines, const std::vector<Override>& overrides,
                     Source& source) {
  if (overrides.empty()) return;
  int lines_each = 1;
  std::vector<std::string> labels;
  for (const Override& o : overrides) {
    lines_each = std::max(lines_each,
                          1 + static_cast<int>(std::count(o.value.begin(), o.value.end(), '\n')));
    labels.push_back(o.label.empty() ? o.path + "=" + o.value : o.label);
  }
  // 1-based lines from first_line on belong to the overrides (one blank line after the file).
  const int first_line = text_lines + 2;
  source.set_overrides(first_line, lines_each, labels);
  for (std::size_t k = 0; k < overrides.size(); ++k) {
    const OverrideError err(source, labels[k]);
    apply_one(doc, overrides[k], first_line - 1 + static_cast<int>(k) * lines_each, err);
  }
}

}  // namespace model_file
}  // namespace cs
