// Per-target elementwise executors over a plan's outer positions [begin,
// end): the row kernels of numeric-inl.h (half_rows-inl.h for float16 and
// bfloat16, complex_rows-inl.h for complex) on each row. Shared by the
// family translation units (elementwise_<family>.cc, generated from
// simd/family_unit.cc.in; numeric_task.h), which compile in parallel.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_ELEMENTWISE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
#undef STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
#else
#define STRIDEKIT_SIMD_ELEMENTWISE_INL_H_
#endif

#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/common/complex_rows-inl.h"
#include "simd/common/half_rows-inl.h"
#include "simd/common/numeric-inl.h"
#include "simd/common/numeric_task.h"
#include "simd/copy/copy-inl.h"
#include "simd/elementwise/math-inl.h"
#include "simd/kernel_dtype.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// One 2-D slab of a tiled plan: out[r, c] = Op(x[r, c], y[r, c]) for r <
// rows, c < cols, where the input in slot `t` (the transposed one) has
// stride 1 along r. Element (r, c) of operand k is at
// base[k][r * row[k] + c * col[k]]; operand 0 is the output. Where the
// target has register transposes, the output is contiguous along c and the
// other input contiguous or broadcast along c, N x N tiles (columns outer)
// are loaded along r, transposed in registers and combined with the other
// input by rows: one pass, every access a whole vector. The ragged edges,
// and everything on other targets, layouts or ops without a vector form, by
// rows with strided loads.
template <class Op, RowLayouts kLayouts, class D, typename T = hn::TFromD<D>>
void RunSlab(D d, T* out, const T* const* in, const int64_t* row,
             const int64_t* col, int t, size_t rows, size_t cols) {
  constexpr bool unary = kLayouts.unary;
  // The fused tiles' extent: rows [0, full_rows), columns [first_col,
  // full_cols).
  size_t full_rows = 0, first_col = 0, full_cols = 0;
#if STRIDEKIT_REGISTER_TRANSPOSE
  const int64_t other_col = unary ? 0 : col[2 - t];
  if constexpr (Op::template kVector<T>) {
    if (CanTransposeInRegisters(d) && col[0] == 1 && row[t + 1] == 1 &&
        (other_col == 0 || other_col == 1)) {
      const size_t N = hn::Lanes(d);
      // For ops cheaper than a store that straddles a cache line (not the
      // block ops), when every output row starts at the same offset within
      // a vector, the tiles start at the first column whose stores are
      // aligned; the columns before go by rows.
      const size_t bytes = N * sizeof(T);
      if (!BlockOp<Op> && cols >= 4 * N &&
          (static_cast<uint64_t>(row[0]) * sizeof(T)) % bytes == 0) {
        // N (no boundary: `out` not element-aligned) means no shift.
        first_col = simd::ElementsToAlignment(out, bytes, N) % N;
      }
      full_rows = rows - rows % N;
      full_cols = cols - (cols - first_col) % N;
      const int other = 1 - t;
      hn::Vec<D> v[64 / sizeof(T)];
      for (size_t c0 = first_col; c0 < full_cols; c0 += N) {
        for (size_t r0 = 0; r0 < full_rows; r0 += N) {
          const T* x = in[t] + int64_t(r0) + int64_t(c0) * col[t + 1];
          for (size_t k = 0; k < N; ++k) {
            v[k] = hn::LoadU(d, x + int64_t(k) * col[t + 1]);
          }
          TransposeSquare(d, v);
          for (size_t j = 0; j < N; ++j) {
            const int64_t r = int64_t(r0 + j);
            auto yv = hn::Zero(d);
            if (!unary) {
              const T* y =
                  in[other] + r * row[other + 1] + int64_t(c0) * other_col;
              yv = other_col ? hn::LoadU(d, y) : hn::Set(d, *y);
            }
            const auto result =
                t == 0 ? Op::Vec(d, v[j], yv) : Op::Vec(d, yv, v[j]);
            hn::StoreU(result, d, out + r * row[0] + int64_t(c0));
          }
        }
      }
    }
  }
#else
  (void)t;
#endif
  // The rest by rows: the head and tail columns of the tiled rows, then
  // whole rows.
  const T zero = T(0);
  const auto by_row = [&](size_t r, size_t c0, size_t c1) {
    const auto at = [&](int k) {
      return in[k] + int64_t(r) * row[k + 1] + int64_t(c0) * col[k + 1];
    };
    RunRow<Op, kLayouts>(d, out + int64_t(r) * row[0] + int64_t(c0) * col[0],
                         col[0], at(0), col[1], unary ? &zero : at(1),
                         unary ? 0 : col[2], c1 - c0);
  };
  for (size_t r = 0; r < rows; ++r) {
    if (r < full_rows) {
      if (first_col > 0) by_row(r, 0, first_col);
      if (full_cols < cols) by_row(r, full_cols, cols);
    } else {
      by_row(r, 0, cols);
    }
  }
}

