#include "clearsim/elements/lubrication/reynolds_bearing.hpp"

#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace cs::lubrication {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kMaxActiveSetIterations = 200;

using SparseMatrix = Eigen::SparseMatrix<double>;

// Node layout of the half-length grid: unknown k = i·n_axial + j for θ_i, Z_j (Z contiguous).
struct GridGeometry {
  int n_theta = 0;
  int n_axial = 0;
  double dtheta = 0.0;  // Δθ [rad]
  double dz = 0.0;      // ΔZ [-]

  explicit GridGeometry(const ReynoldsGrid& grid)
      : n_theta(grid.n_theta),
        n_axial(grid.n_axial),
        dtheta(kTwoPi / grid.n_theta),
        dz(0.5 / grid.n_axial) {}
  int size() const { return n_theta * n_axial; }
  int index(int i, int j) const { return i * n_axial + j; }
  double theta(double i) const { return i * dtheta; }
  // Axial width of the control volume of Z_j: the cell at Z = 0 is a half cell (symmetry plane).
  double cell_width(int j) const { return j == 0 ? 0.5 * dz : dz; }
};

void validate_setup(const ReynoldsSetup& setup) {
  if (!(setup.length_over_diameter > 0.0) || !std::isfinite(setup.length_over_diameter)) {
    throw std::invalid_argument("solve_reynolds: L/D must be positive and finite");
  }
  if (setup.grid.n_theta < 8 || setup.grid.n_axial < 2) {
    throw std::invalid_argument("solve_reynolds: grid needs n_theta >= 8 and n_axial >= 2");
  }
}

void validate_eccentricity(double eccentricity) {
  if (!(eccentricity >= 0.0 && eccentricity < 1.0)) {
    throw std::invalid_argument("solve_reynolds: eccentricity must be in [0, 1), got " +
                                std::to_string(eccentricity));
  }
}

double film_thickness(double eccentricity, double theta) {
  return 1.0 + eccentricity * std::cos(theta);
}

// The symmetric M-matrix of −∂θ(H³∂θ·) − κ∂Z(H³∂Z·), each row multiplied by its cell area.
// Every row holds the same five entries whatever ε is, so the sparsity pattern depends on the
// grid only.
SparseMatrix assemble_film_matrix(const GridGeometry& g, double eccentricity,
                                  double length_over_diameter) {
  const double radius_over_length = 0.5 / length_over_diameter;
  const double kappa = radius_over_length * radius_over_length;
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(5 * g.size()));
  for (int i = 0; i < g.n_theta; ++i) {
    const int i_next = (i + 1) % g.n_theta;
    const int i_prev = (i + g.n_theta - 1) % g.n_theta;
    const double h_next = film_thickness(eccentricity, g.theta(i + 0.5));
    const double h_prev = film_thickness(eccentricity, g.theta(i - 0.5));
    const double h_node = film_thickness(eccentricity, g.theta(i));
    const double k_next = h_next * h_next * h_next;
    const double k_prev = h_prev * h_prev * h_prev;
    const double axial = kappa * g.dtheta * h_node * h_node * h_node / g.dz;
    for (int j = 0; j < g.n_axial; ++j) {
      const int k = g.index(i, j);
      const double circumferential = g.cell_width(j) / g.dtheta;
      double diagonal = circumferential * (k_next + k_prev) + axial;  // face j+½ (or the end)
      entries.emplace_back(k, g.index(i_next, j), -circumferential * k_next);
      entries.emplace_back(k, g.index(i_prev, j), -circumferential * k_prev);
      if (j + 1 < g.n_axial) entries.emplace_back(k, g.index(i, j + 1), -axial);
      if (j > 0) {
        entries.emplace_back(k, g.index(i, j - 1), -axial);
        diagonal += axial;
      }
      entries.emplace_back(k, k, diagonal);
    }
  }
  SparseMatrix a(g.size(), g.size());
  a.setFromTriplets(entries.begin(), entries.end());
  a.makeCompressed();
  return a;
}

