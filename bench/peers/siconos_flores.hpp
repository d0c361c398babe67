// Siconos' side of the Flores revolute-clearance slider–crank (siconos_flores.cpp). Only this
// interface reaches the benchmark, so Siconos' headers stay in one translation unit.
#pragma once

namespace cs::bench::peers {

struct SiconosFloresRun {
  double cpu = 0.0;                   // CPU seconds of this thread in the stepping loop
  long steps = 0;                     // time steps taken
  double max_penetration = 0.0;       // max(−g) over the steps [m]
  double max_slider_deviation = 0.0;  // max |x − x_ideal(t)| of the slider [m]
};

// Moreau–Jean (θ = 0.5) and an LCP at each step from t = 0 to `end` at step h.
SiconosFloresRun siconos_flores_run(double h, double end);

}  // namespace cs::bench::peers
