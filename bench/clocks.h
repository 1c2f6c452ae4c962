// The clocks the benchmarks time their calls by (UseManualTime), so that a
// case, its copy reference and its peers are timed alike.
#ifndef STRIDEKIT_BENCH_CLOCKS_H_
#define STRIDEKIT_BENCH_CLOCKS_H_

#include <chrono>
#include <ctime>

namespace stridekit::bench {

// This thread's CPU time in seconds, for calls that run on the calling
// thread: on a shared machine the wall clock also counts the time other
// processes hold the core. Memory stalls count. (Python: time.thread_time.)
inline double ThreadSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Wall-clock seconds, for calls that run on several threads.
// (Python: time.perf_counter.)
inline double WallSeconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace stridekit::bench

#endif  // STRIDEKIT_BENCH_CLOCKS_H_
