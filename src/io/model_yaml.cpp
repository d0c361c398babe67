#include "clearsim/io/model_yaml.hpp"

namespace cs {

namespace {

// As yaml_access.cpp's is_quoted: a scalar the reader takes as a string, never a number.
bool is_string_tagged(const YAML::Node& n) {
  return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str";
}

bool is_flat_list(const YAML::Node& n) {
  for (const YAML::Node& item : n)
    if (!item.IsScalar() && !item.IsNull() && !(item.IsSequence() && is_flat_list(item)))
      return false;
  return true;
}

// Flow style for what was written so, or for a built list of scalars (or of such lists: a
// matrix); block style otherwise. (Inside a flow collection the emitter keeps to flow.)
bool wants_flow(const YAML::Node& n) {
  if (n.Style() != YAML::EmitterStyle::Default) return n.Style() == YAML::EmitterStyle::Flow;
  return n.IsSequence() && is_flat_list(n);
}

void write_node(YAML::Emitter& out, const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      if (is_string_tagged(n)) out << YAML::DoubleQuoted;
      out << n.Scalar();
      return;
    case YAML::NodeType::Sequence:
      out << (wants_flow(n) ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
      for (const YAML::Node& item : n) write_node(out, item);
      out << YAML::EndSeq;
      return;
    case YAML::NodeType::Map:
      out << (wants_flow(n) ? YAML::Flow : YAML::Block) << YAML::BeginMap;
      for (auto it = n.begin(); it != n.end(); ++it) {
        out << YAML::Key;
        write_node(out, it->first);
        out << YAML::Value;
        write_node(out, it->second);
      }
      out << YAML::EndMap;
      return;
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      out << YAML::Null;
      return;
  }
}

}  // namespace

std::string write_model_yaml(const YAML::Node& doc) {
  YAML::Emitter out;
  write_node(out, doc);
  return std::string(out.c_str()) + "\n";
}

}  // namespace cs
