#include "signal_watch.hpp"

#include <pythread.h>

#include <algorithm>

namespace clearsim_py {

namespace {
// The clock is read about this often (a clock read costs ~20 ns; a step 1 µs and more).
constexpr auto kClockRead = std::chrono::microseconds(500);
constexpr long kMaxStride = 1L << 16;
// Signal handlers run at most this often while stepping: each entry takes the GIL, which another
// Python thread running Python code may hold for up to its switch interval (5 ms), so 10 a second
// costs such a run at most 5 %; alone, about 1 µs a time.
constexpr auto kSignalPeriod = std::chrono::milliseconds(100);
}  // namespace

Pacer::Pacer(std::chrono::steady_clock::duration period)
    : period_(period), last_read_(Clock::now()), last_due_(last_read_) {}

bool Pacer::read_clock() {
  count_ = 0;
  const Clock::time_point now = Clock::now();
  // Fewer reads when steps are fast, more when they are slow (one per step at most).
  if (now - last_read_ < kClockRead)
    stride_ = std::min(2 * stride_, kMaxStride);
  else if (now - last_read_ > 4 * kClockRead)
    stride_ = std::max(stride_ / 2, 1L);
  last_read_ = now;
  if (now - last_due_ < period_) return false;
  last_due_ = now;
  return true;
}

namespace {
unsigned long g_main_thread = 0;  // set when the module is imported
}  // namespace

void note_main_thread() {
  g_main_thread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
}

bool in_main_thread() { return PyThread_get_thread_ident() == g_main_thread; }

SignalWatch::SignalWatch() : main_thread_(in_main_thread()), pacer_(kSignalPeriod) {}

bool SignalWatch::check() {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() == 0) return false;
  pending_ = std::make_unique<py::error_already_set>();
  return true;
}

void SignalWatch::raise_pending() {
  if (!pending_) return;
  pending_->restore();
  pending_.reset();
  throw py::error_already_set();
}

}  // namespace clearsim_py