// A tiled plan (a transposed input; never a prechecked op): slab by slab.
template <typename T, class Op, RowLayouts kLayouts>
void RunTiledElementwiseFor(const ElementwiseTask& task) {
  const hn::ScalableTag<T> d;
  const IterationPlan& plan = *task.plan;
  constexpr bool unary = kLayouts.unary;
  const int operands = unary ? 2 : 3;
  // A tiled plan has the tile's two axes (stated for the compiler).
  if (plan.ndim() < 2) return;
  const int tile_axis = plan.ndim() - 2;
  int64_t row[3] = {}, col[3] = {};
  int transposed = 0;
  for (int k = 0; k < operands; ++k) {
    row[k] = plan.strides(k)[tile_axis];
    col[k] = plan.inner_stride(k);
    if (k > 0 && plan.inner_kind(k) == InnerKind::kTransposed) {
      transposed = k - 1;
    }
  }
  const size_t rows = static_cast<size_t>(plan.shape()[tile_axis]);
  const size_t cols = static_cast<size_t>(plan.inner_size());
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    const T* in[2] = {
        static_cast<const T*>(task.in[0]) + chunk.offsets[1],
        unary ? nullptr : static_cast<const T*>(task.in[1]) + chunk.offsets[2]};
    RunSlab<Op, kLayouts>(d, static_cast<T*>(task.out) + chunk.offsets[0], in,
                          row, col, transposed, rows, cols);
  }
}

// Runs the plan's rows (or tiles) with Op (unary where kLayouts.unary).
template <typename T, class Op, RowLayouts kLayouts>
void RunElementwiseFor(const ElementwiseTask& task) {
  const hn::ScalableTag<T> d;
  const IterationPlan& plan = *task.plan;
  // Tiled plans only for lanes that transpose in registers (MayTile).
  if constexpr (sizeof(T) >= 4) {
    if (plan.tiled()) return RunTiledElementwiseFor<T, Op, kLayouts>(task);
  }
  T* out = static_cast<T*>(task.out);
  const T* a = static_cast<const T*>(task.in[0]);
  // Unary ops read a zero broadcast as their ignored second operand.
  const T zero = T(0);
  constexpr bool unary = kLayouts.unary;
  const T* b = unary ? &zero : static_cast<const T*>(task.in[1]);
  // An untiled plan's inner axis is its last (rank 0: one element).
  const int inner = plan.ndim() - 1;
  const size_t count =
      inner >= 0 ? static_cast<size_t>(plan.shape()[inner]) : size_t{1};
  const int64_t out_stride = inner >= 0 ? plan.strides(0)[inner] : 0;
  const int64_t a_stride = inner >= 0 ? plan.strides(1)[inner] : 0;
  const int64_t b_stride = unary || inner < 0 ? 0 : plan.strides(2)[inner];
  if (plan.outer_ndim() == 0 && task.begin == 0 && task.end == 1) {
    // One row (a plan's part of a small call): no row walk.
    RunRow<Op, kLayouts>(
        d, out + plan.offset(0), out_stride, a + plan.offset(1), a_stride,
        unary ? b : b + plan.offset(2), b_stride, count, task.stream);
    if (task.stream) hwy::FlushStream();
    return;
  }
  ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
    RunRow<Op, kLayouts>(d, out + offsets[0], out_stride, a + offsets[1],
                         a_stride, unary ? b : b + offsets[2], b_stride, count,
                         task.stream);
  });
  if (task.stream) hwy::FlushStream();
}

// Runs the plan's rows with the row kernel Row(out, out_stride, a,
// a_stride, b, b_stride, count) of storage type T (plans of the families
// that never tile).
template <typename T, class Row>
void RunRowsFor(const ElementwiseTask& task, Row row) {
  const IterationPlan& plan = *task.plan;
  T* out = static_cast<T*>(task.out);
  const T* a = static_cast<const T*>(task.in[0]);
  const T zero{};
  const bool unary = task.kernel.unary;
  const T* b = unary ? &zero : static_cast<const T*>(task.in[1]);
  const size_t count = static_cast<size_t>(plan.inner_size());
  ForEachChunk(plan, task.begin, task.end, [&](const int64_t* offsets) {
    row(out + offsets[0], plan.inner_stride(0), a + offsets[1],
        plan.inner_stride(1), unary ? b : b + offsets[2],
        unary ? 0 : plan.inner_stride(2), count);
  });
}

