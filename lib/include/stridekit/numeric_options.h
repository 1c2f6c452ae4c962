// Options of the dispatched numeric kernels (elementwise.h, reduce.h).
#ifndef STRIDEKIT_NUMERIC_OPTIONS_H_
#define STRIDEKIT_NUMERIC_OPTIONS_H_

#include <cstdint>

namespace stridekit {

struct NumericOptions {
  // Threads a call may use; 1 (or less) runs on the calling thread. The
  // work is split into that many boxes along its longest axis, each run on
  // its own std::thread (started and joined per call), so it pays only for
  // operands far beyond the L2 size: calls under kMinElementsPerThread
  // elements per thread run on the calling thread.
  int threads = 1;
  static constexpr int64_t kMinElementsPerThread = int64_t{1} << 18;
};

}  // namespace stridekit

#endif  // STRIDEKIT_NUMERIC_OPTIONS_H_
