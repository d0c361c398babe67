// Simbody 3.7 beside clearsim on spatial trees of spherical joints
// (bench/support/spherical_tree_model.hpp): a binary tree of 1023 links (tree:0) and a 100-link
// chain whose far end a spherical joint holds to ground (tree:1, a loop: clearsim keeps its 3 rows
// beside the 297 joint coordinates, Simbody a Constraint::Ball projected by its velocity Verlet
// to 1e-10). Released from rest, h = 1e-4 s, `steps` steps; clearsim as shipped from its
// consistent start, Simbody at the same fixed step. Counters as BM_PeersChainSimbody's: steps/s of
// each (thread CPU time of the steps), their ratio cs/sb (> 1: clearsim faster), cost per body
// and step, and the distance between the last links' far ends.
#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "peers/simbody_tree.hpp"
#include "support/spherical_tree_model.hpp"
#include "support/thread_cpu.hpp"

namespace cs::bench::peers {
namespace {

constexpr double kStep = 1e-4;

SimbodyTreeSpec simbody_spec(const SphericalTree& tree) {
  SimbodyTreeSpec spec;
  spec.link_mass = tree.link_mass;
  spec.closed = tree.closed;
  spec.step = kStep;
  for (int k = 0; k < static_cast<int>(tree.links.size()); ++k) {
    const SphericalTree::Link& L = tree.links[static_cast<std::size_t>(k)];
    SimbodyTreeSpec::Link s;
    s.parent = L.parent;
    s.length = L.length;
    const Mat3 R = tree.rotation(k);
    const Vec3 I = tree.inertia(k);
    for (int i = 0; i < 3; ++i) {
      s.joint[static_cast<std::size_t>(i)] = L.joint(i);
      s.inertia[static_cast<std::size_t>(i)] = I(i);
      for (int j = 0; j < 3; ++j) s.R_WB[static_cast<std::size_t>(3 * i + j)] = R(i, j);
    }
    spec.links.push_back(s);
  }
  return spec;
}

struct TreeRun {
  double cpu = 0.0;
  Vec3 tip = Vec3::Zero();
  std::string integrator;
  double iterations = 0.0, factorizations = 0.0;  // per step
};

TreeRun clearsim_tree(const System& sys, const State& start, double last_length, long steps) {
  SolverSettings st;  // shipped defaults
  st.step = kStep;
  TreeRun run;
  State s = start;
  const std::unique_ptr<Integrator> integrator = make_integrator(sys, st);
  long iterations = 0, factorizations = 0;
  const double t0 = thread_cpu_seconds();
  for (long k = 0; k < steps; ++k) {
    const StepResult r = integrator->step(s, kStep);
    if (!r.converged) throw std::runtime_error("clearsim tree step: " + r.message);
    iterations += r.iterations;
    factorizations += r.factorizations;
  }
  run.cpu = thread_cpu_seconds() - t0;
  run.integrator = integrator->name();
  run.iterations = static_cast<double>(iterations) / static_cast<double>(steps);
  run.factorizations = static_cast<double>(factorizations) / static_cast<double>(steps);
  run.tip = s.x_W.back() + s.R_WB.back() * Vec3(0.5 * last_length, 0, 0);
  return run;
}

void BM_PeersTreeSimbody(benchmark::State& state) {
  const bool closed = state.range(0) != 0;
  const long steps = state.range(1);
  const SphericalTree tree = closed ? closed_spherical_chain(100) : binary_spherical_tree(1023);
  const Model model = spherical_tree_model(tree, closed ? "closed_chain" : "binary_tree");
  System sys(model);
  State start = initial_state(sys, 0.0);
  std::vector<std::string> notes;
  if (!make_consistent(sys, start, SolverSettings{}.newton_tol, notes).ok) {
    state.SkipWithError("the tree's initial conditions failed");
    return;
  }
  SimbodyTree sb_tree(simbody_spec(tree));
  TreeRun cs;
  SimbodyTreeRun sb;
  double cs_cpu = 0.0, sb_cpu = 0.0;
  for (auto _ : state) {
    try {
      cs = clearsim_tree(sys, start, tree.links.back().length, steps);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
    sb = sb_tree.run(steps);
    cs_cpu += cs.cpu;
    sb_cpu += sb.cpu;
    state.SetIterationTime(cs.cpu + sb.cpu);
  }
  const double total = static_cast<double>(steps * state.iterations());
  const double bodies = static_cast<double>(tree.links.size());
  state.counters["bodies"] = bodies;
  state.counters["cs_steps/s"] = total / cs_cpu;
  state.counters["sb_steps/s"] = total / sb_cpu;
  state.counters["cs_us/body/step"] = 1e6 * cs_cpu / (total * bodies);
  state.counters["sb_us/body/step"] = 1e6 * sb_cpu / (total * bodies);
  state.counters["cs/sb"] = sb_cpu / cs_cpu;
  state.counters["cs_it/step"] = cs.iterations;
  state.counters["cs_fact/step"] = cs.factorizations;
  state.counters["tip_diff"] = (cs.tip - Vec3(sb.tip[0], sb.tip[1], sb.tip[2])).norm();
  state.SetLabel(cs.integrator);
}
BENCHMARK(BM_PeersTreeSimbody)
    ->ArgNames({"tree", "steps"})
    ->ArgsProduct({{0, 1}, {2000, 10000}})
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cs::bench::peers
