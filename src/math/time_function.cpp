#include "clearsim/math/time_function.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace cs {

TimeFunction TimeFunction::constant(double c) {
  TimeFunction f;
  f.kind_ = Kind::kConstant;
  f.p_ = {c};
  return f;
}

TimeFunction TimeFunction::ramp(double initial, double slope, double start) {
  TimeFunction f;
  f.kind_ = Kind::kRamp;
  f.p_ = {initial, slope, start};
  return f;
}

TimeFunction TimeFunction::polynomial(std::vector<double> coefficients) {
  if (coefficients.empty())
    throw std::invalid_argument("polynomial needs at least one coefficient");
  TimeFunction f;
  f.kind_ = Kind::kPolynomial;
  f.p_ = std::move(coefficients);
  return f;
}

TimeFunction TimeFunction::harmonic(double amplitude, double frequency_hz, double phase_rad,
                                    double offset) {
  TimeFunction f;
  f.kind_ = Kind::kHarmonic;
  f.p_ = {amplitude, 2.0 * std::numbers::pi * frequency_hz, phase_rad, offset};
  return f;
}

TimeFunction TimeFunction::smooth_step(double t0, double v0, double t1, double v1) {
  if (!(t1 > t0)) throw std::invalid_argument("smooth_step needs t1 > t0");
  TimeFunction f;
  f.kind_ = Kind::kSmoothStep;
  f.p_ = {t0, v0, t1, v1};
  return f;
}

TimeFunction TimeFunction::fourier(double frequency_hz, double offset, std::vector<double> cosines,
                                   std::vector<double> sines) {
  if (!(frequency_hz > 0.0)) throw std::invalid_argument("fourier needs a frequency > 0");
  const std::size_t n = std::max(cosines.size(), sines.size());
  cosines.resize(n, 0.0);
  sines.resize(n, 0.0);
  TimeFunction f;
  f.kind_ = Kind::kFourier;
  f.p_ = {2.0 * std::numbers::pi * frequency_hz, offset};
  for (std::size_t k = 0; k < n; ++k) {
    f.p_.push_back(cosines[k]);
    f.p_.push_back(sines[k]);
  }
  return f;
}

namespace {
// Σ_k a_k c_k(t) + b_k s_k(t) over the harmonics k = 1..n of p = [ω, offset, a_1, b_1, ...], where
// `term(kω, t)` gives the pair (c_k, s_k) that the value, a derivative or the integral needs.
template <class Term>
double fourier_sum(const std::vector<double>& p, double t, Term term) {
  double r = 0.0;
  for (std::size_t j = 2, k = 1; j + 1 < p.size(); j += 2, ++k) {
    const auto [c, s] = term(static_cast<double>(k) * p[0], t);
    r += p[j] * c + p[j + 1] * s;
  }
  return r;
}

struct Pair {
  double c, s;
};

// Polynomial Σ c_k t^k and its derivatives/integral by Horner's rule.
double poly(const std::vector<double>& c, double t) {
  double r = 0.0;
  for (auto it = c.rbegin(); it != c.rend(); ++it) r = r * t + *it;
  return r;
}
double poly_d1(const std::vector<double>& c, double t) {
  double r = 0.0;
  for (std::size_t k = c.size(); k-- > 1;) r = r * t + static_cast<double>(k) * c[k];
  return r;
}
double poly_d2(const std::vector<double>& c, double t) {
  double r = 0.0;
  for (std::size_t k = c.size(); k-- > 2;) r = r * t + static_cast<double>(k * (k - 1)) * c[k];
  return r;
}
double poly_int(const std::vector<double>& c, double t) {
  double r = 0.0;
  for (std::size_t k = c.size(); k-- > 0;) r = r * t + c[k] / static_cast<double>(k + 1);
  return r * t;
}

// Smooth step s(u) = 3u² − 2u³ on u ∈ [0, 1]; its integral is u³ − u⁴/2.
struct Step {
  double t0, v0, t1, v1;
  double span() const { return t1 - t0; }
  double u(double t) const { return std::clamp((t - t0) / span(), 0.0, 1.0); }
  bool inside(double t) const { return t > t0 && t < t1; }
};
}  // namespace

double TimeFunction::value(double t) const {
  switch (kind_) {
    case Kind::kConstant:
      return p_[0];
    case Kind::kRamp:
      return p_[0] + p_[1] * std::max(0.0, t - p_[2]);
    case Kind::kPolynomial:
      return poly(p_, t);
    case Kind::kHarmonic:
      return p_[3] + p_[0] * std::sin(p_[1] * t + p_[2]);
    case Kind::kSmoothStep: {
      const Step s{p_[0], p_[1], p_[2], p_[3]};
      const double u = s.u(t);
      return s.v0 + (s.v1 - s.v0) * u * u * (3.0 - 2.0 * u);
    }
    case Kind::kFourier:
      return p_[1] + fourier_sum(p_, t, [](double w, double tt) {
               return Pair{std::cos(w * tt), std::sin(w * tt)};
             });
  }
  return 0.0;
}

