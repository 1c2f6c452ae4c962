// Per-target kernels of the bool-output families and of where: lanes of T
// compared into masks, masks written as 0/1 bytes (TruncateTo), and
// IfThenElse on masks widened from condition bytes. Rows use the operand
// loaders of numeric-inl.h (contiguous, broadcast, strided); float16 and
// bfloat16 compare exactly through float32 blocks (half_rows-inl.h);
// complex rows are scalar (compare_ops), as are 16-byte where rows.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_SELECT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_SELECT_INL_H_
#undef STRIDEKIT_SIMD_SELECT_INL_H_
#else
#define STRIDEKIT_SIMD_SELECT_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "compare_scalar.h"
#include "hwy/highway.h"
#include "numeric_types.h"
#include "simd/common/half_rows-inl.h"
#include "simd/common/numeric-inl.h"
#include "simd/kernel_dtype.h"
#include "simd/select/select_task.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// ---- Masks of lanes: Mask(d, a, b) and Scalar(a, b) on lane type T.

// Comparison `op` on lanes. Floats: != is "not ==" (Highway's != is
// ordered), <= and >= IEEE (false with a NaN). Integers: <= is "not >".
template <CompareOp op>
struct CompareLanes {
  template <class D, class V>
  static auto Mask(D, V a, V b) {
    constexpr bool kFloat = hwy::IsFloat<hn::TFromD<D>>();
    if constexpr (op == CompareOp::kEq) {
      return hn::Eq(a, b);
    } else if constexpr (op == CompareOp::kNe) {
      return hn::Not(hn::Eq(a, b));
    } else if constexpr (op == CompareOp::kLt) {
      return hn::Lt(a, b);
    } else if constexpr (op == CompareOp::kGt) {
      return hn::Gt(a, b);
    } else if constexpr (op == CompareOp::kLe) {
      if constexpr (kFloat) {
        return hn::Le(a, b);
      } else {
        return hn::Not(hn::Gt(a, b));
      }
    } else {
      if constexpr (kFloat) {
        return hn::Ge(a, b);
      } else {
        return hn::Not(hn::Lt(a, b));
      }
    }
  }
  template <typename T>
  static bool Scalar(T a, T b) {
    return compare_ops::Compare(op, a, b);
  }
};

// Predicate `op` on float lanes (b is ignored).
template <PredicateOp op>
struct PredicateLanes {
  template <class D, class V>
  static auto Mask(D d, V a, V) {
    (void)d;
    if constexpr (op == PredicateOp::kIsNan) {
      return hn::IsNaN(a);
    } else if constexpr (op == PredicateOp::kIsInf) {
      return hn::IsInf(a);
    } else if constexpr (op == PredicateOp::kSignbit) {
      const hn::RebindToSigned<D> di;
      return hn::RebindMask(d, hn::Lt(hn::BitCast(di, a), hn::Zero(di)));
    } else {
      return hn::IsFinite(a);
    }
  }
  template <typename T>
  static bool Scalar(T a, T) {
    return compare_ops::Predicate(op, a);
  }
};

// Bool lanes (bytes, any non-zero true) compare as 0/1.
template <class Lanes>
struct BoolLanes {
  template <class D, class V>
  static auto Mask(D d, V a, V b) {
    const auto one = hn::Set(d, uint8_t{1});
    return Lanes::Mask(d, hn::Min(a, one), hn::Min(b, one));
  }
  static bool Scalar(uint8_t a, uint8_t b) {
    return Lanes::Scalar(Bool{a}, Bool{b});
  }
};

