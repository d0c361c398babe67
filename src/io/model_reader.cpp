// Entry points of the model-file reader: parsing, the top level of the document, and the
// translation of every failure into a FILE:LINE:COL message.
#include "clearsim/io/model_reader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "clearsim/io/model_yaml.hpp"
#include "clearsim/io/result_writer.hpp"
#include "model_document.hpp"
#include "model_overrides.hpp"
#include "model_reader_sections.hpp"
#include "yaml_access.hpp"

namespace cs {

namespace {

std::string format_what(const std::string& file, int line, int column, const std::string& msg) {
  if (line <= 0) return file + ": error: " + msg;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": error: " + msg;
}

}  // namespace

ModelFileError::ModelFileError(std::string file, int line, int column, std::string message)
    : std::runtime_error(format_what(file, line, column, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(std::move(message)) {}

namespace model_file {
namespace {

const std::vector<std::string> kTopKeys = {"model",  "gravity", "bodies", "markers",  "shapes",
                                           "joints", "drivers", "forces", "contacts", "solver",
                                           "output", "urdf",    "sensors"};

std::string default_model_name(const std::string& display_name) {
  const std::string stem = std::filesystem::path(display_name).stem().string();
  return stem.empty() ? std::string("model") : stem;
}

// The start of each document of a stream and the position of its root when that is empty
// (null). Used to count documents without building them, and to catch a token that yaml-cpp
// 0.7 neither consumes nor reports (a stray ',' outside brackets): its LoadAll then returns
// the same empty document forever.
class DocumentScan : public YAML::EventHandler {
 public:
  struct Document {
    YAML::Mark start;
    bool root_is_null = false;
    YAML::Mark root;
  };
  std::vector<Document> documents;

  void OnDocumentStart(const YAML::Mark& mark) override {
    documents.push_back({mark, false, mark});
    at_root_ = true;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { root(mark, true); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { root(mark, false); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    root(mark, false);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    root(mark, false);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    root(mark, false);
  }
  void OnMapEnd() override {}

 private:
  void root(const YAML::Mark& mark, bool is_null) {
    if (!at_root_) return;
    at_root_ = false;
    documents.back().root_is_null = is_null;
    documents.back().root = mark;
  }
  bool at_root_ = false;
};

// The character at a 0-based mark of `text`, or '?'.
char char_at(const std::string& text, const YAML::Mark& mark) {
  std::size_t pos = 0;
  for (int line = 0; line < mark.line && pos != std::string::npos; ++line) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos || mark.column < 0) return '?';
  pos += static_cast<std::size_t>(mark.column);
  return pos < text.size() ? text[pos] : '?';
}

// The line of `text` a 0-based mark is on, up to the mark's column.
std::string line_before(const std::string& text, const YAML::Mark& mark) {
  std::size_t pos = 0;
  for (int line = 0; line < mark.line && pos != std::string::npos; ++line) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos || mark.column < 0) return {};
  return text.substr(pos, std::min(static_cast<std::size_t>(mark.column), text.size() - pos));
}

// YAML allows 1024 characters in a key that is not written "? key" (an implicit key); yaml-cpp
// then says "illegal map value" at the ':', which reads as an indentation error (issue 14,
// item 9: a 2 MB key). The length of the key before `mark` when it passes that limit, else 0.
std::size_t overlong_key(const std::string& text, const YAML::Mark& mark) {
  constexpr std::size_t kMaxImplicitKey = 1024;
  const std::string line = line_before(text, mark);
  const std::size_t start = line.find_last_of("{[,") == std::string::npos
                                ? line.find_first_not_of(" -")
                                : line.find_last_of("{[,") + 1;
  if (start == std::string::npos) return 0;
  const std::size_t length = line.size() - start;
  return length > kMaxImplicitKey ? length : 0;
}

// yaml-cpp's message for a syntax error, with a hint for the common ones (its depth guard
// reports "bad file").
[[noreturn]] void fail_syntax(const Source& source, const std::string& text,
                              const YAML::Exception& e) {
  if (const std::size_t n = overlong_key(text, e.mark); n > 0) {
    std::ostringstream os;
    os << "invalid YAML: a key of " << n
       << " characters; YAML allows at most 1024 in a key (shorten the name)";
    source.fail(to_position(e.mark, {}), os.str());
  }
  static const std::vector<std::pair<std::string, std::string>> kHints = {
      {"illegal flow end", "a ']' or '}' that closes no bracket, or the wrong one"},
      {"end of sequence flow not found", "a '[' is not closed by ']'"},
      {"end of map flow not found", "a '{' is not closed by '}'"},
      {"end of map not found",
       "check the indentation (spaces only, no tabs) and the 'key: value' form"},
      {"end of sequence not found",
       "check the indentation (spaces only, no tabs) of the '- ' items"},
      {"illegal map value", "a ':' where no value can start; check the indentation"},
      {"unknown escape character", "inside \"...\" a backslash starts an escape; use '...'"}};
  std::string message = e.msg;
  if (dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr)
    message = "lists or maps nested too deeply";
  for (const auto& [start, hint] : kHints)
    if (message.rfind(start, 0) == 0) message += " (" + hint + ")";
  source.fail(to_position(e.mark, {}), "invalid YAML: " + message);
}

// Fails unless `text` holds exactly one YAML document, well formed.
void check_single_document(const std::string& text, Source& source) {
  DocumentScan scan;
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  try {
    // Three documents at most: enough to tell a second document from a stuck parser.
    while (scan.documents.size() < 3 && parser.HandleNextDocument(scan)) {
    }
  } catch (const YAML::Exception& e) {
    fail_syntax(source, text, e);
  }
  const auto& docs = scan.documents;
  for (std::size_t k = 0; k + 1 < docs.size(); ++k) {
    if (docs[k].root_is_null && docs[k + 1].root_is_null &&
        docs[k].start.pos == docs[k + 1].start.pos) {
      const char c = char_at(text, docs[k].root);
      source.fail(to_position(docs[k].root, {}),
                  std::string("invalid YAML: unexpected '") + c + "'" +
                      (c == ',' ? " (',' separates items only inside [...] and {...})" : ""));
    }
  }
  if (docs.size() > 1)
    source.fail(to_position(docs[1].start, {}),
                "expected a single YAML document, found a second one (a '---' line starts it)");
  if (docs.empty() || docs[0].root_is_null)
    source.fail({}, "the file holds no model (expected a map with at least a 'bodies' section)");
}

// Fails on bytes that YAML would misread with a misleading message: a NUL (a binary file, or a
// name "cr\0ank" accepted as written), and CR-only line endings (old Mac text, one long line).
void check_plain_text(const std::string& text, Source& source) {
  int line = 1, column = 1;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (c == '\0')
      source.fail({line, column}, "a NUL byte is not allowed in a model file (is it a text file?)");
    if (c == '\r' && (k + 1 == text.size() || text[k + 1] != '\n'))
      source.fail({line, column},
                  "a line ends with CR alone (old Mac line endings): end lines with LF or CR LF");
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

// Where a quoted value that is not closed on its line starts (1-based), in the line's code (not
// its comment); {0, 0} if every quote closes. A quote starts a value only after a space, '[',
// '{', ',' or ':' or at the start of the line (an apostrophe inside a word is text). Inside '...'
// a quote is written ''; inside "..." a backslash escapes.
Position unclosed_quote(const std::string& text) {
  std::istringstream in(text);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    for (std::size_t k = 0; k < line.size(); ++k) {
      const char c = line[k];
      if (c == '#' && (k == 0 || line[k - 1] == ' ')) break;  // a comment
      if ((c != '\'' && c != '"') ||
          (k > 0 && std::string(" [{,:-").find(line[k - 1]) == std::string::npos))
        continue;
      std::size_t e = k + 1;
      for (; e < line.size(); ++e) {
        if (c == '"' && line[e] == '\\') {
          ++e;
        } else if (line[e] == c) {
          if (c == '\'' && e + 1 < line.size() && line[e + 1] == '\'') {
            ++e;  // '' inside '...'
          } else {
            break;
          }
        }
      }
      if (e >= line.size()) return {number, static_cast<int>(k) + 1};
      k = e;
    }
  }
  return {0, 0};
}

// Issue 14, item 9: an unclosed quote runs to the next quote or the end of the file, and yaml-cpp
// then reports whatever follows ("missing required section 'bodies'", "end of map flow not
// found"). No value of a model file spans lines, so a quote not closed on its line is refused
// where it opens.
void check_quotes(const std::string& text, Source& source) {
  const Position at = unclosed_quote(text);
  if (at.line == 0) return;
  source.fail(at,
              "a quoted value is not closed on its line (a missing closing quote?); no value "
              "of a model file spans lines");
}

YAML::Node parse_document(const std::string& text, Source& source) {
  check_plain_text(text, source);
  check_quotes(text, source);
  check_single_document(text, source);
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail_syntax(source, text, e);
  }
}

// Overrides and the `urdf:` key: an override of `urdf` itself first (it decides what the robot
// is), then the robot merged into the document, then the other overrides, which may name the
// imported values (bodies.forearm.mass, as a sweep over a link's mass does).
void apply_overrides_with_urdf(YAML::Node& doc, int text_lines,
                               const std::vector<Override>& overrides, Source& source) {
  std::vector<Override> urdf_file, others;
  for (const Override& o : overrides) (o.path == "urdf" ? urdf_file : others).push_back(o);
  apply_overrides(doc, text_lines, urdf_file, source);
  expand_urdf(doc, source);
  apply_overrides(doc, text_lines, others, source);
}

void read_model(const YAML::Node& doc, Source& source, LoadedModel& out) {
  const Position start = to_position(doc.Mark(), {});
  const Cursor root(source, doc, "", start, start);
  const MapView top(root, "a map of model sections (" + join(kTopKeys) + ")");
  top.allow_only("at the top level", kTopKeys);

  Model& model = out.model;
  model.name = default_model_name(out.path);
  if (auto c = top.find("model")) model.name = read_text(*c, "a model name");
  if (auto c = top.find("gravity")) model.gravity_W = read_vec3(*c, "m/s²");
  read_bodies(top.need("bodies", "a map from body names to bodies"), model);
  if (auto c = top.find("markers")) read_markers(*c, model);
  if (auto c = top.find("shapes")) read_shapes(*c, model);
  BacklashJoints backlash;
  if (auto c = top.find("joints")) read_joints(*c, model, backlash);
  if (auto c = top.find("drivers")) read_drivers(*c, model, backlash);
  add_held_backlash(backlash, model);
  if (auto c = top.find("forces")) read_forces(*c, model);
  if (auto c = top.find("contacts")) read_contacts(*c, model);
  if (auto c = top.find("solver")) out.run.solver = read_solver(*c);
  if (auto c = top.find("joints")) check_film_integrator(*c, out.run.solver);
  if (auto c = top.find("output")) out.run.output = read_output(*c);
  if (auto c = top.find("sensors")) out.sensors = read_sensors(*c, out.run.solver);
}

}  // namespace
}  // namespace model_file

namespace model_file {

ModelDocument parse_model_document(const std::string& yaml_text, const std::string& display_name,
                                   const std::vector<Override>& overrides, bool by_path) {
  ModelDocument d{YAML::Node(), Source(display_name), by_path};
  try {
    d.doc = parse_document(yaml_text, d.source);
    if (by_path) d.source.name_items_by_path(d.doc);
    const int lines = 1 + static_cast<int>(std::count(yaml_text.begin(), yaml_text.end(), '\n'));
    apply_overrides_with_urdf(d.doc, lines, overrides, d.source);
  } catch (const ModelFileError&) {
    throw;
  } catch (const YAML::Exception& e) {
    d.source.fail(to_position(e.mark, {}), "cannot read the YAML document: " + e.msg);
  }
  return d;
}

LoadedModel read_model_document(const ModelDocument& d) {
  Source source = d.source;
  LoadedModel out;
  out.path = source.name();
  try {
    read_model(d.doc, source, out);
    // A channel given by an override (or in generated text) has no position in the file.
    for (auto& [line, column] : out.run.output.channel_positions)
      if (d.by_path || source.override_at({line, column}) != nullptr) line = column = 0;
    for (Sensor& sensor : out.sensors) {
      auto& [line, column] = sensor.channel_position;
      if (d.by_path || source.override_at({line, column}) != nullptr) line = column = 0;
    }
  } catch (const ModelFileError&) {
    throw;
  } catch (const YAML::Exception& e) {
    // A yaml-cpp failure while walking the tree (not expected: the accessors check types first).
    source.fail(to_position(e.mark, {}), "cannot read the YAML document: " + e.msg);
  }
  out.warnings = source.warnings();
  out.units = source.take_units();
  return out;
}

double number_at(const ModelDocument& d, const std::string& path, const std::string& label,
                 const std::string& why) {
  const YAML::Node node = node_at(d.doc, path, label, d.source);
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() && *end == '\0' && std::isfinite(value)) return value;
  }
  throw ModelFileError(d.source.name(), 0, 0,
                       label + ": the value there is not a number (" + why + ")");
}

}  // namespace model_file

