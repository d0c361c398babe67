// The immutable description of a mechanism: bodies, markers and elements (joints, drivers,
// forces). Built once (from C++ through model_builder.hpp or from a model file) and never changed
// during a run; everything that changes lives in State.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "clearsim/elements/element.hpp"
#include "clearsim/model/body.hpp"
#include "clearsim/model/shape.hpp"

namespace cs {

struct NamedMarker {
  std::string name;
  Marker marker;
};

struct Model {
  std::string name = "model";
  Vec3 gravity_W = Vec3::Zero();  // [m/s²]
  std::vector<Body> bodies;
  std::vector<NamedMarker> markers;
  std::vector<std::unique_ptr<Element>> elements;
  std::vector<Shape> shapes;  // meshes carried by bodies (shared with the elements that use them)

  int num_bodies() const { return static_cast<int>(bodies.size()); }
  int num_dofs() const { return 6 * num_bodies(); }

  // Body index by name; kGround for "ground"; nullopt if unknown.
  std::optional<int> find_body(const std::string& name) const;
  const Element* find_element(const std::string& name) const;
  const NamedMarker* find_marker(const std::string& name) const;
  const Shape* find_shape(const std::string& name) const;

  // Where each name is, kept by model_builder.hpp's add_* functions as they append (names are
  // unique across bodies, elements, markers and shapes). The find_* functions use it while it
  // lists every item and scan the lists otherwise (items appended some other way), so a model
  // of 10 000 bodies is read in linear time; it is never changed by a lookup (thread-safe).
  enum class ItemKind { kBody, kElement, kMarker, kShape };
  struct ItemRef {
    ItemKind kind;
    int index;
  };
  std::unordered_map<std::string, ItemRef> name_index;
  void index_name(const std::string& item, ItemKind kind, int index) {
    name_index.insert_or_assign(item, ItemRef{kind, index});
  }

 private:
  // The item of `kind` named `name` by the index: its position, or −1 when the index says there
  // is none; nullopt when the index is incomplete (then the caller scans).
  std::optional<int> indexed(const std::string& name, ItemKind kind) const;
};

}  // namespace cs
