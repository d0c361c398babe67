// Overrides of model-file values (PATH=VALUE): they change exactly the value at their path, are
// checked like the file, name themselves in messages, and a path that leads nowhere names the
// missing key and the keys that exist; file positions of the rest of the file are unchanged.
#include <gtest/gtest.h>

#include <string>

#include "clearsim/io/model_reader.hpp"

namespace cs {
namespace {

const char* const kModel = R"(gravity: [0, 0, -9.81]
bodies:
  b: {mass: 2, inertia: [1, 1, 1], position: [0, 0, 1]}
solver: {step: 1.0e-3, end: 0.5}
)";

std::string error_of(const std::vector<Override>& overrides, const char* text = kModel) {
  try {
    load_model_string(text, "m.yaml", overrides);
  } catch (const ModelFileError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ModelOverrides, ReplaceValuesListItemsAndWholeMaps) {
  const LoadedModel base = load_model_string(kModel, "m.yaml");
  const LoadedModel lm = load_model_string(kModel, "m.yaml",
                                           {{"bodies.b.mass", "3.5"},
                                            {"gravity[2]", "-1.62"},
                                            {"solver.step", "2e-4"},
                                            {"bodies.b.position", "[1, 2, 3]"}});
  EXPECT_EQ(lm.model.bodies[0].mass, 3.5);
  EXPECT_EQ(lm.model.gravity_W.z(), -1.62);
  EXPECT_EQ(lm.model.gravity_W.x(), base.model.gravity_W.x());
  EXPECT_EQ(lm.run.solver.step, 2e-4);
  EXPECT_EQ(lm.run.solver.end, base.run.solver.end);
  EXPECT_EQ(lm.model.bodies[0].x0_W, Vec3(1, 2, 3));
  EXPECT_EQ(lm.model.bodies[0].inertia_B, base.model.bodies[0].inertia_B);
  // Later overrides win; `path.k` is a list item too.
  const LoadedModel twice =
      load_model_string(kModel, "m.yaml", {{"gravity.2", "-1"}, {"gravity[2]", "-2"}});
  EXPECT_EQ(twice.model.gravity_W.z(), -2.0);
}

TEST(ModelOverrides, AddsTheLastKeyOfAMapAndChecksIt) {
  const LoadedModel lm = load_model_string(kModel, "m.yaml", {{"solver.adaptive", "true"}});
  EXPECT_TRUE(lm.run.solver.adaptive);
  const std::string e = error_of({{"solver.adaptve", "true"}});
  EXPECT_EQ(e.rfind("m.yaml: error: override solver.adaptve=true: unknown key 'adaptve'", 0), 0u)
      << e;
  EXPECT_NE(e.find("did you mean 'adaptive'?"), std::string::npos) << e;
}

TEST(ModelOverrides, WrongPathNamesTheKeyAndTheKeysThatExist) {
  EXPECT_EQ(error_of({{"bodies.c.mass", "1"}}),
            "m.yaml: error: override bodies.c.mass=1: 'bodies' has no key 'c' (keys: b)");
  EXPECT_EQ(error_of({{"bodys.b.mass", "1"}}),
            "m.yaml: error: override bodys.b.mass=1: the top level has no key 'bodys' (keys: "
            "gravity, bodies, solver); did you mean 'bodies'?");
  EXPECT_EQ(error_of({{"gravity[3]", "1"}}),
            "m.yaml: error: override gravity[3]=1: 'gravity' has 3 items, no item [3]");
  EXPECT_EQ(error_of({{"bodies.b.mass.x", "1"}}),
            "m.yaml: error: override bodies.b.mass.x=1: 'bodies.b.mass' is not a map (found "
            "'2'), so it has no key 'x'");
  EXPECT_EQ(error_of({{"bodies..mass", "1"}}),
            "m.yaml: error: override bodies..mass=1: the path 'bodies..mass' has an empty key");
  EXPECT_EQ(error_of({{"gravity[x]", "1"}}),
            "m.yaml: error: override gravity[x]=1: the path 'gravity[x]' has a bad list index "
            "(expected [0], [1], ...)");
}

TEST(ModelOverrides, ValuesAreCheckedLikeTheFile) {
  EXPECT_EQ(error_of({{"bodies.b.mass", "-2"}}),
            "m.yaml: error: override bodies.b.mass=-2: bodies.b.mass: expected a positive number "
            "[kg], found '-2'");
  EXPECT_EQ(
      error_of({{"bodies.b.mass", "[1"}})
          .rfind("m.yaml: error: override bodies.b.mass=[1: the value is not valid YAML: ", 0),
      0u);
  EXPECT_EQ(error_of({{"bodies.b.mass", " "}}),
            "m.yaml: error: override bodies.b.mass= : no value after '=' (write the value in "
            "YAML, e.g. 0.5e-3 or [0, 0, -9.81])");
  // A multi-line value inside a map: the error is still attributed to its override.
  EXPECT_EQ(error_of({{"solver.end", "1"}, {"bodies.b", "mass: 2\ninertia: [1, 1, 1]\nmas: 3"}}),
            "m.yaml: error: override bodies.b=mass: 2\ninertia: [1, 1, 1]\nmas: 3: unknown key "
            "'mas' in body 'b' (allowed: mass, inertia, position, orientation, velocity, "
            "angular_velocity); did you mean 'mass'?");
  // Errors in the file itself keep their positions.
  const char* bad = "bodies:\n  b: {mass: -2, inertia: [1, 1, 1]}\n";
  EXPECT_EQ(error_of({{"bodies.b.inertia", "[2, 2, 2]"}}, bad),
            "m.yaml:2:13: error: bodies.b.mass: expected a positive number [kg], found '-2'");
}

TEST(ModelOverrides, WarningsNameTheOverride) {
  const LoadedModel lm = load_model_string(kModel, "m.yaml", {{"bodies.b.inertia", "[1, 1, 3]"}});
  ASSERT_EQ(lm.warnings.size(), 1u);
  EXPECT_EQ(lm.warnings[0].rfind("m.yaml: warning: override bodies.b.inertia=[1, 1, 3]: "
                                 "bodies.b.inertia: principal moments 1, 1, 3",
                                 0),
            0u)
      << lm.warnings[0];
}

TEST(ModelOverrides, ParseOverride) {
  const Override o = parse_override("joints.j.clearance={radial: 1e-3, restitution: 0.5}");
  EXPECT_EQ(o.path, "joints.j.clearance");
  EXPECT_EQ(o.value, "{radial: 1e-3, restitution: 0.5}");
  EXPECT_THROW(parse_override("solver.step"), std::invalid_argument);
  EXPECT_THROW(parse_override("=1"), std::invalid_argument);
}

}  // namespace
}  // namespace cs