// The lanes of mask m as bytes 0/1 (N bytes for N lanes of D).
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<uint8_t, D>> MaskBytes(D d, hn::Mask<D> m) {
  const hn::RebindToUnsigned<D> du;
  const auto ones = hn::And(hn::BitCast(du, hn::VecFromMask(d, m)),
                            hn::Set(du, hn::TFromD<decltype(du)>{1}));
  const hn::Rebind<uint8_t, D> d8;
  if constexpr (sizeof(hn::TFromD<D>) == 1) {
    return ones;
  } else if constexpr (sizeof(hn::TFromD<D>) == 8) {
    return hn::TruncateTo(d8, ones);
  } else {
    // Signed saturating demotion of 0/1 lanes (Highway 1.0.3's u32 -> u8
    // TruncateTo permutes 32-bit lanes on AVX3_DL: wrong bytes).
    return hn::DemoteTo(d8, hn::BitCast(hn::RebindToSigned<D>(), ones));
  }
}

// The bytes of 64 lanes at a time on AVX-512 (full vectors of D): the
// lane masks of 64 / Lanes(d) vectors joined into one 64-bit mask in the
// mask registers (kunpck, as NumPy's AVX-512 loops; moving each mask
// through a general register costs a port-0 move per vector), then one
// masked byte vector of ones (rather than narrowing each vector's mask
// bytes by two packs and a permute).
// Returns the lanes done (a multiple of 64).
template <class Lanes, class D, class A, class B>
HWY_INLINE size_t MaskBlocksOf64(D d, uint8_t* out, const A& a, const B& b,
                                 size_t count) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(D()) * sizeof(hn::TFromD<D>) == 64) {
    constexpr size_t N = hn::MaxLanes(D());
    const hn::Full512<uint8_t> d8;
    const auto ones = hn::Set(d8, uint8_t{1});
    const auto mask = [&](size_t i) {
      return Lanes::Mask(d, a.Load(d, i), b.Load(d, i)).raw;
    };
    size_t i = 0;
    for (; i + 64 <= count; i += 64) {
      __mmask64 bits;
      if constexpr (N == 64) {
        bits = mask(i);
      } else if constexpr (N == 32) {
        bits = _mm512_kunpackd(mask(i + 32), mask(i));
      } else if constexpr (N == 16) {
        const __mmask32 lo = _mm512_kunpackw(mask(i + 16), mask(i));
        const __mmask32 hi = _mm512_kunpackw(mask(i + 48), mask(i + 32));
        bits = _mm512_kunpackd(hi, lo);
      } else {
        static_assert(N == 8);
        const __mmask16 q0 = _mm512_kunpackb(mask(i + 8), mask(i));
        const __mmask16 q1 = _mm512_kunpackb(mask(i + 24), mask(i + 16));
        const __mmask16 q2 = _mm512_kunpackb(mask(i + 40), mask(i + 32));
        const __mmask16 q3 = _mm512_kunpackb(mask(i + 56), mask(i + 48));
        bits =
            _mm512_kunpackd(_mm512_kunpackw(q3, q2), _mm512_kunpackw(q1, q0));
      }
      const hn::Mask512<uint8_t> bytes{bits};
      hn::StoreU(hn::IfThenElseZero(bytes, ones), d8, out + i);
    }
    return i;
  }
#endif
  (void)d, (void)out, (void)a, (void)b, (void)count;
  return 0;
}

// out[i * out_stride] = Lanes(a[i], b[i]) as a byte, for i < count.
template <class Lanes, class D, class A, class B>
HWY_INLINE void MaskRow(D d, uint8_t* out, int64_t out_stride, const A& a,
                        const B& b, size_t count) {
  const hn::Rebind<uint8_t, D> d8;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (out_stride == 1) {
    i = MaskBlocksOf64<Lanes>(d, out, a, b, count);
    for (; i + N <= count; i += N) {
      hn::StoreU(MaskBytes(d, Lanes::Mask(d, a.Load(d, i), b.Load(d, i))), d8,
                 out + i);
    }
  } else {
    // At least Lanes(d8) bytes on every target (MaxLanes of a fractional
    // SVE descriptor reads as 1 to GCC's bounds analysis).
    HWY_ALIGN uint8_t lanes[HWY_MAX_BYTES];
    for (; i + N <= count; i += N) {
      hn::Store(MaskBytes(d, Lanes::Mask(d, a.Load(d, i), b.Load(d, i))), d8,
                lanes);
      for (size_t k = 0; k < N; ++k) {
        out[int64_t(i + k) * out_stride] = lanes[k];
      }
    }
  }
  for (; i < count; ++i) {
    out[int64_t(i) * out_stride] = uint8_t(Lanes::Scalar(a.At(i), b.At(i)));
  }
}

