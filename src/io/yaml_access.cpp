#include "yaml_access.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "clearsim/io/model_reader.hpp"

namespace cs::model_file {

namespace {

constexpr std::size_t kMaxShownChars = 40;

// "in bodies.crank", "at the top level".
std::string where_is(const std::string& path) {
  return path.empty() ? std::string("at the top level") : "in " + path;
}

std::string prefix(const std::string& path) { return path.empty() ? "" : path + ": "; }

// A scalar written in quotes (yaml-cpp tags those "!") or tagged !!str: a string, never a
// number (`mass: !!str 0.3` was read as 0.3).
bool is_quoted(const YAML::Node& n) { return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str"; }

std::string shorten(const std::string& s) {
  std::string out = s.substr(0, s.find('\n'));
  if (out.size() > kMaxShownChars || out.size() < s.size())
    out = out.substr(0, std::min(out.size(), kMaxShownChars)) + "...";
  return out;
}

std::optional<double> parse_double(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return {};
  double x = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(x)) return {};
  return x;
}

std::optional<long long> parse_integer(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty() || s.front() == '+') return {};
  long long x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size()) return {};
  return x;
}
}  // namespace

Position to_position(const YAML::Mark& mark, Position fallback) {
  if (mark.line < 0 || mark.column < 0) return fallback;
  return {mark.line + 1, mark.column + 1};
}

void Source::set_overrides(int first_line, int lines_each, std::vector<std::string> labels) {
  override_line_ = first_line;
  override_lines_each_ = std::max(1, lines_each);
  override_labels_ = std::move(labels);
}

const std::string* Source::override_at(Position at) const {
  if (override_line_ <= 0 || at.line < override_line_) return nullptr;
  const auto k = static_cast<std::size_t>((at.line - override_line_) / override_lines_each_);
  return k < override_labels_.size() ? &override_labels_[k] : nullptr;
}

namespace {

// Records the path of `node` and of everything in it, the deeper item winning where two share a
// position (a block map starts where its first key does).
void record_paths(const YAML::Node& node, const std::string& path,
                  std::map<std::pair<int, int>, std::string>& paths) {
  const auto record = [&](const YAML::Mark& mark, const std::string& p) {
    if (mark.line >= 0 && mark.column >= 0 && !p.empty())
      paths.insert_or_assign({mark.line + 1, mark.column + 1}, p);
  };
  record(node.Mark(), path);
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar()) continue;
      const std::string child = path.empty() ? it->first.Scalar() : path + "." + it->first.Scalar();
      record(it->first.Mark(), child);
      record_paths(it->second, child, paths);
    }
  } else if (node.IsSequence()) {
    std::size_t k = 0;
    for (const YAML::Node& item : node)
      record_paths(item, path + "[" + std::to_string(k++) + "]", paths);
  }
}

}  // namespace

void Source::name_items_by_path(const YAML::Node& doc) {
  by_path_ = true;
  item_paths_.clear();
  record_paths(doc, "", item_paths_);
}

std::string Source::with_item_path(Position at, const std::string& message) const {
  const auto it = item_paths_.find({at.line, at.column});
  if (it == item_paths_.end() || message.find(it->second) != std::string::npos) return message;
  return it->second + ": " + message;
}

void Source::fail(Position at, const std::string& message) const {
  if (const std::string* label = override_at(at))
    throw ModelFileError(name_, 0, 0, "override " + *label + ": " + message);
  if (by_path_) throw ModelFileError(name_, 0, 0, with_item_path(at, message));
  throw ModelFileError(name_, at.line, at.column, message);
}

void Source::warn(Position at, const std::string& message) {
  std::ostringstream os;
  if (const std::string* label = override_at(at)) {
    os << name_ << ": warning: override " << *label << ": " << message;
  } else if (by_path_) {
    os << name_ << ": warning: " << with_item_path(at, message);
  } else {
    os << name_ << ":" << at.line << ":" << at.column << ": warning: " << message;
  }
  warnings_.push_back(os.str());
}

void Cursor::expected(const std::string& what) const {
  fail(prefix(path_) + "expected " + what + ", found " + describe(node_));
}

