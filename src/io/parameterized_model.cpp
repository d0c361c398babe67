#include "clearsim/io/parameterized_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "model_document.hpp"
#include "model_overrides.hpp"

namespace cs {

struct ParameterizedModel::Document {
  model_file::ModelDocument parsed;
  std::vector<YAML::Node> at;  // the parameters' scalar nodes inside parsed.doc
};

namespace {
std::string exact(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// The sections whose entries are named items that other entries refer to by name.
constexpr const char* kNamedSections[] = {"bodies",  "markers", "shapes",  "joints",
                                          "drivers", "forces",  "contacts"};

// Every key and scalar of a subtree (where an entry may name another), and whether it holds
// the node `target` itself (an alias of an anchor in another entry shares its nodes).
void collect_text(const YAML::Node& node, const YAML::Node& target, std::vector<std::string>& out,
                  bool& holds) {
  if (node.is(target)) holds = true;
  if (node.IsScalar()) {
    out.push_back(node.Scalar());
  } else if (node.IsSequence()) {
    for (const YAML::Node& child : node) collect_text(child, target, out, holds);
  } else if (node.IsMap()) {
    for (const auto& kv : node) {
      collect_text(kv.first, target, out, holds);
      collect_text(kv.second, target, out, holds);
    }
  }
}

bool names_any(const std::vector<std::string>& text, const std::vector<std::string>& names) {
  for (const std::string& t : text)
    for (const std::string& n : names)
      if (t.find(n) != std::string::npos) return true;
  return false;
}
}  // namespace

ParameterizedModel::ParameterizedModel(const std::string& yaml_text,
                                       const std::string& display_name,
                                       const std::vector<Override>& overrides,
                                       std::vector<std::string> paths,
                                       std::vector<std::string> labels, const std::string& what)
    : paths_(std::move(paths)), display_name_(display_name) {
  if (labels.empty())
    for (const std::string& path : paths_) labels.push_back("parameter " + path);
  if (labels.size() != paths_.size())
    throw std::invalid_argument("ParameterizedModel: one label per path");
  // The values as written, then the document again with each parameter an override of its
  // own, so that a message about a value the caller sets names the parameter ("override
  // parameter PATH: ..."), as load_model_string with PATH=value would.
  const auto written = model_file::parse_model_document(yaml_text, display_name, overrides, false);
  std::vector<Override> with_parameters = overrides;
  for (std::size_t k = 0; k < paths_.size(); ++k) {
    values_.push_back(model_file::number_at(written, paths_[k], labels[k], what));
    with_parameters.push_back({paths_[k], exact(values_.back()), labels[k]});
  }
  doc_ = std::make_unique<Document>(Document{
      model_file::parse_model_document(yaml_text, display_name, with_parameters, false), {}});
  for (std::size_t k = 0; k < paths_.size(); ++k)
    doc_->at.push_back(
        model_file::node_at(doc_->parsed.doc, paths_[k], labels[k], doc_->parsed.source));
}

ParameterizedModel::~ParameterizedModel() = default;
ParameterizedModel::ParameterizedModel(ParameterizedModel&&) noexcept = default;
ParameterizedModel& ParameterizedModel::operator=(ParameterizedModel&&) noexcept = default;

LoadedModel ParameterizedModel::load(std::span<const double> values) {
  if (values.size() != paths_.size())
    throw std::invalid_argument("ParameterizedModel::load: " + std::to_string(values.size()) +
                                " values for " + std::to_string(paths_.size()) + " parameters");
  // Assigning text keeps the node's mark, so a message about the value points where it was
  // written (in the file, or in the override that set it).
  for (std::size_t k = 0; k < values.size(); ++k) doc_->at[k] = exact(values[k]);
  return model_file::read_model_document(doc_->parsed);
}

ParameterizedModel::Reach ParameterizedModel::reach(const std::string& path) const {
  Reach out;
  const std::size_t dot = path.find('.');
  if (dot == std::string::npos) return out;
  const std::string section = path.substr(0, dot);
  const std::size_t end = path.find_first_of(".[", dot + 1);
  if (end == std::string::npos) return out;
  const std::string entry = path.substr(dot + 1, end - dot - 1);
  bool named = false;
  for (const char* s : kNamedSections) named = named || section == s;
  if (!named) return out;
  struct Item {
    std::string name;
    std::vector<std::string> text;
    bool reached = false;
  };
  const auto k = std::find(paths_.begin(), paths_.end(), path);
  if (k == paths_.end()) throw std::invalid_argument("ParameterizedModel::reach: not a parameter");
  const YAML::Node& target = doc_->at[static_cast<std::size_t>(k - paths_.begin())];
  std::vector<Item> items;
  const YAML::Node& doc = doc_->parsed.doc;
  out.everything = false;
  out.entries = {entry};
  for (const char* s : kNamedSections) {
    const YAML::Node sec = doc[s];
    if (!sec || !sec.IsMap()) continue;
    for (const auto& kv : sec) {
      Item it{kv.first.Scalar(), {}, false};
      bool holds = false;
      collect_text(kv.second, target, it.text, holds);
      it.reached = it.name == entry && section == s;
      if (holds && !it.reached) {  // the number itself, through an alias
        it.reached = true;
        out.entries.push_back(it.name);
      }
      items.push_back(std::move(it));
    }
  }
  // A body's mass and inertia are read by the body alone: elements read its pose.
  const std::string key = path.substr(end + 1, path.find_first_of(".[", end + 1) - end - 1);
  const bool inertial =
      section == "bodies" && path[end] == '.' && (key == "mass" || key == "inertia");
  for (bool grew = !inertial; grew;) {
    grew = false;
    for (Item& it : items) {
      if (it.reached || !names_any(it.text, out.entries)) continue;
      it.reached = grew = true;
      out.entries.push_back(it.name);
    }
  }
  for (const Item& it : items) out.all.push_back(it.name);
  return out;
}

}  // namespace cs
