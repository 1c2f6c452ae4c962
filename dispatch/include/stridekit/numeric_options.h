// Options of the dispatched numeric kernels (elementwise.h, reduce.h).
#ifndef STRIDEKIT_NUMERIC_OPTIONS_H_
#define STRIDEKIT_NUMERIC_OPTIONS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>

namespace stridekit {

struct NumericOptions {
  // Threads a call may use; 1 (or less) runs on the calling thread. The
  // work is split into that many boxes along its longest axis, run on the
  // library's persistent worker threads (RunParallel in iteration_plan.h),
  // which spin briefly between calls, so splitting pays from L2-sized
  // operands up: calls with fewer than kMinElementsPerThread elements per
  // thread use fewer threads.
  int threads = 1;
  static constexpr int64_t kMinElementsPerThread = int64_t{1} << 13;
};

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_NUMERIC_OPTIONS_H_