// Right-hand side of A Π = r for the forcing 6(−a sin θ + b cos θ), cell-integrated and
// negated. The wedge part is integrated exactly: 6ω̄(H_{i−½} − H_{i+½}) = 12 a sin θ_i sin(Δθ/2).
Eigen::VectorXd assemble_forcing(const GridGeometry& g, double wedge, double squeeze) {
  Eigen::VectorXd r(g.size());
  const double wedge_weight = 12.0 * std::sin(0.5 * g.dtheta);
  for (int i = 0; i < g.n_theta; ++i) {
    const double theta = g.theta(i);
    const double per_width =
        wedge_weight * wedge * std::sin(theta) - 6.0 * squeeze * std::cos(theta) * g.dtheta;
    for (int j = 0; j < g.n_axial; ++j) r[g.index(i, j)] = per_width * g.cell_width(j);
  }
  return r;
}

// F̄ = ∫∫ Π (cos θ, sin θ) dθ dZ over the whole length (twice the half-length sum).
ReducedForce integrate_force(const GridGeometry& g, const Eigen::VectorXd& pressure) {
  ReducedForce f;
  for (int i = 0; i < g.n_theta; ++i) {
    double column = 0.0;
    for (int j = 0; j < g.n_axial; ++j) column += pressure[g.index(i, j)] * g.cell_width(j);
    f.radial += column * std::cos(g.theta(i));
    f.tangential += column * std::sin(g.theta(i));
  }
  f.radial *= 2.0 * g.dtheta;
  f.tangential *= 2.0 * g.dtheta;
  return f;
}

PressureField to_field(const GridGeometry& g, const Eigen::VectorXd& pressure) {
  PressureField field;
  field.values = Eigen::MatrixXd::Zero(g.n_theta, g.n_axial + 1);
  for (int i = 0; i < g.n_theta; ++i) {
    for (int j = 0; j < g.n_axial; ++j) field.values(i, j) = pressure[g.index(i, j)];
  }
  return field;
}

// q̄_s = −(κ/6) ∫H³ ∂ZΠ dθ at Z = ½ (both ends), with Π = 0 at the end node.
double side_flow_of(const GridGeometry& g, double eccentricity, double length_over_diameter,
                    const Eigen::VectorXd& pressure) {
  const double kappa = 0.25 / (length_over_diameter * length_over_diameter);
  const int last = g.n_axial - 1;
  double sum = 0.0;
  for (int i = 0; i < g.n_theta; ++i) {
    const double h = film_thickness(eccentricity, g.theta(i));
    const double dp_dz =
        (-4.0 * pressure[g.index(i, last)] + pressure[g.index(i, last - 1)]) / (2.0 * g.dz);
    sum += h * h * h * dp_dz;
  }
  return -kappa / 6.0 * sum * g.dtheta;
}

}  // namespace

// Matrix, factorization and warm-start caches. `active` marks nodes held at Π = 0.
struct ReynoldsWorkspace::Impl {
  int n_theta = -1;
  int n_axial = -1;
  double eccentricity = std::numeric_limits<double>::quiet_NaN();
  double length_over_diameter = std::numeric_limits<double>::quiet_NaN();
  SparseMatrix matrix;  // A for the current (ε, L/D)
  SparseMatrix masked;  // A with the rows and columns of active nodes replaced by their diagonal
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt;
  bool factorized = false;
  std::vector<char> factorized_active;
  Eigen::VectorXd last_pressure;  // empty: cold start
  int last_iterations = 0;

  // Re-analyses the pattern when the grid changes.
  void prepare_grid(const GridGeometry& g, double eps, double ld) {
    if (g.n_theta == n_theta && g.n_axial == n_axial) return;
    n_theta = g.n_theta;
    n_axial = g.n_axial;
    matrix = assemble_film_matrix(g, eps, ld);
    eccentricity = eps;
    length_over_diameter = ld;
    masked = matrix;
    ldlt.analyzePattern(matrix);
    factorized = false;
    // last_pressure stays: a field given to warm_start() before the first solve is on this grid,
    // and one of another size is ignored by solve_complementarity.
  }

  // Refills the matrix values when ε or L/D changes (same pattern).
  void prepare_matrix(const GridGeometry& g, double eps, double ld) {
    if (eps == eccentricity && ld == length_over_diameter) return;
    matrix = assemble_film_matrix(g, eps, ld);
    eccentricity = eps;
    length_over_diameter = ld;
    factorized = false;
  }

