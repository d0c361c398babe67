// The scalar objective of an adjoint gradient (adjoint_gradient.hpp, docs/sensitivity.md
// *Adjoint gradients*): a function of one channel's values c_n at every step's end t_n of the
// run, n = 0 (the initial state) … N:
//   end(CHANNEL)            c_N
//   integral(CHANNEL)       Σ_n (t_{n+1} − t_n)(c_n + c_{n+1})/2       (the trapezoid over steps)
//   pnorm(CHANNEL, P)       ((1/(N+1)) Σ_n |c_n|^P)^(1/P), P > 1        (a smooth maximum of |c|)
//   rms(CHANNEL, FILE)      √((1/K) Σ_n (c_n − r(t_n))²) over the K steps inside the reference's
//                           time span, r interpolated linearly in FILE's (time, value) rows
// Each is differentiated exactly as computed: weights() gives ∂J/∂c_n.
#pragma once

#include <string>
#include <vector>

namespace cs {

class AdjointObjective {
 public:
  enum class Kind { kEnd, kIntegral, kPNorm, kRms };

  // Parses the syntax above; throws std::invalid_argument naming the bad objective (an unknown
  // kind, a missing argument, P ≤ 1, a reference file that cannot be read). The channel is
  // checked against the model by ChannelSet.
  static AdjointObjective parse(const std::string& text);

  Kind kind() const { return kind_; }
  const std::string& channel() const { return channel_; }
  const std::string& text() const { return text_; }
  // The objective's unit from the channel's ("N", "N*s" for an integral; "" when unknown).
  std::string unit() const;

  // J of the channel values c at the times t (one per step's end, the initial state first) and
  // ∂J/∂c_n into w. Throws std::invalid_argument when J has no derivative there (an RMS or
  // p-norm of exactly zero) or the run does not reach into the reference's span.
  double evaluate(const std::vector<double>& t, const std::vector<double>& c,
                  std::vector<double>& w) const;

 private:
  Kind kind_ = Kind::kEnd;
  std::string text_, channel_;
  double p_ = 0.0;
  std::vector<double> ref_t_, ref_v_;  // rms: the reference

  void read_reference(const std::string& path);
  double reference_at(double t) const;
};

}  // namespace cs
