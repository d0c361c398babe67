// Issue 14: extreme values. Item 9: a direction whose components are huge ([1e308, 1e308, 0]) is a
// direction; its norm overflowed and the builder called it "a non-zero vector" it was not given.
#include <gtest/gtest.h>

#include <cmath>

#include "clearsim/io/model_reader.hpp"

namespace cs {
namespace {

TEST(ModelReaderExtremes, HugeAxisIsADirection) {
  const char* const text = R"(bodies:
  crank: {mass: 0.3, inertia: [1e-5, 1e-5, 1e-5], position: [0.025, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, crank], at: [0, 0, 0], axis: [1e308, 1e308, 0]}
)";
  const LoadedModel huge = load_model_string(text, "m.yaml");
  const LoadedModel plain = load_model_string(text, "m.yaml", {{"joints.pivot.axis", "[1, 1, 0]"}});
  EXPECT_EQ(huge.model.elements.size(), plain.model.elements.size());
}

// Issue 14, item 5: a mass below a microgram is accepted with a warning that says why it is odd.
TEST(ModelReaderExtremes, TinyMassIsWarnedAbout) {
  const LoadedModel lm = load_model_string(
      "bodies:\n  b: {mass: 1e-300, inertia: [1, 1, 1], position: [0, 0, 0]}\n", "m.yaml");
  ASSERT_EQ(lm.warnings.size(), 1u);
  EXPECT_EQ(lm.warnings[0],
            "m.yaml:2:13: warning: bodies.b.mass: 1e-300 kg is below 1e-9 kg (a microgram): is the "
            "unit kg? Beside ordinary masses it leaves the equations ill-conditioned");
}

}  // namespace
}  // namespace cs
