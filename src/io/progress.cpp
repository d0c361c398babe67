#include "clearsim/io/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <sstream>

namespace cs {

ProgressBar::ProgressBar(double t_end, bool enabled)
    : t_end_(t_end), enabled_(enabled && isatty(fileno(stderr)) != 0) {
  start_ = last_ = std::chrono::steady_clock::now();
}

void ProgressBar::update(double t, const RunStats& stats) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double frac = std::clamp(t_end_ > 0 ? t / t_end_ : 1.0, 0.0, 1.0);
  const int width = 30;
  const int full = static_cast<int>(std::lround(frac * width));
  const double wall = std::chrono::duration<double>(now - start_).count();
  const double rate = wall > 0 ? static_cast<double>(stats.steps) / wall : 0.0;
  const double eta = frac > 0 ? wall * (1.0 - frac) / frac : 0.0;
  std::fprintf(stderr, "\r[%s%s] %5.1f%%  t = %.4g s  %ld steps  %.3g steps/s  ETA %.0f s ",
               std::string(full, '#').c_str(), std::string(width - full, '.').c_str(), 100.0 * frac,
               t, stats.steps, rate, eta);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
}

std::string summary(const RunStats& s, const std::string& analysis) {
  std::ostringstream os;
  const double per =
      s.steps > 0 ? static_cast<double>(s.newton_iterations) / static_cast<double>(s.steps) : 0.0;
  os.precision(3);
  os << analysis;
  if (!s.integrator.empty()) os << " (" << s.integrator << ")";
  os << ": " << s.steps << " steps";
  if (s.rejected_steps > 0) os << " (" << s.rejected_steps << " rejected or split)";
  if (s.row_rechoices > 0) os << " | independent rows re-chosen " << s.row_rechoices << "×";
  os << " | Newton iterations " << s.newton_iterations << " (" << per << "/step)"
     << " | factorizations " << s.factorizations << " | max constraint violation "
     << s.max_constraint_violation << " | wall " << s.wall_seconds << " s";
  if (s.wall_seconds > 0)
    os << " | " << static_cast<double>(s.steps) / s.wall_seconds << " steps/s";
  if (s.open_steps + s.contact_steps + s.impact_steps > 0) {
    const double steps = static_cast<double>(std::max<long>(s.steps, 1));
    os << "\ncorrections: position " << static_cast<double>(s.position_iterations) / steps
       << " + velocity " << static_cast<double>(s.velocity_iterations) / steps
       << " iterations/step";
    os << "\ncontacts: " << s.contact_onsets << " onsets | gap-steps in free flight "
       << s.open_steps << ", in contact " << s.contact_steps << ", impacting " << s.impact_steps
       << " | max penetration " << s.max_penetration << " m";
    if (s.plastic_impacts > 0)
      os << " | " << s.plastic_impacts
         << " multi-contact impacts closed plastically (Newton's law would create energy)";
  }
  return os.str();
}

}  // namespace cs
