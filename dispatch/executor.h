// One Executor per runnable target: the kernels a call runs, chosen once
// when the call starts. A Highway target's executor holds that target's
// per-target kernels (the entries of the simd/ kernel tables) and runs the
// engine (dispatch/*.cc) with them; the reference executor runs the scalar
// reference loops of lib/. Entry points check their arguments, select the
// executor once (SelectedExecutor) and pass it down: nothing inside a call
// selects again, so a call never mixes targets.
#ifndef STRIDEKIT_DISPATCH_EXECUTOR_H_
#define STRIDEKIT_DISPATCH_EXECUTOR_H_

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
#include "simd/scan/scan_task.h"
#include "simd/select/select_task.h"
#include "stridekit/copy.h"
#include "stridekit/numeric_options.h"
#include "stridekit/ops.h"
#include "stridekit/projections.h"

namespace stridekit::dispatch {

struct Executor;

// The operations a target runs on checked arguments (plans, which the
// public entry points of copy.h, cast.h, elementwise.h, compare.h,
// where.h, reduce.h, einsum.h, arg_reduce.h and scan.h make and execute,
// call these).
struct Operations {
  void (*copy)(const Executor& ex, size_t elem_size, const sk_view& src,
               const void* src_data, const sk_view& dst, void* dst_data,
               const void* fill, const CopyOptions& options);
  void (*binary)(const Executor& ex, BinaryOp op, DType t, const sk_view& a,
                 const void* a_data, const sk_view& b, const void* b_data,
                 const sk_view& out, void* out_data,
                 const NumericOptions& options);
  void (*unary)(const Executor& ex, UnaryOp op, DType t, const sk_view& a,
                const void* a_data, const sk_view& out, void* out_data,
                const NumericOptions& options);
  // `reduced`: per axis of `in`, 1 when reduced (CheckReduceArguments).
  void (*reduce)(const Executor& ex, ReduceOp op, DType t, const sk_view& in,
                 const void* in_data, DimsView reduced, const sk_view& out,
                 void* out_data, const NumericOptions& options);
  // `p`: the projections CheckEinsumArguments returned.
  void (*cast)(const Executor& ex, DType src_t, const sk_view& src,
               const void* src_data, DType dst_t, const sk_view& dst,
               void* dst_data, const CopyOptions& options);
  void (*einsum)(const Executor& ex, const Projections& p, DType t,
                 std::span<const sk_view> operands,
                 std::span<const void* const> datas, const sk_view& out,
                 void* out_data, const NumericOptions& options);
  // `axis`: 0 .. in.ndim - 1 (CheckArgReduceArguments, CheckScanArguments).
  void (*arg_reduce)(const Executor& ex, ArgOp op, DType t, const sk_view& in,
                     const void* in_data, int axis, const sk_view& out,
                     void* out_data, const NumericOptions& options);
  void (*scan)(const Executor& ex, ScanOp op, DType t, const sk_view& in,
               const void* in_data, int axis, const sk_view& out,
               void* out_data, const NumericOptions& options);
  void (*compare)(const Executor& ex, CompareOp op, DType t, const sk_view& a,
                  const void* a_data, const sk_view& b, const void* b_data,
                  const sk_view& out, void* out_data,
                  const NumericOptions& options);
  void (*predicate)(const Executor& ex, PredicateOp op, DType t,
                    const sk_view& a, const void* a_data, const sk_view& out,
                    void* out_data, const NumericOptions& options);
  void (*where)(const Executor& ex, DType t, const sk_view& cond,
                const void* cond_data, const sk_view& a, const void* a_data,
                const sk_view& b, const void* b_data, const sk_view& out,
                void* out_data, const NumericOptions& options);
};

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
  // reference has none (its Operations run lib/'s loops).
  simd::SelectKernelFn compare_float, compare_integer, where;
  // Indexed by KernelFamily (simd/scan/scan_task.h).
  simd::AxisKernelFn scan[kNumKernelFamilies];
  simd::AxisKernelFn arg_reduce[kNumKernelFamilies];
  // The multiply-add rule alone (dispatch/multiply_add.h).
  simd::MultiplyAddKernel multiply_add;
  // Small einsums' direct nests (dispatch/einsum_direct.h); the reference
  // has none.
  simd::EinsumNestKernel einsum_nest;
};

struct Executor {
  const char* name;    // "AVX3", ..., "reference".
  int64_t hwy_target;  // 0 for the reference.
  Operations run;
  TargetKernels kernels;
  bool IsReference() const { return hwy_target == 0; }
};

// The executor of the selected target. Throws kUnsupported, prefixed with
// `op`, while an invalid STRIDEKIT_TARGET is in force.
const Executor& SelectedExecutor(const char* op);

// The engine's operations (dispatch/engine.h) and the reference's
// (lib/reference_kernels.h), and the reference's index kernels
// (dispatch/operations.cc).
Operations EngineOperations();
Operations ReferenceOperations();
TargetKernels ReferenceKernels();

// Records for LastKernelTarget() that the code of `hwy_target` (0: the
// reference) ran a kernel on this thread.
void NoteKernelRan(int64_t hwy_target);

}  // namespace stridekit::dispatch

#endif  // STRIDEKIT_DISPATCH_EXECUTOR_H_
