// Per-target inner kernels of the numeric family: the ops (vector form plus
// the scalar form of lib/scalar_ops.h for tails), operand loaders by inner
// stride, the elementwise row kernel and the pairwise row reduction.
// Elementwise rows may run in place: `out` may equal an input exactly, so no
// pointer here is HWY_RESTRICT.

// Per-target include guard (Highway toggle idiom).
#if defined(STRIDEKIT_SIMD_NUMERIC_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef STRIDEKIT_SIMD_NUMERIC_INL_H_
#undef STRIDEKIT_SIMD_NUMERIC_INL_H_
#else
#define STRIDEKIT_SIMD_NUMERIC_INL_H_
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "scalar_ops.h"
#include "simd/common/alignment.h"
#include "simd/common/scalar_elementwise.h"
#include "stridekit/ops.h"

HWY_BEFORE_NAMESPACE();
namespace stridekit {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Room for one vector of d's lanes in a stack array. Highway 1.0.3's
// MaxLanes(d) is 0 for fractional tags of SVE_256 and SVE2_128 (such as
// the Simd<uint8_t, 4, -3> that rebinds a vector of uint64_t: it scales the
// lane count twice) while Lanes(d) is 4; HWY_MAX_BYTES / sizeof(T) bounds
// Lanes(d) on every target.
template <class D>
inline constexpr size_t kLaneRoom = HWY_MAX_BYTES / sizeof(hn::TFromD<D>);

// ---- Ops: Vec(d, a, b) and Scalar(a, b); unary ops ignore b. kVector<T>
// is false where Highway 1.0.3 has no vector form (integer division).

#ifndef STRIDEKIT_LANEWISE_OP
// The op of row Name: Highway's HWY_OP on every lane type, scalar_ops::Name
// for tails.
#define STRIDEKIT_LANEWISE_OP(Name, HWY_OP) \
  struct Name##Op {                         \
    template <typename T>                   \
    static constexpr bool kVector = true;   \
    template <class D, class V>             \
    static V Vec(D, V a, V b) {             \
      return HWY_OP(a, b);                  \
    }                                       \
    template <typename T>                   \
    static T Scalar(T a, T b) {             \
      return scalar_ops::Name(a, b);        \
    }                                       \
  };
// The op of row Name where Highway 1.0.3 has no vector form: scalar_ops::Name
// only (Vec is never called).
// kScalar<T>: the function itself, for the executor outside the target
// namespaces (scalar_elementwise.h).
#define STRIDEKIT_SCALAR_ONLY_OP(Name)                          \
  struct Name##Op {                                             \
    template <typename T>                                       \
    static constexpr bool kVector = false;                      \
    template <typename T>                                       \
    static constexpr T (*kScalar)(T, T) = &scalar_ops::Name<T>; \
    template <class D, class V>                                 \
    static V Vec(D, V a, V) {                                   \
      return a;                                                 \
    }                                                           \
    template <typename T>                                       \
    static T Scalar(T a, T b) {                                 \
      return scalar_ops::Name(a, b);                            \
    }                                                           \
  };
#endif

STRIDEKIT_LANEWISE_OP(Add, hn::Add)
STRIDEKIT_LANEWISE_OP(Sub, hn::Sub)
// Bitwise (integers; bool lanes go through BoolOp).
STRIDEKIT_LANEWISE_OP(And, hn::And)
STRIDEKIT_LANEWISE_OP(Or, hn::Or)
STRIDEKIT_LANEWISE_OP(Xor, hn::Xor)
// np.remainder (no exact vector fmod), np.power (no vector pow) and the
// shifts (Highway's per-lane shifts leave counts >= the lane width
// target-specific and lack 8-bit lanes); integer callers of remainder and
// power check operands first.
STRIDEKIT_SCALAR_ONLY_OP(Mod)
STRIDEKIT_SCALAR_ONLY_OP(Pow)
STRIDEKIT_SCALAR_ONLY_OP(Shl)
STRIDEKIT_SCALAR_ONLY_OP(Shr)

// Integer Mul wraps (64-bit lanes are emulated where the ISA lacks them;
// 8-bit lanes multiply as 16-bit lanes, even and odd bytes apart, or on a
// one-lane SCALAR vector as a scalar).
struct MulOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D d, V a, V b) {
    if constexpr (sizeof(hn::TFromD<D>) == 1) {
#if HWY_TARGET != HWY_SCALAR
      const hn::Repartition<uint16_t, D> dw;
      const auto a16 = hn::BitCast(dw, a);
      const auto b16 = hn::BitCast(dw, b);
      // Low bytes: a_lo * b_lo mod 256; high bytes: a_hi * b_hi mod 256.
      const auto even = hn::And(hn::Mul(a16, b16), hn::Set(dw, 0x00ff));
      const auto odd = hn::Mul(hn::ShiftRight<8>(a16),
                               hn::And(b16, hn::Set(dw, uint16_t{0xff00})));
      return hn::BitCast(d, hn::Or(even, odd));
#else
      return hn::Set(d, scalar_ops::Mul(hn::GetLane(a), hn::GetLane(b)));
#endif
    } else {
      return hn::Mul(a, b);
    }
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return scalar_ops::Mul(a, b);
  }
};

