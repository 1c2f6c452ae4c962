// What the per-target numeric executors run: planned elementwise operations
// and reductions over outer positions [begin, end) of a plan.
#ifndef STRIDEKIT_SIMD_NUMERIC_TASK_H_
#define STRIDEKIT_SIMD_NUMERIC_TASK_H_

#include <cstddef>
#include <cstdint>

#include "dispatch_table.h"
#include "stridekit/dtype.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/ops.h"

namespace stridekit {

// An elementwise kernel: a binary op, or a unary one.
struct ElementwiseKernel {
  bool unary;
  BinaryOp binary;
  UnaryOp unary_op;
  // True when the op's integer operands are checked at every position
  // before anything is written (a prechecked op-table row): such a task
  // runs as one part, by rows (no tiles).
  bool ChecksOperands(DType t) const {
    return !unary && IsInteger(t) && FindOp(binary)->prechecked;
  }
};

// Operand 0 of the plan is the output, operands 1 (and 2 for binary ops)
// the inputs, each fully valid (masks and overlaps resolved by dispatch/).
// The output may be an input exactly (same element at every position).
// The plan may be tiled (a transposed input; IterationPlan::tiled), except
// when kernel.ChecksOperands(dtype): dispatch/ has then checked every
// position's operands (an undefined integer division throws there), and the
// kernel computes without checking. Kernels never throw or allocate.
struct ElementwiseTask {
  const IterationPlan* plan;
  ElementwiseKernel kernel;
  DType dtype;  // Float32, Float64, Int32 or Int64.
  void* out;    // Element 0 of each buffer.
  const void* in[2];
  int64_t begin;
  int64_t end;
  bool stream = false;  // Non-temporal stores on contiguous output rows.
};

// Operand 0 of the plan is the (fully valid) input, operand 1 the
// accumulator: stride 0 on the reduced axes, already holding the op's
// identity (or a partial result) and combined with every input element.
struct ReduceTask {
  const IterationPlan* plan;
  ReduceOp op;
  DType dtype;
  const void* in;
  void* acc;
  int64_t begin;
  int64_t end;
};

namespace simd {

// The per-target numeric kernels: run the task, return HWY_TARGET. Float
// and integer elementwise kernels are separate translation units (they
// compile in parallel).
using ElementwiseKernelFn = int64_t (*)(const ElementwiseTask&);
using ReduceKernelFn = int64_t (*)(const ReduceTask&);
KernelTable<ElementwiseKernelFn> ElementwiseFloatKernels();
KernelTable<ElementwiseKernelFn> ElementwiseIntegerKernels();
KernelTable<ReduceKernelFn> ReduceKernels();

}  // namespace simd

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_NUMERIC_TASK_H_