  // Factorizes A restricted to the inactive nodes (active rows and columns become diagonal, so
  // the pattern, and its analysis, never changes).
  void factorize(const std::vector<char>& active) {
    if (factorized && active == factorized_active) return;
    for (int col = 0; col < matrix.outerSize(); ++col) {
      SparseMatrix::InnerIterator source(matrix, col);
      for (SparseMatrix::InnerIterator it(masked, col); it; ++it, ++source) {
        const bool held = active[static_cast<std::size_t>(it.row())] != 0 ||
                          active[static_cast<std::size_t>(col)] != 0;
        it.valueRef() = held && it.row() != col ? 0.0 : source.value();
      }
    }
    ldlt.factorize(masked);
    if (ldlt.info() != Eigen::Success) {
      throw std::runtime_error("solve_reynolds: LDLT factorization failed");
    }
    factorized_active = active;
    factorized = true;
  }

  // Π with Π_k = 0 on active nodes and (A Π)_k = r_k elsewhere.
  Eigen::VectorXd solve(const std::vector<char>& active, Eigen::VectorXd rhs) {
    factorize(active);
    for (Eigen::Index k = 0; k < rhs.size(); ++k) {
      if (active[static_cast<std::size_t>(k)] != 0) rhs[k] = 0.0;
    }
    return ldlt.solve(rhs);
  }

  // Swift–Stieber by primal–dual active sets: Π ≥ 0, λ = AΠ − r ≥ 0, Πλ = 0. A node is held at
  // zero while its multiplier λ is positive and released otherwise; a free node is held when Π
  // goes negative. Round-off-sized values (τ) do not switch a node, which keeps the loop from
  // cycling between equivalent borderline sets.
  // `pinned` nodes are held at zero throughout (the feed line).
  Eigen::VectorXd solve_complementarity(const Eigen::VectorXd& rhs,
                                        const std::vector<char>& pinned) {
    const std::size_t n = static_cast<std::size_t>(rhs.size());
    std::vector<char> active = pinned;
    if (static_cast<std::size_t>(last_pressure.size()) == n) {
      for (std::size_t k = 0; k < n; ++k)
        active[k] = char(pinned[k] != 0 || last_pressure[Eigen::Index(k)] <= 0.0);
    }
    const double rhs_scale = rhs.cwiseAbs().maxCoeff();
    for (int iteration = 1; iteration <= kMaxActiveSetIterations; ++iteration) {
      Eigen::VectorXd pressure = solve(active, rhs);
      const Eigen::VectorXd multiplier = matrix * pressure - rhs;
      const double p_tol = 1e-12 * pressure.cwiseAbs().maxCoeff();
      const double m_tol = 1e-12 * rhs_scale;
      bool changed = false;
      for (std::size_t k = 0; k < n; ++k) {
        const Eigen::Index e = Eigen::Index(k);
        const char next = pinned[k] != 0   ? char(1)
                          : active[k] != 0 ? char(multiplier[e] > -m_tol)
                                           : char(pressure[e] < -p_tol);
        changed = changed || next != active[k];
        active[k] = next;
      }
      if (!changed) {
        last_iterations = iteration;
        return pressure.cwiseMax(0.0);
      }
    }
    throw std::runtime_error(
        "solve_reynolds: the cavitation boundary (Swift–Stieber active set) "
        "did not settle in " +
        std::to_string(kMaxActiveSetIterations) + " passes");
  }
};

ReynoldsWorkspace::Impl& workspace_impl(ReynoldsWorkspace& w) { return *w.impl_; }

ReynoldsWorkspace::ReynoldsWorkspace() : impl_(std::make_unique<Impl>()) {}
ReynoldsWorkspace::~ReynoldsWorkspace() = default;
ReynoldsWorkspace::ReynoldsWorkspace(ReynoldsWorkspace&&) noexcept = default;
ReynoldsWorkspace& ReynoldsWorkspace::operator=(ReynoldsWorkspace&&) noexcept = default;

void ReynoldsWorkspace::warm_start(const PressureField& field) {
  const Eigen::Index n_theta = field.values.rows();
  const Eigen::Index n_axial = field.values.cols() - 1;
  impl_->last_pressure.resize(n_theta * n_axial);
  for (Eigen::Index i = 0; i < n_theta; ++i) {
    for (Eigen::Index j = 0; j < n_axial; ++j) {
      impl_->last_pressure[i * n_axial + j] = field.values(i, j);
    }
  }
}

void ReynoldsWorkspace::cold_start() { impl_->last_pressure.resize(0); }

int ReynoldsWorkspace::last_active_set_iterations() const { return impl_->last_iterations; }