namespace cs {
namespace {

// Issue 14: the command line's --step is the override solver.step labelled "--step VALUE", so
// its errors name the option; a `solver` or `output` section the file lacks is created for it;
// and a step count past 1e12 is refused at the override that made it.
TEST(ModelOverrides, CommandLineOptionsAreLabelledOverrides) {
  EXPECT_EQ(error_of({{"solver.step", "0", "--step 0"}}),
            "m.yaml: error: override --step 0: solver.step: expected a positive number [s], "
            "found '0'");
  const char* const bare = "bodies:\n  b: {mass: 2, inertia: [1, 1, 1], position: [0, 0, 1]}\n";
  const LoadedModel lm =
      load_model_string(bare, "m.yaml", {{"solver.step", "1e-4"}, {"output.every", "5"}});
  EXPECT_EQ(lm.run.solver.step, 1e-4);
  EXPECT_EQ(lm.run.output.every, 5);
  EXPECT_EQ(error_of({{"solvr.step", "1"}}, bare)
                .rfind("m.yaml: error: override solvr.step=1: the top level has no key 'solvr'", 0),
            0u);
}

TEST(ModelOverrides, StepCountsPastTheLimitAreRefused) {
  EXPECT_EQ(error_of({{"solver.end", "1e12", "--end 1e12"}}),
            "m.yaml: error: override --end 1e12: solver.end: expected an end <= 1e+09 s (end "
            "1e+12 s / step 0.001 s = 1e+15 steps; at most 1e+12 are run), found '1e12'");
  EXPECT_EQ(error_of({{"solver.step", "1e-21"}}),
            "m.yaml: error: override solver.step=1e-21: solver.step: expected a step >= 5e-13 s "
            "(end 0.5 s / step 1e-21 s = 5e+20 steps; at most 1e+12 are run), found '1e-21'");
  EXPECT_EQ(load_model_string(kModel, "m.yaml", {{"solver.step", "1e-12"}}).run.solver.step, 1e-12);
}

}  // namespace
}  // namespace cs
