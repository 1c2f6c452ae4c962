// A batch of matrix products (simd/contraction/contraction_task.h) on threads:
// the task split into parts over batch positions, or over the rows (m) or
// columns (n) of each product, never over k, so every element's sum is the
// same bits for any thread count.
#ifndef STRIDEKIT_DISPATCH_GEMM_PARTS_H_
#define STRIDEKIT_DISPATCH_GEMM_PARTS_H_

#include <cstdint>
#include <vector>

#include "dispatch/executor.h"
#include "simd/contraction/contraction_task.h"

namespace stridekit::dispatch {

// Products below this many multiply-adds per part run on fewer parts.
inline constexpr int64_t kMinGemmWorkPerPart = int64_t{1} << 18;

// [0, size) cut at the returned bounds (0 first, size last) into at most
// `parts` ranges of nearly equal length, none shorter than `least` (unless
// size is), the cuts at multiples of `grain` when the ranges are at least
// that long.
std::vector<int64_t> SplitRange(int64_t size, int64_t parts, int64_t grain,
                                int64_t least);

// Sub-tasks of `task` (scratch unset) for up to `threads` threads: whole
// batch ranges when the batch has a position per thread, else per batch
// position ranges of rows (m) or, when n is larger, of at least two columns
// (a one-column part would take the dot-product path, another summation
// order). Each element of C is in exactly one sub-task.
std::vector<GemmTask> SplitGemm(const GemmTask& task, int threads);

// Runs `task` with ex's kernel on up to `threads` threads (RunParallel),
// each part with scratch of its own, all in one AllocateBuffer made before
// C is first written (kNoMemory leaves C untouched). Notes the kernel's
// target on the calling thread.
void RunGemm(const Executor& ex, const GemmTask& task, int threads,
             const char* op);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_GEMM_PARTS_H_
