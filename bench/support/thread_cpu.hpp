// CPU time of the calling thread: robust against other processes on a shared machine, and the
// clock the peers benchmark uses to time two engines alternately inside one iteration.
#pragma once

#include <ctime>

namespace cs::bench {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace cs::bench
