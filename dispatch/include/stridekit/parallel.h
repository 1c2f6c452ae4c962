// Running work on threads: the library's persistent worker pool (or the
// host's executor) behind every dispatched kernel's threads (NumericOptions,
// CopyOptions), for callers that run their own loops over an IterationPlan;
// and the process-wide thread count the C ABI passes to the kernels.
#ifndef STRIDEKIT_PARALLEL_H_
#define STRIDEKIT_PARALLEL_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>
#include <functional>

#include "stridekit/iteration_plan.h"

namespace stridekit {

// Runs run(0), ..., run(parts - 1), all finished before return: part 0 on
// the calling thread, the others on the library's persistent worker threads
// (a part whose worker is not yet awake runs on the calling thread), or on
// std::threads of their own while another call holds the workers. The parts
// must be safe to run concurrently. An exception from any part is rethrown
// after all have finished. When a thread cannot be started, the parts it
// would have run run on the calling thread instead.
// With a host executor set (SetExecutor), the parts run on the host's
// pool instead; a RunParallel called from inside a part then runs its own
// parts one after another on the calling thread.
void RunParallel(int parts, const std::function<void(int)>& run);

// Runs run(begin, end) over PartitionOuter(plan, threads), as RunParallel
// (on the calling thread alone, with no std::function to build, for one
// thread or fewer than two outer positions). `run` must be safe to call
// concurrently on disjoint ranges; an exception from any range is rethrown
// after all have finished.
template <class Run>
void RunPartitioned(const IterationPlan& plan, int threads, Run&& run) {
  const int64_t outer = plan.outer_size();
  if (threads <= 1 || outer < 2) {
    run(int64_t{0}, outer);
    return;
  }
  const Dims bounds = PartitionOuter(plan, threads);
  RunParallel(int(bounds.size() - 1),
              [&](int i) { run(bounds[i], bounds[i + 1]); });
}

// The process-wide thread count (sk_set_threads): 1 (the default) runs on
// the calling thread; 0 means every core (std::thread::hardware_concurrency,
// 1 when unknown). Throws kInvalidArgument for a negative n or one above
// kMaxThreads. GetThreads returns the resolved count, at least 1.
inline constexpr int kMaxThreads = 1024;
void SetThreads(int n);
int GetThreads();

// A host's thread pool (sk_set_executor): run(host, nparts, part, job) must
// call part(job, i) once for every i in [0, nparts), from any threads, and
// return when all have finished. Parts never throw into the host. A null
// run restores the library's own pool.
using PartFn = void (*)(void* job, int64_t i);
using ExecutorFn = void (*)(void* host, int64_t nparts, PartFn part, void* job);
void SetExecutor(ExecutorFn run, void* host);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_PARALLEL_H_
