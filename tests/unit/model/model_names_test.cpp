// Model's name index (model.hpp): the find_* functions answer from it while it lists every item
// and scan the lists otherwise, with the same answers either way.
#include <gtest/gtest.h>

#include "clearsim/model/model_builder.hpp"

namespace cs {
namespace {

Body body_named(const std::string& name) {
  Body b;
  b.name = name;
  b.mass = 1.0;
  b.inertia_B = Mat3::Identity() * 0.01;
  return b;
}

TEST(ModelNames, TheIndexAnswersAsTheListsDo) {
  Model m;
  const int a = add_body(m, body_named("a"));
  const int b = add_body(m, body_named("b"));
  add_joint(m, "pin", joints::JointType::kRevolute, kGround, a, Vec3::Zero(), Vec3::UnitZ());
  add_marker(m, "tip", b, Vec3(1, 0, 0));
  ASSERT_EQ(m.name_index.size(), 4u);
  EXPECT_EQ(m.find_body("b"), b);
  EXPECT_EQ(m.find_body("ground"), kGround);
  EXPECT_FALSE(m.find_body("pin").has_value());  // a joint, not a body
  EXPECT_FALSE(m.find_body("c").has_value());
  ASSERT_NE(m.find_element("pin"), nullptr);
  EXPECT_EQ(m.find_element("pin")->name(), "pin");
  EXPECT_EQ(m.find_element("a"), nullptr);
  ASSERT_NE(m.find_marker("tip"), nullptr);
  EXPECT_EQ(m.find_marker("tip")->marker.body, b);
  // A body appended without the builder: the index no longer lists everything, so the lists are
  // scanned and the new body is found.
  m.bodies.push_back(body_named("c"));
  EXPECT_EQ(m.find_body("c"), 2);
  EXPECT_EQ(m.find_body("b"), b);
  // Names stay unique across kinds.
  EXPECT_THROW(add_marker(m, "pin", a, Vec3::Zero()), ModelError);
}

}  // namespace
}  // namespace cs
