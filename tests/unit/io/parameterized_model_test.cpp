// ParameterizedModel: a model text read once whose parameters are written into the parsed
// document gives, for every value, the model load_model_string gives with PATH=value added (the
// same run to the bit), and the same messages for a bad value, a bad path or a non-number.
#include "clearsim/io/parameterized_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

const char* const kModel = R"(gravity: [0, 0, -9.81]
bodies:
  b: {mass: 2, inertia: [1, 1, 1], position: [0, 0, 1]}
solver: {step: 1.0e-3, end: 0.5}
)";

std::string exact_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ModelFileError& e) {
    return e.what();
  }
  return "(no error)";
}

// The state after `steps` steps of the model.
State run(LoadedModel lm, int steps) {
  System sys(lm.model);
  Simulation sim(sys, lm.run);
  std::vector<std::string> notes;
  EXPECT_TRUE(sim.initialize(notes));
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(sim.step());
  return sim.state();
}

TEST(ParameterizedModel, EachLoadIsTheModelWithThoseOverrides) {
  const std::string text = testing::read_text(std::string(CLEARSIM_SOURCE_DIR) +
                                              "/examples/four_bar_clearance/lubricated_wedge.yaml");
  const std::vector<Override> base = {{"solver.end", "0.01"}};
  const std::vector<std::string> paths = {"bodies.rocker.mass", "solver.step"};
  ParameterizedModel pm(text, "model.yaml", base, paths);
  ASSERT_EQ(pm.values().size(), 2u);
  const LoadedModel plain = load_model_string(text, "model.yaml", base);
  EXPECT_GT(pm.values()[0], 0.0);
  EXPECT_EQ(pm.values()[1], plain.run.solver.step);
  // Values in either order, each load independent of the one before.
  for (const std::vector<double>& v :
       {std::vector<double>{0.31, 2e-4}, std::vector<double>{pm.values()[0] * 1.5, 1e-4},
        std::vector<double>{0.31, 2e-4}}) {
    std::vector<Override> o = base;
    o.push_back({"bodies.rocker.mass", exact_text(v[0])});
    o.push_back({"solver.step", exact_text(v[1])});
    const State a = run(pm.load(v), 20), b = run(load_model_string(text, "model.yaml", o), 20);
    EXPECT_EQ(a.t, b.t);
    EXPECT_EQ(a.v, b.v);  // bit for bit
    EXPECT_EQ(a.lambda, b.lambda);
  }
}

TEST(ParameterizedModel, ABadValueIsReportedAsTheParameters) {
  ParameterizedModel pm(kModel, "m.yaml", {}, {"bodies.b.mass"});
  EXPECT_EQ(error_of([&] { pm.load(std::vector<double>{-2.0}); }),
            "m.yaml: error: override parameter bodies.b.mass: bodies.b.mass: expected a positive "
            "number [kg], found '-2'");
  EXPECT_EQ(pm.load(std::vector<double>{3.0}).model.bodies.at(0).mass, 3.0);  // still usable
  // A value an override set: read from the override.
  ParameterizedModel po(kModel, "m.yaml", {{"bodies.b.mass", "5"}}, {"bodies.b.mass"});
  EXPECT_EQ(po.values()[0], 5.0);
  // Errors elsewhere in the file keep their positions.
  ParameterizedModel pi(kModel, "m.yaml", {}, {"solver.step"});
  EXPECT_EQ(pi.load(std::vector<double>{2e-3}).run.solver.step, 2e-3);
  std::string bad = kModel;
  bad.replace(bad.find("mass: 2"), 7, "mass: -2");
  ParameterizedModel pb(bad, "m.yaml", {}, {"solver.step"});
  EXPECT_EQ(error_of([&] { pb.load(std::vector<double>{2e-3}); }),
            "m.yaml:3:13: error: bodies.b.mass: expected a positive number [kg], found '-2'");
}

TEST(ParameterizedModel, APathThatIsNotANumberIsRefused) {
  EXPECT_EQ(error_of([] { ParameterizedModel pm(kModel, "m.yaml", {}, {"bodies.b"}); }),
            "m.yaml: error: parameter bodies.b: the value there is not a number (a parameter is "
            "a numeric scalar of the model file)");
  EXPECT_NE(
      error_of([] { ParameterizedModel pm(kModel, "m.yaml", {}, {"bodies.c.mass"}); }).find("'c'"),
      std::string::npos);
  ParameterizedModel pm(kModel, "m.yaml", {}, {"bodies.b.mass"});
  EXPECT_THROW(pm.load(std::vector<double>{1.0, 2.0}), std::invalid_argument);
}

// What a parameter reaches: its entry, and every entry that names one reached, transitively;
// everything for a number outside the named sections.
TEST(ParameterizedModel, ReachFollowsTheNamesEntriesGiveEachOther) {
  const char* const text = R"(gravity: [0, 0, -9.81]
bodies:
  arm: {mass: 2, inertia: [1, 1, 1], position: [0.5, 0, 0]}
  tip: {mass: 1, inertia: [1, 1, 1], position: [1.5, 0, 0]}
joints:
  pivot: {type: revolute, bodies: [ground, arm], at: [0, 0, 0], axis: [0, 0, 1]}
  elbow: {type: revolute, bodies: [arm, tip], at: [1, 0, 0], axis: [0, 0, 1]}
drivers:
  motor: {joint: pivot, angular_velocity: 1}
forces:
  coil: {type: spring_damper, bodies: [ground, tip], points: [[2, 0, 0], [1.5, 0, 0]], stiffness: &k 10}
  other: {type: spring_damper, bodies: [ground, arm], points: [[0.5, 1, 0], [0.5, 0, 0]], stiffness: *k}
solver: {step: 1.0e-3, end: 0.01}
)";
  const std::vector<std::string> paths = {"joints.pivot.at[0]", "bodies.tip.mass", "gravity[2]",
                                          "forces.coil.stiffness", "bodies.tip.position[0]"};
  ParameterizedModel pm(text, "m.yaml", {}, paths);
  const auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  const ParameterizedModel::Reach pivot = pm.reach(paths[0]);
  EXPECT_FALSE(pivot.everything);
  EXPECT_EQ(sorted(pivot.entries), sorted({"pivot", "motor"}));  // the driver names the joint
  EXPECT_EQ(sorted(pivot.all), sorted({"arm", "tip", "pivot", "elbow", "motor", "coil", "other"}));
  EXPECT_EQ(pm.reach(paths[1]).entries, std::vector<std::string>{"tip"});  // its inertia
  EXPECT_EQ(sorted(pm.reach(paths[4]).entries), sorted({"tip", "elbow", "coil"}));
  EXPECT_TRUE(pm.reach(paths[2]).everything);
  // The coil's stiffness is the other spring's too, through the alias.
  EXPECT_EQ(sorted(pm.reach(paths[3]).entries), sorted({"coil", "other"}));
}

}  // namespace
}  // namespace cs