double force_scale(double viscosity, double journal_radius, double length, double clearance) {
  return viscosity * length * journal_radius * journal_radius * journal_radius /
         (clearance * clearance);
}

namespace {

// Solves for the forcing (a, b) = (ε ω̄, 2 ε̇) at eccentricity ε.
ReducedForce solve_forcing(const ReynoldsSetup& setup, double eccentricity, double wedge,
                           double squeeze, ReynoldsWorkspace* workspace, PressureField* pressure) {
  validate_setup(setup);
  validate_eccentricity(eccentricity);
  ReynoldsWorkspace local;
  ReynoldsWorkspace::Impl& ws = workspace_impl(workspace != nullptr ? *workspace : local);
  const GridGeometry g(setup.grid);
  ws.prepare_grid(g, eccentricity, setup.length_over_diameter);
  ws.prepare_matrix(g, eccentricity, setup.length_over_diameter);
  const Eigen::VectorXd rhs = assemble_forcing(g, wedge, squeeze);

  std::vector<char> pinned(static_cast<std::size_t>(g.size()), 0);
  if (setup.feed_at_thickest) {
    for (int j = 0; j < g.n_axial; ++j) pinned[static_cast<std::size_t>(g.index(0, j))] = 1;
  }
  Eigen::VectorXd p;
  if (setup.cavitation == Cavitation::kReynolds) {
    p = ws.solve_complementarity(rhs, pinned);
  } else {
    p = ws.solve(pinned, rhs);
    ws.last_iterations = 1;
    if (setup.cavitation == Cavitation::kHalfSommerfeld) p = p.cwiseMax(0.0);
  }
  ws.last_pressure = p;
  if (pressure != nullptr) *pressure = to_field(g, p);
  return integrate_force(g, p);
}

}  // namespace

ReducedForce solve_reynolds(const ReynoldsSetup& setup, const FilmState& film,
                            ReynoldsWorkspace* workspace, PressureField* pressure) {
  return solve_forcing(setup, film.eccentricity, film.eccentricity * film.wedge_speed,
                       2.0 * film.eccentricity_rate, workspace, pressure);
}

ReducedForce solve_reynolds_direction(const ReynoldsSetup& setup, double eccentricity,
                                      double direction, ReynoldsWorkspace* workspace,
                                      PressureField* pressure) {
  return solve_forcing(setup, eccentricity, std::cos(direction), std::sin(direction), workspace,
                       pressure);
}

ReducedFlow film_flows(const ReynoldsSetup& setup, const FilmState& film,
                       const PressureField& pressure) {
  validate_setup(setup);
  const GridGeometry g(setup.grid);
  const Eigen::MatrixXd& P = pressure.values;
  if (P.rows() != g.n_theta || P.cols() != g.n_axial + 1)
    throw std::invalid_argument("film_flows: the pressure field is not on the setup's grid");
  const double eps = film.eccentricity, h0 = film_thickness(eps, 0.0);
  // ∫∂θΠ dZ over the half length (trapezoid, Π = 0 at the end), ∂θΠ at θ = 0⁺ by the
  // second-order difference into +θ: with cavitation the film starts at θ = 0 and Π has a kink
  // there, which a central difference would halve.
  double poiseuille = 0.0;
  for (int j = 0; j < g.n_axial; ++j)
    poiseuille += g.cell_width(j) * (-3.0 * P(0, j) + 4.0 * P(1, j) - P(2, j)) / (2.0 * g.dtheta);
  Eigen::VectorXd field(g.size());
  for (int i = 0; i < g.n_theta; ++i) {
    for (int j = 0; j < g.n_axial; ++j) field[g.index(i, j)] = P(i, j);
  }
  ReducedFlow q;
  q.inlet = 0.5 * film.wedge_speed * h0 - h0 * h0 * h0 / 12.0 * 2.0 * poiseuille;
  q.side = side_flow_of(g, eps, setup.length_over_diameter, field);
  return q;
}

// ---------------------------------------------------------------------------------------------
// FiniteBearingTable