double TimeFunction::d1(double t) const {
  switch (kind_) {
    case Kind::kConstant:
      return 0.0;
    case Kind::kRamp:
      return t > p_[2] ? p_[1] : 0.0;
    case Kind::kPolynomial:
      return poly_d1(p_, t);
    case Kind::kHarmonic:
      return p_[0] * p_[1] * std::cos(p_[1] * t + p_[2]);
    case Kind::kSmoothStep: {
      const Step s{p_[0], p_[1], p_[2], p_[3]};
      if (!s.inside(t)) return 0.0;
      const double u = s.u(t);
      return (s.v1 - s.v0) * 6.0 * u * (1.0 - u) / s.span();
    }
    case Kind::kFourier:
      return fourier_sum(p_, t, [](double w, double tt) {
        return Pair{-w * std::sin(w * tt), w * std::cos(w * tt)};
      });
  }
  return 0.0;
}

double TimeFunction::d2(double t) const {
  switch (kind_) {
    case Kind::kConstant:
      return 0.0;
    case Kind::kRamp:
      return 0.0;
    case Kind::kPolynomial:
      return poly_d2(p_, t);
    case Kind::kHarmonic:
      return -p_[0] * p_[1] * p_[1] * std::sin(p_[1] * t + p_[2]);
    case Kind::kSmoothStep: {
      const Step s{p_[0], p_[1], p_[2], p_[3]};
      if (!s.inside(t)) return 0.0;
      const double u = s.u(t);
      return (s.v1 - s.v0) * 6.0 * (1.0 - 2.0 * u) / (s.span() * s.span());
    }
    case Kind::kFourier:
      return fourier_sum(p_, t, [](double w, double tt) {
        return Pair{-w * w * std::cos(w * tt), -w * w * std::sin(w * tt)};
      });
  }
  return 0.0;
}

double TimeFunction::integral(double t) const {
  switch (kind_) {
    case Kind::kConstant:
      return p_[0] * t;
    case Kind::kRamp: {
      const double dt = std::max(0.0, t - std::max(0.0, p_[2]));
      return p_[0] * t + 0.5 * p_[1] * dt * dt;
    }
    case Kind::kPolynomial:
      return poly_int(p_, t);
    case Kind::kHarmonic: {
      const double w = p_[1];
      if (w == 0.0) return (p_[3] + p_[0] * std::sin(p_[2])) * t;
      return p_[3] * t + p_[0] * (std::cos(p_[2]) - std::cos(w * t + p_[2])) / w;
    }
    case Kind::kSmoothStep: {
      // ∫₀ᵗ = ∫ of the piecewise function; assumes t0 ≥ 0 (checked by the reader).
      const Step s{p_[0], p_[1], p_[2], p_[3]};
      const auto F = [&](double tt) {  // antiderivative with F(t0) = v0·t0
        if (tt <= s.t0) return s.v0 * tt;
        const double u = s.u(tt);
        const double inside = s.v0 * (std::min(tt, s.t1) - s.t0) +
                              (s.v1 - s.v0) * s.span() * (u * u * u - 0.5 * u * u * u * u);
        const double after = tt > s.t1 ? s.v1 * (tt - s.t1) : 0.0;
        return s.v0 * s.t0 + inside + after;
      };
      return F(t) - F(0.0);
    }
    case Kind::kFourier:
      return p_[1] * t + fourier_sum(p_, t, [](double w, double tt) {
               return Pair{std::sin(w * tt) / w, (1.0 - std::cos(w * tt)) / w};
             });
  }
  return 0.0;
}

std::string TimeFunction::describe() const {
  std::ostringstream os;
  switch (kind_) {
    case Kind::kConstant:
      os << "constant " << p_[0];
      break;
    case Kind::kRamp:
      os << "ramp";
      break;
    case Kind::kPolynomial:
      os << "polynomial of degree " << p_.size() - 1;
      break;
    case Kind::kHarmonic:
      os << "harmonic";
      break;
    case Kind::kSmoothStep:
      os << "smooth_step";
      break;
    case Kind::kFourier:
      os << "fourier of " << (p_.size() - 2) / 2 << " harmonics";
      break;
  }
  return os.str();
}

}  // namespace cs
