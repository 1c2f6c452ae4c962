// What a per-target cast executor runs: a planned conversion over outer
// positions [begin, end) of `plan`, operand 0 the destination (dst_t) and
// operand 1 the source (src_t), neither overlapping the other except by the
// same mapping with equal element sizes.
#ifndef STRIDEKIT_SIMD_CAST_CAST_TASK_H_
#define STRIDEKIT_SIMD_CAST_CAST_TASK_H_

#include <cstddef>
#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/dtype.h"
#include "stridekit/iteration_plan.h"

namespace stridekit {

struct CastTask {
  const IterationPlan* plan;
  const void* src;  // Element 0 of the source buffer.
  void* dst;        // Element 0 of the destination buffer.
  DType src_t;
  DType dst_t;
  int64_t begin;
  int64_t end;
};

namespace simd {

// The per-target cast kernels: run `task`, return HWY_TARGET.
using CastKernel = int64_t (*)(const CastTask&);
KernelTable<CastKernel> CastKernels();

// A contiguous row of one (source, destination) dtype pair, resolved once
// (a plan's dense path): to[i] = the cast of from[i] for i < count, both
// pointers aligned to their element sizes, the bits of CastKernel's rows.
// Returns HWY_TARGET.
using CastRowFn = int64_t (*)(const void* from, void* to, size_t count);
// A target's vector row of the pair (src_t, dst_t), or nullptr.
using CastRowLookup = CastRowFn (*)(DType src_t, DType dst_t);
KernelTable<CastRowLookup> CastRowKernels();

}  // namespace simd
}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_CAST_CAST_TASK_H_