std::vector<Cursor> Cursor::items(const std::string& expected_what) const {
  if (is_null() || !node_.IsSequence()) expected(expected_what);
  std::vector<Cursor> out;
  std::size_t k = 0;
  for (const YAML::Node& item : node_) {
    const Position p = to_position(item.Mark(), pos_);
    out.emplace_back(*source_, item, path_ + "[" + std::to_string(k++) + "]", p, p);
  }
  return out;
}

std::vector<Cursor> Cursor::items(const std::string& expected_what, std::size_t count) const {
  if (is_null() || !node_.IsSequence() || node_.size() != count) expected(expected_what);
  return items(expected_what);
}

MapView::MapView(const Cursor& map, const std::string& expected) : map_(map) {
  if (map.is_null() || !map.node().IsMap()) map.expected(expected);
  for (auto it = map.node().begin(); it != map.node().end(); ++it) {
    const YAML::Node key = it->first;
    const Position key_pos = to_position(key.Mark(), map.pos());
    if (!key.IsDefined() || !key.IsScalar() || key.Scalar().empty()) {
      map.source().fail(key_pos,
                        prefix(map.path()) + "expected a key name, found " + describe(key));
    }
    const std::string name = key.Scalar();
    if (const auto seen = index_.find(name); seen != index_.end()) {
      const Position first = entries_[seen->second].value.key_pos();
      map.source().fail(key_pos, "duplicate key '" + name + "' " + where_is(map.path()) +
                                     " (first given at line " + std::to_string(first.line) +
                                     ", column " + std::to_string(first.column) + ")");
    }
    index_.emplace(name, entries_.size());
    const YAML::Node value = it->second;
    const bool empty = !value.IsDefined() || value.IsNull();
    const Position value_pos = empty ? key_pos : to_position(value.Mark(), key_pos);
    const std::string path = map.path().empty() ? name : map.path() + "." + name;
    entries_.push_back({name, Cursor(map.source(), value, path, value_pos, key_pos)});
  }
}

void MapView::allow_only(const std::string& where, const std::vector<std::string>& allowed) const {
  for (const Entry& e : entries_) {
    if (std::find(allowed.begin(), allowed.end(), e.key) != allowed.end()) continue;
    e.value.fail_at_key("unknown key '" + shorten(e.key) + "' " + where +
                        " (allowed: " + join(allowed) + ")" + did_you_mean(e.key, allowed));
  }
}

std::optional<Cursor> MapView::find(std::string_view key) const {
  const auto it = index_.find(std::string(key));
  if (it == index_.end()) return std::nullopt;
  return entries_[it->second].value;
}

Cursor MapView::need(std::string_view key, const std::string& expected) const {
  if (auto c = find(key)) return *c;
  if (map_.path().empty())
    map_.fail_at_key("missing required section '" + std::string(key) + "' (" + expected + ")");
  map_.fail_at_key(map_.path() + ": missing required key '" + std::string(key) + "' (" + expected +
                   ")");
}

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing (an empty value)";
  if (node.IsScalar()) {
    if (is_quoted(node)) return "the string \"" + shorten(node.Scalar()) + "\"";
    return "'" + shorten(node.Scalar()) + "'";
  }
  if (node.IsSequence()) {
    const std::size_t n = node.size();
    std::string out = "a list of " + std::to_string(n) + (n == 1 ? " item" : " items");
    std::string flow;
    for (const YAML::Node& item : node) {
      if (!item.IsScalar()) return out;
      flow += (flow.empty() ? "" : ", ") + item.Scalar();
    }
    if (!flow.empty() && flow.size() <= kMaxShownChars) out += " [" + flow + "]";
    return out;
  }
  if (node.IsMap()) {
    std::vector<std::string> keys;
    for (auto it = node.begin(); it != node.end(); ++it)
      keys.push_back(it->first.IsScalar() ? it->first.Scalar() : std::string("?"));
    if (keys.empty()) return "an empty map";
    return "a map (keys: " + shorten(join(keys)) + ")";
  }
  return "an unreadable value";
}

std::string with_unit(const std::string& what, const std::string& unit) {
  return unit.empty() ? what : what + " [" + unit + "]";
}

std::optional<double> number_of(const YAML::Node& n) {
  if (!n.IsDefined() || !n.IsScalar() || is_quoted(n)) return {};
  return parse_double(n.Scalar());
}

