// Models from code (clearsim.from_dict): Python data turned into the YAML document the model
// reader reads, so that a dict is checked by the same reader, with the same messages, as a file.
#include <cmath>
#include <regex>

#include "bindings.hpp"
#include "clearsim/io/model_yaml.hpp"

namespace clearsim_py {

namespace {

// module.name, kept for the life of the process.
py::handle kept(const char* module, const char* name) {
  return py::object(py::module_::import(module).attr(name)).release();
}

std::string describe_path(const std::string& path) {
  return path.empty() ? std::string("the model") : path;
}

std::string type_and_value(py::handle obj) {
  std::string text = py::repr(obj).cast<std::string>();
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  return std::string(py::str(py::type::handle_of(obj).attr("__name__"))) + " " + text;
}

[[noreturn]] void fail_type(py::handle obj, const std::string& path) {
  throw py::type_error("from_dict: " + describe_path(path) + ": cannot write " +
                       type_and_value(obj) +
                       " in a model (expected a dict, list, str, number, bool or None)");
}

// A string the reader would take for something else when written plain (a number, a bool, null,
// YAML syntax) is marked as a string, so that it is written quoted: the dict {"mass": "0.3"} is
// refused as the file's `mass: "0.3"` is.
bool reads_as_plain_name(const std::string& s) {
  static const std::regex kName("[A-Za-z_][A-Za-z0-9_./+-]*");
  static const std::regex kSpecial("true|false|null|~", std::regex::icase);
  return std::regex_match(s, kName) && !std::regex_match(s, kSpecial);
}

YAML::Node scalar_node(const std::string& text) { return YAML::Node(text); }

YAML::Node string_node(const std::string& s, const std::string& path) {
  if (s.find('\0') != std::string::npos)
    throw py::value_error("from_dict: " + describe_path(path) +
                          ": a NUL character is not allowed in a model");
  YAML::Node n(s);
  if (!reads_as_plain_name(s)) n.SetTag("!");
  return n;
}

YAML::Node number_node(double x, const std::string& path) {
  if (!std::isfinite(x))
    throw py::value_error("from_dict: " + describe_path(path) +
                          ": expected a finite number, found " +
                          py::repr(py::float_(x)).cast<std::string>());
  // Python's repr is the shortest text that reads back to the same double.
  return scalar_node(py::repr(py::float_(x)).cast<std::string>());
}

std::string extend(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

YAML::Node to_node(py::handle obj, const std::string& path);

YAML::Node map_node(py::handle obj, const std::string& path) {
  YAML::Node n(YAML::NodeType::Map);
  for (const py::handle key : obj) {
    if (!py::isinstance<py::str>(key))
      throw py::type_error("from_dict: " + describe_path(path) + ": the key " +
                           type_and_value(key) + " is not a str (keys are names)");
    const std::string k = key.cast<std::string>();
    n.force_insert(string_node(k, extend(path, k)), to_node(obj[key], extend(path, k)));
  }
  return n;
}

YAML::Node list_node(py::handle obj, const std::string& path) {
  YAML::Node n(YAML::NodeType::Sequence);
  std::size_t k = 0;
  for (const py::handle item : obj)
    n.push_back(to_node(item, path + "[" + std::to_string(k++) + "]"));
  return n;
}

YAML::Node to_node(py::handle obj, const std::string& path) {
  // (Kept for the life of the process: handles, so that nothing is released after the
  // interpreter has finalized.)
  static const py::handle numpy = py::module_::import("numpy").release();
  static const py::handle numbers = py::module_::import("numbers").release();
  static const py::handle mapping = kept("collections.abc", "Mapping");
  if (obj.is_none()) return YAML::Node(YAML::NodeType::Null);
  if (py::isinstance<py::bool_>(obj)) return scalar_node(obj.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::str>(obj)) return string_node(obj.cast<std::string>(), path);
  // numpy scalars and arrays as the Python values they hold (np.float32(0.3) is its exact double).
  if (py::isinstance(obj, numpy.attr("generic")) || py::isinstance(obj, numpy.attr("ndarray")))
    return to_node(obj.attr("tolist")(), path);
  if (py::isinstance(obj, numbers.attr("Integral")))
    return scalar_node(py::str(py::int_(py::reinterpret_borrow<py::object>(obj))));
  if (py::isinstance(obj, numbers.attr("Real"))) return number_node(obj.cast<double>(), path);
  if (py::isinstance(obj, mapping)) return map_node(obj, path);
  if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) return list_node(obj, path);
  fail_type(obj, path);
}

}  // namespace

std::string model_text_from_data(py::handle data) {
  static const py::handle mapping = kept("collections.abc", "Mapping");
  if (!py::isinstance(data, mapping))
    throw py::type_error(
        "from_dict: expected a dict of model sections (bodies, joints, ...), "
        "found " +
        type_and_value(data));
  return cs::write_model_yaml(to_node(data, ""));
}

}  // namespace clearsim_py
