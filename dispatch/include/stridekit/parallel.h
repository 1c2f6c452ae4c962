// Running work on threads: the library's persistent worker pool behind
// every dispatched kernel's threads (NumericOptions, CopyOptions), for
// callers that run their own loops over an IterationPlan.
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
void RunParallel(int parts, const std::function<void(int)>& run);

// Runs run(begin, end) over PartitionOuter(plan, threads), as RunParallel.
// `run` must be safe to call concurrently on disjoint ranges; an exception
// from any range is rethrown after all have finished.
void RunPartitioned(const IterationPlan& plan, int threads,
                    const std::function<void(int64_t, int64_t)>& run);

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_PARALLEL_H_
