// What the per-target axis kernels run: scans (scan.h) and arg reductions
// (arg_reduce.h) along one axis, for outer positions [begin, end) of a plan
// over the other axes.
#ifndef STRIDEKIT_SIMD_SCAN_SCAN_TASK_H_
#define STRIDEKIT_SIMD_SCAN_SCAN_TASK_H_

#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/dtype.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/ops.h"

namespace stridekit {

// Operand 0 of the plan is the output, operand 1 the (fully valid) input,
// over the axes other than the scanned or reduced one; element k along that
// axis is `k * in_step` (`k * out_step`) elements from a position's
// element. Scans: out (of `dtype`) may be the input exactly, else does not
// overlap it; out has `length` elements along the axis. Arg reductions: out
// is int64 (out_step unused), length >= 1. Kernels never throw or allocate.
struct AxisTask {
  const IterationPlan* plan;
  int32_t op;  // A ScanOp or ArgOp value.
  DType dtype;
  void* out;
  const void* in;
  int64_t length;
  int64_t in_step;
  int64_t out_step;
  int64_t begin;
  int64_t end;
};

namespace simd {

// The per-target axis kernels of each family (the generated scan_<family>.cc):
// run the task (of a dtype of the family), return HWY_TARGET.
using AxisKernelFn = int64_t (*)(const AxisTask&);
#define STRIDEKIT_AXIS_TABLES(Family)                \
  KernelTable<AxisKernelFn> Scan##Family##Kernels(); \
  KernelTable<AxisKernelFn> ArgReduce##Family##Kernels();
STRIDEKIT_AXIS_TABLES(Float)
STRIDEKIT_AXIS_TABLES(Half)
STRIDEKIT_AXIS_TABLES(Signed)
STRIDEKIT_AXIS_TABLES(Unsigned)
STRIDEKIT_AXIS_TABLES(Complex)
#undef STRIDEKIT_AXIS_TABLES

}  // namespace simd

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_SCAN_SCAN_TASK_H_
