// Per-target rows of complex64 and complex128 on interleaved (re, im) lanes:
// add, subtract and negate lane by lane, multiply and square by the
// DupEven/DupOdd formula, which rounds as scalar_ops::Mul does (two products
// and one sum per part, no fused multiply-add). Division and other layouts
// run by elements with scalar_ops.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_COMPLEX_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_COMPLEX_ROWS_INL_H_
#undef STRIDEKIT_SIMD_COMPLEX_ROWS_INL_H_
#else
#define STRIDEKIT_SIMD_COMPLEX_ROWS_INL_H_
#endif

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/common/numeric-inl.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {

// Complex vectors need pairs of lanes (and DupOdd: not on SCALAR).
#undef STRIDEKIT_COMPLEX_VECTORS
#define STRIDEKIT_COMPLEX_VECTORS (HWY_TARGET != HWY_SCALAR)

#if STRIDEKIT_COMPLEX_VECTORS
// v, as a value the compiler must have rounded (scalar_ops::Rounded: GCC
// 12 fuses products into a following add/sub blend, x86 fmaddsub, despite
// -ffp-contract=off).
template <class V>
HWY_INLINE V Rounded(V v) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && defined(__GNUC__)
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// (ar*br - ai*bi, ar*bi + ai*br) per lane pair.
template <class D, class V>
HWY_INLINE V ComplexMul(D d, V a, V b) {
  const V t1 = Rounded(hn::Mul(hn::DupEven(a), b));  // ar*br, ar*bi
  const V t2 =
      Rounded(hn::Mul(hn::DupOdd(a), hn::Reverse2(d, b)));  // ai*bi, ai*br
  return hn::OddEven(hn::Add(t1, t2), hn::Sub(t1, t2));
}
#endif

// The vector form of Op on interleaved complex lanes, where one exists.
template <class Op>
struct ComplexVector {
  static constexpr bool kExists =
      STRIDEKIT_COMPLEX_VECTORS &&
      (std::is_same_v<Op, AddOp> || std::is_same_v<Op, SubOp> ||
       std::is_same_v<Op, MulOp> || std::is_same_v<Op, NegOp> ||
       std::is_same_v<Op, SquareOp>);
#if STRIDEKIT_COMPLEX_VECTORS
  template <class D, class V>
  static HWY_INLINE V Vec(D d, V a, V b) {
    if constexpr (std::is_same_v<Op, MulOp>) {
      return ComplexMul(d, a, b);
    } else if constexpr (std::is_same_v<Op, SquareOp>) {
      return ComplexMul(d, a, a);
    } else {
      return Op::Vec(d, a, b);  // Lane by lane.
    }
  }
#endif
};

// Op on one pair of elements, not inlined: GCC 12's SVE auto-vectorisation
// of the element loop computed complex64 division wrongly (qemu, SVE and
// SVE2 targets), so the loop stays a loop of calls.
template <class Op, typename C>
HWY_NOINLINE C ComplexScalar(C a, C b) {
  return Op::Scalar(a, b);
}

// out[i * out_stride] = Op(a[i * a_stride], b[i * b_stride]) for i < count
// (strides in complex elements; unary ops ignore b). Vectors when the
// output is contiguous and each input contiguous or broadcast.
template <class Op, typename C>
HWY_NOINLINE void ComplexRow(C* out, int64_t out_stride, const C* a,
                             int64_t a_stride, const C* b, int64_t b_stride,
                             size_t count) {
  size_t i = 0;
#if STRIDEKIT_COMPLEX_VECTORS
  if constexpr (ComplexVector<Op>::kExists) {
    using P = decltype(C{}.re);
    const hn::ScalableTag<P> d;
    const size_t per = hn::Lanes(d) / 2;  // Complex numbers per vector.
    if (out_stride == 1 && (a_stride == 0 || a_stride == 1) &&
        (b_stride == 0 || b_stride == 1) && per > 0) {
      // Broadcast operands: one (re, im) pair repeated in every block.
      HWY_ALIGN P a_pair[16 / sizeof(P)], b_pair[16 / sizeof(P)];
      for (size_t k = 0; k < 16 / sizeof(P); k += 2) {
        a_pair[k] = a->re, a_pair[k + 1] = a->im;
        b_pair[k] = b->re, b_pair[k + 1] = b->im;
      }
      const auto a_set = hn::LoadDup128(d, a_pair);
      const auto b_set = hn::LoadDup128(d, b_pair);
      const P* ap = reinterpret_cast<const P*>(a);
      const P* bp = reinterpret_cast<const P*>(b);
      P* op = reinterpret_cast<P*>(out);
      for (; i + per <= count; i += per) {
        const auto va = a_stride ? hn::LoadU(d, ap + 2 * i) : a_set;
        const auto vb = b_stride ? hn::LoadU(d, bp + 2 * i) : b_set;
        hn::StoreU(ComplexVector<Op>::Vec(d, va, vb), d, op + 2 * i);
      }
    }
  }
#endif
  for (; i < count; ++i) {
    const int64_t k = int64_t(i);
    out[k * out_stride] = ComplexScalar<Op>(a[k * a_stride], b[k * b_stride]);
  }
}

// Op over the `count` elements of a row (Op is Sum or Prod): sums of
// contiguous rows pairwise over whole vectors (the parts of the lanes
// folded apart), the tail and everything else one element at a time.
template <class Op, typename C>
HWY_NOINLINE C ComplexReduceRow(const C* row, int64_t stride, C identity,
                                size_t count) {
  C acc = identity;
  size_t i = 0;
#if STRIDEKIT_COMPLEX_VECTORS
  if constexpr (std::is_same_v<Op, AddOp>) {
    using P = decltype(C{}.re);
    const hn::ScalableTag<P> d;
    const size_t N = hn::Lanes(d);
    const size_t vectors = 2 * count / N;
    if (stride == 1 && vectors > 0) {
      const auto sums = PairwiseVectors<AddOp>(
          d, ContiguousLoader<P>{reinterpret_cast<const P*>(row)}, P(0), 0,
          vectors);
      HWY_ALIGN P lanes[kLaneRoom<decltype(d)>];
      hn::Store(sums, d, lanes);
      // Fold (re, im) pairs as a balanced tree.
      for (size_t pairs = N / 2; pairs > 1; pairs = (pairs + 1) / 2) {
        const size_t upper = (pairs + 1) / 2;
        for (size_t k = 0; k < pairs / 2; ++k) {
          lanes[2 * k] += lanes[2 * (k + upper)];
          lanes[2 * k + 1] += lanes[2 * (k + upper) + 1];
        }
      }
      acc = C{lanes[0], lanes[1]};
      i = vectors * N / 2;
    }
  }
#endif
  for (; i < count; ++i) acc = Op::Scalar(acc, row[int64_t(i) * stride]);
  return acc;
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_COMPLEX_ROWS_INL_H_
