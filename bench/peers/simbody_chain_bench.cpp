// Simbody 3.7 (Debian's libsimbody-dev; O(N) recursive, articulated-body) beside clearsim on the
// planar pendulum chain of bench/support/planar_chain_model.hpp: N links of 0.1 m / 1 kg on pins,
// released from 0.3 rad below horizontal, h = 1e-4 s. Simbody integrates at that fixed step with
// its velocity Verlet (second order; sb_euler 0) or semi-explicit Euler (first order, its cheapest;
// sb_euler 1), clearsim as shipped (make_integrator). Simbody's plane is x–y
// with gravity −y; clearsim's x–z with gravity −z. Counters: steps/s of each (thread CPU time),
// their ratio cs/sb (> 1: clearsim faster), cost per body and step, and the free ends' distance.
#include <benchmark/benchmark.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "peers/planar_chain_start.hpp"
#include "peers/simbody_chain.hpp"
#include "support/planar_chain_model.hpp"
#include "support/thread_cpu.hpp"

namespace cs::bench::peers {
namespace {

constexpr double kStep = 1e-4;

struct ChainRun {
  double cpu = 0.0;
  Vec3 tip = Vec3::Zero();  // free end of the last link, clearsim's axes [m]
  std::string integrator;
};

ChainRun clearsim_chain(const System& sys, const State& start, long steps) {
  SolverSettings st;  // shipped defaults
  st.step = kStep;
  ChainRun run;
  State s = start;
  const std::unique_ptr<Integrator> integrator = make_integrator(sys, st);
  run.integrator = integrator->name();
  const double t0 = thread_cpu_seconds();
  for (long k = 0; k < steps; ++k) {
    const StepResult r = integrator->step(s, kStep);
    if (!r.converged) throw std::runtime_error("clearsim chain step: " + r.message);
  }
  run.cpu = thread_cpu_seconds() - t0;
  run.tip = s.x_W.back() + s.R_WB.back() * Vec3(0.5 * PlanarChainParameters{}.link_length, 0, 0);
  return run;
}

void BM_PeersChainSimbody(benchmark::State& state) {
  const int links = static_cast<int>(state.range(0));
  const long steps = state.range(1);
  const Model model = planar_pendulum_chain(links);
  System sys(model);
  const State start = planar_chain_start(sys);
  const PlanarChainParameters p;
  const Vec3 I = planar_link_inertia(p);
  const bool euler = state.range(2) != 0;
  SimbodyChain sb_chain({links, p.link_length, p.link_mass, I(0), I(1), p.tilt, kStep, euler});
  ChainRun cs;
  SimbodyChainRun sb;
  double cs_cpu = 0.0, sb_cpu = 0.0;
  for (auto _ : state) {
    cs = clearsim_chain(sys, start, steps);
    sb = sb_chain.run(steps);
    cs_cpu += cs.cpu;
    sb_cpu += sb.cpu;
    state.SetIterationTime(cs.cpu + sb.cpu);
  }
  const double total = static_cast<double>(steps * state.iterations());
  state.counters["bodies"] = links;
  state.counters["cs_steps/s"] = total / cs_cpu;
  state.counters["sb_steps/s"] = total / sb_cpu;
  state.counters["cs_us/body/step"] = 1e6 * cs_cpu / (total * links);
  state.counters["sb_us/body/step"] = 1e6 * sb_cpu / (total * links);
  state.counters["cs/sb"] = sb_cpu / cs_cpu;
  state.counters["tip_diff"] = (cs.tip - Vec3(sb.tip_x, 0.0, sb.tip_z)).norm();
  state.SetLabel(cs.integrator);
}
BENCHMARK(BM_PeersChainSimbody)
    ->ArgNames({"N", "steps", "sb_euler"})
    ->ArgsProduct({{10, 90, 1000, 10000}, {2000, 10000}, {0, 1}})
    ->UseManualTime()
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cs::bench::peers
