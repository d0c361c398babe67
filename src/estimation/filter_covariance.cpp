// The extended Kalman filter's covariance: its start, its propagation by the step's tangent and
// the measurement Jacobian (the equations: docs/estimation.md).
#include <cmath>
#include <stdexcept>

#include "angle_channels.hpp"
#include "clearsim/estimation/extended_kalman_filter.hpp"
#include "clearsim/solvers/initial_conditions.hpp"
#include "clearsim/solvers/run_stats.hpp"
#include "filter_plant.hpp"

namespace cs {

namespace {

// The initial directions' completion is a central difference of the consistent-state solve over
// ±kCompletionStep of a direction of size σ: a linear solve's is exact to round-off, a
// nonlinear one's O(step²).
constexpr double kCompletionStep = 1e-4;
constexpr double kChannelStep = 1e-6;
// A covariance root of at most this many columns is compressed by an SVD of itself, a wider one
// by a pivoted QR of its transpose: whichever was cheaper (compress()).
constexpr Eigen::Index kThinRoot = 16;

// Positions (kept within tolerance), velocities closest to the given ones, then v̇ and λ: the
// consistent state nearest to s; a = v̇ as at a start.
State completed(const System& sys, const State& s, double tol) {
  State x = s;
  LinearSystem ls;
  assemble_positions(sys, x, tol, 50, ls);
  assemble_velocities(sys, x, ls, /*use_prescribed=*/false);
  solve_accelerations(sys, x, ls);
  x.a = x.vdot;
  return x;
}

// The orthogonal projector on the null space of B: the directions the constraints allow.
MatX null_space_projector(const System& sys, const State& s) {
  const int n = sys.num_dofs(), m = sys.num_constraints();
  if (m == 0) return MatX::Identity(n, n);
  std::vector<BodyKinematics> kin;
  sys.gather(s, kin);
  MatX B = MatX::Zero(m, n);
  sys.constraints(kin, s.t, nullptr, MatrixSink(&B), nullptr, nullptr);
  const MatX BBt = B * B.transpose();
  return MatX::Identity(n, n) - B.transpose() * BBt.ldlt().solve(B);
}

}  // namespace

void ExtendedKalmanFilter::start_covariance() {
  // Columns σ_i Π e_i of positions and velocities, each completed to a consistent tangent (the
  // velocities a position change implies, v̇, λ, a = v̇) by the consistent-state solve.
  const System& sys = *plant_->sys;
  const int n = sys.num_dofs();
  const MatX Pi = null_space_projector(sys, state_);
  const double tol = plant_->run.solver.newton_tol;
  MatX L = MatX::Zero(layout_.size, 2 * n);
  for (int i = 0; i < 2 * n; ++i) {
    const bool velocity = i >= n;
    const bool rotation = (i % n) % 6 >= 3;
    const double sigma =
        velocity ? (rotation ? settings_.sigma_angular_velocity : settings_.sigma_velocity)
                 : (rotation ? settings_.sigma_rotation : settings_.sigma_position);
    if (sigma == 0.0) continue;
    StateTangent d = StateTangent::zero(state_);
    (velocity ? d.v : d.q) = Pi.col(i % n);
    if (d.q.norm() + d.v.norm() < 1e-12) continue;  // a direction the constraints forbid
    const State plus = completed(sys, displaced(state_, d, kCompletionStep), tol);
    const State minus = completed(sys, displaced(state_, d, -kCompletionStep), tol);
    L.col(i) = sigma * tangent_coordinates(central_difference(plus, minus, kCompletionStep));
  }
  const int np = static_cast<int>(params_.size());
  L_.setZero(layout_.size, 2 * n + np);
  L_.leftCols(2 * n) = L;
  for (int k = 0; k < np; ++k)
    L_(layout_.p + k, 2 * n + k) = settings_.parameters[static_cast<std::size_t>(k)].sigma;
  compress();
  prior_sigma_ = parameter_sigma();
}

VecX ExtendedKalmanFilter::tangent_coordinates(const StateTangent& d) const {
  const Layout& L = layout_;
  const int n = L.v - L.q;
  VecX z = VecX::Zero(L.size);
  z.segment(L.q, n) = d.q;
  z.segment(L.v, n) = d.v;
  z.segment(L.a, n) = d.a;
  z.segment(L.vdot, n) = d.vdot;
  z.segment(L.lambda, L.p - L.lambda) = d.lambda;
  return z;
}

VecX ExtendedKalmanFilter::parameter_residual(int k, const State& prev, const State& s) const {
  const estimation::PerturbedModels& pm = plant_->perturbed[static_cast<std::size_t>(k)];
  VecX r[2];
  State x = s;
  for (int side = 0; side < 2; ++side)
    plant_->step->residual(*pm.sys[side], prev, s.t - prev.t, s.vdot, s.lambda, x, r[side]);
  return (r[0] - r[1]) / (2.0 * pm.delta);
}

TangentColumns ExtendedKalmanFilter::columns_of(const MatX& Z) const {
  const Layout& L = layout_;
  const int n = L.v - L.q;
  return {Z.middleRows(L.q, n), Z.middleRows(L.v, n), Z.middleRows(L.a, n), Z.middleRows(L.vdot, n),
          Z.middleRows(L.lambda, L.p - L.lambda)};
}

void ExtendedKalmanFilter::write_columns(const TangentColumns& t, MatX& Z) const {
  const Layout& L = layout_;
  const int n = L.v - L.q;
  Z.middleRows(L.q, n) = t.q;
  Z.middleRows(L.v, n) = t.v;
  Z.middleRows(L.a, n) = t.a;
  Z.middleRows(L.vdot, n) = t.vdot;
  Z.middleRows(L.lambda, L.p - L.lambda) = t.lambda;
}

MatX ExtendedKalmanFilter::propagate_coordinates(const MatX& Z, const MatX& r_p) const {
  const MatX R_u = r_p.cols() > 0 ? MatX(r_p * Z.bottomRows(params_.size())) : MatX();
  TangentColumns next;
  plant_->step->propagate(columns_of(Z), R_u, next);
  MatX out = Z;  // a parameter is constant over a step
  write_columns(next, out);
  return out;
}

void ExtendedKalmanFilter::propagate_covariance(const MatX& r_p) {
  // The columns of L, each a tangent of the step's start, through the step: F L without F.
  // With them, in the same pass, the plant's lag behind the parameter estimates: the state
  // follows the estimates to first order (follow_estimates).
  const Eigen::Index k = L_.cols(), np = params_.size();
  const bool lags = np > 0 && params_ != plant_params_;
  MatX Z(layout_.size, k + (lags ? 1 : 0));
  Z.leftCols(k) = L_;
  if (lags) {
    Z.col(k).setZero();
    Z.col(k).tail(np) = params_ - plant_params_;
  }
  const MatX out = propagate_coordinates(Z, r_p);
  L_ = out.leftCols(k);
  if (lags) follow_estimates(out.col(k));
  // The noise adds a column per body coordinate (18 on a four-bar), but the constraints leave
  // its responses few directions: L is compressed before an update differentiates its channels
  // along it (update()), and between samples when it has grown past two thirds of z's size.
  add_process_noise(layout_.v - layout_.q);
  if (L_.cols() > 2 * layout_.size / 3) compress();
}

void ExtendedKalmanFilter::follow_estimates(const VecX& response) {
  // x(p̂) = x(p₀) + ∂x/∂p (p̂ − p₀) + O(|p̂ − p₀|²) for the step from the same start: the
  // parameter's column of the transition applied to the lag (`response`). Each step adds its
  // own, so the sum over steps is the trajectory's first-order response.
  // plant_lags_estimates() bounds the second-order rest.
  state_ = displaced(state_, tangent_of(response), 1.0);
}

MatX ExtendedKalmanFilter::transition_jacobian() const {
  // F: every unit direction of q, v, a, v̇ and λ_n through the step (λ_n is not read by
  // the step: zero columns), a parameter through its residual's derivative.
  if (settings_.kind != FilterKind::kExtended)
    throw std::logic_error(
        "transition_jacobian: the unscented filter has no transition Jacobian (its sigma "
        "points are stepped, not linearized)");
  MatX r_p(plant_->step->rows(), params_.size());
  for (int k = 0; k < static_cast<int>(params_.size()); ++k)
    r_p.col(k) = parameter_residual(k, prev_, state_);
  // λ_n's columns come out zero: the step does not read λ_n.
  const MatX F = propagate_coordinates(MatX::Identity(layout_.size, layout_.size), r_p);
  return F;
}

void ExtendedKalmanFilter::add_process_noise(int n) {
  // A white acceleration w_i of body coordinate i acts as the force M e_i w_i, whose mean over
  // the step has the variance q²/h: R_p = −M e_i, propagated with dS = 0; its column of L is
  // that response times q/√h. A parameter's random walk adds w √h to its own.
  // All coordinates' forces go through one solve of the step's factorization.
  const double h = plant_->step->step_size();
  const StepLinearization& step = *plant_->step;
  std::vector<VecX> added;
  std::vector<int> noisy;
  std::vector<double> density;
  for (int i = 0; i < n; ++i) {
    const double q =
        i % 6 < 3 ? settings_.acceleration_noise : settings_.angular_acceleration_noise;
    if (q == 0.0) continue;
    noisy.push_back(i);
    density.push_back(q);
  }
  const auto count = static_cast<Eigen::Index>(noisy.size());
  MatX R_p = MatX::Zero(step.rows(), count);
  VecX e = VecX::Zero(n), Me;
  for (Eigen::Index c = 0; c < count; ++c) {
    e(noisy[c]) = 1.0;
    plant_->sys->mass_times(e, Me);
    R_p.col(c).head(n) = -Me;
    e(noisy[c]) = 0.0;
  }
  if (count > 0) {
    // The responses' end tangents from a fixed start (dS = 0), scaled to q/√h each.
    const MatX dX = step.respond(R_p);
    const MatX zero_n = MatX::Zero(n, count);
    const TangentColumns start{zero_n, zero_n, zero_n, zero_n, MatX::Zero(dX.rows() - n, count)};
    TangentColumns next;
    step.step_tangent(start, dX.topRows(n), dX.bottomRows(dX.rows() - n), next);
    MatX Z = MatX::Zero(layout_.size, count);
    write_columns(next, Z);
    for (Eigen::Index c = 0; c < count; ++c)
      added.push_back(density[static_cast<std::size_t>(c)] / std::sqrt(h) * Z.col(c));
  }
  add_parameter_walks(added);
  if (added.empty()) return;
  const Eigen::Index c0 = L_.cols();
  L_.conservativeResize(Eigen::NoChange, c0 + static_cast<Eigen::Index>(added.size()));
  for (std::size_t k = 0; k < added.size(); ++k)
    L_.col(c0 + static_cast<Eigen::Index>(k)) = added[k];
}

void ExtendedKalmanFilter::add_parameter_walks(std::vector<VecX>& columns) const {
  for (std::size_t k = 0; k < settings_.parameters.size(); ++k) {
    if (settings_.parameters[k].walk == 0.0) continue;
    VecX z = VecX::Zero(layout_.size);
    z(layout_.p + static_cast<int>(k)) = settings_.parameters[k].walk * std::sqrt(h_);
    columns.push_back(z);
  }
}

void ExtendedKalmanFilter::compress() {
  // (S L)ᵀ Π = Q R gives L Lᵀ = S⁻¹ Π Rᵀ R Πᵀ S⁻¹: the root S⁻¹ Π Rᵀ, its columns cut at R's
  // rank. The extended filter's columns are exact tangents: S = I, rank at 1e-14 of the largest
  // pivot. The unscented filter's are differences of Newton solutions, each within newton_tol
  // of its step: S scales each block to units of that noise (positions tol, velocities tol/h,
  // v̇ and a tol/h², as a step's increments relate them), and a direction no larger than it
  // (|R_ii| ≤ 1) is the iteration's noise, not a covariance (without the cut, the noise fills
  // every direction and the sigma points grow to 2 × 89 on the four-bar).
  if (L_.cols() == 0) return;
  const bool noisy = settings_.kind == FilterKind::kUnscented;
  if (!noisy && L_.cols() <= kThinRoot) {
    // A thin root (the four-bar's 6 columns after an update): L = U Σ Vᵀ gives the root L V cut
    // at the same rank, by a Householder QR down L's few columns and a Jacobi SVD of the small
    // R. The pivoted QR of Lᵀ below turns 89 columns of a few entries each, a tenth of the
    // four-bar filter's step; for a wide root (the process noise's 18 columns a step, up to 60
    // between the clearance example's samples) the Jacobi sweeps cost more than that QR.
    const Eigen::JacobiSVD<MatX, Eigen::HouseholderQRPreconditioner> svd(L_, Eigen::ComputeThinV);
    const VecX& sv = svd.singularValues();  // decreasing
    Eigen::Index rank = 1;
    while (rank < sv.size() && sv(rank) > 1e-14 * sv(0)) ++rank;
    L_ = L_ * svd.matrixV().leftCols(rank);
    compressed_columns_ = L_.cols();
    return;
  }
  VecX scale = VecX::Ones(layout_.size);
  double floor = 0.0;
  if (noisy) {
    const double tol = plant_->run.solver.newton_tol;
    scale.segment(layout_.q, layout_.v - layout_.q).setConstant(1.0 / tol);
    scale.segment(layout_.v, layout_.a - layout_.v).setConstant(h_ / tol);
    scale.segment(layout_.a, layout_.p - layout_.a).setConstant(h_ * h_ / tol);
    for (std::size_t k = 0; k < settings_.parameters.size(); ++k)  // set exactly, not solved
      scale(layout_.p + static_cast<Eigen::Index>(k)) = 1e12 / settings_.parameters[k].sigma;
    // A root column is a deviation weighted √w = 1/(α√(2c)): a Newton error of one tolerance
    // in a stepped sigma point shows there 1/α larger (the spread α, FilterSettings::ukf_alpha).
    floor = 1.0 / settings_.ukf_alpha;
  }
  const MatX Lt = (scale.asDiagonal() * L_).transpose();
  Eigen::ColPivHouseholderQR<MatX> qr(Lt);
  qr.setThreshold(1e-14);
  Eigen::Index rank = std::max<Eigen::Index>(1, qr.rank());
  while (noisy && rank > 1 && std::abs(qr.matrixR()(rank - 1, rank - 1)) <= floor) --rank;
  const MatX R = qr.matrixR().topRows(rank).template triangularView<Eigen::Upper>();
  L_ = scale.cwiseInverse().asDiagonal() * (qr.colsPermutation() * R.transpose());
  compressed_columns_ = L_.cols();
}

MatX ExtendedKalmanFilter::channels_along_root(const ChannelSet& channels) const {
  // Central differences along each column of L, scaled to a step of kChannelStep in its largest
  // pose or velocity coordinate (where channels are nonlinear; they are linear in v̇ and λ, whose
  // entries can be β′ ≈ 1/h² larger and must not shrink the step to round-off).
  const RunStats stats;
  std::vector<double> plus, minus;
  State x = state_;  // each displaced state, in one storage
  const std::vector<bool> angle = estimation::angle_channels(channels);
  MatX Y = MatX::Zero(static_cast<Eigen::Index>(channels.names().size()), L_.cols());
  for (Eigen::Index c = 0; c < L_.cols(); ++c) {
    double size = L_.col(c).segment(layout_.q, layout_.a - layout_.q).lpNorm<Eigen::Infinity>();
    if (!(size > 0.0)) size = L_.col(c).head(layout_.p).lpNorm<Eigen::Infinity>();
    if (!(size > 0.0)) continue;
    const double eps = kChannelStep / size;
    const StateTangent d = tangent_of(L_.col(c));
    displace(state_, d, eps, x);
    channels.evaluate(x, stats, plus);
    displace(state_, d, -eps, x);
    channels.evaluate(x, stats, minus);
    for (std::size_t k = 0; k < plus.size(); ++k)
      Y(static_cast<Eigen::Index>(k), c) =
          estimation::channel_difference(plus[k], minus[k], angle[k]) / (2.0 * eps);
  }
  return Y;
}

MatX ExtendedKalmanFilter::channel_jacobian(const ChannelSet& channels) const {
  // Central differences along each coordinate of z (a parameter's column is zero: the channels
  // are read at the state, not at the parameter; docs/estimation.md).
  const RunStats stats;
  std::vector<double> plus, minus;
  const std::vector<bool> angle = estimation::angle_channels(channels);
  MatX J = MatX::Zero(static_cast<Eigen::Index>(channels.names().size()), layout_.size);
  for (int j = 0; j < layout_.p; ++j) {
    VecX z = VecX::Zero(layout_.size);
    z(j) = 1.0;
    const StateTangent d = tangent_of(z);
    channels.evaluate(displaced(state_, d, kChannelStep), stats, plus);
    channels.evaluate(displaced(state_, d, -kChannelStep), stats, minus);
    for (std::size_t c = 0; c < plus.size(); ++c)
      J(static_cast<Eigen::Index>(c), j) =
          estimation::channel_difference(plus[c], minus[c], angle[c]) / (2.0 * kChannelStep);
  }
  return J;
}

MatX ExtendedKalmanFilter::measurement_jacobian(const std::vector<int>& sensors) const {
  const MatX J = channel_jacobian(*plant_->sensors);
  MatX H(static_cast<Eigen::Index>(sensors.size()), layout_.size);
  for (std::size_t r = 0; r < sensors.size(); ++r)
    H.row(static_cast<Eigen::Index>(r)) = J.row(sensors[r]);
  return H;
}

void ExtendedKalmanFilter::estimate_outputs(std::vector<double>& values,
                                            std::vector<double>& sigmas) const {
  if (!plant_->outputs) throw std::logic_error("estimate_outputs: no outputs set (set_outputs)");
  const ChannelSet& channels = *plant_->outputs;
  VecX var;
  if (settings_.kind == FilterKind::kUnscented) {
    // The unscented transform's mean and P_yy = Y Yᵀ + E Eᵀ.
    VecX mean;
    MatX Y, E;
    unscented_channels(channels, mean, Y, E);
    values.assign(mean.data(), mean.data() + mean.size());
    var = Y.rowwise().squaredNorm() + E.rowwise().squaredNorm();
  } else {
    channels.evaluate(state_, RunStats(), values);
    var = channels_along_root(channels).rowwise().squaredNorm();
  }
  sigmas.resize(values.size());
  for (std::size_t c = 0; c < values.size(); ++c)
    sigmas[c] = std::sqrt(std::max(0.0, var(static_cast<Eigen::Index>(c))));
}

}  // namespace cs
