// Finite-length journal bearing from a numerical solution of Reynolds' equation
// (reference.md §5.2, §5.3, §5.5), and a table of its forces with exact tangents for use inside
// time integration.
//
// Geometry and signs (reference.md §5.2). e = r_J − r_B is the journal centre relative to the
// bearing centre, ε = ‖e‖/c, n = e/‖e‖ the line of centres, t = k × n. The film is thinnest in
// direction n. θ is measured from −n (the THICKEST film) towards t, i.e. positive about k:
//   H = h/c = 1 + ε cos θ,   the point at θ has outward journal normal −cos θ n − sin θ t.
// Forces are those of the film on the JOURNAL, F = F_r n + F_t t (the bearing body receives −F):
// a journal approaching the wall (ε̇ > 0) gets F_r < 0; a wedge ω̄ > 0 gives F_t > 0.
//
// Reynolds' equation in the frame turning with the line of centres (z axial, x = Rθ):
//   ∂x(h³∂x p) + ∂z(h³∂z p) = 6μ R ω̄ ∂x h + 12μ ∂t h,  ∂t h = c ε̇ cos θ,
//   ω̄ = ω_J + ω_B − 2γ̇ [rad/s] (absolute angular velocities, §5.2), ε̇ [1/s].
// With Z = z/L ∈ [−½, ½], κ = (R/L)² and p = (μR²/c²) Π:
//   ∂θ(H³∂θΠ) + κ ∂Z(H³∂ZΠ) = 6 (−a sin θ + b cos θ),   a = ε ω̄,  b = 2 ε̇.
// So Π is linear in (a, b) without cavitation and positively homogeneous of degree 1 in (a, b)
// with any of the cavitation conditions (a complementarity problem scales with its data).
// Force on the journal:
//   F = (μ L R³/c²) F̄,  F̄_r = ∫∫ Π cos θ dθ dZ,  F̄_t = ∫∫ Π sin θ dθ dZ   (F̄ in 1/s).
// The scale μ L R³/c² is the long-bearing one: F̄ tends to the §5.2 infinitely-long values as
// L/D → ∞ and behaves like (L/D)²·(short-bearing values of §5.3) as L/D → 0.
//
// Discretization (solve_reynolds). Conservative 5-point finite volumes, n_theta nodes round the
// circumference (periodic) and n_axial nodes on the half length 0 ≤ Z < ½ (the solution is
// symmetric in Z, so only Z ≥ 0 is solved, with a zero-flux half cell at Z = 0 and Π = 0 at
// Z = ½). H³ is taken at the half nodes θ_{i±½} in θ; the wedge term is integrated exactly over
// each cell (H_{i−½} − H_{i+½}). The matrix is a symmetric M-matrix, factorized by
// Eigen::SimplicialLDLT (pattern analysed once per workspace). Cavitation:
//   kSommerfeld     full 2π film, Π of either sign (linear solve);
//   kHalfSommerfeld the Sommerfeld field with Π < 0 clipped to 0 after solving;
//   kReynolds       Swift–Stieber: Π ≥ 0, A Π − r ≥ 0, Π (A Π − r) = 0, the discrete linear
//                   complementarity problem that Christopherson's projected SOR converges to,
//                   solved exactly by a primal–dual active-set loop on top of the LDLᵀ solve
//                   (finite and monotone for M-matrices, Hintermüller–Ito–Kunisch 2003).
// Forces are integrated with the cell areas (periodic rectangle rule in θ, trapezoid in Z).
// Discretization error of the default grid (96 × 16 on the half length, 1536 unknowns): doubling
// it in both directions changes the load by ≤ 0.37 % (Reynolds, L/D = 1, ε ≤ 0.9; ≈ 0.1 % at
// ε ≤ 0.6), so ≈ 0.5 % against the converged solution (second order, axial error dominant).
// Validation (tests/unit/lubrication): S and φ of reference.md §5.5 (Reynolds, 240 × 40) within
// 0.1 % and 0.06°; the exact ε = 0 finite-length solution within 0.14 %; the long (§5.2) and
// short (§5.3) limits.
//
// Table (FiniteBearingTable). With ρ = ‖(a, b)‖ = ‖(ε ω̄, 2 ε̇)‖ [1/s] and ψ = atan2(b, a):
//   F_k = (μ L R³/c²) ρ f_k(ε, ψ),   k ∈ {r, t}   (ψ = 0: pure wedge, ψ = π/2: pure approach),
// and f_k is tabulated on nodes uniform in u = artanh(ε) ∈ [0, artanh(ε_max)] (dense near
// ε_max, where the forces grow like (1 − ε²)^(−1/2 … −5/2)) and uniform periodic in ψ ∈ [0, 2π),
// as g_k = (1 − ε²)² f_k, which stays of order one up to ε → 1. The side flow per unit ρ,
// Q_s = R c L ρ q_s(ε, ψ) (film_flows), is tabulated the same way, unweighted (it stays bounded).
// g_k is interpolated by bicubic Hermite patches whose node slopes come from cubic splines
// (not-a-knot in u, periodic in ψ): the interpolant is C¹ and the returned partial derivatives are
// its exact derivatives. Out of range: ε is clamped to [0, ε_max] (the caller caps ε, e.g. by
// reference.md §5.4): the force is held at its ε_max value and ∂F/∂ε = 0 beyond. At ρ = 0 (no wedge
// and no squeeze, or ε = 0 with ε̇ = 0) the force is exactly zero and its derivatives are those of
// the direction ψ = 0 (ω̄ ≥ 0) or ψ = π (ω̄ < 0): the exact one-sided derivatives of a journal
// leaving the centre with ε̇ = 0. With cavitation the force is positively homogeneous, not
// differentiable, in (ω̄, ε̇) at ρ = 0. Nothing returns NaN. Interpolation error of the default table
// (33 × 48 nodes, ε_max = 0.95), against direct solves on the same grid at every cell centre, as
// ‖ΔF‖ over the largest ‖F‖ at that ε:
//   Sommerfeld 1.1e-5, half-Sommerfeld 4.3e-4, Reynolds 2.8e-4 at L/D = 1 (≤ 4.2e-4 at L/D =
//   0.25 and 2);
// pointwise ‖ΔF‖/‖F‖ where ‖F‖ is at least 10 % of that scale: 1.1e-5, 4.0e-3, 1.9e-3 (≤ 3.8e-3
// at L/D = 0.25 and 2). Where the load is only 1–10 % of the scale (near-pure wedge at ε > 0.9,
// dwarfed by squeeze): up to 1.3 % half-Sommerfeld, 0.3 % Reynolds. With cavitation the error
// does not shrink with more nodes: it is the direct solver's own jitter as the film boundary
// crosses grid nodes, inside its 0.5 % discretization error.
//
// Costs (bench/reynolds_bearing_bench.cpp, CPU time per call on the 2-core development machine,
// Release, default grid and table):
//   solve, Reynolds, cold (≈ 14 active-set passes)                   3.3 ms
//   solve, Reynolds, warm-started from a state one time step away     0.28 ms (1–2 passes)
//   solve, Sommerfeld or half-Sommerfeld (one LDLᵀ factorization)     0.28 ms
//   table build: Sommerfeld / half-Sommerfeld 0.06 s, Reynolds 1.5 s (≈ 5 passes per node)
//   table evaluation, force and its 2 × 3 Jacobian                    80 ns
#pragma once

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace cs::lubrication {

enum class Cavitation {
  kSommerfeld,      // no cavitation: full 2π film, negative pressures kept
  kHalfSommerfeld,  // negative pressures clipped to zero after solving
  kReynolds,        // Swift–Stieber: p ≥ 0 and ∂p/∂n = 0 at rupture (complementarity)
};

// Finite-volume grid of the dimensionless problem.
struct ReynoldsGrid {
  int n_theta = 96;  // nodes round the circumference, θ_i = 2π i / n_theta (≥ 8)
  int n_axial = 16;  // nodes on the half length, Z_j = j / (2 n_axial), j < n_axial (≥ 2)
};

struct ReynoldsSetup {
  double length_over_diameter = 1.0;  // L/D = L/(2R) [-]
  Cavitation cavitation = Cavitation::kReynolds;
  ReynoldsGrid grid{};
  // Π = 0 on the line θ = 0 (the thickest film), as if oil were fed there at ambient pressure
  // through an axial groove: Raimondi & Boyd's full bearing, whose film starts at the thickest
  // point. Without it (the default, and the table's) the Swift–Stieber film may reach upstream
  // of θ = 0 (at L/D = 1, ε = 0.8 it holds Π(0) ≈ 0.03 of its peak).
  bool feed_at_thickest = false;
};

// Kinematics of the film (reference.md §5.2).
struct FilmState {
  double eccentricity = 0.0;       // ε = ‖e‖/c [-], in [0, 1)
  double eccentricity_rate = 0.0;  // ε̇ [1/s], > 0 when the journal approaches the wall
  double wedge_speed = 0.0;        // ω̄ = ω_J + ω_B − 2γ̇ [rad/s]
};

// Dimensionless force on the journal, F = (μ L R³/c²) F̄; F̄ has the unit of ω̄ and ε̇ [1/s].
struct ReducedForce {
  double radial = 0.0;      // F̄_r, along n
  double tangential = 0.0;  // F̄_t, along t = k × n
};

// Π = p c²/(μ R²) [1/s] at θ_i = 2π i/n_theta (rows) and Z_j = j/(2 n_axial), j = 0 … n_axial
// (columns; the last column is the bearing end, Π = 0). The field is symmetric: Π(θ, −Z) =
// Π(θ, Z).
struct PressureField {
  Eigen::MatrixXd values;
};

// μ L R³/c² [N·s]: the force scale of ReducedForce. μ [Pa·s], R, L, c [m].
double force_scale(double viscosity, double journal_radius, double length, double clearance);

// Reusable state of solve_reynolds: the analysed sparsity pattern, the last factorization (a
// Sommerfeld or half-Sommerfeld solve at the same ε, L/D and grid only back-substitutes) and the
// last pressure field, whose cavitated nodes (Π ≤ 0) are the first active set of the next
// Reynolds solve: a warm start. A workspace may be reused across ε, L/D and grids (it re-analyses
// when the grid changes). Not thread-safe: one workspace per thread.
class ReynoldsWorkspace {
 public:
  ReynoldsWorkspace();
  ~ReynoldsWorkspace();
  ReynoldsWorkspace(ReynoldsWorkspace&&) noexcept;
  ReynoldsWorkspace& operator=(ReynoldsWorkspace&&) noexcept;
  ReynoldsWorkspace(const ReynoldsWorkspace&) = delete;
  ReynoldsWorkspace& operator=(const ReynoldsWorkspace&) = delete;

  // Warm start the next solve from this field (same grid), e.g. one saved at the previous step.
  void warm_start(const PressureField& field);
  // Forget the last field: the next Reynolds solve starts from the unconstrained solution.
  void cold_start();
  // Active-set iterations (each one an LDLᵀ factorization and solve) of the last Reynolds solve.
  int last_active_set_iterations() const;

  struct Impl;  // implementation detail (reynolds_bearing.cpp)

 private:
  std::unique_ptr<Impl> impl_;
  friend Impl& workspace_impl(ReynoldsWorkspace& w);
};

// Solves the dimensionless finite bearing for the film state and returns F̄ on the journal.
// `workspace` (optional) carries factorizations and the warm start between calls; `pressure`
// (optional) receives Π. Throws std::invalid_argument for ε ∉ [0, 1), L/D ≤ 0 or a grid below
// its minimum, std::runtime_error if the active-set loop does not finish in 200 iterations
// (finite in exact arithmetic for M-matrices, but it cycles for long bearings: on the default
// grid and table L/D = 400 builds, 600 does not; FiniteBearingTable then names L/D, ε and ψ).
ReducedForce solve_reynolds(const ReynoldsSetup& setup, const FilmState& film,
                            ReynoldsWorkspace* workspace = nullptr,
                            PressureField* pressure = nullptr);

// Same problem for the forcing (a, b) = (ε ω̄, 2 ε̇) = (cos ψ, sin ψ): returns f(ε, ψ), the
// force per unit ρ tabulated by FiniteBearingTable. Unlike solve_reynolds it is defined at ε = 0
// with a ≠ 0 (the limit of ε ω̄ = a as ε → 0).
ReducedForce solve_reynolds_direction(const ReynoldsSetup& setup, double eccentricity,
                                      double direction, ReynoldsWorkspace* workspace = nullptr,
                                      PressureField* pressure = nullptr);

// Flows of a solved field in units of R c L, Q = R c L q̄ [m³/s]:
//   inlet  q̄ = ∫[ω̄H/2 − H³∂θΠ/12] dZ at θ = 0 (the thickest film), positive in +θ (the flow into
//          the converging film of Raimondi & Boyd's flow variable Q/(RcNL) = 2π q̄/ω̄);
//   side   q̄_s = −(κ/6) ∫H³ ∂ZΠ|_{Z=½} dθ, the net flow out of both ends (κ = (R/L)²).
// ∂θΠ at θ = 0⁺ and ∂ZΠ at the end by second-order one-sided differences (into the film: for
// ω̄ > 0 the cavitated film starts at θ = 0 with a kink in Π).
struct ReducedFlow {
  double inlet = 0.0;  // [1/s]
  double side = 0.0;   // [1/s]
};
ReducedFlow film_flows(const ReynoldsSetup& setup, const FilmState& film,
                       const PressureField& pressure);

struct FiniteBearingTableOptions {
  double length_over_diameter = 1.0;  // L/D [-]
  Cavitation cavitation = Cavitation::kReynolds;
  ReynoldsGrid grid{};
  int n_eccentricity = 33;         // nodes in u = artanh(ε), from ε = 0 to ε_max (≥ 4)
  int n_direction = 48;            // nodes in ψ over [0, 2π) (≥ 8)
  double max_eccentricity = 0.95;  // ε_max, in (0, 0.995]
};

// Dimensional bearing data.
struct BearingParameters {
  double viscosity = 0.0;       // μ [Pa·s]
  double journal_radius = 0.0;  // R [m]
  double length = 0.0;          // L [m]; must match the table's L/D: L = 2R·(L/D)
  double clearance = 0.0;       // radial clearance c [m]
};

struct BearingForce {
  Eigen::Vector2d force = Eigen::Vector2d::Zero();  // (F_r, F_t) on the journal [N]
  double side_flow = 0.0;  // net flow out of both ends, R c L ρ q̄_s(ε, ψ) [m³/s] (no tangents)
  // ∂(F_r, F_t)/∂(ε, ε̇, ω̄) of the interpolant: columns [N], [N·s], [N·s/rad].
  Eigen::Matrix<double, 2, 3> jacobian = Eigen::Matrix<double, 2, 3>::Zero();
};

// Pre-tabulated finite bearing (see the header comment). Building it solves
// n_eccentricity × n_direction problems (see the measured build time above); evaluate() is a
// bicubic lookup, const and thread-safe.
class FiniteBearingTable {
 public:
  explicit FiniteBearingTable(const FiniteBearingTableOptions& options = {});

  // Dimensional force on the journal and its tangents. Throws std::invalid_argument when the
  // bearing's L/(2R) differs from the table's L/D by more than 1e-9 relative.
  BearingForce evaluate(const FilmState& film, const BearingParameters& bearing) const;
  // The interpolated f(ε, ψ) of solve_reynolds_direction (ε clamped to [0, ε_max]).
  ReducedForce direction_force(double eccentricity, double direction) const;

  const FiniteBearingTableOptions& options() const { return options_; }
  double build_seconds() const { return build_seconds_; }

 private:
  struct Lookup;  // interpolated f, ∂f/∂ε, ∂f/∂ψ at one point
  Lookup lookup(double eccentricity, double direction) const;

  FiniteBearingTableOptions options_;
  double u_max_ = 0.0;  // artanh(ε_max)
  double du_ = 0.0;     // node spacing in u
  double dpsi_ = 0.0;   // node spacing in ψ
  // Per component k (0 = radial, 1 = tangential force, 2 = side flow), node (iu, ipsi) at index
  // iu·n_direction + ipsi: g, ∂g/∂u, ∂g/∂ψ, ∂²g/∂u∂ψ.
  static constexpr int kComponents = 3;
  std::vector<double> g_[kComponents], g_u_[kComponents], g_psi_[kComponents], g_upsi_[kComponents];
  double build_seconds_ = 0.0;
};

}  // namespace cs::lubrication
