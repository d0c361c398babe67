// Ctrl-C while the engine runs without the GIL. The engine's loops call poll() after each step;
// poll() reads the clock only every `stride` calls, the stride adapting so that the clock is read
// about once per half millisecond whatever a step costs (1 µs or 1 s), and it enters Python
// (GIL taken, PyErr_CheckSignals) at most once per `period`. Python runs signal handlers in the
// main thread only, so in any other thread poll() does nothing.
#pragma once

#include <chrono>
#include <memory>

#include "bindings.hpp"

namespace clearsim_py {

// True at most once per `period`, reading the clock adaptively (see above). No GIL needed.
class Pacer {
 public:
  explicit Pacer(std::chrono::steady_clock::duration period);
  bool due() {
    if (++count_ < stride_) return false;
    return read_clock();
  }

 private:
  bool read_clock();

  using Clock = std::chrono::steady_clock;
  Clock::duration period_;
  Clock::time_point last_read_, last_due_;
  long count_ = 0, stride_ = 1;
};

// True if the calling thread is Python's main thread (the one that runs signal handlers), as
// noted by note_main_thread() when the module was imported. Needs the GIL.
bool in_main_thread();
void note_main_thread();

class SignalWatch {
 public:
  // Made with the GIL held (it asks whether this is the main thread).
  SignalWatch();
  // Without the GIL, after each step: true if a signal handler raised (KeyboardInterrupt for
  // Ctrl-C); the loop must then stop, and raise_pending() raises the exception.
  bool poll() {
    if (!main_thread_ || !pacer_.due()) return false;
    return check();
  }
  // With the GIL: raises the exception a signal handler raised during the loop, if any.
  void raise_pending();

 private:
  bool check();

  bool main_thread_;
  Pacer pacer_;
  std::unique_ptr<py::error_already_set> pending_;
};

}  // namespace clearsim_py
