// One Executor per runnable target: the kernels a call runs, chosen once
// when the call is planned. A Highway target's executor holds that target's
// per-target kernels (the entries of the simd/ kernel tables), which the
// engine (dispatch/*.cc) runs; on the reference executor a plan runs its
// kernel function's reference runner (dispatch/kernel_function.h), the
// scalar loops of lib/. Plans check their arguments, select the executor
// once (SelectedExecutor) and keep it: nothing inside a call selects again,
// so a call never mixes targets.
#ifndef STRIDEKIT_DISPATCH_EXECUTOR_H_
#define STRIDEKIT_DISPATCH_EXECUTOR_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "simd/cast/cast_task.h"
#include "simd/common/numeric_task.h"
#include "simd/contraction/contraction_task.h"
#include "simd/contraction/einsum_nest_task.h"
#include "simd/contraction/multiply_add_task.h"
#include "simd/copy/copy_task.h"
#include "simd/index/index_kernels.h"
#include "simd/select/select_task.h"
#include "stridekit/copy.h"
#include "stridekit/numeric_options.h"
#include "stridekit/ops.h"
#include "stridekit/projections.h"

namespace stridekit::dispatch {

// A target's kernels: for a Highway target one entry of each simd/ kernel
// table; the reference has only the index kernels (lib/index_reference.h).
struct TargetKernels {
  simd::CopyKernel copy;
  simd::CastKernel cast;
  // Contiguous rows of a cast, for plans resolved once (DirectCast).
  simd::CastRowLookup cast_row;
  // Indexed by KernelFamily (simd/common/numeric_task.h).
  simd::ElementwiseKernelFn elementwise[kNumKernelFamilies];
  // Their rows, for plans resolved once (DirectElementwise).
  simd::ElementwiseRowLookup elementwise_row[kNumKernelFamilies];
  simd::ReduceKernelFn reduce[kNumKernelFamilies];
  simd::GemmKernel gemm;
  simd::GemmKernel gemm_scratch_bytes;
  simd::RavelBatchFn ravel_batch;
  simd::UnravelBatchFn unravel_batch;
  simd::ViewOffsetsFn view_offsets;
  // Comparisons and predicates (float, integer families) and where; the
  // reference has none (its runners are lib/'s loops).
  simd::SelectKernelFn compare_float, compare_integer, where;
  // The multiply-add rule alone (dispatch/multiply_add.h).
  simd::MultiplyAddKernel multiply_add;
  // Small einsums' direct nests (dispatch/einsum_direct.h); the reference
  // has none.
  simd::EinsumNestKernel einsum_nest;
};

struct Executor {
  const char* name;    // "AVX3", ..., "reference".
  int64_t hwy_target;  // 0 for the reference.
  TargetKernels kernels;
  bool IsReference() const { return hwy_target == 0; }
};

// The entry of `ex`'s target in one of a kernel function's simd/ tables per
// kernel family (FamilyTables: their getters, in KernelFamily order). A
// kernel function whose tables TargetKernels does not list reads its own
// through this where it resolves a call on a Highway target (never on the
// reference, which has no table entries).
template <auto... FamilyTables>
auto FamilyKernel(const Executor& ex, KernelFamily family) {
  static_assert(sizeof...(FamilyTables) == kNumKernelFamilies);
  static const std::array tables{FamilyTables()...};
  return tables[size_t(family)].ForTarget(ex.hwy_target);
}

// The executor of the selected target. Throws kUnsupported, prefixed with
// `op`, while an invalid STRIDEKIT_TARGET is in force.
const Executor& SelectedExecutor(const char* op);

// Records for LastKernelTarget() that the code of `hwy_target` (0: the
// reference) ran a kernel on this thread.
void NoteKernelRan(int64_t hwy_target);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_EXECUTOR_H_