namespace {

// Tabulated g = w(ε) f with w = (1 − ε²)²: bounded up to ε → 1 (f grows like (1 − ε²)^(−5/2) at
// most, in the short-bearing squeeze limit).
double table_weight(double eccentricity) {
  const double s = 1.0 - eccentricity * eccentricity;
  return s * s;
}

// Slopes of the cubic spline through equally spaced values y (one column per curve), not-a-knot
// at both ends: the third derivative is continuous at the second and the last-but-one node.
Eigen::MatrixXd not_a_knot_slopes(const Eigen::MatrixXd& y, double h) {
  const Eigen::Index n = y.rows();
  Eigen::MatrixXd system = Eigen::MatrixXd::Zero(n, n);
  Eigen::MatrixXd rhs(n, y.cols());
  system(0, 0) = 1.0;
  system(0, 2) = -1.0;
  rhs.row(0) = 2.0 * (2.0 * y.row(1) - y.row(0) - y.row(2)) / h;
  for (Eigen::Index i = 1; i + 1 < n; ++i) {
    system(i, i - 1) = 1.0;
    system(i, i) = 4.0;
    system(i, i + 1) = 1.0;
    rhs.row(i) = 3.0 * (y.row(i + 1) - y.row(i - 1)) / h;
  }
  system(n - 1, n - 1) = 1.0;
  system(n - 1, n - 3) = -1.0;
  rhs.row(n - 1) = -2.0 * (2.0 * y.row(n - 2) - y.row(n - 1) - y.row(n - 3)) / h;
  return system.partialPivLu().solve(rhs);
}

// Slopes of the periodic cubic spline through equally spaced values y (one column per curve).
Eigen::MatrixXd periodic_slopes(const Eigen::MatrixXd& y, double h) {
  const Eigen::Index n = y.rows();
  Eigen::MatrixXd system = Eigen::MatrixXd::Zero(n, n);
  Eigen::MatrixXd rhs(n, y.cols());
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index next = (i + 1) % n;
    const Eigen::Index prev = (i + n - 1) % n;
    system(i, prev) += 1.0;
    system(i, i) += 4.0;
    system(i, next) += 1.0;
    rhs.row(i) = 3.0 * (y.row(next) - y.row(prev)) / h;
  }
  return system.partialPivLu().solve(rhs);
}

// Cubic Hermite basis on a cell of width h at local coordinate t ∈ [0, 1]: weights of the
// left/right values and slopes, and their derivatives with respect to the physical coordinate.
struct HermiteBasis {
  double value[2];
  double slope[2];
  double d_value[2];
  double d_slope[2];
};

HermiteBasis hermite_basis(double t, double h) {
  const double t2 = t * t;
  const double t3 = t2 * t;
  HermiteBasis b{};
  b.value[0] = 2.0 * t3 - 3.0 * t2 + 1.0;
  b.value[1] = -2.0 * t3 + 3.0 * t2;
  b.slope[0] = h * (t3 - 2.0 * t2 + t);
  b.slope[1] = h * (t3 - t2);
  b.d_value[0] = (6.0 * t2 - 6.0 * t) / h;
  b.d_value[1] = (-6.0 * t2 + 6.0 * t) / h;
  b.d_slope[0] = 3.0 * t2 - 4.0 * t + 1.0;
  b.d_slope[1] = 3.0 * t2 - 2.0 * t;
  return b;
}

void check_table_options(const FiniteBearingTableOptions& o) {
  if (o.n_eccentricity < 4 || o.n_direction < 8) {
    throw std::invalid_argument("FiniteBearingTable: needs n_eccentricity >= 4, n_direction >= 8");
  }
  if (!(o.max_eccentricity > 0.0 && o.max_eccentricity <= 0.995)) {
    throw std::invalid_argument("FiniteBearingTable: max_eccentricity must be in (0, 0.995]");
  }
}

// Row-major copy (index iu·n_psi + ipsi) of an n_u × n_psi matrix.
std::vector<double> flatten(const Eigen::MatrixXd& m) {
  std::vector<double> v(static_cast<std::size_t>(m.size()));
  for (Eigen::Index iu = 0; iu < m.rows(); ++iu) {
    for (Eigen::Index ip = 0; ip < m.cols(); ++ip) v[std::size_t(iu * m.cols() + ip)] = m(iu, ip);
  }
  return v;
}

}  // namespace

struct FiniteBearingTable::Lookup {
  Eigen::Vector3d f;      // f(ε, ψ): F̄_r, F̄_t and q̄_s per unit ρ
  Eigen::Vector3d f_eps;  // ∂f/∂ε
  Eigen::Vector3d f_psi;  // ∂f/∂ψ
};

