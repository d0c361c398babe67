// The immutable description of a mechanism: bodies, markers and elements (joints, drivers,
// forces). Built once (from C++ through model_builder.hpp or from a model file) and never changed
// during a run; everything that changes lives in State.
#pragma once

#include <memory>
#include <optional>
#include <string>
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
};

}  // namespace cs
