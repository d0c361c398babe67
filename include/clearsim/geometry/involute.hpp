// The involute function inv α = tan α − α and its inverse (ISO 21771 notation).
#pragma once

namespace cs {

double involute(double alpha);  // inv α [rad], α in [0, π/2)
// The α in [0, π/2) with inv α = value (≥ 0), by Newton's method from the series α ≈ (3 inv α)^⅓;
// converges to round-off in a handful of iterations.
double inverse_involute(double value);

}  // namespace cs
