// Solvers ask elements what they can do, never what they are: a new element type that delivers
// power (here a thruster written only for this test, unknown to every solver) is counted as a
// source by the run's energy watch through Element::delivers_power alone.
#include <gtest/gtest.h>

#include "clearsim/model/model_builder.hpp"
#include "clearsim/solvers/simulation.hpp"

namespace cs {
namespace {

// A constant force F along x on body i's centre of mass; its power is F·v.
class Thruster final : public Element {
 public:
  Thruster(int body, double force, bool says_it_delivers_power)
      : Element("thruster", body, kGround), force_(force), says_(says_it_delivers_power) {}
  std::string kind() const override { return "thruster"; }
  bool has_force() const override { return true; }
  void force(const ElementInput&, ForceBlock& out, bool) const override { out.f(0) += force_; }
  bool delivers_power() const override { return says_; }
  double delivered_power(const ElementInput& in) const override { return force_ * in.i->v_W.x(); }

 private:
  double force_;
  bool says_;
};

class NullObserver final : public StepObserver {
 public:
  void on_output(const State&, const RunStats&) override {}
};

// A 1 kg body pushed from rest for 1 s: its kinetic energy grows from 0 J to F²t²/2m = 50 J,
// all of it the thruster's work. The watch's own scale at the start is round-off (1e-9 J), so the
// growth is explained only if the thruster's work is counted.
RunStats push(bool says_it_delivers_power) {
  Model m;
  Body b;
  b.name = "block";
  b.mass = 1.0;
  b.inertia_B = 0.01 * Mat3::Identity();
  const int block = add_body(m, b);
  add_element(m, std::make_unique<Thruster>(block, 10.0, says_it_delivers_power));
  System sys(m);
  RunSettings run;
  run.solver.step = 1e-3;
  run.solver.end = 1.0;
  run.output.progress = false;
  NullObserver obs;
  State s;
  std::vector<std::string> notes;
  RunStats stats = run_analysis(sys, run, obs, s, notes);
  EXPECT_TRUE(stats.ok) << stats.message;
  EXPECT_NEAR(0.5 * s.v(0) * s.v(0), 50.0, 1e-9);  // constant force: exact for generalized-α
  return stats;
}

TEST(ElementCapabilities, NewPowerSourceIsWatchedWithoutSolverChange) {
  EXPECT_TRUE(push(true).warnings.empty());
}

// Issue 28, energy growth with no source: the warning names the element that put the energy in
// (no stiff force to blame here), with the power it feeds at that time (F v = 10 N × 10 t m/s).
TEST(ElementCapabilities, WithoutTheCapabilityTheGrowthIsUnexplained) {
  const RunStats stats = push(false);
  ASSERT_EQ(stats.warnings.size(), 1u);
  EXPECT_NE(stats.warnings[0].find("mechanical energy has grown"), std::string::npos)
      << stats.warnings[0];
  EXPECT_NE(stats.warnings[0].find("the force feeding the most power into the bodies now is "
                                   "thruster 'thruster' ("),
            std::string::npos)
      << stats.warnings[0];
  EXPECT_NE(stats.warnings[0].find(" W), which the model does not count as a source: check its "
                                   "parameters"),
            std::string::npos)
      << stats.warnings[0];
}

// An element asking for more rows or gaps than a block holds is refused by name, not written
// past the block.
class Greedy final : public Element {
 public:
  explicit Greedy(int rows, int gaps) : Element("greedy", 0, kGround), rows_(rows), gaps_(gaps) {}
  std::string kind() const override { return "greedy"; }
  int num_constraints() const override { return rows_; }
  int num_gaps() const override { return gaps_; }

 private:
  int rows_, gaps_;
};

TEST(ElementCapabilities, SystemRefusesAnElementPastItsBlocks) {
  Model m;
  Body b;
  b.name = "block";
  b.mass = 1.0;
  b.inertia_B = Mat3::Identity();
  add_body(m, b);
  add_element(m, std::make_unique<Greedy>(7, 0));
  try {
    System sys(m);
    FAIL() << "accepted 7 rows";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "element 'greedy' (greedy) has 7 constraint rows, more than the 6 an element can "
                 "hold");
  }
  Model g;
  add_body(g, b);
  add_element(g, std::make_unique<Greedy>(0, 5));
  EXPECT_THROW(System{g}, std::invalid_argument);
}

}  // namespace
}  // namespace cs