namespace {

// The reader's entry: `by_path` names the items of messages by their paths instead of their
// positions in the text (Source::name_items_by_path).
LoadedModel load_model_text(const std::string& yaml_text, const std::string& display_name,
                            const std::vector<Override>& overrides, bool by_path) {
  return model_file::read_model_document(
      model_file::parse_model_document(yaml_text, display_name, overrides, by_path));
}

}  // namespace

LoadedModel load_model_string(const std::string& yaml_text, const std::string& display_name,
                              const std::vector<Override>& overrides) {
  return load_model_text(yaml_text, display_name, overrides, false);
}

LoadedModel load_model_generated(const std::string& yaml_text, const std::string& display_name,
                                 const std::vector<Override>& overrides) {
  return load_model_text(yaml_text, display_name, overrides, true);
}

std::string model_text_with_overrides(const std::string& yaml_text, const std::string& display_name,
                                      const std::vector<Override>& overrides) {
  if (overrides.empty()) return yaml_text;  // as written, comments included
  model_file::Source source(display_name);
  YAML::Node doc = model_file::parse_document(yaml_text, source);
  const int lines = 1 + static_cast<int>(std::count(yaml_text.begin(), yaml_text.end(), '\n'));
  model_file::apply_overrides(doc, lines, overrides, source);
  return write_model_yaml(doc);
}