struct DivOp {
  template <typename T>
  static constexpr bool kVector = !scalar_ops::kIsInt<T>;
  template <typename T>
  static constexpr T (*kScalar)(T, T) = &scalar_ops::Div<T>;
  template <class D, class V>
  static V Vec(D, V a, V b) {
    return hn::Div(a, b);
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return scalar_ops::Div(a, b);
  }
};

// np.minimum / np.maximum: Highway's Min/Max leave NaN and signed-zero
// cases target-specific, so floats select explicitly.
struct MinOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V b) {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::Lt(a, b)), a, b);
    } else {
      return hn::Min(a, b);
    }
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return scalar_ops::Min(a, b);
  }
};

struct MaxOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V b) {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::Lt(b, a)), a, b);
    } else {
      return hn::Max(a, b);
    }
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return scalar_ops::Max(a, b);
  }
};

// The reductions' combining ops (ReduceOp rows Sum and Prod).
using SumOp = AddOp;
using ProdOp = MulOp;

// Unsigned lanes wrap (0 - a).
struct NegOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D d, V a, V) {
    if constexpr (hwy::IsSigned<hn::TFromD<D>>()) {
      return hn::Neg(a);
    } else {
      return hn::Sub(hn::Zero(d), a);
    }
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Neg(a);
  }
};

// Unsigned lanes: the identity.
struct AbsOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V) {
    if constexpr (hwy::IsSigned<hn::TFromD<D>>()) {
      return hn::Abs(a);
    } else {
      return a;
    }
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Abs(a);
  }
};

// Floats only (integer sqrt is rejected by the checks).
struct SqrtOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V) {
    return hn::Sqrt(a);
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Sqrt(a);
  }
};

struct SquareOp {
  template <typename T>
  static constexpr bool kVector = MulOp::kVector<T>;
  template <class D, class V>
  static V Vec(D d, V a, V) {
    return MulOp::Vec(d, a, a);
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Square(a);
  }
};

struct NotOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V) {
    return hn::Not(a);
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Not(a);
  }
};

// ---- The float family and the integer extras of the op table.

// np.fmod and np.floor_divide (no exact vector forms; integer callers check
// operands first), np.nextafter (steps of T's bits), np.gcd and np.lcm.
STRIDEKIT_SCALAR_ONLY_OP(Fmod)
STRIDEKIT_SCALAR_ONLY_OP(FloorDivide)
STRIDEKIT_SCALAR_ONLY_OP(Nextafter)
STRIDEKIT_SCALAR_ONLY_OP(Gcd)
STRIDEKIT_SCALAR_ONLY_OP(Lcm)
// Floats: b's sign bit on a's magnitude.
STRIDEKIT_LANEWISE_OP(Copysign, hn::CopySign)

// np.fmax / np.fmin: floats select (a NaN b gives a, a NaN a gives b; b when
// equal, scalar_ops::Fmax), integers Highway's Max/Min.
template <bool kMax>
struct IgnoreNaNMinMaxOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D, V a, V b) {
    if constexpr (hwy::IsFloat<hn::TFromD<D>>()) {
      const auto a_wins = kMax ? hn::Lt(b, a) : hn::Lt(a, b);
      return hn::IfThenElse(hn::Or(hn::IsNaN(b), a_wins), a, b);
    } else {
      return kMax ? hn::Max(a, b) : hn::Min(a, b);
    }
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return kMax ? scalar_ops::Fmax(a, b) : scalar_ops::Fmin(a, b);
  }
};
using FmaxOp = IgnoreNaNMinMaxOp<true>;
using FminOp = IgnoreNaNMinMaxOp<false>;

// np.heaviside(a, b): NaN, b where a == 0, 0 below, 1 above.
struct HeavisideOp {
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D d, V a, V b) {
    using T = hn::TFromD<D>;
    const auto zero = hn::Zero(d);
    V r = hn::IfThenElse(hn::Lt(a, zero), zero, hn::Set(d, T(1)));
    r = hn::IfThenElse(hn::Eq(a, zero), b, r);
    return hn::IfThenElse(hn::IsNaN(a),
                          hn::Set(d, std::numeric_limits<T>::quiet_NaN()), r);
  }
  template <typename T>
  static T Scalar(T a, T b) {
    return scalar_ops::Heaviside(a, b);
  }
};

