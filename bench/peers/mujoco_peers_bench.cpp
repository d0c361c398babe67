// clearsim against MuJoCo on the same mechanisms, in one process (issue 12). Each benchmark
// iteration runs both engines one after the other on the same case and times each with the CPU
// clock of this thread, so load drift on a shared machine hits both alike. clearsim runs with its
// shipped solver settings (only the step is set); MuJoCo with its defaults and Euler at the same
// step. Counters: steps/s of each (CPU time), their ratio cs/mj (> 1: clearsim faster), and what
// each leaves of the accuracy the case can check.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/generalized_alpha.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/integrator_factory.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "peers/mujoco_models.hpp"
#include "peers/mujoco_session.hpp"
#include "support/planar_chain_model.hpp"
#include "support/thread_cpu.hpp"
#include "testing/slider_crank.hpp"

namespace cs::bench::peers {
namespace {

// ---- Ideal slider–crank of seed 000: 5000 rpm, h = 1e-5, 0.1 s (10 000 steps) ----

constexpr double kCrankStep = 1e-5, kCrankEnd = 0.1;

// Keeps the largest slider-position error against the closed form (reference.md §8.1) over the
// output points; the observer is the only output, so it costs no more than discarding.
class SliderErrorObserver final : public StepObserver {
 public:
  void on_output(const State& s, const RunStats&) override {
    max_error = std::max(max_error, std::abs(s.x_W[2].x() - testing::slider_closed_form(s.t).x));
  }
  bool reads_joint_reactions() const override { return false; }
  double max_error = 0.0;
};

struct CrankRun {
  double cpu = 0.0, max_loop_gap = 0.0, max_slider_error = 0.0;
  long steps = 0;
};

// Whole run_analysis as the command line runs it (consistent start, output every 10 steps).
CrankRun clearsim_slider_crank(const Model& model) {
  RunSettings rs;  // shipped defaults: generalized-α ρ∞ = 0.9, index 3, modified Newton
  rs.solver.step = kCrankStep;
  rs.solver.end = kCrankEnd;
  rs.output.every = 10;
  rs.output.progress = false;
  SliderErrorObserver observer;
  const double t0 = thread_cpu_seconds();
  System sys(model);
  State s;
  std::vector<std::string> notes;
  const RunStats stats = run_analysis(sys, rs, observer, s, notes);
  CrankRun run;
  run.cpu = thread_cpu_seconds() - t0;
  if (!stats.ok) throw std::runtime_error("clearsim slider-crank: " + stats.message);
  run.steps = stats.steps;
  run.max_loop_gap = stats.max_constraint_violation;
  run.max_slider_error = observer.max_error;
  return run;
}

// MuJoCo: the crank's speed is imposed by setting its qvel to ω before every step (a velocity
// actuator would only approach ω); the initial velocities are the ideal mechanism's at θ = 0.
// The loop gap and the slider error are evaluated from qpos every 10 steps, as clearsim's output.
CrankRun mujoco_slider_crank(MujocoSession& mj) {
  using testing::kCrank, testing::kRod, testing::kOmega;
  mjModel* m = mj.model();
  mjData* d = mj.data();
  const long n = std::lround(kCrankEnd / kCrankStep);
  CrankRun run;
  const double t0 = thread_cpu_seconds();
  mj_resetData(m, d);
  d->qvel[0] = kOmega;
  d->qvel[1] = -kCrank * kOmega / kRod - kOmega;  // hinge speed relative to the crank
  for (long k = 1; k <= n; ++k) {
    d->qvel[0] = kOmega;
    mj_step(m, d);
    if (k % 10 == 0) {
      const double th = d->qpos[0], phi = d->qpos[0] + d->qpos[1];
      const double gx = kCrank * std::cos(th) + kRod * std::cos(phi) - (kCrank + kRod + d->qpos[2]);
      const double gy = kCrank * std::sin(th) + kRod * std::sin(phi);
      run.max_loop_gap = std::max(run.max_loop_gap, std::hypot(gx, gy));
      run.max_slider_error =
          std::max(run.max_slider_error,
                   std::abs(kCrank + kRod + d->qpos[2] - testing::slider_closed_form(d->time).x));
    }
  }
  run.cpu = thread_cpu_seconds() - t0;
  run.steps = n;
  return run;
}

void BM_PeersSliderCrankMuJoCo(benchmark::State& state) {
  const Model model = testing::slider_crank();
  MujocoSession mj(slider_crank_mjcf(kCrankStep));
  CrankRun cs, mu;
  double cs_cpu = 0.0, mj_cpu = 0.0;
  long cs_steps = 0, mj_steps = 0;
  for (auto _ : state) {
    cs = clearsim_slider_crank(model);
    mu = mujoco_slider_crank(mj);
    cs_cpu += cs.cpu;
    mj_cpu += mu.cpu;
    cs_steps += cs.steps;
    mj_steps += mu.steps;
    state.SetIterationTime(cs.cpu + mu.cpu);
  }
  const double cs_rate = static_cast<double>(cs_steps) / cs_cpu;
  const double mj_rate = static_cast<double>(mj_steps) / mj_cpu;
  state.counters["cs_steps/s"] = cs_rate;
  state.counters["mj_steps/s"] = mj_rate;
  state.counters["cs/mj"] = cs_rate / mj_rate;
  state.counters["cs_|phi|"] = cs.max_loop_gap;  // ‖Φ‖∞ over all rows [m, rad]
  state.counters["mj_gap"] = mu.max_loop_gap;    // distance of the connect points [m]
  state.counters["cs_x_err"] = cs.max_slider_error;
  state.counters["mj_x_err"] = mu.max_slider_error;
}
BENCHMARK(BM_PeersSliderCrankMuJoCo)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);

// ---- Planar pendulum chain, links of 0.1 m / 1 kg, h = 1e-4, released from rest ----

constexpr double kChainStep = 1e-4;

struct ChainRun {
  double cpu = 0.0;
  Vec3 tip = Vec3::Zero();                  // free end of the last link after the run [m]
  long iterations = 0, factorizations = 0;  // clearsim's Newton work over the run
  std::string integrator;                   // clearsim's integrator (make_integrator's choice)
};

// The steps alone: System construction and make_consistent are not timed (nor is MuJoCo's load).
ChainRun clearsim_chain(const System& sys, const State& start, long steps) {
  SolverSettings st;  // shipped defaults
  st.step = kChainStep;
  ChainRun run;
  State s = start;
  const std::unique_ptr<Integrator> integrator = make_integrator(sys, st);  // the shipped choice
  run.integrator = integrator->name();
  const double t0 = thread_cpu_seconds();
  for (long k = 0; k < steps; ++k) {
    const StepResult r = integrator->step(s, kChainStep);
    if (!r.converged) throw std::runtime_error("clearsim chain step: " + r.message);
    run.iterations += r.iterations;
    run.factorizations += r.factorizations;
  }
  run.cpu = thread_cpu_seconds() - t0;
  const PlanarChainParameters p;
  run.tip = s.x_W.back() + s.R_WB.back() * Vec3(0.5 * p.link_length, 0.0, 0.0);
  return run;
}

ChainRun mujoco_chain(MujocoSession& mj, long steps) {
  mjModel* m = mj.model();
  mjData* d = mj.data();
  ChainRun run;
  mj_resetData(m, d);
  const double t0 = thread_cpu_seconds();
  for (long k = 0; k < steps; ++k) mj_step(m, d);
  run.cpu = thread_cpu_seconds() - t0;
  mj_kinematics(m, d);  // body poses of the final qpos (mj_step leaves them one step behind)
  const int last = m->nbody - 1;
  const mjtNum* R = d->xmat + 9 * last;  // row-major
  const double L = PlanarChainParameters{}.link_length;
  for (int i = 0; i < 3; ++i) run.tip[i] = d->xpos[3 * last + i] + R[3 * i] * L;
  return run;
}

void BM_PeersChainMuJoCo(benchmark::State& state) {
  const int links = static_cast<int>(state.range(0));
  const long steps = state.range(1);
  const Model model = planar_pendulum_chain(links);
  System sys(model);
  std::vector<std::string> notes;
  State start = initial_state(sys, 0.0);
  if (!make_consistent(sys, start, SolverSettings{}.newton_tol, notes).ok) {
    state.SkipWithError("planar chain initial conditions failed");
    return;
  }
  MujocoSession mj(planar_chain_mjcf(links, kChainStep));
  ChainRun cs, mu;
  double cs_cpu = 0.0, mj_cpu = 0.0;
  for (auto _ : state) {
    cs = clearsim_chain(sys, start, steps);
    mu = mujoco_chain(mj, steps);
    cs_cpu += cs.cpu;
    mj_cpu += mu.cpu;
    state.SetIterationTime(cs.cpu + mu.cpu);
  }
  const double total = static_cast<double>(steps * state.iterations());
  state.counters["bodies"] = links;
  state.counters["cs_steps/s"] = total / cs_cpu;
  state.counters["mj_steps/s"] = total / mj_cpu;
  state.counters["cs_us/body/step"] = 1e6 * cs_cpu / (total * links);
  state.counters["mj_us/body/step"] = 1e6 * mj_cpu / (total * links);
  state.counters["cs/mj"] = mj_cpu / cs_cpu;
  state.counters["cs_it/step"] = static_cast<double>(cs.iterations) / static_cast<double>(steps);
  state.counters["cs_fact/step"] =
      static_cast<double>(cs.factorizations) / static_cast<double>(steps);
  // Where the two chains' free ends are after the run: how far the soft-free reduced-coordinate
  // chain and the exact absolute-coordinate one agree [m].
  state.counters["tip_diff"] = (cs.tip - mu.tip).norm();
  state.SetLabel(cs.integrator);
}
BENCHMARK(BM_PeersChainMuJoCo)
    ->ArgNames({"N", "steps"})
    ->Args({10, 2000})
    ->Args({90, 500})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace
}  // namespace cs::bench::peers