// MaskRow with loaders chosen by the inputs' strides: contiguous pairs and
// a broadcast operand specialised, anything else strided.
template <class Lanes, class D, typename T = hn::TFromD<D>>
HWY_NOINLINE void LanesRow(D d, uint8_t* out, int64_t out_stride, const T* a,
                           int64_t a_stride, const T* b, int64_t b_stride,
                           size_t count) {
  if (a_stride == 1 && b_stride == 1) {
    return MaskRow<Lanes>(d, out, out_stride, ContiguousLoader<T>{a},
                          ContiguousLoader<T>{b}, count);
  }
  if (a_stride == 1 && b_stride == 0) {
    return MaskRow<Lanes>(d, out, out_stride, ContiguousLoader<T>{a},
                          BroadcastLoader<T>{*b}, count);
  }
  if (a_stride == 0 && b_stride == 1) {
    return MaskRow<Lanes>(d, out, out_stride, BroadcastLoader<T>{*a},
                          ContiguousLoader<T>{b}, count);
  }
  MaskRow<Lanes>(d, out, out_stride, StridedLoader<D>(d, a, a_stride),
                 StridedLoader<D>(d, b, b_stride), count);
}

// One row of storage type T: lanes of T (bool as bytes), float16/bfloat16
// through float32 blocks, complex scalar.
template <typename T, class Lanes>
void BoolOutputRow(uint8_t* out, int64_t out_stride, const T* a,
                   int64_t a_stride, const T* b, int64_t b_stride,
                   size_t count) {
  if constexpr (std::is_same_v<T, Bool>) {
    LanesRow<BoolLanes<Lanes>>(hn::ScalableTag<uint8_t>(), out, out_stride,
                               reinterpret_cast<const uint8_t*>(a), a_stride,
                               reinterpret_cast<const uint8_t*>(b), b_stride,
                               count);
  } else if constexpr (kIsHalf<T>) {
    const hn::ScalableTag<float> d;
    HWY_ALIGN float xa[kHalfBlock], xb[kHalfBlock];
    for (size_t i0 = 0; i0 < count; i0 += kHalfBlock) {
      const size_t n = std::min(kHalfBlock, count - i0);
      const int64_t at = int64_t(i0);
      int64_t sa, sb;
      const float* fa = StageRow(a + at * a_stride, a_stride, xa, n, sa);
      const float* fb = StageRow(b + at * b_stride, b_stride, xb, n, sb);
      LanesRow<Lanes>(d, out + at * out_stride, out_stride, fa, sa, fb, sb, n);
    }
  } else if constexpr (kIsComplex<T>) {
    for (size_t i = 0; i < count; ++i) {
      const int64_t k = int64_t(i);
      out[k * out_stride] =
          uint8_t(Lanes::Scalar(a[k * a_stride], b[k * b_stride]));
    }
  } else {
    LanesRow<Lanes>(hn::ScalableTag<T>(), out, out_stride, a, a_stride, b,
                    b_stride, count);
  }
}

// Runs the plan's rows of a comparison or predicate with Lanes.
template <typename T, class Lanes>
void RunBoolOutput(const SelectTask& task) {
  const IterationPlan& plan = *task.plan;
  const bool unary = task.kind == SelectKind::kPredicate;
  auto* out = static_cast<uint8_t*>(task.out);
  const T* a = static_cast<const T*>(task.in[0]);
  const T* b = unary ? a : static_cast<const T*>(task.in[1]);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t b_stride = unary ? plan.inner_stride(1) : plan.inner_stride(2);
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    BoolOutputRow<T, Lanes>(out + chunk.offsets[0], plan.inner_stride(0),
                            a + chunk.offsets[1], plan.inner_stride(1),
                            b + chunk.offsets[unary ? 1 : 2], b_stride, count);
  }
}

