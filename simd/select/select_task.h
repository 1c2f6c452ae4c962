// What the per-target kernels of the bool-output families and of where run:
// comparisons (out SK_BOOL = a op b), predicates (out SK_BOOL = op(a)) and
// where (out = cond ? a : b) over outer positions [begin, end) of a plan.
#ifndef STRIDEKIT_SIMD_SELECT_SELECT_TASK_H_
#define STRIDEKIT_SIMD_SELECT_SELECT_TASK_H_

#include <cstdint>

#include "simd/dispatch_table.h"
#include "stridekit/dtype.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/ops.h"

namespace stridekit {

enum class SelectKind : int { kCompare, kPredicate, kWhere };

// Operand 0 of the plan (never tiled) is the output, the others the inputs
// in argument order (compare: a, b; predicate: a; where: cond, a, b), each
// fully valid and not overlapping the output (dispatch/ resolved masks and
// overlaps; where's a or b may be the output exactly). Outputs of compare
// and predicate are bytes 0/1; where moves DTypeSize(dtype) bytes per
// element. Kernels never throw or allocate.
struct SelectTask {
  const IterationPlan* plan;
  SelectKind kind;
  CompareOp compare;
  PredicateOp predicate;
  DType dtype;
  void* out;
  const void* in[3];
  int64_t begin;
  int64_t end;
};

namespace simd {

// Per target: run the task, return HWY_TARGET. Compare*Kernels run
// comparisons and predicates of their dtypes (float: float16, bfloat16,
// float32, float64, complex; integer: bool and the integers), Where any
// dtype by element size.
using SelectKernelFn = int64_t (*)(const SelectTask&);
KernelTable<SelectKernelFn> CompareFloatKernels();
KernelTable<SelectKernelFn> CompareIntegerKernels();
KernelTable<SelectKernelFn> WhereKernels();

}  // namespace simd
}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_SELECT_SELECT_TASK_H_
