// Where the wall time of `clearsim run` goes, printed under the summary (docs/PERFORMANCE.md,
// "Command line"): start-up (the process's CPU time before main: loading shared libraries and
// static initialisation), set-up (reading the model, building the system, opening the result
// file), the steps, the channels and their writing (each output point's evaluation and
// formatting, inside the run) and closing (the last flush).
#pragma once

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace clearsim_cli {

class PhaseTimes {
 public:
  using Clock = std::chrono::steady_clock;

  PhaseTimes() : start_(Clock::now()) {
    timespec cpu{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0)
      startup_ = static_cast<double>(cpu.tv_sec) + 1e-9 * static_cast<double>(cpu.tv_nsec);
  }
  void set_up_done() { set_up_ = since(start_); }
  void run_started() { run_start_ = Clock::now(); }
  void run_done() { run_ = since(run_start_); }
  void closed() { closing_ = since(run_start_) - run_; }
  // Time spent in one output point's evaluation and writing (within the run).
  void add_output(Clock::time_point from) { output_ += since(from); }

  std::string line() const {
    char text[200];
    std::snprintf(text, sizeof text,
                  "time: start-up %.1f ms, set-up %.1f ms, steps %.1f ms, channels and writing "
                  "%.1f ms, closing %.1f ms",
                  1e3 * startup_, 1e3 * set_up_, 1e3 * (run_ - output_), 1e3 * output_,
                  1e3 * closing_);
    return text;
  }

 private:
  static double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }

  Clock::time_point start_, run_start_;
  double startup_ = 0, set_up_ = 0, run_ = 0, output_ = 0, closing_ = 0;
};

}  // namespace clearsim_cli
