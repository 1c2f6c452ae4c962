// What the per-target numeric executors run: planned elementwise operations
// and reductions over outer positions [begin, end) of a plan.
#ifndef STRIDEKIT_SIMD_COMMON_NUMERIC_TASK_H_
#define STRIDEKIT_SIMD_COMMON_NUMERIC_TASK_H_

#include <cstddef>
#include <cstdint>

#include "numeric_types.h"
#include "simd/dispatch_table.h"
#include "simd/kernel_dtype.h"
#include "stridekit/dtype.h"
#include "stridekit/iteration_plan.h"
#include "stridekit/ops.h"

namespace stridekit {

// The kernel families: each is one translation unit per kernel kind
// (elementwise_<family>.cc, reduce_<family>.cc, scan_<family>.cc, generated
// by simd/meson.build), so that they compile in parallel; together they
// hold every type of NumericTypes once.
enum class KernelFamily : int { kFloat, kHalf, kSigned, kUnsigned, kComplex };
inline constexpr int kNumKernelFamilies = 5;
using FloatFamily = TypeList<float, double>;
// The float family's elementwise executors: also float16 and bfloat16's
// transcendentals (ElementwiseKernel::FamilyFor).
using FloatElementwiseTypes = TypeList<float, double, Float16, BFloat16>;
using HalfFamily = TypeList<Float16, BFloat16>;
using SignedFamily = TypeList<int8_t, int16_t, int32_t, int64_t>;
using UnsignedFamily = TypeList<Bool, uint8_t, uint16_t, uint32_t, uint64_t>;
using ComplexFamily = TypeList<Complex64, Complex128>;

// The family of a numeric dtype.
inline KernelFamily FamilyOf(DType t) {
  KernelFamily family = KernelFamily::kFloat;
  const auto is = [&](auto list, KernelFamily f) {
    if (VisitType(list, t, [](auto) {})) family = f;
  };
  is(HalfFamily{}, KernelFamily::kHalf);
  is(SignedFamily{}, KernelFamily::kSigned);
  is(UnsignedFamily{}, KernelFamily::kUnsigned);
  is(ComplexFamily{}, KernelFamily::kComplex);
  return family;
}

// An elementwise kernel: a binary op, or a unary one.
struct ElementwiseKernel {
  bool unary;
  BinaryOp binary;
  UnaryOp unary_op;
  // True when the op's integer operands are checked at every position
  // before anything is written (a prechecked op-table row): such a task
  // runs as one part, by rows (no tiles).
  bool ChecksOperands(DType t) const {
    return IsInteger(t) &&
           (unary ? FindOp(unary_op)->prechecked : FindOp(binary)->prechecked);
  }
  // True when a plan for dtype t may be tiled (a transposed input read by
  // register tiles, which need 32- or 64-bit lanes): not for checked
  // operands, narrower lanes, nor the families that run by rows only
  // (float16/bfloat16 staged through float32, complex).
  // The dtype whose kernel runs this op on t (KernelDType).
  DType KernelDTypeFor(DType t) const {
    return unary ? KernelDType(unary_op, t) : KernelDType(binary, t);
  }
  // The family whose executors run this op on t: KernelDTypeFor(t)'s,
  // except float16 and bfloat16's transcendentals, the float family's.
  KernelFamily FamilyFor(DType t) const {
    const KernelFamily f = FamilyOf(KernelDTypeFor(t));
    return f == KernelFamily::kHalf && transcendental() ? KernelFamily::kFloat
                                                        : f;
  }
  // A transcendental op (kernel_dtype.h).
  bool transcendental() const {
    return unary ? Transcendental(unary_op) : Transcendental(binary);
  }
  bool MayTile(DType t) const {
    const KernelFamily f = FamilyOf(t);
    return !ChecksOperands(t) && DTypeSize(t) >= 4 &&
           f != KernelFamily::kHalf && f != KernelFamily::kComplex;
  }
};

// Operand 0 of the plan is the output, operands 1 (and 2 for binary ops)
// the inputs, each fully valid (masks and overlaps resolved by dispatch/).
// The output may be an input exactly (same element at every position).
// The plan may be tiled (a transposed input; IterationPlan::tiled) only when
// kernel.MayTile(dtype). When kernel.ChecksOperands(dtype), dispatch/ has
// checked every
// position's operands (an undefined integer division throws there), and the
// kernel computes without checking. Kernels never throw or allocate.
struct ElementwiseTask {
  const IterationPlan* plan;
  ElementwiseKernel kernel;
  DType dtype;  // Any of NumericTypes the op accepts.
  void* out;    // Element 0 of each buffer.
  const void* in[2];
  int64_t begin;
  int64_t end;
  bool stream = false;  // Non-temporal stores on contiguous output rows.
};

// Operand 0 of the plan is the (fully valid) input, operand 1 the
// accumulator, of type scalar_ops::Accumulator<T> (float32 for float16 and
// bfloat16): stride 0 on the reduced axes, already holding the op's
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

// The per-target numeric kernels of each family: run the task (of a dtype
// of the family), return HWY_TARGET.
using ElementwiseKernelFn = int64_t (*)(const ElementwiseTask&);
using ReduceKernelFn = int64_t (*)(const ReduceTask&);
// One row of an elementwise kernel on its dtype, resolved once (a plan's
// direct path): out[i * out_stride] = op(a[i * a_stride], b[i * b_stride])
// for i < count, strides in elements, out never overlapping an input other
// than as that input itself (a unary op reads b as an ignored broadcast
// zero of the dtype: b_stride 0); non-temporal stores on a contiguous out
// when `stream`, flushed before return.
using ElementwiseRowFn = void (*)(void* out, int64_t out_stride, const void* a,
                                  int64_t a_stride, const void* b,
                                  int64_t b_stride, size_t count, bool stream);
// The row of `kernel` on dtype t (its KernelDTypeFor, of the family), or
// null where the op runs otherwise (float16/bfloat16 and complex rows, ops
// without a vector form): then the task path.
using ElementwiseRowLookup = ElementwiseRowFn (*)(const ElementwiseKernel&,
                                                  DType);
#define STRIDEKIT_FAMILY_TABLES(Family)                                \
  KernelTable<ElementwiseKernelFn> Elementwise##Family##Kernels();     \
  KernelTable<ElementwiseRowLookup> ElementwiseRow##Family##Kernels(); \
  KernelTable<ReduceKernelFn> Reduce##Family##Kernels();
STRIDEKIT_FAMILY_TABLES(Float)
STRIDEKIT_FAMILY_TABLES(Half)
STRIDEKIT_FAMILY_TABLES(Signed)
STRIDEKIT_FAMILY_TABLES(Unsigned)
STRIDEKIT_FAMILY_TABLES(Complex)
#undef STRIDEKIT_FAMILY_TABLES

}  // namespace simd

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_COMMON_NUMERIC_TASK_H_
