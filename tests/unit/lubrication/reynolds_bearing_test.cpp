// Finite journal bearing (solve_reynolds, FiniteBearingTable): the Sommerfeld numbers and
// attitude angles of reference.md §5.5, the long (§5.2) and short (§5.3) limits, symmetry and
// homogeneity, warm starts, grid convergence, and the table against direct solves and against
// central differences of itself.
#include "clearsim/elements/lubrication/reynolds_bearing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

namespace cs::lubrication {
namespace {

constexpr double kPi = std::numbers::pi;

double magnitude(const ReducedForce& f) { return std::hypot(f.radial, f.tangential); }
double distance(const ReducedForce& a, const ReducedForce& b) {
  return std::hypot(a.radial - b.radial, a.tangential - b.tangential);
}

ReynoldsSetup setup_for(double length_over_diameter, Cavitation cavitation,
                        ReynoldsGrid grid = {}) {
  ReynoldsSetup s;
  s.length_over_diameter = length_over_diameter;
  s.cavitation = cavitation;
  s.grid = grid;
  return s;
}

// Steady load of a journal spinning at ω̄ (bearing fixed, ε̇ = 0): with P = W/(2RL),
// N = ω̄/(2π) and W = (μLR³/c²) ε ω̄ ‖f(ε, 0)‖, S = (R/c)² μN/P = 1/(π ε ‖f(ε, 0)‖).
struct SteadyLoad {
  double sommerfeld = 0.0;
  double attitude_deg = 0.0;  // angle from the load line to the line of centres
};

SteadyLoad steady_load(double length_over_diameter, double eccentricity) {
  const ReducedForce f = solve_reynolds_direction(
      setup_for(length_over_diameter, Cavitation::kReynolds), eccentricity, 0.0);
  // The load applied to the journal is −F, so the attitude angle is atan2(F_t, −F_r).
  return {1.0 / (kPi * eccentricity * magnitude(f)),
          std::atan2(f.tangential, -f.radial) * 180.0 / kPi};
}

// ---------------------------------------------------------------------------------------------
// Validation against reference.md §5.5 (Reynolds condition, projected SOR on 240 × 40).

TEST(ReynoldsBearing, SommerfeldNumberAndAttitudeMatchReferenceTable) {
  struct Row {
    double ld, eps, sommerfeld, attitude_deg;
  };
  const Row rows[] = {{1, 0.2, 0.6248, 77.7},  {1, 0.4, 0.2604, 65.1},  {1, 0.6, 0.1215, 52.0},
                      {1, 0.8, 0.04477, 36.8}, {1, 0.9, 0.01889, 26.7}, {0.5, 0.6, 0.3202, 48.3},
                      {2, 0.6, 0.06375, 59.0}};
  for (const Row& row : rows) {
    const SteadyLoad load = steady_load(row.ld, row.eps);
    SCOPED_TRACE(::testing::Message() << "L/D " << row.ld << " eps " << row.eps);
    // Asked for: 2 %. Measured: ≤ 0.1 % (both solvers discretize the same complementarity
    // problem; ours differs from the 240 × 40 grid by its own ≈ 0.2 % axial error).
    EXPECT_NEAR(load.sommerfeld / row.sommerfeld, 1.0, 0.02);
    // §5.5 quotes ±4° against the published angles at small ε; against its own table (same
    // problem, finer grid) the measured difference is ≤ 0.06°, so 0.5° is already generous.
    EXPECT_NEAR(load.attitude_deg, row.attitude_deg, 0.5);
  }
}

TEST(ReynoldsBearing, SommerfeldNumberMatchesRaimondiBoydAtUnitLengthRatio) {
  // Published Raimondi–Boyd L/D = 1 values quoted in §5.5; they agree with its table to ≈ 1 %.
  const double eps[] = {0.2, 0.4, 0.6, 0.8, 0.9};
  const double published[] = {0.631, 0.264, 0.121, 0.0446, 0.0188};
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(steady_load(1.0, eps[k]).sommerfeld / published[k], 1.0, 0.02) << eps[k];
  }
}

// ---------------------------------------------------------------------------------------------
// Limits: long (§5.2) and short (§5.3) bearings.

// At ε = 0 the finite bearing is solved exactly by Π = 6(a sin θ − b cos θ) g(Z),
// g = 1 − cosh(Z/√κ)/cosh(1/(2√κ)): F̄_t/a = −F̄_r/b = 6π (1 − (D/L) tanh(L/D)).
TEST(ReynoldsBearing, CentredJournalMatchesExactFiniteLengthSolution) {
  for (double ld : {0.125, 1.0, 8.0}) {
    const double exact = 6.0 * kPi * (1.0 - std::tanh(ld) / ld);
    // L/D = 8 has end boundary layers R/L = 1/16 thick: 32 axial nodes resolve them.
    const ReynoldsSetup s = setup_for(ld, Cavitation::kSommerfeld, {96, ld > 4 ? 32 : 16});
    const ReducedForce wedge = solve_reynolds_direction(s, 0.0, 0.0);
    const ReducedForce squeeze = solve_reynolds_direction(s, 0.0, 0.5 * kPi);
    // Second-order axial discretization: measured 0.14 % (L/D ≤ 1, 16 nodes), 0.1 % (L/D = 8).
    EXPECT_NEAR(wedge.tangential / exact, 1.0, 3e-3) << ld;
    EXPECT_NEAR(-squeeze.radial / exact, 1.0, 3e-3) << ld;
    // Pure wedge and pure squeeze are odd and even in θ: no cross term, to round-off.
    EXPECT_NEAR(wedge.radial, 0.0, 1e-12 * exact);
    EXPECT_NEAR(squeeze.tangential, 0.0, 1e-12 * exact);
  }
}

// Full Sommerfeld, F̄ per unit a = εω̄ and per unit b = 2ε̇ (§5.2):
// F̄_t/a = 12π/((2+ε²)√(1−ε²)), F̄_r/b = −6π/(1−ε²)^{3/2}.
TEST(ReynoldsBearing, LongBearingTendsToInfinitelyLongSommerfeldSolution) {
  for (double eps : {0.3, 0.6}) {
    const double long_wedge = 12.0 * kPi / ((2.0 + eps * eps) * std::sqrt(1.0 - eps * eps));
    const double long_squeeze = -6.0 * kPi / std::pow(1.0 - eps * eps, 1.5);
    double wedge[2], squeeze[2];
    int k = 0;
    for (double ld : {8.0, 16.0}) {
      const ReynoldsSetup s = setup_for(ld, Cavitation::kSommerfeld, {96, 64});
      wedge[k] = solve_reynolds_direction(s, eps, 0.0).tangential / long_wedge;
      squeeze[k] = solve_reynolds_direction(s, eps, 0.5 * kPi).radial / long_squeeze;
      ++k;
    }
    SCOPED_TRACE(::testing::Message() << "eps " << eps);
    // End leakage over a length ≈ R at each end costs a fraction ≈ D/L of the load (exactly
    // (D/L) tanh(L/D) at ε = 0): at L/D = 8 the finite bearing carries 88–90 % (wedge) and
    // 88–92 % (squeeze) of the long value, and halving D/L halves the deficit.
    for (int j = 0; j < 2; ++j) {
      const double d_over_l = j == 0 ? 1.0 / 8.0 : 1.0 / 16.0;
      EXPECT_GT(wedge[j], 1.0 - 1.2 * d_over_l);
      EXPECT_LT(wedge[j], 1.0);
      EXPECT_GT(squeeze[j], 1.0 - 1.2 * d_over_l);
      EXPECT_LT(squeeze[j], 1.0);
    }
    // Removing the first-order deficit (Richardson in D/L) leaves the long bearing: measured
    // within 0.1 %; 0.5 % allows the O((D/L)²) remainder and the grid error.
    EXPECT_NEAR(2.0 * wedge[1] - wedge[0], 1.0, 5e-3);
    EXPECT_NEAR(2.0 * squeeze[1] - squeeze[0], 1.0, 5e-3);
  }
}

// Short bearing, half-Sommerfeld: Π → 3(a sin θ − b cos θ)(¼ − Z²)/(κH³), clipped at zero. For a
// pure wedge that is §5.3's π film; with squeeze the clipped region is no longer [0, π] (§5.3's
// fixed film is a different gauge), so the reference is the clipped short pressure integrated
// numerically.
ReducedForce short_bearing_clipped(double eps, double ld, double direction) {
  const double kappa = std::pow(0.5 / ld, 2);
  const int n = 20000;  // midpoint rule; the kink at the film edge costs O(n⁻²)
  ReducedForce f;
  for (int i = 0; i < n; ++i) {
    const double theta = 2.0 * kPi * (i + 0.5) / n;
    const double h = 1.0 + eps * std::cos(theta);
    const double forcing =
        std::cos(direction) * std::sin(theta) - std::sin(direction) * std::cos(theta);
    // ∫(¼ − Z²)dZ over the length is 1/6.
    const double column = std::max(forcing, 0.0) / (2.0 * kappa * h * h * h);
    f.radial += column * std::cos(theta) * 2.0 * kPi / n;
    f.tangential += column * std::sin(theta) * 2.0 * kPi / n;
  }
  return f;
}

TEST(ReynoldsBearing, ShortBearingTendsToOcvirkSolution) {
  for (double eps : {0.2, 0.4, 0.6}) {
    // §5.3 in this scaling (F = μLR³/c² F̄, μRL³/c² = (L/R)² μLR³/c²), per unit a = εω̄:
    const double short_scale = std::pow(2.0 * 0.125, 2);
    const double ocvirk_radial = -short_scale * eps / std::pow(1.0 - eps * eps, 2);
    const double ocvirk_tangential = short_scale * kPi / (4.0 * std::pow(1.0 - eps * eps, 1.5));
    const ReducedForce wedge =
        solve_reynolds_direction(setup_for(0.125, Cavitation::kHalfSommerfeld), eps, 0.0);
    // Measured at L/D = 1/8: 2.2 / 2.7 / 4.0 % (radial), 0.8 / 1.2 / 2.0 % (tangential); the
    // short theory neglects circumferential flow, an O((L/D)²/(1 − ε)) effect.
    EXPECT_NEAR(wedge.radial / ocvirk_radial, 1.0, 0.05) << eps;
    EXPECT_NEAR(wedge.tangential / ocvirk_tangential, 1.0, 0.025) << eps;
    for (double direction : {0.0, 0.7, 2.0, 4.0}) {
      double error[2];
      int k = 0;
      for (double ld : {0.125, 0.0625}) {
        const ReducedForce numeric =
            solve_reynolds_direction(setup_for(ld, Cavitation::kHalfSommerfeld), eps, direction);
        const ReducedForce short_limit = short_bearing_clipped(eps, ld, direction);
        error[k++] = distance(numeric, short_limit) / magnitude(short_limit);
      }
      SCOPED_TRACE(::testing::Message() << "eps " << eps << " psi " << direction);
      // Measured ≤ 3.1 % at L/D = 1/8, ≤ 1 % at 1/16: the error falls about 3× per halving
      // (4× asymptotically, less while the 0.1–0.2 % grid error still shows).
      EXPECT_LT(error[0], 0.035);
      EXPECT_LT(error[1], error[0] / 2.5);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Symmetry, signs, homogeneity, degenerate inputs.

TEST(ReynoldsBearing, PureSqueezeGivesPurelyRadialForce) {
  for (Cavitation cav :
       {Cavitation::kSommerfeld, Cavitation::kHalfSommerfeld, Cavitation::kReynolds}) {
    for (double rate : {0.7, -0.7}) {
      const ReducedForce f = solve_reynolds(setup_for(1.0, cav), FilmState{0.5, rate, 0.0});
      // Π(θ) = Π(−θ) for a forcing ∝ cos θ on a grid symmetric in θ: F_t vanishes to
      // round-off.
      EXPECT_NEAR(f.tangential, 0.0, 1e-12 * std::abs(f.radial));
      // A journal approaching the wall is pushed back (§5.2 sign convention), one leaving it
      // is pulled.
      EXPECT_LT(f.radial * rate, 0.0);
    }
  }
}

TEST(ReynoldsBearing, WedgeDrivesTangentialForceAlongRotation) {
  for (Cavitation cav :
       {Cavitation::kSommerfeld, Cavitation::kHalfSommerfeld, Cavitation::kReynolds}) {
    const ReducedForce f = solve_reynolds(setup_for(1.0, cav), FilmState{0.5, 0.0, 100.0});
    EXPECT_GT(f.tangential, 0.0);
    // Cavitated films push the journal back towards the centre; the full film does not.
    if (cav != Cavitation::kSommerfeld) {
      EXPECT_LT(f.radial, 0.0);
    }
  }
}

TEST(ReynoldsBearing, PressureIsHomogeneousOfDegreeOneInWedgeAndSqueeze) {
  const FilmState film{0.62, 0.9, -37.0};
  for (Cavitation cav :
       {Cavitation::kSommerfeld, Cavitation::kHalfSommerfeld, Cavitation::kReynolds}) {
    const ReducedForce base = solve_reynolds(setup_for(1.0, cav), film);
    // Complementarity problems scale with positive factors only; the linear one with any.
    for (double scale : {2.5, 1e-3, -1.7}) {
      if (scale < 0.0 && cav != Cavitation::kSommerfeld) continue;
      const FilmState scaled{film.eccentricity, scale * film.eccentricity_rate,
                             scale * film.wedge_speed};
      const ReducedForce f = solve_reynolds(setup_for(1.0, cav), scaled);
      // Same active set, scaled solution: equal up to round-off of the solves.
      EXPECT_NEAR(f.radial, scale * base.radial, 1e-10 * std::abs(scale) * magnitude(base));
      EXPECT_NEAR(f.tangential, scale * base.tangential, 1e-10 * std::abs(scale) * magnitude(base));
    }
  }
}

TEST(ReynoldsBearing, CentredOrMotionlessJournalCarriesNoLoad) {
  for (Cavitation cav :
       {Cavitation::kSommerfeld, Cavitation::kHalfSommerfeld, Cavitation::kReynolds}) {
    ReynoldsWorkspace ws;
    solve_reynolds(setup_for(1.0, cav), FilmState{0.5, 0.3, 10.0}, &ws);  // leaves a warm start
    for (const FilmState film : {FilmState{0.0, 0.0, 250.0}, FilmState{0.7, 0.0, 0.0}}) {
      PressureField p;
      const ReducedForce f = solve_reynolds(setup_for(1.0, cav), film, &ws, &p);
      EXPECT_EQ(f.radial, 0.0);
      EXPECT_EQ(f.tangential, 0.0);
      EXPECT_TRUE(p.values.allFinite());
    }
  }
}

TEST(ReynoldsBearing, RejectsInvalidInput) {
  EXPECT_THROW(solve_reynolds(setup_for(1.0, Cavitation::kReynolds), FilmState{1.0, 0.0, 1.0}),
               std::invalid_argument);
  EXPECT_THROW(solve_reynolds(setup_for(0.0, Cavitation::kReynolds), FilmState{0.5, 0.0, 1.0}),
               std::invalid_argument);
  EXPECT_THROW(
      solve_reynolds(setup_for(1.0, Cavitation::kReynolds, {4, 4}), FilmState{0.5, 0.0, 1.0}),
      std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Pressure field and warm start.

TEST(ReynoldsBearing, ReynoldsFieldIsNonNegativeSymmetricAndZeroAtTheEnds) {
  PressureField p;
  solve_reynolds(setup_for(1.0, Cavitation::kReynolds), FilmState{0.6, 0.2, 50.0}, nullptr, &p);
  const ReynoldsGrid grid{};
  ASSERT_EQ(p.values.rows(), grid.n_theta);
  ASSERT_EQ(p.values.cols(), grid.n_axial + 1);
  EXPECT_GE(p.values.minCoeff(), 0.0);
  EXPECT_EQ(p.values.col(grid.n_axial).cwiseAbs().maxCoeff(), 0.0);
  // A film that both carries load and cavitates.
  EXPECT_GT(p.values.maxCoeff(), 0.0);
  EXPECT_GT((p.values.col(0).array() == 0.0).count(), grid.n_theta / 4);
}

TEST(ReynoldsBearing, WarmStartGivesTheSameSolutionInFewerIterations) {
  const ReynoldsSetup s = setup_for(1.0, Cavitation::kReynolds);
  const FilmState before{0.7, 0.1, 80.0};
  const FilmState after{0.71, 0.12, 80.0};
  ReynoldsWorkspace cold;
  const ReducedForce reference = solve_reynolds(s, after, &cold);
  const int cold_iterations = cold.last_active_set_iterations();

  ReynoldsWorkspace warm;
  PressureField previous;
  solve_reynolds(s, before, &warm, &previous);
  const ReducedForce warmed = solve_reynolds(s, after, &warm);
  // The active-set loop ends on the exact discrete solution, whatever it started from.
  EXPECT_NEAR(distance(warmed, reference), 0.0, 1e-10 * magnitude(reference));
  EXPECT_LT(warm.last_active_set_iterations(), cold_iterations);

  // A field saved elsewhere works as well, in a fresh workspace too: restarting from the
  // solution itself takes one pass.
  PressureField solution;
  solve_reynolds(s, after, nullptr, &solution);
  ReynoldsWorkspace restarted;
  restarted.warm_start(solution);
  const ReducedForce again = solve_reynolds(s, after, &restarted);
  EXPECT_EQ(restarted.last_active_set_iterations(), 1);
  EXPECT_NEAR(distance(again, reference), 0.0, 1e-10 * magnitude(reference));
}

// Doubling the grid in both directions changes the load by < 0.4 % (measured ≤ 0.37 %, at
// ε = 0.9 on a small, squeeze-dominated load): the stated discretization error of the default
// grid is ≈ 4/3 of that, 0.5 % (second order).
TEST(ReynoldsBearing, DefaultGridIsConverged) {
  const ReynoldsSetup coarse = setup_for(1.0, Cavitation::kReynolds);
  const ReynoldsSetup fine = setup_for(1.0, Cavitation::kReynolds, {192, 32});
  for (double eps : {0.3, 0.6, 0.9}) {
    for (double direction : {0.0, 1.0, 2.5, 4.0}) {
      const ReducedForce a = solve_reynolds_direction(coarse, eps, direction);
      const ReducedForce b = solve_reynolds_direction(fine, eps, direction);
      EXPECT_LT(distance(a, b) / magnitude(b), 4e-3) << eps << " " << direction;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Table.

const FiniteBearingTable& reynolds_table() {
  static const FiniteBearingTable table{FiniteBearingTableOptions{}};
  return table;
}

struct InterpolationError {
  double of_scale = 0.0;   // worst ‖ΔF‖ / max_ψ‖F(ε, ψ)‖
  double pointwise = 0.0;  // worst ‖ΔF‖ / ‖F‖ where ‖F‖ ≥ 10 % of that scale
};

// Table against direct solves at cell centres (the farthest points from the nodes), every
// `stride`-th direction.
InterpolationError interpolation_error(const FiniteBearingTable& table, int stride) {
  const FiniteBearingTableOptions& o = table.options();
  const ReynoldsSetup s = setup_for(o.length_over_diameter, o.cavitation, o.grid);
  const double du = std::atanh(o.max_eccentricity) / (o.n_eccentricity - 1);
  const double dpsi = 2.0 * kPi / o.n_direction;
  ReynoldsWorkspace ws;
  InterpolationError worst;
  for (int iu = 0; iu + 1 < o.n_eccentricity; ++iu) {
    const double eps = std::tanh((iu + 0.5) * du);
    std::vector<ReducedForce> direct, table_value;
    double scale = 0.0;
    for (int ip = 0; ip < o.n_direction; ip += stride) {
      direct.push_back(solve_reynolds_direction(s, eps, (ip + 0.5) * dpsi, &ws));
      table_value.push_back(table.direction_force(eps, (ip + 0.5) * dpsi));
      scale = std::max(scale, magnitude(direct.back()));
    }
    for (std::size_t k = 0; k < direct.size(); ++k) {
      const double error = distance(direct[k], table_value[k]);
      worst.of_scale = std::max(worst.of_scale, error / scale);
      if (magnitude(direct[k]) >= 0.1 * scale) {
        worst.pointwise = std::max(worst.pointwise, error / magnitude(direct[k]));
      }
    }
  }
  return worst;
}

// Stated interpolation errors (header comment), measured at the default resolution:
//   Sommerfeld      1.1e-5 of scale, 1.1e-5 pointwise (smooth: the spline's own error);
//   half-Sommerfeld 4.3e-4 of scale, 4.0e-3 pointwise;
//   Reynolds        2.8e-4 of scale, 1.9e-3 pointwise.
// With cavitation the error does not fall when the table is refined: it is the direct solver's
// own node-by-node jitter as the film boundary crosses grid nodes, well inside its 0.5 %
// discretization error. Bounds: about twice the measured values.
TEST(ReynoldsBearingTable, MatchesDirectSolvesBetweenNodes) {
  {
    FiniteBearingTableOptions o;
    o.cavitation = Cavitation::kSommerfeld;
    const InterpolationError e = interpolation_error(FiniteBearingTable(o), 1);
    EXPECT_LT(e.of_scale, 3e-5);
    EXPECT_LT(e.pointwise, 3e-5);
  }
  {
    FiniteBearingTableOptions o;
    o.cavitation = Cavitation::kHalfSommerfeld;
    const InterpolationError e = interpolation_error(FiniteBearingTable(o), 1);
    EXPECT_LT(e.of_scale, 1e-3);
    EXPECT_LT(e.pointwise, 8e-3);
  }
  const InterpolationError e = interpolation_error(reynolds_table(), 2);
  EXPECT_LT(e.of_scale, 6e-4);
  EXPECT_LT(e.pointwise, 4e-3);
}

// A long finite bearing, L/D = 8 (issue 29: 0.42 % off, against the stated 0.4 %), printed for
// docs/lubrication.md (*Accuracy at large L/D*). The table's interpolation is as good as at
// L/D = 1 (measured 3.9e-4 of scale, 0.28 % pointwise, Reynolds' condition); the excess is the
// default grid's axial discretization (measured −0.424 % at ε = 0 against the exact solution).
// Bounds: about twice the measured values.
TEST(ReynoldsBearingTable, AccuracyAtLargeLengthOverDiameter) {
  FiniteBearingTableOptions o;
  o.length_over_diameter = 8.0;
  const InterpolationError e = interpolation_error(FiniteBearingTable(o), 1);
  std::printf("L/D = 8, Reynolds: %.3g of scale, %.3g pointwise\n", e.of_scale, e.pointwise);
  EXPECT_LT(e.of_scale, 8e-4);
  EXPECT_LT(e.pointwise, 6e-3);
  // The default grid's 16 axial nodes against the exact centred journal (full film): the end
  // boundary layers R/L = 1/16 thick are resolved by about one node each.
  o.cavitation = Cavitation::kSommerfeld;
  const double exact = 6.0 * kPi * (1.0 - std::tanh(8.0) / 8.0);
  const double wedge = FiniteBearingTable(o).direction_force(0.0, 0.0).tangential;
  std::printf("L/D = 8, default grid, centred wedge: %+.3f %% of the exact\n",
              100.0 * (wedge / exact - 1.0));
  EXPECT_NEAR(wedge / exact, 1.0, 8e-3);
}

TEST(ReynoldsBearingTable, ReproducesNodesExactly) {
  const FiniteBearingTable& table = reynolds_table();
  const FiniteBearingTableOptions& o = table.options();
  const ReynoldsSetup s = setup_for(o.length_over_diameter, o.cavitation, o.grid);
  const double du = std::atanh(o.max_eccentricity) / (o.n_eccentricity - 1);
  for (int iu : {0, 7, o.n_eccentricity - 1}) {
    for (int ip : {0, 13, o.n_direction - 1}) {
      const double eps = std::tanh(iu * du);
      const double direction = ip * 2.0 * kPi / o.n_direction;
      const ReducedForce direct = solve_reynolds_direction(s, eps, direction);
      // An interpolant through the nodes: equal up to the rounding of (1 − ε²)² and the basis.
      EXPECT_NEAR(distance(table.direction_force(eps, direction), direct), 0.0,
                  1e-11 * magnitude(direct));
    }
  }
}

const BearingParameters kBearing{0.4, 0.01, 0.02, 5e-5};  // μ [Pa·s], R, L, c [m]: L/D = 1

TEST(ReynoldsBearingTable, DimensionalForceMatchesDirectSolve) {
  const FilmState film{0.55, 3.0, 400.0};  // off the nodes
  const BearingForce table = reynolds_table().evaluate(film, kBearing);
  const ReducedForce direct = solve_reynolds(setup_for(1.0, Cavitation::kReynolds), film);
  const double scale =
      force_scale(kBearing.viscosity, kBearing.journal_radius, kBearing.length, kBearing.clearance);
  // Within the stated pointwise interpolation error (≤ 0.4 %).
  EXPECT_NEAR(table.force.x(), scale * direct.radial, 4e-3 * scale * magnitude(direct));
  EXPECT_NEAR(table.force.y(), scale * direct.tangential, 4e-3 * scale * magnitude(direct));
}

TEST(ReynoldsBearingTable, DerivativesMatchCentralDifferencesOfTheTable) {
  const FiniteBearingTable& table = reynolds_table();
  std::mt19937 rng(4242);
  std::uniform_real_distribution<double> eps_dist(0.02, 0.94);
  std::uniform_real_distribution<double> rate_dist(-40.0, 40.0);     // ε̇ [1/s]
  std::uniform_real_distribution<double> omega_dist(-500.0, 500.0);  // ω̄ [rad/s]
  for (int trial = 0; trial < 200; ++trial) {
    const FilmState film{eps_dist(rng), rate_dist(rng), omega_dist(rng)};
    const BearingForce at = table.evaluate(film, kBearing);
    const double steps[3] = {1e-6, 1e-6 * 40.0, 1e-6 * 500.0};
    for (int c = 0; c < 3; ++c) {
      FilmState plus = film, minus = film;
      double* p_var[3] = {&plus.eccentricity, &plus.eccentricity_rate, &plus.wedge_speed};
      double* m_var[3] = {&minus.eccentricity, &minus.eccentricity_rate, &minus.wedge_speed};
      *p_var[c] += steps[c];
      *m_var[c] -= steps[c];
      const Eigen::Vector2d numeric =
          (table.evaluate(plus, kBearing).force - table.evaluate(minus, kBearing).force) /
          (2.0 * steps[c]);
      // Central differences of a C¹ piecewise cubic: O(h²) inside a cell, O(h) across a cell
      // edge, plus round-off ~1e-16‖F‖/h; 1e-5 of the column's size covers both.
      const double size = at.jacobian.col(c).norm() + 1e-9 * at.force.norm() / steps[c];
      EXPECT_LT((at.jacobian.col(c) - numeric).norm(), 1e-5 * size)
          << "trial " << trial << " column " << c;
    }
  }
}

TEST(ReynoldsBearingTable, IsFiniteAtTheCentreAndWithoutMotion) {
  const FiniteBearingTable& table = reynolds_table();
  for (const FilmState film : {FilmState{0.0, 0.0, 0.0}, FilmState{0.0, 0.0, 300.0},
                               FilmState{0.0, 0.0, -300.0}, FilmState{0.6, 0.0, 0.0}}) {
    const BearingForce f = table.evaluate(film, kBearing);
    EXPECT_EQ(f.force.norm(), 0.0);
    EXPECT_TRUE(f.jacobian.allFinite());
  }
  // Leaving the centre with ε̇ = 0: the ε-derivative at ε = 0 is the exact one-sided one.
  for (double omega : {300.0, -300.0}) {
    const double h = 1e-7;
    const BearingForce at = table.evaluate({0.0, 0.0, omega}, kBearing);
    const Eigen::Vector2d one_sided = table.evaluate({h, 0.0, omega}, kBearing).force / h;
    EXPECT_LT((at.jacobian.col(0) - one_sided).norm(), 1e-5 * one_sided.norm()) << omega;
  }
  // Beyond ε_max the force is held at ε_max and does not change with ε.
  const double eps_max = table.options().max_eccentricity;
  const BearingForce edge = table.evaluate({eps_max, 1.0, 100.0}, kBearing);
  const BearingForce beyond = table.evaluate({eps_max + 0.03, 1.0, 100.0}, kBearing);
  EXPECT_EQ((edge.force - beyond.force).norm(), 0.0);
  EXPECT_EQ(beyond.jacobian.col(0).norm(), 0.0);
  EXPECT_TRUE(beyond.jacobian.allFinite());
}

TEST(ReynoldsBearingTable, RejectsBearingOfAnotherLengthRatio) {
  BearingParameters other = kBearing;
  other.length = 0.03;
  EXPECT_THROW(reynolds_table().evaluate({0.5, 0.0, 100.0}, other), std::invalid_argument);
}

}  // namespace
}  // namespace cs::lubrication