// np.reciprocal: floats 1 / a (correctly rounded division); integers
// (checked: no zero) and complex by scalar_ops.
struct ReciprocalOp {
  template <typename T>
  static constexpr bool kVector = !scalar_ops::kIsInt<T>;
  template <typename T>
  static constexpr T (*kScalar)(T, T) =
      &IgnoringSecond<T, &scalar_ops::Reciprocal<T>>;
  template <class D, class V>
  static V Vec(D d, V a, V) {
    return hn::Div(hn::Set(d, hn::TFromD<D>(1)), a);
  }
  template <typename T>
  static T Scalar(T a, T) {
    return scalar_ops::Reciprocal(a);
  }
};

// Bool lanes (bytes, any non-zero byte true; results 0 or 1): add, maximum
// and or are or, multiply, minimum and and are and, xor and not are
// logical, absolute is != 0 (scalar_ops' Bool rules). Op is the row's
// functor.
template <class Op>
struct BoolOp {
  static constexpr bool kOr =
      std::is_same_v<Op, AddOp> || std::is_same_v<Op, MaxOp> ||
      std::is_same_v<Op, FmaxOp> || std::is_same_v<Op, OrOp>;
  template <typename T>
  static constexpr bool kVector = true;
  template <class D, class V>
  static V Vec(D d, V a, V b) {
    const auto one = hn::Set(d, uint8_t{1});
    if constexpr (std::is_same_v<Op, AbsOp>) {
      return hn::Min(a, one);
    } else if constexpr (std::is_same_v<Op, NotOp>) {
      return hn::Xor(hn::Min(a, one), one);
    } else if constexpr (std::is_same_v<Op, XorOp>) {
      return hn::Xor(hn::Min(a, one), hn::Min(b, one));
    } else if constexpr (kOr) {
      return hn::Min(hn::Or(a, b), one);
    } else {
      return hn::Min(hn::Min(a, one), hn::Min(b, one));
    }
  }
  static uint8_t Scalar(uint8_t a, uint8_t b) {
    return Op::Scalar(Bool{a}, Bool{b}).byte;
  }
};

// The bool functor of Op: the rows that compute alike (add, maximum and
// fmax are or; multiply, minimum and fmin are and) share one instantiation.
template <class Op>
using BoolRowOp = BoolOp<std::conditional_t<
    BoolOp<Op>::kOr, OrOp,
    std::conditional_t<std::is_same_v<Op, MulOp> || std::is_same_v<Op, MinOp> ||
                           std::is_same_v<Op, FminOp>,
                       AndOp, Op>>>;

// ---- Loaders: element i of an input row, as vectors of Lanes(d) elements
// starting at i or as single elements.

template <typename T>
struct ContiguousLoader {
  const T* p;
  template <class D>
  hn::Vec<D> Load(D d, size_t i) const {
    return hn::LoadU(d, p + i);
  }
  // Elements [i, i + n) in the first n lanes, the others zero (read only
  // where kNativeMasks<T>).
  template <class D>
  HWY_INLINE hn::Vec<D> LoadFirst(D d, size_t i, size_t n) const {
    return hn::MaskedLoad(hn::FirstN(d, n), d, p + i);
  }
  T At(size_t i) const { return p[i]; }
};

template <typename T>
struct BroadcastLoader {
  T value;
  template <class D>
  hn::Vec<D> Load(D d, size_t) const {
    return hn::Set(d, value);
  }
  template <class D>
  HWY_INLINE hn::Vec<D> LoadFirst(D d, size_t, size_t) const {
    return hn::Set(d, value);
  }
  T At(size_t) const { return value; }
};

// Any stride: contiguous, reversed and broadcast rows by plain loads, other
// strides by gathers when the lane offsets fit the lane type, else lane by
// lane. (No vector members: SVE vectors are sizeless.)
template <class D, typename T = hn::TFromD<D>>
struct StridedLoader {
  using TI = hwy::MakeSigned<hwy::MakeUnsigned<T>>;
  const T* p;
  int64_t stride;
  bool gather;

