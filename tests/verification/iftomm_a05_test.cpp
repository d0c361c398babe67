// IFToMM benchmark A05, the stiff flyball governor (examples/iftomm_a05_flyball_governor;
// reference.md §6f; González, Dopico, Lugrís, Cuadrado, Multibody Syst. Dyn. 16 (2006) 179–190).
// The benchmark's reference output is the slider coordinate s(t) over 10 s. Its reference file
// was not available here, so s(t) is checked against a converged self-reference: the same model
// integrated by the explicit, 5th-order dormand_prince at h = 1e-4 s, which agrees with
// h = 5e-5 s and with the adaptive run at rtol = atol = 1e-10 to 7e-13 m over the 10 s. Besides
// s(t), two laws that hold whatever the solution is:
//   energy balance  T + V + W_d − E₀ = 0, W_d the work dissipated by the two dampers (the
//                   integral of their `power` channels);
//   angular momentum about the shaft axis, L_z: gravity is along z and the shaft's pivot lets it
//                   turn freely about z, so no external moment about z acts (the dampers and the
//                   joints are internal).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_reader.hpp"
#include "clearsim/solvers/simulation.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

// What one run of the governor gives, at every step.
struct GovernorRun {
  RunStats stats;
  std::vector<double> t, s;  // time [s], slider coordinate s = slider.position.z [m]
  double balance = 0.0;      // max |T + V + W_d − E₀| [J]
  double dissipated = 0.0;   // W_d at the end [J]
  double momentum0 = 0.0;    // L_z at t = 0 [kg·m²/s]
  double momentum = 0.0;     // max |L_z − L_z(0)| [kg·m²/s]
};

// Records s, the energy balance (trapezoidal rule on the dampers' power, O(h²) like the
// integrator) and L_z = Σ m (x × v)_z + (R J Ω)_z at every output point.
class GovernorObserver final : public StepObserver {
 public:
  GovernorObserver(const System& sys, GovernorRun& run)
      : sys_(sys),
        channels_(sys,
                  {"slider.position.z", "coupler1.power", "coupler2.power", "system.total_energy"}),
        run_(run) {}

  void on_output(const State& st, const RunStats& stats) override {
    channels_.evaluate(st, stats, values_);
    sys_.gather(st, kin_);
    const Model& m = sys_.model();
    double lz = 0.0;
    for (int b = 0; b < m.num_bodies(); ++b) {
      const Body& body = m.bodies[b];
      lz += body.mass * kin_[b].x_W.cross(kin_[b].v_W).z() +
            (kin_[b].R_WB * (body.inertia_B * kin_[b].w_B)).z();
    }
    const double power = values_[1] + values_[2], energy = values_[3];
    if (run_.t.empty()) {
      e0_ = energy;
      run_.momentum0 = lz;
    } else {
      run_.dissipated += 0.5 * (power + last_power_) * (st.t - run_.t.back());
    }
    last_power_ = power;
    run_.balance = std::max(run_.balance, std::abs(energy + run_.dissipated - e0_));
    run_.momentum = std::max(run_.momentum, std::abs(lz - run_.momentum0));
    run_.t.push_back(st.t);
    run_.s.push_back(values_[0]);
  }

 private:
  const System& sys_;
  ChannelSet channels_;
  GovernorRun& run_;
  std::vector<double> values_;
  std::vector<BodyKinematics> kin_;
  double e0_ = 0.0, last_power_ = 0.0;
};

GovernorRun run_governor(const std::vector<Override>& overrides) {
  LoadedModel lm = load_model_file(testing::example_path("iftomm_a05_flyball_governor"), overrides);
  EXPECT_TRUE(lm.warnings.empty()) << lm.warnings.front();
  lm.run.output.every = 1;
  System sys(lm.model);
  GovernorRun run;
  GovernorObserver obs(sys, run);
  State state;
  std::vector<std::string> notes;
  run.stats = run_analysis(sys, lm.run, obs, state, notes);
  EXPECT_TRUE(run.stats.ok) << run.stats.message;
  EXPECT_NEAR(run.t.back(), 10.0, 1e-9);
  return run;
}

// max |s(t) − s_ref(t)| over the output times of `run`, which must be output times of `ref`.
double max_s_error(const GovernorRun& run, const GovernorRun& ref) {
  const double h_ref = ref.t[1] - ref.t[0];
  double worst = 0.0;
  for (std::size_t k = 0; k < run.t.size(); ++k) {
    const auto i = static_cast<std::size_t>(std::lround(run.t[k] / h_ref));
    EXPECT_LT(i, ref.t.size());
    if (i >= ref.t.size()) return 1e300;
    EXPECT_NEAR(ref.t[i], run.t[k], 1e-9);
    worst = std::max(worst, std::abs(run.s[k] - ref.s[i]));
  }
  return worst;
}