namespace {

// Issue 14, item 4: a crank at x = 1e308 or a joint at 1e299 passed check and then gave NaN or
// inf at t = 0 (squares of lengths overflow past 1e154). A length is in metres; beyond 1000 km
// a coordinate's round-off (1e-10 m) reaches the default newton_tol, so no mechanism has one.
constexpr double kMaxLength = 1e6;  // [m]
// A driver's angular_velocity of 1e308 passed check and gave NaN at t = 0, named only by the
// channel that went non-finite. No machine turns at 1e6 rad/s (10 million rpm) or moves at
// 1e6 m/s, so a speed past that is a typing error, refused where it is written.
constexpr double kMaxSpeed = 1e6;  // [m/s, rad/s]

// Fails unless a length (unit "m") is within kMaxLength and a speed (unit "m/s" or "rad/s")
// within kMaxSpeed; `what` is what was expected.
void check_length(const Cursor& c, double x, const std::string& unit, const std::string& what) {
  if (unit == "m" && std::abs(x) > kMaxLength)
    c.expected(with_unit(what, unit) +
               " of magnitude <= 1e6 (beyond 1000 km a coordinate's round-off passes newton_tol)");
  if ((unit == "m/s" || unit == "rad/s") && std::abs(x) > kMaxSpeed)
    c.expected(with_unit(what, unit) + " of magnitude <= 1e6 (no mechanism moves faster)");
}

// The number read at `c` is in `unit` (Source::units, for the results' columns of parameters).
void record_unit(const Cursor& c, const std::string& unit, std::size_t index = 0) {
  if (!c.path().empty()) c.source().record_unit(c.path(), result_unit(unit, index));
}

}  // namespace

std::string result_unit(const std::string& unit, std::size_t index) {
  if (unit.empty()) return "1";
  if (unit.find_first_of(" ,") != std::string::npos) return "";  // several units, or a phrase
  static const std::pair<std::string_view, std::string_view> kAscii[] = {
      {"\u00b7", "*"}, {"\u00b2", "^2"}, {"\u00b3", "^3"}};  // ·, ², ³
  std::string u;
  for (std::size_t k = 0; k < unit.size();) {
    bool replaced = false;
    for (const auto& [from, to] : kAscii) {
      if (unit.compare(k, from.size(), from) != 0) continue;
      u += to;
      k += from.size();
      replaced = true;
      break;
    }
    if (!replaced) u += unit[k++];
  }
  const std::size_t at = u.find("^k");
  if (at == std::string::npos) return u;
  if (index >= 2) return u.replace(at, 2, "^" + std::to_string(index));
  if (index == 1) return u.erase(at, 2);  // "m/s^k" -> "m/s", "N*m/(rad/s)^k" -> "N*m/(rad/s)"
  // Item 0: no denominator ("m/s^k" -> "m", "N*m/(rad/s)^k" -> "N*m").
  std::size_t start = at;
  if (start > 0 && u[start - 1] == ')') {
    int depth = 0;
    do {
      --start;
      if (u[start] == ')') ++depth;
      if (u[start] == '(') --depth;
    } while (start > 0 && depth > 0);
  } else {
    while (start > 0 && u[start - 1] != '/' && u[start - 1] != '*') --start;
  }
  if (start > 0 && u[start - 1] == '/') u.erase(start - 1, at + 2 - (start - 1));
  return u;
}

double read_number(const Cursor& c, const std::string& unit) {
  const auto x = number_of(c.node());
  if (!x) c.expected(with_unit("a number", unit));
  check_length(c, *x, unit, "a number");
  record_unit(c, unit);
  return *x;
}

double read_positive(const Cursor& c, const std::string& unit) {
  const auto x = number_of(c.node());
  if (!x || !(*x > 0.0)) c.expected(with_unit("a positive number", unit));
  check_length(c, *x, unit, "a positive number");
  record_unit(c, unit);
  return *x;
}

double read_non_negative(const Cursor& c, const std::string& unit) {
  const auto x = number_of(c.node());
  if (!x || !(*x >= 0.0)) c.expected(with_unit("a non-negative number", unit));
  check_length(c, *x, unit, "a non-negative number");
  record_unit(c, unit);
  return *x;
}