  StridedLoader(D d, const T* row, int64_t row_stride)
      : p(row), stride(row_stride) {
    int64_t reach;
    gather = !__builtin_mul_overflow(
                 row_stride, static_cast<int64_t>(hn::Lanes(d)), &reach) &&
             reach < std::numeric_limits<TI>::max() &&
             reach > -std::numeric_limits<TI>::max();
  }
  hn::Vec<D> Load(D d, size_t i) const {
    const int64_t at = static_cast<int64_t>(i) * stride;
    switch (stride) {
      case 1:
        return hn::LoadU(d, p + at);
      case 0:
        return hn::Set(d, *p);
      case -1:
        if constexpr (sizeof(T) > 1) {  // No 8-bit Reverse in Highway 1.0.3.
          return hn::Reverse(
              d, hn::LoadU(d, p + at - static_cast<int64_t>(hn::Lanes(d)) + 1));
        }
        break;
      default:
        break;
    }
    if constexpr (sizeof(T) >= 4) {  // Gathers of 32- and 64-bit lanes.
      if (gather) {
        const hn::RebindToSigned<D> di;
        const auto index =
            hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<TI>(stride)));
        return hn::GatherIndex(d, p + at, index);
      }
    }
    HWY_ALIGN T lanes[kLaneRoom<D>];
    for (size_t k = 0; k < hn::Lanes(d); ++k) {
      lanes[k] = p[at + static_cast<int64_t>(k) * stride];
    }
    return hn::Load(d, lanes);
  }
  T At(size_t i) const { return p[static_cast<int64_t>(i) * stride]; }
};

// ---- Output rows.

// With kStream, vector stores are non-temporal (they bypass the caches: for
// outputs far beyond the L3) and need whole-vector alignment, which
// ElementwiseRow establishes first.
template <typename T, bool kStream = false>
struct ContiguousStorer {
  static constexpr bool kStreams = kStream;
  T* p;
  template <class D>
  void Store(D d, size_t i, hn::Vec<D> v) const {
    if constexpr (kStream) {
      hn::Stream(v, d, p + i);
    } else {
      hn::StoreU(v, d, p + i);
    }
  }
  void Put(size_t i, T value) const { p[i] = value; }
  // The first n lanes of v to [i, i + n), nothing else written (where
  // kNativeMasks<T>).
  template <class D>
  HWY_INLINE void StoreFirst(D d, size_t i, hn::Vec<D> v, size_t n) const {
    hn::BlendedStore(v, hn::FirstN(d, n), d, p + i);
  }
  // Elements before p + head starts a whole vector in memory (at most
  // `count`).
  template <class D>
  size_t AlignmentHead(D d, size_t count) const {
    return simd::ElementsToAlignment(p, hn::Lanes(d) * sizeof(T), count);
  }
};

template <typename T>
struct StridedStorer {
  static constexpr bool kStreams = false;
  T* p;
  int64_t stride;
  template <class D>
  void Store(D d, size_t i, hn::Vec<D> v) const {
    HWY_ALIGN T lanes[kLaneRoom<D>];
    hn::Store(v, d, lanes);
    for (size_t k = 0; k < hn::Lanes(d); ++k) Put(i + k, lanes[k]);
  }
  void Put(size_t i, T value) const {
    p[static_cast<int64_t>(i) * stride] = value;
  }
  template <class D>
  size_t AlignmentHead(D, size_t) const {
    return 0;
  }
};

// Whether this target's masked loads and stores (MaskedLoad, BlendedStore)
// touch the memory of their selected lanes only, for lanes of T: AVX-512
// for every lane size, AVX2 for 32- and 64-bit lanes. Elsewhere Highway
// emulates them with whole-vector accesses (beyond a row's end) or lane by
// lane.
template <typename T>
inline constexpr bool kNativeMasks =
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    true;
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
    sizeof(T) >= 4;
#else
    false;
#endif

// Row ends as one masked vector rather than element by element: the
// output and both loaders take the first n lanes at i (LoadFirst,
// StoreFirst; strided rows do not).
template <class D, class Out, class A, class B>
concept MaskedEnds = kNativeMasks<hn::TFromD<D>> &&
    requires(D d, const Out& out, const A& a, const B& b, hn::Vec<D> v) {
  a.LoadFirst(d, size_t{0}, size_t{0});
  b.LoadFirst(d, size_t{0}, size_t{0});
  out.StoreFirst(d, size_t{0}, v, size_t{0});
};

// out[i] = Op(a[i], b[i]) for i < count.
template <class Op, class D, class Out, class A, class B,
          typename T = hn::TFromD<D>>