// A predicate whose value is the same for every element of T (integers
// and bool): the output rows are filled.
template <typename T>
void RunConstantPredicate(const SelectTask& task) {
  const IterationPlan& plan = *task.plan;
  const uint8_t value = compare_ops::Predicate(task.predicate, T{});
  const int64_t stride = plan.inner_stride(0);
  const int64_t count = plan.inner_size();
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    uint8_t* row = static_cast<uint8_t*>(task.out) + chunk.offsets[0];
    if (stride == 1) {
      std::memset(row, value, size_t(count));
    } else {
      for (int64_t i = 0; i < count; ++i) row[i * stride] = value;
    }
  }
}

// The op-table switches for storage type T.
template <typename T>
void RunSelectForType(const SelectTask& task) {
  if (task.kind == SelectKind::kCompare) {
    switch (task.compare) {
#define STRIDEKIT_COMPARE_CASE(Name, value, name, kinds, prechecked) \
  case CompareOp::k##Name:                                           \
    if constexpr (((kinds)&kKindOf<T>) != 0 &&                       \
                  RunsOwnKernel<T>(CompareOp::k##Name)) {            \
      RunBoolOutput<T, CompareLanes<CompareOp::k##Name>>(task);      \
    }                                                                \
    return;
      STRIDEKIT_COMPARE_OPS(STRIDEKIT_COMPARE_CASE)
#undef STRIDEKIT_COMPARE_CASE
    }
    return;
  }
  if constexpr (kKindOf<T> == kIntegerKinds || kKindOf<T> == kBoolKinds) {
    RunConstantPredicate<T>(task);
  } else {
    switch (task.predicate) {
#define STRIDEKIT_PREDICATE_CASE(Name, ...)                       \
  case PredicateOp::k##Name:                                      \
    RunBoolOutput<T, PredicateLanes<PredicateOp::k##Name>>(task); \
    return;
      STRIDEKIT_PREDICATE_OPS(STRIDEKIT_PREDICATE_CASE)
#undef STRIDEKIT_PREDICATE_CASE
    }
  }
}

// Runs a comparison or predicate task whose dtype is one of List; returns
// HWY_TARGET.
template <typename List>
int64_t RunSelectOf(const SelectTask& task) {
  VisitType(List{}, task.dtype,
            [&](auto zero) { RunSelectForType<decltype(zero)>(task); });
  return HWY_TARGET;
}

// ---- where.

// The mask of lanes of D (unsigned) whose condition byte is non-zero.
template <class D>
HWY_INLINE hn::Mask<D> ConditionMask(D d,
                                     hn::Vec<hn::Rebind<uint8_t, D>> cond) {
  using U = hn::TFromD<D>;
  if constexpr (sizeof(U) == 1) {
    return hn::Ne(cond, hn::Zero(d));
  } else if constexpr (sizeof(U) == 8) {
    const auto wide =
        hn::PromoteTo(d, hn::PromoteTo(hn::Rebind<uint32_t, D>(), cond));
    return hn::Ne(wide, hn::Zero(d));
  } else {
    return hn::Ne(hn::PromoteTo(d, cond), hn::Zero(d));
  }
}

// out[i] = cond[i] ? a[i] : b[i] for i < count (U: unsigned lanes of the
// element size).
template <class D, class C, class A, class B, class Out,
          typename U = hn::TFromD<D>>
HWY_INLINE void WhereRow(D d, const Out& out, const C& cond, const A& a,
                         const B& b, size_t count) {
  const hn::Rebind<uint8_t, D> d8;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= count; i += N) {
    out.Store(d, i,
              hn::IfThenElse(ConditionMask(d, cond.Load(d8, i)), a.Load(d, i),
                             b.Load(d, i)));
  }
  for (; i < count; ++i) out.Put(i, cond.At(i) != 0 ? a.At(i) : b.At(i));
}