int read_integer(const Cursor& c, int min_value) {
  const std::string what = min_value == 1   ? "a positive integer"
                           : min_value == 0 ? "a non-negative integer"
                                            : "an integer >= " + std::to_string(min_value);
  const YAML::Node& n = c.node();
  if (!n.IsDefined() || !n.IsScalar() || is_quoted(n)) c.expected(what);
  const auto x = parse_integer(n.Scalar());
  // Past the limit, the message states it (`every: 2147483648` is a positive integer).
  if (x && *x > 2147483647LL) c.expected(what + " <= 2147483647");
  if (!x || *x < min_value) c.expected(what);
  return static_cast<int>(*x);
}

bool read_bool(const Cursor& c) {
  const YAML::Node& n = c.node();
  if (n.IsDefined() && n.IsScalar() && !is_quoted(n)) {
    if (n.Scalar() == "true" || n.Scalar() == "True" || n.Scalar() == "TRUE") return true;
    if (n.Scalar() == "false" || n.Scalar() == "False" || n.Scalar() == "FALSE") return false;
  }
  c.expected("true or false");
}

std::string read_text(const Cursor& c, const std::string& what) {
  const YAML::Node& n = c.node();
  if (!n.IsDefined() || !n.IsScalar() || n.Scalar().empty()) c.expected(what);
  return n.Scalar();
}

Vec3 read_vec3(const Cursor& c, const std::string& unit) {
  const std::vector<Cursor> items = c.items(with_unit("a list of 3 numbers", unit), 3);
  Vec3 v;
  for (int k = 0; k < 3; ++k) v[k] = read_number(items[k], unit);
  return v;
}

Vec3 read_direction(const Cursor& c) {
  const Vec3 v = read_vec3(c, "");
  // [1e308, 1e308, 0] is a direction, not "zero": its norm overflows, so scale it down first.
  if (!std::isfinite(v.norm())) return v / v.cwiseAbs().maxCoeff();
  if (!(v.norm() > 1e-12)) c.expected("a non-zero direction vector");
  return v;
}

Mat3 read_mat3(const Cursor& c, const std::string& unit) {
  const std::string what = with_unit("a 3x3 matrix (a list of 3 rows of 3 numbers)", unit);
  const std::vector<Cursor> rows = c.items(what, 3);
  Mat3 m;
  for (int r = 0; r < 3; ++r) {
    if (rows[r].is_null() || !rows[r].node().IsSequence() || rows[r].node().size() != 3)
      rows[r].expected(with_unit("a row of 3 numbers", unit));
    m.row(r) = read_vec3(rows[r], unit).transpose();
  }
  return m;
}

std::vector<double> read_numbers(const Cursor& c, const std::string& unit, std::size_t min_count) {
  std::string what = "a list of numbers";
  if (min_count == 1) what = "a non-empty list of numbers";
  if (min_count > 1) what = "a list of at least " + std::to_string(min_count) + " numbers";
  const std::vector<Cursor> items = c.items(with_unit(what, unit));
  if (items.size() < min_count) c.expected(with_unit(what, unit));
  std::vector<double> out;
  for (const Cursor& item : items) {
    out.push_back(read_number(item, unit));
    record_unit(item, unit, out.size() - 1);  // c_k of a unit with "^k" (result_unit)
  }
  return out;
}

std::vector<std::string> read_texts(const Cursor& c, const std::string& what) {
  std::vector<std::string> out;
  for (const Cursor& item : c.items("a list of " + what + "s"))
    out.push_back(read_text(item, what));
  return out;
}

std::size_t read_choice_index(const Cursor& c, const std::vector<std::string>& names) {
  const YAML::Node& n = c.node();
  if (n.IsDefined() && n.IsScalar()) {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (n.Scalar() == names[k]) return k;
    c.fail(prefix(c.path()) + "expected one of " + join(names) + ", found " + describe(n) +
           did_you_mean(n.Scalar(), names));
  }
  c.expected("one of " + join(names));
}

std::string join(const std::vector<std::string>& words, std::string_view separator) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += separator;
    out += w;
  }
  return out;
}

std::string format_number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", x);
  return buffer;
}

}  // namespace cs::model_file