HWY_INLINE void ElementwiseRow(D d, const Out& out, const A& a, const B& b,
                               size_t count) {
  size_t i = 0;
  if constexpr (Op::template kVector<T>) {
    const size_t N = hn::Lanes(d);
    if (Out::kStreams || count >= 4 * N) {
      // Streaming must reach alignment (or stay scalar); otherwise it only
      // pays on longer rows: full-width stores that straddle cache lines
      // cost about twice as much (AVX-512).
      const size_t head = out.AlignmentHead(d, Out::kStreams ? count : N);
      if constexpr (MaskedEnds<D, Out, A, B>) {
        // The first vector's loads precede every store (in place too).
        if (head != 0 && head < N && count >= N) {
          out.StoreFirst(d, 0, Op::Vec(d, a.Load(d, 0), b.Load(d, 0)), head);
          i = head;
        }
      }
      for (; i < head; ++i) out.Put(i, Op::Scalar(a.At(i), b.At(i)));
    }
    for (; i + 2 * N <= count; i += 2 * N) {
      const auto v0 = Op::Vec(d, a.Load(d, i), b.Load(d, i));
      const auto v1 = Op::Vec(d, a.Load(d, i + N), b.Load(d, i + N));
      out.Store(d, i, v0);
      out.Store(d, i + N, v1);
    }
    for (; i + N <= count; i += N) {
      out.Store(d, i, Op::Vec(d, a.Load(d, i), b.Load(d, i)));
    }
    if constexpr (MaskedEnds<D, Out, A, B>) {
      if (i < count) {
        const size_t n = count - i;
        out.StoreFirst(
            d, i, Op::Vec(d, a.LoadFirst(d, i, n), b.LoadFirst(d, i, n)), n);
        return;
      }
    }
  }
  for (; i < count; ++i) out.Put(i, Op::Scalar(a.At(i), b.At(i)));
}

// ElementwiseRow out of line, for the strided layouts: their loaders' and
// storers' lane buffers then leave the contiguous layouts' caller without
// a realigned stack frame (the fixed cost of every short row).
template <class Op, class D, class Out, class A, class B>
HWY_NOINLINE void StridedElementwiseRow(D d, const Out out, const A a,
                                        const B b, size_t count) {
  ElementwiseRow<Op>(d, out, a, b, count);
}

// The layouts a row kernel compiles: each is a copy of the vector loop per
// op and type, so callers ask only for those they meet. Every stride runs
// correctly in any case (the strided layout takes what is left out).
struct RowLayouts {
  // Non-temporal stores on request: contiguous output, inputs contiguous or
  // broadcast.
  bool stream;
  bool broadcast;      // A broadcast operand beside a contiguous one.
  bool unary = false;  // b is always a unary op's ignored zero broadcast.
};
// Binary elementwise ops: every layout.
inline constexpr RowLayouts kEveryLayout{true, true};
// Unary elementwise ops: every layout of a, b broadcast.
inline constexpr RowLayouts kUnaryLayouts{true, true, true};
// Rows staged through a buffer (float16/bfloat16 in float32): no streaming.
inline constexpr RowLayouts kStagedLayouts{false, true};
// Accumulator rows of reductions and scans (out and a share their stride):
// contiguous, strided input, strided output.
inline constexpr RowLayouts kAccumulatorLayouts{false, false};

// out[i * out_stride] = Op(a[i * a_stride], b[i * b_stride]) for i < count
// on a contiguous output row, specialised for the common input patterns:
// contiguous rows, a broadcast operand (outer products: the Set is hoisted)
// and any strides (a contiguous operand beside a strided one included: the
// gathers dominate, so these rows store plainly even where `o` streams).
template <class Op, RowLayouts kLayouts, class D, class Out,
          typename T = hn::TFromD<D>>
HWY_INLINE void ContiguousOutputRow(D d, const Out& o, const T* a,
                                    int64_t a_stride, const T* b,
                                    int64_t b_stride, size_t count) {
  if constexpr (kLayouts.unary) {
    (void)b_stride;
    if (a_stride == 1) {
      return ElementwiseRow<Op>(d, o, ContiguousLoader<T>{a},
                                BroadcastLoader<T>{*b}, count);
    }
    return StridedElementwiseRow<Op>(d, ContiguousStorer<T>{o.p},
                                     StridedLoader<D>(d, a, a_stride),
                                     BroadcastLoader<T>{*b}, count);
  }
  if (a_stride == 1 && b_stride == 1) {
    return ElementwiseRow<Op>(d, o, ContiguousLoader<T>{a},
                              ContiguousLoader<T>{b}, count);
  }
  if constexpr (kLayouts.broadcast) {
    if (a_stride == 1 && b_stride == 0) {
      return ElementwiseRow<Op>(d, o, ContiguousLoader<T>{a},
                                BroadcastLoader<T>{*b}, count);
    }
    if (a_stride == 0 && b_stride == 1) {
      return ElementwiseRow<Op>(d, o, BroadcastLoader<T>{*a},
                                ContiguousLoader<T>{b}, count);
    }
  }
  return StridedElementwiseRow<Op>(d, ContiguousStorer<T>{o.p},
                                   StridedLoader<D>(d, a, a_stride),
                                   StridedLoader<D>(d, b, b_stride), count);
}