namespace {
// One node of the table; a failure says which bearing, where, and what to do instead. Issue 28:
// with Swift–Stieber cavitation the active set cycles for long bearings (default grid and
// table: L/D = 400 builds, 600 and 1000 do not; L/D from 2e-4 to 400 at ε_max = 0.95, 0.99 and
// 0.995 all build), where the finite film is the infinitely long bearing's anyway.
ReducedForce solve_node(const ReynoldsSetup& setup, double eps, double psi,
                        ReynoldsWorkspace& workspace) {
  try {
    return solve_reynolds_direction(setup, eps, psi, &workspace);
  } catch (const std::runtime_error& e) {
    std::string why = e.what();
    if (why.starts_with("solve_reynolds: ")) why.erase(0, 16);
    std::ostringstream os;
    os.precision(3);
    os << "finite bearing with L/D = " << setup.length_over_diameter
       << ": Reynolds' equation could not be solved at ε = " << eps
       << ", ψ = " << psi * 360.0 / kTwoPi << "° (0°: pure wedge, 90°: pure squeeze): " << why
       << ". Long bearings do this (seen from L/D ≈ 500 up), and their film is the infinitely "
          "long bearing's: use lubricant model: long, or cavitation: half_sommerfeld";
    throw std::runtime_error(os.str());
  }
}
}  // namespace

FiniteBearingTable::FiniteBearingTable(const FiniteBearingTableOptions& options)
    : options_(options) {
  check_table_options(options_);
  const auto start = std::chrono::steady_clock::now();
  const int n_u = options_.n_eccentricity;
  const int n_psi = options_.n_direction;
  u_max_ = std::atanh(options_.max_eccentricity);
  du_ = u_max_ / (n_u - 1);
  dpsi_ = kTwoPi / n_psi;

  ReynoldsSetup setup;
  setup.length_over_diameter = options_.length_over_diameter;
  setup.cavitation = options_.cavitation;
  setup.grid = options_.grid;
  ReynoldsWorkspace workspace;  // each solve is warm-started from the neighbouring direction
  Eigen::MatrixXd g[kComponents];
  for (auto& m : g) m.resize(n_u, n_psi);
  const GridGeometry grid(setup.grid);
  for (int iu = 0; iu < n_u; ++iu) {
    const double eps = std::tanh(iu * du_);
    const double weight = table_weight(eps);
    for (int ip = 0; ip < n_psi; ++ip) {
      const ReducedForce f = solve_node(setup, eps, ip * dpsi_, workspace);
      g[0](iu, ip) = weight * f.radial;
      g[1](iu, ip) = weight * f.tangential;
      g[2](iu, ip) = side_flow_of(grid, eps, setup.length_over_diameter,
                                  workspace_impl(workspace).last_pressure);
    }
  }
  for (int k = 0; k < kComponents; ++k) {
    const Eigen::MatrixXd g_psi = periodic_slopes(g[k].transpose(), dpsi_).transpose();
    g_[k] = flatten(g[k]);
    g_u_[k] = flatten(not_a_knot_slopes(g[k], du_));
    g_psi_[k] = flatten(g_psi);
    g_upsi_[k] = flatten(not_a_knot_slopes(g_psi, du_));
  }
  build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

FiniteBearingTable::Lookup FiniteBearingTable::lookup(double eccentricity, double direction) const {
  const int n_psi = options_.n_direction;
  const double eps = std::clamp(eccentricity, 0.0, options_.max_eccentricity);
  const double u = std::atanh(eps) / du_;
  const int iu = std::clamp(static_cast<int>(u), 0, options_.n_eccentricity - 2);
  const double su = std::clamp(u - iu, 0.0, 1.0);
  const double turns = direction / dpsi_;
  const double cell = std::floor(turns);
  const int ip0 = static_cast<int>(((static_cast<long long>(cell) % n_psi) + n_psi) % n_psi);
  const int ip1 = (ip0 + 1) % n_psi;
  const HermiteBasis bu = hermite_basis(su, du_);
  const HermiteBasis bp = hermite_basis(turns - cell, dpsi_);

  double g[kComponents] = {}, g_u[kComponents] = {}, g_psi[kComponents] = {};
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      const std::size_t node = std::size_t((iu + a) * n_psi + (b == 0 ? ip0 : ip1));
      const double w_v = bu.value[a] * bp.value[b], w_u = bu.slope[a] * bp.value[b];
      const double w_p = bu.value[a] * bp.slope[b], w_up = bu.slope[a] * bp.slope[b];
      const double du_v = bu.d_value[a] * bp.value[b], du_u = bu.d_slope[a] * bp.value[b];
      const double du_p = bu.d_value[a] * bp.slope[b], du_up = bu.d_slope[a] * bp.slope[b];
      const double dp_v = bu.value[a] * bp.d_value[b], dp_u = bu.slope[a] * bp.d_value[b];
      const double dp_p = bu.value[a] * bp.d_slope[b], dp_up = bu.slope[a] * bp.d_slope[b];
      for (int k = 0; k < kComponents; ++k) {
        const double v = g_[k][node], vu = g_u_[k][node], vp = g_psi_[k][node];
        const double vup = g_upsi_[k][node];
        g[k] += v * w_v + vu * w_u + vp * w_p + vup * w_up;
        g_u[k] += v * du_v + vu * du_u + vp * du_p + vup * du_up;
        g_psi[k] += v * dp_v + vu * dp_u + vp * dp_p + vup * dp_up;
      }
    }
  }
  // f = g/w with w = (1 − ε²)² and du/dε = 1/(1 − ε²): ∂f/∂ε = (∂g/∂u + 4εg)/(1 − ε²)³.
  const double s = 1.0 - eps * eps;
  const double inv_w = 1.0 / (s * s);
  Lookup out;
  for (int k = 0; k < 2; ++k) {
    out.f[k] = g[k] * inv_w;
    out.f_eps[k] = (g_u[k] + 4.0 * eps * g[k]) * inv_w / s;
    out.f_psi[k] = g_psi[k] * inv_w;
  }
  out.f[2] = g[2];  // the side flow is tabulated unweighted
  out.f_eps[2] = g_u[2] / s;
  out.f_psi[2] = g_psi[2];
  return out;
}