template <typename U>
HWY_NOINLINE void WhereLanesRow(U* out, int64_t out_stride, const uint8_t* c,
                                int64_t c_stride, const U* a, int64_t a_stride,
                                const U* b, int64_t b_stride, size_t count) {
  const hn::ScalableTag<U> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  if (out_stride == 1 && c_stride == 1 && a_stride == 1 && b_stride == 1) {
    return WhereRow(d, ContiguousStorer<U>{out}, ContiguousLoader<uint8_t>{c},
                    ContiguousLoader<U>{a}, ContiguousLoader<U>{b}, count);
  }
  const StridedLoader<decltype(d8)> cond(d8, c, c_stride);
  const StridedLoader<decltype(d)> x(d, a, a_stride), y(d, b, b_stride);
  if (out_stride == 1) {
    return WhereRow(d, ContiguousStorer<U>{out}, cond, x, y, count);
  }
  WhereRow(d, StridedStorer<U>{out, out_stride}, cond, x, y, count);
}

// Sixteen-byte elements (complex128), moved whole.
struct Bytes16 {
  uint64_t lo, hi;
};

template <typename U>
void RunWhereFor(const SelectTask& task) {
  const IterationPlan& plan = *task.plan;
  const auto* cond = static_cast<const uint8_t*>(task.in[0]);
  const U* a = static_cast<const U*>(task.in[1]);
  const U* b = static_cast<const U*>(task.in[2]);
  U* out = static_cast<U*>(task.out);
  const size_t count = static_cast<size_t>(plan.inner_size());
  const int64_t s[4] = {plan.inner_stride(0), plan.inner_stride(1),
                        plan.inner_stride(2), plan.inner_stride(3)};
  ChunkIterator chunks(plan, task.begin, task.end);
  Chunk chunk;
  while (chunks.Next(chunk)) {
    U* o = out + chunk.offsets[0];
    const uint8_t* c = cond + chunk.offsets[1];
    const U* x = a + chunk.offsets[2];
    const U* y = b + chunk.offsets[3];
    if constexpr (std::is_same_v<U, Bytes16>) {
      for (size_t i = 0; i < count; ++i) {
        const int64_t k = int64_t(i);
        o[k * s[0]] = c[k * s[1]] != 0 ? x[k * s[2]] : y[k * s[3]];
      }
    } else {
      WhereLanesRow<U>(o, s[0], c, s[1], x, s[2], y, s[3], count);
    }
  }
}

inline int64_t RunWhereOf(const SelectTask& task) {
  switch (DTypeSize(task.dtype)) {
    case 1:
      RunWhereFor<uint8_t>(task);
      break;
    case 2:
      RunWhereFor<uint16_t>(task);
      break;
    case 4:
      RunWhereFor<uint32_t>(task);
      break;
    case 8:
      RunWhereFor<uint64_t>(task);
      break;
    default:
      RunWhereFor<Bytes16>(task);
      break;
  }
  return HWY_TARGET;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_SELECT_INL_H_

// Defines, per target, the select kernel KERNEL running BODY(task).
#ifndef STRIDEKIT_SELECT_EXECUTOR
#define STRIDEKIT_SELECT_EXECUTOR(KERNEL, BODY)                 \
  HWY_BEFORE_NAMESPACE();                                       \
  namespace stridekit {                                         \
  namespace HWY_NAMESPACE {                                     \
  namespace {                                                   \
  int64_t KERNEL(const SelectTask& task) { return BODY(task); } \
  }                                                             \
  }                                                             \
  }                                                             \
  HWY_AFTER_NAMESPACE();
#endif