// ---- Block ops: ops whose vector form runs over whole contiguous blocks,
// Op::Block(d, a, b, out, vectors) (out may be a itself; a unary op ignores
// b), one out-of-line loop per op and type whose constants stay in
// registers (the transcendentals, whose per-vector calls reloaded them).
// Every layout reaches the block: contiguous rows directly, the others
// staged through L1 buffers of kBlockChunk elements, and a row's partial
// vectors (its alignment head and its tail) through one-vector buffers.
template <class Op>
concept BlockOp = requires {
  requires Op::kBlock;
};

inline constexpr size_t kBlockChunk = 256;

// RunRow of a BlockOp.
template <class Op, RowLayouts kLayouts, class D, typename T = hn::TFromD<D>>
HWY_INLINE void BlockRow(D d, T* out, int64_t out_stride, const T* a,
                         int64_t a_stride, const T* b, int64_t b_stride,
                         size_t count, bool stream) {
  const size_t N = hn::Lanes(d);
  const bool b_direct = kLayouts.unary || b_stride == 1;
  const StridedLoader<D> la(d, a, a_stride), lb(d, b, b_stride);
  const StridedStorer<T> o{out, out_stride};
  // Elements [i, i + n) staged through vector buffers, a vector at a time
  // (the row's ends: a block's vector costs far less than its scalar form
  // per element, with the same bits; lanes past n compute on zeros).
  const auto staged_ends = [&](size_t i, size_t n) {
    if (n == 0) return;  // Most rows: no buffers to clear.
    HWY_ALIGN T end_a[kLaneRoom<D>] = {};
    [[maybe_unused]] HWY_ALIGN T end_b[kLaneRoom<D>] = {};
    HWY_ALIGN T end_out[kLaneRoom<D>];
    for (; n != 0;) {
      const size_t lanes = std::min(n, N);
      for (size_t k = 0; k < lanes; ++k) {
        end_a[k] = la.At(i + k);
        if constexpr (!kLayouts.unary) end_b[k] = lb.At(i + k);
      }
      Op::Block(d, end_a, kLayouts.unary ? b : end_b, end_out, 1);
      for (size_t k = 0; k < lanes; ++k) o.Put(i + k, end_out[k]);
      i += lanes;
      n -= lanes;
    }
  };
  size_t i = 0;
  if (out_stride == 1 && (stream || count >= 4 * N)) {
    // Whole-vector aligned stores (streaming needs them; full-width stores
    // that straddle cache lines cost about twice as much on AVX-512).
    i = simd::ElementsToAlignment(out, N * sizeof(T), stream ? count : N);
    staged_ends(0, i);
  }
  if (out_stride == 1 && a_stride == 1 && b_direct && !stream) {
    const size_t vectors = (count - i) / N;
    Op::Block(d, a + i, kLayouts.unary ? b : b + i, out + i, vectors);
    i += vectors * N;
  } else {
    HWY_ALIGN T staged_a[kBlockChunk];
    [[maybe_unused]] HWY_ALIGN T staged_b[kBlockChunk];
    HWY_ALIGN T staged_out[kBlockChunk];
    while (count - i >= N) {
      const size_t vectors = std::min(kBlockChunk, count - i) / N;
      const T* from_a = staged_a;
      if (a_stride == 1) {
        from_a = a + i;
      } else {
        for (size_t v = 0; v < vectors; ++v) {
          hn::Store(la.Load(d, i + v * N), d, staged_a + v * N);
        }
      }
      const T* from_b = b;
      if constexpr (!kLayouts.unary) {
        if (b_direct) {
          from_b = b + i;
        } else {
          for (size_t v = 0; v < vectors; ++v) {
            hn::Store(lb.Load(d, i + v * N), d, staged_b + v * N);
          }
          from_b = staged_b;
        }
      }
      const bool direct_out = out_stride == 1 && !stream;
      T* to = direct_out ? out + i : staged_out;
      Op::Block(d, from_a, from_b, to, vectors);
      for (size_t v = 0; !direct_out && v < vectors; ++v) {
        const auto value = hn::Load(d, staged_out + v * N);
        if (out_stride == 1) {
          ContiguousStorer<T, true>{out}.Store(d, i + v * N, value);
        } else {
          o.Store(d, i + v * N, value);
        }
      }
      i += vectors * N;
    }
  }
  staged_ends(i, count - i);
}

