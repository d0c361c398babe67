#include "clearsim/model/model.hpp"

namespace cs {

// Names are not changed once added (an entry whose item now has another name is not trusted and
// the lists are scanned).
std::optional<int> Model::indexed(const std::string& n, ItemKind kind) const {
  const std::size_t items = bodies.size() + elements.size() + markers.size() + shapes.size();
  if (name_index.size() != items) return std::nullopt;
  const auto it = name_index.find(n);
  if (it == name_index.end() || it->second.kind != kind) return -1;
  return it->second.index;
}

std::optional<int> Model::find_body(const std::string& n) const {
  if (n == "ground") return kGround;
  if (const auto k = indexed(n, ItemKind::kBody)) {
    if (*k >= 0 && *k < num_bodies() && bodies[static_cast<std::size_t>(*k)].name == n) return *k;
    if (*k < 0) return std::nullopt;
  }
  for (int b = 0; b < num_bodies(); ++b) {
    if (bodies[b].name == n) return b;
  }
  return std::nullopt;
}

const Element* Model::find_element(const std::string& n) const {
  if (const auto k = indexed(n, ItemKind::kElement)) {
    const auto i = static_cast<std::size_t>(*k);
    if (*k >= 0 && i < elements.size() && elements[i]->name() == n) return elements[i].get();
    if (*k < 0) return nullptr;
  }
  for (const auto& e : elements) {
    if (e->name() == n) return e.get();
  }
  return nullptr;
}

const NamedMarker* Model::find_marker(const std::string& n) const {
  if (const auto k = indexed(n, ItemKind::kMarker)) {
    const auto i = static_cast<std::size_t>(*k);
    if (*k >= 0 && i < markers.size() && markers[i].name == n) return &markers[i];
    if (*k < 0) return nullptr;
  }
  for (const auto& m : markers) {
    if (m.name == n) return &m;
  }
  return nullptr;
}

const Shape* Model::find_shape(const std::string& n) const {
  if (const auto k = indexed(n, ItemKind::kShape)) {
    const auto i = static_cast<std::size_t>(*k);
    if (*k >= 0 && i < shapes.size() && shapes[i].name == n) return &shapes[i];
    if (*k < 0) return nullptr;
  }
  for (const auto& s : shapes) {
    if (s.name == n) return &s;
  }
  return nullptr;
}

}  // namespace cs