// The functor that runs Op on integer lanes of T, sharing the rows of the
// op that computes the same there: the identity (floor, ceil, rint, trunc;
// abs of unsigned) TruncOp's, fmax and fmin maximum's and minimum's,
// floor_divide divide's (its operand check stays its own, in dispatch/), as
// bool ops share BoolRowOp's.
template <class Op, typename T, bool kInt = std::is_integral_v<T>>
struct IntegerRow {
  using type = Op;
};
template <class Op, typename T>
struct IntegerRow<Op, T, true> {
  static constexpr bool kIdentity =
      std::is_same_v<Op, FloorOp> || std::is_same_v<Op, CeilOp> ||
      std::is_same_v<Op, RintOp> ||
      (std::is_same_v<Op, AbsOp> && std::is_unsigned_v<T>);
  using type = std::conditional_t<
      kIdentity, TruncOp,
      std::conditional_t<
          std::is_same_v<Op, FmaxOp>, MaxOp,
          std::conditional_t<
              std::is_same_v<Op, FminOp>, MinOp,
              std::conditional_t<std::is_same_v<Op, FloorDivideOp>, DivOp,
                                 Op>>>>;
};
template <class Op, typename T>
using IntegerRowOp = typename IntegerRow<Op, T>::type;

// simd::ElementwiseRowFn of RunRow<Op, kLayouts> on lanes of T.
template <typename T, class Op, RowLayouts kLayouts>
void TypedRow(void* out, int64_t out_stride, const void* a, int64_t a_stride,
              const void* b, int64_t b_stride, size_t count, bool stream) {
  const hn::ScalableTag<T> d;
  const auto row = [&] {
    RunRow<Op, kLayouts>(d, static_cast<T*>(out), out_stride,
                         static_cast<const T*>(a), a_stride,
                         static_cast<const T*>(b), b_stride, count, stream);
  };
  if (!stream) return row();  // A tail call.
  row();
  hwy::FlushStream();
}

// The row RunOpFor runs Op with on storage type T where it runs by lanes of
// T (bool as bytes), else null.
template <typename T, class Op, RowLayouts kLayouts>
simd::ElementwiseRowFn RowOpFor() {
  if constexpr (std::is_same_v<T, Bool>) {
    return &TypedRow<uint8_t, BoolRowOp<Op>, kLayouts>;
  } else if constexpr (kIsHalf<T> || kIsComplex<T> ||
                       !IntegerRowOp<Op, T>::template kVector<T>) {
    return nullptr;
  } else {
    return &TypedRow<T, IntegerRowOp<Op, T>, kLayouts>;
  }
}

// Op on storage type T: bool as bytes, float16/bfloat16 through float32,
// complex on interleaved lanes, the rest on lanes of T.
template <typename T, class Op, RowLayouts kLayouts>
void RunOpFor(const ElementwiseTask& task) {
  if constexpr (std::is_same_v<T, Bool>) {
    RunElementwiseFor<uint8_t, BoolRowOp<Op>, kLayouts>(task);
  } else if constexpr (kIsHalf<T> && std::is_same_v<Op, NextafterOp>) {
    // Steps of T's own bits, not float32's: scalar on T.
    RunRowsFor<T>(task, [](T* out, int64_t os, const T* a, int64_t as,
                           const T* b, int64_t bs, size_t count) {
      for (size_t i = 0; i < count; ++i) {
        const int64_t k = int64_t(i);
        out[k * os] = scalar_ops::Nextafter(a[k * as], b[k * bs]);
      }
    });
  } else if constexpr (kIsHalf<T>) {
    RunRowsFor<T>(task, [](auto... row) { HalfRow<Op>(row...); });
  } else if constexpr (kIsComplex<T>) {
    RunRowsFor<T>(task, [](auto... row) { ComplexRow<Op>(row...); });
  } else if constexpr (!IntegerRowOp<Op, T>::template kVector<T>) {
    // No vector form: the scalar executor shared by every target.
    RunScalarElementwise<T, IntegerRowOp<Op, T>::template kScalar<T>>(task);
  } else {
    RunElementwiseFor<T, IntegerRowOp<Op, T>, kLayouts>(task);
  }
}

// An op's functor and the row layouts it compiles.
template <class Op, RowLayouts kLayouts>
struct OpRow {
  using type = Op;
  static constexpr RowLayouts layouts = kLayouts;
};