// Any output stride; `stream` asks for non-temporal stores on contiguous
// output rows where kLayouts.stream (the caller issues hwy::FlushStream
// afterwards).
template <class Op, RowLayouts kLayouts = kEveryLayout, class D,
          typename T = hn::TFromD<D>>
HWY_NOINLINE void RunRow(D d, T* out, int64_t out_stride, const T* a,
                         int64_t a_stride, const T* b, int64_t b_stride,
                         size_t count, bool stream = false) {
  if constexpr (BlockOp<Op>) {
    BlockRow<Op, kLayouts>(d, out, out_stride, a, a_stride, b, b_stride, count,
                           kLayouts.stream && stream);
  } else if constexpr (!Op::template kVector<T>) {
    // Scalar-only ops: one plain strided loop (no layout variants to
    // compile per op and type).
    (void)d, (void)stream;
    for (size_t i = 0; i < count; ++i) {
      const int64_t k = static_cast<int64_t>(i);
      out[k * out_stride] = Op::Scalar(a[k * a_stride], b[k * b_stride]);
    }
  } else if (out_stride == 1) {
    if constexpr (kLayouts.stream) {
      if (stream) {
        return ContiguousOutputRow<Op, kLayouts>(
            d, ContiguousStorer<T, true>{out}, a, a_stride, b, b_stride, count);
      }
    } else {
      (void)stream;
    }
    ContiguousOutputRow<Op, kLayouts>(d, ContiguousStorer<T>{out}, a, a_stride,
                                      b, b_stride, count);
  } else if constexpr (kLayouts.unary) {
    StridedElementwiseRow<Op>(d, StridedStorer<T>{out, out_stride},
                              StridedLoader<D>(d, a, a_stride),
                              BroadcastLoader<T>{*b}, count);
  } else {
    StridedElementwiseRow<Op>(d, StridedStorer<T>{out, out_stride},
                              StridedLoader<D>(d, a, a_stride),
                              StridedLoader<D>(d, b, b_stride), count);
  }
}

// acc[i] = Op(acc[i], Op(Op(r0[i], r1[i]), Op(r2[i], r3[i]))) for i < count:
// four input rows per pass over a contiguous accumulator row, so that the
// accumulator moves a quarter as often (reductions over outer axes).
template <class Op, class D, typename T = hn::TFromD<D>>
HWY_NOINLINE void AccumulateFourRows(D d, T* acc, const T* r0, const T* r1,
                                     const T* r2, const T* r3, size_t count) {
  const auto scalar = [&](size_t k) {
    acc[k] = Op::Scalar(
        acc[k], Op::Scalar(Op::Scalar(r0[k], r1[k]), Op::Scalar(r2[k], r3[k])));
  };
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (count >= 4 * N) {
    const size_t head = simd::ElementsToAlignment(acc, N * sizeof(T), N);
    for (; i < head; ++i) scalar(i);
  }
  for (; i + N <= count; i += N) {
    const auto pair01 = Op::Vec(d, hn::LoadU(d, r0 + i), hn::LoadU(d, r1 + i));
    const auto pair23 = Op::Vec(d, hn::LoadU(d, r2 + i), hn::LoadU(d, r3 + i));
    hn::StoreU(Op::Vec(d, hn::LoadU(d, acc + i), Op::Vec(d, pair01, pair23)), d,
               acc + i);
  }
  for (; i < count; ++i) scalar(i);
}

// ---- Reductions.

// The pairwise order of einsum's k blocks (and, written out as plain recursion
// in PairwiseVectors below, of sk_reduce's rows):
// the items [begin, begin + count) split in halves (the first count / 2
// long) until at most `leaf` remain; fold(begin, count, slot) sums such a
// run and combine(lo, hi, slot) adds two halves' sums, left to right in
// item order. `slot` is the depth of pending left halves (lo takes the
// parent's slot, hi the next), at most ceil(log2(ceil(count / leaf))): a
// fold may keep its sum in storage slot `slot`.
template <class Fold, class Combine>
auto PairwiseTree(size_t begin, size_t count, size_t leaf, const Fold& fold,
                  const Combine& combine, size_t slot = 0) {
  if (count <= leaf) return fold(begin, count, slot);
  const size_t half = count / 2;
  auto lo = PairwiseTree(begin, half, leaf, fold, combine, slot);
  auto hi =
      PairwiseTree(begin + half, count - half, leaf, fold, combine, slot + 1);
  return combine(lo, hi, slot);
}