ReducedForce FiniteBearingTable::direction_force(double eccentricity, double direction) const {
  const Lookup l = lookup(eccentricity, direction);
  return {l.f[0], l.f[1]};
}

BearingForce FiniteBearingTable::evaluate(const FilmState& film,
                                          const BearingParameters& bearing) const {
  const double ld = bearing.length / (2.0 * bearing.journal_radius);
  if (!(std::abs(ld - options_.length_over_diameter) <= 1e-9 * options_.length_over_diameter)) {
    throw std::invalid_argument("FiniteBearingTable: bearing L/D differs from the table's");
  }
  const double scale =
      force_scale(bearing.viscosity, bearing.journal_radius, bearing.length, bearing.clearance);
  const bool clamped = film.eccentricity < 0.0 || film.eccentricity > options_.max_eccentricity;
  const double eps = std::clamp(film.eccentricity, 0.0, options_.max_eccentricity);
  const double omega = film.wedge_speed;
  const double a = eps * omega;
  const double b = 2.0 * film.eccentricity_rate;
  const double rho = std::hypot(a, b);
  // Direction of the forcing; at ρ = 0 that of a journal leaving ε = 0 with ε̇ = 0.
  const double cos_psi = rho > 0.0 ? a / rho : (omega < 0.0 ? -1.0 : 1.0);
  const double sin_psi = rho > 0.0 ? b / rho : 0.0;
  const Lookup l = lookup(eps, std::atan2(sin_psi, cos_psi));

  BearingForce out;
  out.force = scale * rho * l.f.head<2>();
  out.side_flow = bearing.journal_radius * bearing.clearance * bearing.length * rho * l.f[2];
  // F = C ρ f(ε, ψ(a, b)): ∂F/∂a = C(cos ψ f − sin ψ ∂f/∂ψ), ∂F/∂b = C(sin ψ f + cos ψ ∂f/∂ψ),
  // bounded however small ρ is.
  const Eigen::Vector2d f = l.f.head<2>(), f_psi = l.f_psi.head<2>();
  const Eigen::Vector2d d_wedge = scale * (cos_psi * f - sin_psi * f_psi);
  const Eigen::Vector2d d_squeeze = scale * (sin_psi * f + cos_psi * f_psi);
  if (!clamped) out.jacobian.col(0) = scale * rho * l.f_eps.head<2>() + omega * d_wedge;
  out.jacobian.col(1) = 2.0 * d_squeeze;
  out.jacobian.col(2) = eps * d_wedge;
  return out;
}

}  // namespace cs::lubrication
