#include "clearsim/io/parameterized_model.hpp"

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

}  // namespace cs
