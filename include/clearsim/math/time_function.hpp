// Scalar functions of time used by drivers and loads: value, first and second derivative, and the
// integral from 0 (so a driver given as a velocity can impose the matching position exactly).
#pragma once

#include <string>
#include <vector>

namespace cs {

class TimeFunction {
 public:
  enum class Kind {
    kConstant,    // c
    kRamp,        // initial + slope·max(0, t − start)
    kPolynomial,  // Σ c_k t^k
    kHarmonic,    // offset + amplitude·sin(2π·frequency·t + phase)
    kSmoothStep,  // cubic (Adams STEP) blend from v0 at t0 to v1 at t1, constant outside
    kFourier,     // offset + Σ_k a_k cos(kωt) + b_k sin(kωt), ω = 2π·frequency
  };

  static TimeFunction constant(double c);
  static TimeFunction ramp(double initial, double slope, double start);
  static TimeFunction polynomial(std::vector<double> coefficients);
  static TimeFunction harmonic(double amplitude, double frequency_hz, double phase_rad,
                               double offset);
  static TimeFunction smooth_step(double t0, double v0, double t1, double v1);
  // A periodic function of fundamental `frequency_hz` > 0 with mean `offset`: cosines a_1..a_n and
  // sines b_1..b_n of the harmonics 1..n (the shorter list padded with zeros).
  static TimeFunction fourier(double frequency_hz, double offset, std::vector<double> cosines,
                              std::vector<double> sines);

  double value(double t) const;
  double d1(double t) const;        // d/dt
  double d2(double t) const;        // d²/dt²
  double integral(double t) const;  // ∫₀ᵗ value(s) ds
  Kind kind() const { return kind_; }
  std::string describe() const;

 private:
  Kind kind_ = Kind::kConstant;
  std::vector<double> p_;  // parameters, meaning depends on kind_
};

}  // namespace cs
