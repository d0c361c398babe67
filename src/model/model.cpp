#include "clearsim/model/model.hpp"

namespace cs {

std::optional<int> Model::find_body(const std::string& n) const {
  if (n == "ground") return kGround;
  for (int b = 0; b < num_bodies(); ++b) {
    if (bodies[b].name == n) return b;
  }
  return std::nullopt;
}

const Element* Model::find_element(const std::string& n) const {
  for (const auto& e : elements) {
    if (e->name() == n) return e.get();
  }
  return nullptr;
}

const NamedMarker* Model::find_marker(const std::string& n) const {
  for (const auto& m : markers) {
    if (m.name == n) return &m;
  }
  return nullptr;
}

const Shape* Model::find_shape(const std::string& n) const {
  for (const auto& s : shapes) {
    if (s.name == n) return &s;
  }
  return nullptr;
}

}  // namespace cs