// The op-table switch: fn(OpRow<NameOp, layouts>{}) for kernel's row where
// it accepts T and this executor runs it (RunsHere); nothing otherwise.
template <typename T, FloatRows kRows, class Fn>
void VisitOpRow(const ElementwiseKernel& kernel, Fn&& fn) {
  if (kernel.unary) {
    switch (kernel.unary_op) {
#define STRIDEKIT_UNARY_CASE(Name, value, name, kinds, prechecked) \
  case UnaryOp::k##Name:                                           \
    if constexpr (((kinds)&kKindOf<T>) != 0 &&                     \
                  RunsHere<T, kRows>(UnaryOp::k##Name)) {          \
      fn(OpRow<Name##Op, kUnaryLayouts>{});                        \
    }                                                              \
    return;
      STRIDEKIT_UNARY_OPS(STRIDEKIT_UNARY_CASE)
#undef STRIDEKIT_UNARY_CASE
    }
    return;
  }
  switch (kernel.binary) {
#define STRIDEKIT_BINARY_CASE(Name, value, name, kinds, prechecked) \
  case BinaryOp::k##Name:                                           \
    if constexpr (((kinds)&kKindOf<T>) != 0 &&                      \
                  RunsHere<T, kRows>(BinaryOp::k##Name)) {          \
      fn(OpRow<Name##Op, kEveryLayout>{});                          \
    }                                                               \
    return;
    STRIDEKIT_BINARY_OPS(STRIDEKIT_BINARY_CASE)
#undef STRIDEKIT_BINARY_CASE
  }
}

// The float family's transcendentals on float, double, float16 and
// bfloat16 (elementwise_float_math.cc): the executor and row lookup that
// the float family's hand them to.
int64_t RunElementwiseFloatMath(const ElementwiseTask& task);
simd::ElementwiseRowFn ElementwiseFloatMathRow(const ElementwiseKernel& kernel,
                                               DType t);

// Runs `task` if its dtype is one of List on this target; returns
// HWY_TARGET.
template <typename List, FloatRows kRows>
int64_t RunElementwiseOf(const ElementwiseTask& task) {
  VisitType(List{}, task.dtype, [&](auto zero) {
    using T = decltype(zero);
    VisitOpRow<T, kRows>(task.kernel, [&](auto row) {
      using Row = decltype(row);
      RunOpFor<T, typename Row::type, Row::layouts>(task);
    });
  });
  return HWY_TARGET;
}

// simd::ElementwiseRowLookup over the types of List on this target.
template <typename List, FloatRows kRows>
simd::ElementwiseRowFn ElementwiseRowOf(const ElementwiseKernel& kernel,
                                        DType t) {
  simd::ElementwiseRowFn fn = nullptr;
  VisitType(List{}, t, [&](auto zero) {
    using T = decltype(zero);
    VisitOpRow<T, kRows>(kernel, [&](auto row) {
      using Row = decltype(row);
      fn = RowOpFor<T, typename Row::type, Row::layouts>();
    });
  });
  return fn;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_ELEMENTWISE_INL_H_

// The elementwise kernels of dtype family F (Float, Half, Signed, Unsigned
// or Complex: F##Family of numeric_task.h), for the family's generated
// translation unit (simd/family_unit.cc.in): per target, the executor and
// its row lookup (simd::ElementwiseRowLookup) of every row but the float
// family's transcendentals, which they hand to elementwise_float_math.cc;
// then, in its HWY_ONCE part, their tables Elementwise##F##Kernels and
// ElementwiseRow##F##Kernels.
#ifndef STRIDEKIT_FAMILY_EXECUTORS
#define STRIDEKIT_FAMILY_EXECUTORS(F)                                       \
  constexpr bool kHandsOnMath = std::is_same_v<F##Family, FloatFamily>;     \
  int64_t RunElementwise##F(const ElementwiseTask& task) {                  \
    if (kHandsOnMath && task.kernel.transcendental()) {                     \
      return RunElementwiseFloatMath(task);                                 \
    }                                                                       \
    return RunElementwiseOf<F##Family, FloatRows::kOthers>(task);           \
  }                                                                         \
  simd::ElementwiseRowFn ElementwiseRow##F(const ElementwiseKernel& kernel, \
                                           DType t) {                       \
    if (kHandsOnMath && kernel.transcendental()) {                          \
      return ElementwiseFloatMathRow(kernel, t);                            \
    }                                                                       \
    return ElementwiseRowOf<F##Family, FloatRows::kOthers>(kernel, t);      \
  }
#define STRIDEKIT_FAMILY_TABLES(F)                                          \
  STRIDEKIT_EXPORT_KERNEL_TABLE(RunElementwise##F, Elementwise##F##Kernels) \
  STRIDEKIT_EXPORT_KERNEL_TABLE(ElementwiseRow##F, ElementwiseRow##F##Kernels)
#endif
