// Issue 14, item 1: fixed step counts are 64-bit, and counts past kMaxStepCount (or from a step
// or end that is not positive and finite) are refused by incompatible_settings, so that a run
// set up in code meets the same limit as a model file.
#include <gtest/gtest.h>

#include <limits>

#include "clearsim/solvers/settings.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "testing/slider_crank.hpp"

namespace cs {
namespace {

TEST(StepCount, WideAndBounded) {
  EXPECT_EQ(fixed_step_count(0.3, 1e-5), 30000);
  EXPECT_EQ(fixed_step_count(1e-3, 1.0), 1);                 // at least one step
  EXPECT_EQ(fixed_step_count(1000.0, 1e-9), 1000000000000);  // past 2^31
  EXPECT_TRUE(step_count_ok(1000.0, 1e-9));
  EXPECT_FALSE(step_count_ok(0.02, 1e-21));  // 2e19 steps: past 2^63 once ran as one step
  EXPECT_FALSE(step_count_ok(0.02, 0.0));
  EXPECT_FALSE(step_count_ok(0.02, -1e-5));
  EXPECT_FALSE(step_count_ok(0.02, std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(step_count_ok(std::numeric_limits<double>::infinity(), 1e-3));
}

TEST(StepCount, RefusedByIncompatibleSettings) {
  const Model model = testing::slider_crank();
  const System sys(model);
  SolverSettings st;
  st.end = 0.02;
  EXPECT_EQ(incompatible_settings(sys, st), "");
  st.step = 1e-21;
  EXPECT_EQ(incompatible_settings(sys, st),
            "solver.end = 0.02 s in steps of solver.step = 1e-21 s is not a run: expected both "
            "positive and finite, with at most 1e+12 steps");
}
}  // namespace
}  // namespace cs