double read_model_scalar(const std::string& yaml_text, const std::string& display_name,
                         const std::vector<Override>& overrides, const std::string& path) {
  return model_file::number_at(
      model_file::parse_model_document(yaml_text, display_name, overrides, false), path,
      "--sensitivity " + path,
      "a sensitivity is taken with respect to a numeric scalar of the model file");
}

std::string unit_at(const LoadedModel& model, const std::string& path) {
  const auto it = model.units.find(path);
  return it == model.units.end() ? std::string() : it->second;
}

std::string column_unit(const LoadedModel& model, const std::string& column) {
  if (std::string channel, path; split_derivative(column, channel, path))
    return derivative_unit(channel_unit(channel), unit_at(model, path), path);
  return channel_unit(column);
}

std::vector<std::string> column_units(const LoadedModel& model,
                                      const std::vector<std::string>& columns) {
  std::vector<std::string> units;
  units.reserve(columns.size());
  for (const std::string& c : columns) units.push_back(column_unit(model, c));
  return units;
}

LoadedModel load_model_file(const std::string& path, const std::vector<Override>& overrides) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ModelFileError(path, 0, 0, "cannot read the model file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw ModelFileError(path, 0, 0,
                         std::string("cannot open the model file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ModelFileError(path, 0, 0, "cannot read the model file");
  return load_model_string(text.str(), path, overrides);
}

}  // namespace cs