TEST(IFToMM, A05FlyballGovernorConvergesToTheReference) {
  const GovernorRun ref =
      run_governor({{"solver.integrator", "dormand_prince"}, {"solver.step", "1e-4"}});
  ASSERT_TRUE(ref.stats.ok);
  std::printf(
      "[ A05 ] reference s(10) = %.12f m, min %.6f, max %.6f; balance %.3g J (W_d %.4g J), "
      "L_z %.6f drift %.3g\n",
      ref.s.back(), testing::min_of(ref.s), testing::max_of(ref.s), ref.balance, ref.dissipated,
      ref.momentum0, ref.momentum);

  // The reference: the slider oscillates between s = 0.49991 and 0.74357 m (period ≈ 1.02 s)
  // while the shaft's speed swings between 5.1 and 2π rad/s. Its value at 10 s is pinned to 1e-9 m,
  // far above its measured uncertainty (7e-13 m) and far below the errors checked next; the
  // extremes (sampled every 1e-4 s, which misses the peak by ~s̈h²/8 ≈ 1e-8 m) to 1e-6 m.
  EXPECT_NEAR(ref.s.back(), 0.619622917061, 1e-9);
  EXPECT_NEAR(testing::min_of(ref.s), 0.4999105, 1e-6);
  EXPECT_NEAR(testing::max_of(ref.s), 0.7435711, 1e-6);
  // dormand_prince keeps the balance to the trapezoidal quadrature of the dampers' power over the
  // first steps, where the couplers take up their stretch (measured 2.9e-7 J of 238.9 J), and
  // L_z = 53.87 kg·m²/s to 2.7e-11 (its Baumgarte terms act along the joints only).
  EXPECT_LT(ref.balance, 1e-6);
  EXPECT_LT(ref.momentum, 1e-9);

  // Generalized-α (second order), as shipped (joint coordinates: the governor is an open tree)
  // and in body poses. max |s − s_ref| over the 10 s, the largest at t = 10 s (the phase error
  // grows with time): 2.43e-5 / 6.05e-6 m at h = 1e-3 / 5e-4 s in joint coordinates, 3.21e-5 /
  // 8.01e-6 m in body poses; halving h divides it by 4.00 (also from 5e-4 to 2.5e-4 and 1.25e-4 s
  // in body poses). The bound leaves 25 % on the larger measured error; the ratio of two O(h²)
  // errors is 4 to within the O(h) share of the next term, measured 0.1 %.
  // Energy balance to the same order (of 238.9 J; the dampers dissipate only 3.1e-3 J, since the
  // couplers stay within 6e-5 m of their length): 1.8e-4 / 4.7e-5 J in joint coordinates,
  // 6.4e-4 / 1.6e-4 J in body poses.
  // L_z: the spin, not driven, is traded against the balls' radius (ω from 2π down to 5.1 rad/s);
  // generalized-α keeps L_z to its integration error, O(h²) as well: 1.3e-5 / 3.4e-6 kg·m²/s in
  // joint coordinates, 9.4e-5 / 2.4e-5 in body poses (1.8e-6 relative).
  EXPECT_NEAR(ref.dissipated, 3.12e-3, 0.01e-3);
  for (const char* coordinates : {"auto", "absolute"}) {
    SCOPED_TRACE(coordinates);
    const GovernorRun h1 = run_governor({{"solver.coordinates", coordinates}});
    const GovernorRun h2 =
        run_governor({{"solver.coordinates", coordinates}, {"solver.step", "5e-4"}});
    ASSERT_TRUE(h1.stats.ok && h2.stats.ok);
    const double e1 = max_s_error(h1, ref), e2 = max_s_error(h2, ref);
    std::printf(
        "[ A05 ] %s: h = 1e-3: max |s - s_ref| %.4g m, balance %.3g J, L_z drift "
        "%.3g, %.2f Newton it./step; h = 5e-4: %.4g m, %.3g J, %.3g\n",
        h1.stats.integrator.c_str(), e1, h1.balance, h1.momentum,
        static_cast<double>(h1.stats.newton_iterations) / static_cast<double>(h1.stats.steps), e2,
        h2.balance, h2.momentum);
    EXPECT_LT(e1, 4e-5);
    EXPECT_NEAR(e1 / e2, 4.0, 0.2);
    EXPECT_LT(h1.balance, 8e-4);
    EXPECT_NEAR(h1.balance / h2.balance, 4.0, 0.4);
    EXPECT_LT(h1.momentum, 1.2e-4);
    EXPECT_NEAR(h1.momentum / h2.momentum, 4.0, 0.4);
  }
}

}  // namespace
}  // namespace cs
