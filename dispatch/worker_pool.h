// The process-wide pool of worker threads behind RunParallel. Workers are
// started on first use and kept for the life of the process; after a job
// each spins for a short while before it sleeps, so that calls of a few
// microseconds (L2-sized operands) can be split between threads.
#ifndef STRIDEKIT_LIB_WORKER_POOL_H_
#define STRIDEKIT_LIB_WORKER_POOL_H_

#include <functional>

namespace stridekit::internal {

// Runs run(0), ..., run(parts - 1), which must not throw, and returns true:
// part i on worker i - 1 when that worker is ready, part 0 and every part
// no worker has claimed on the calling thread, all finished before return.
// Returns false without running anything when the pool cannot take the job:
// it is running another caller's job (or this is a call from inside a job),
// `parts` exceeds kMaxParts, or this process is a fork of the one that
// started the pool.
bool RunOnWorkers(int parts, const std::function<void(int)>& run);

inline constexpr int kMaxParts = 64;

}  // namespace stridekit::internal

#endif  // STRIDEKIT_LIB_WORKER_POOL_H_