// Op over `vectors` (at most kPairwiseBlock) whole vectors of a row from
// element `begin`, in eight accumulators combined as a balanced tree.
template <class Op, class D, class L, typename T = hn::TFromD<D>>
HWY_INLINE hn::Vec<D> PairwiseLeaf(D d, const L& row, T identity, size_t begin,
                                   size_t vectors) {
  const size_t N = hn::Lanes(d);
  const auto id = hn::Set(d, identity);
  auto a0 = id, a1 = id, a2 = id, a3 = id, a4 = id, a5 = id, a6 = id, a7 = id;
  size_t v = 0;
  for (; v + 8 <= vectors; v += 8) {
    const size_t i = begin + v * N;
    a0 = Op::Vec(d, a0, row.Load(d, i));
    a1 = Op::Vec(d, a1, row.Load(d, i + N));
    a2 = Op::Vec(d, a2, row.Load(d, i + 2 * N));
    a3 = Op::Vec(d, a3, row.Load(d, i + 3 * N));
    a4 = Op::Vec(d, a4, row.Load(d, i + 4 * N));
    a5 = Op::Vec(d, a5, row.Load(d, i + 5 * N));
    a6 = Op::Vec(d, a6, row.Load(d, i + 6 * N));
    a7 = Op::Vec(d, a7, row.Load(d, i + 7 * N));
  }
  // At most seven vectors remain: one more into each of a0 .. a6.
  if (v < vectors) a0 = Op::Vec(d, a0, row.Load(d, begin + v++ * N));
  if (v < vectors) a1 = Op::Vec(d, a1, row.Load(d, begin + v++ * N));
  if (v < vectors) a2 = Op::Vec(d, a2, row.Load(d, begin + v++ * N));
  if (v < vectors) a3 = Op::Vec(d, a3, row.Load(d, begin + v++ * N));
  if (v < vectors) a4 = Op::Vec(d, a4, row.Load(d, begin + v++ * N));
  if (v < vectors) a5 = Op::Vec(d, a5, row.Load(d, begin + v++ * N));
  if (v < vectors) a6 = Op::Vec(d, a6, row.Load(d, begin + v++ * N));
  return Op::Vec(d, Op::Vec(d, Op::Vec(d, a0, a4), Op::Vec(d, a1, a5)),
                 Op::Vec(d, Op::Vec(d, a2, a6), Op::Vec(d, a3, a7)));
}

// Op over `vectors` whole vectors of a row from element `begin`: leaves of
// at most kPairwiseBlock vectors (PairwiseLeaf), longer ranges split in
// halves, PairwiseTree's order written as plain recursion: through
// PairwiseTree's lambdas the GCC 12 release build gave wrong int64 sums on
// the SCALAR target (reduce_test; the same code under ASan+UBSan passed
// and reported nothing; cause not found).
template <class Op, class D, class L, typename T = hn::TFromD<D>>
hn::Vec<D> PairwiseVectors(D d, const L& row, T identity, size_t begin,
                           size_t vectors) {
  const size_t N = hn::Lanes(d);
  if (vectors <= static_cast<size_t>(kPairwiseBlock)) {
    return PairwiseLeaf<Op>(d, row, identity, begin, vectors);
  }
  const size_t half = vectors / 2;
  const auto lo = PairwiseVectors<Op>(d, row, identity, begin, half);
  const auto hi =
      PairwiseVectors<Op>(d, row, identity, begin + half * N, vectors - half);
  return Op::Vec(d, lo, hi);
}

// Op over the `count` elements of a row: pairwise over whole vectors, the
// tail as one more vector padded with the identity, then the lanes folded
// as a balanced tree. `identity` is Op's (scalar_ops::ReduceIdentity).
template <class Op, class D, class L, typename T = hn::TFromD<D>>
HWY_NOINLINE T ReduceRow(D d, const L& row, T identity, size_t count) {
  const size_t N = hn::Lanes(d);
  const size_t vectors = count / N;
  auto acc = vectors ? PairwiseVectors<Op>(d, row, identity, 0, vectors)
                     : hn::Set(d, identity);
  HWY_ALIGN T lanes[kLaneRoom<D>];
  if (count % N != 0) {
    for (size_t k = 0; k < N; ++k) {
      lanes[k] = vectors * N + k < count ? row.At(vectors * N + k) : identity;
    }
    acc = Op::Vec(d, acc, hn::Load(d, lanes));
  }
  hn::Store(acc, d, lanes);
  for (size_t width = N; width > 1; width = (width + 1) / 2) {
    for (size_t k = 0; k < width / 2; ++k) {
      lanes[k] = Op::Scalar(lanes[k], lanes[k + (width + 1) / 2]);
    }
  }
  return lanes[0];
}

}  // namespace HWY_NAMESPACE
}  // namespace stridekit
HWY_AFTER_NAMESPACE();

#endif  // STRIDEKIT_SIMD_NUMERIC_INL_H_
