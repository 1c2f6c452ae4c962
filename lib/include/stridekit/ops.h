// The op table: every elementwise and reduction op is one row here, and the
// numeric dtypes one list (numeric_types.h in lib/). The enums, the op names
// in messages, the dtype checks, the reference loops, the SIMD switch and the
// tests all derive from these rows, so adding an op is one row plus its
// scalar function (lib/scalar_ops.h, `scalar_ops::Name`) and, where it has a
// vector form, one SIMD functor (`NameOp` in simd/common/numeric-inl.h).
//
// A row is X(Name, value, numpy_name, dtypes, prechecked):
// - value: the C ABI value (sk_binary_op, sk_unary_op, sk_reduce_op);
// - numpy_name: NumPy's ufunc name, used in every message;
// - dtypes: the kinds of dtypes it accepts (bit set of kIntegerKinds: signed
//   and unsigned integers, kFloatKinds: float16, bfloat16, float32, float64,
//   kBoolKinds, kComplexKinds), NumPy's loops of the same dtype in and out;
// - prechecked: integer inputs are checked (scalar_ops::CheckName) at every
//   position before anything is written (division by zero and overflow);
//   unary and binary rows alike.
#ifndef STRIDEKIT_OPS_H_
#define STRIDEKIT_OPS_H_

#if defined(__GNUC__)
#pragma GCC visibility push(default) /* the public API */
#endif

#include <cstdint>

#include "stridekit/dtype.h"

namespace stridekit {

// The kinds of dtypes an op accepts (bit set).
enum : uint32_t {
  kIntegerKinds = 1,
  kFloatKinds = 2,
  kBoolKinds = 4,
  kComplexKinds = 8,
  kNumericKinds = kIntegerKinds | kFloatKinds,
  kArithmeticKinds = kNumericKinds | kComplexKinds,
  kOrderedKinds = kNumericKinds | kBoolKinds,
  kBitwiseKinds = kIntegerKinds | kBoolKinds,
  kAllKinds = kArithmeticKinds | kBoolKinds,
};

// Bool follows NumPy: add is or, multiply is and, minimum is and, maximum
// is or (results 0 or 1); complex has no order (minimum, maximum, absolute
// and the min/max reductions refuse it).
// The transcendentals (exp .. tanh) take float dtypes only, at most 4 ulp
// from the correctly rounded result, the same bits on every target
// (lib/math_kernels.h); floor, ceil, rint (to nearest even) and trunc keep
// integers unchanged (NumPy returns float64 there: same values); sign is
// -1, 0 or +1 (0 for -0, a NaN stays), unsigned 0 or 1.
// Bitwise ops are logical on bool; shifts follow NumPy (>= the bit width
// gives 0, or -1 for a negative signed value shifted right).
// The float family (arctan2 .. heaviside, tan .. cbrt) follows NumPy 1.24's
// special values; the transcendentals among them are math_kernels.h's,
// under the same bound. fmax and fmin ignore a NaN operand (maximum and
// minimum propagate it). Integer fmod is C's remainder (sign of a),
// floor_divide integer division rounded down (as divide), reciprocal 1/x
// truncated; a zero divisor is an error, as is MIN // -1 (floor_divide).
// gcd and lcm are non-negative (NumPy: |MIN| wraps).
#define STRIDEKIT_BINARY_OPS(X)                           \
  X(Add, 0, "add", kAllKinds, false)                      \
  X(Sub, 1, "subtract", kArithmeticKinds, false)          \
  X(Mul, 2, "multiply", kAllKinds, false)                 \
  X(Div, 3, "divide", kArithmeticKinds, true)             \
  X(Min, 4, "minimum", kOrderedKinds, false)              \
  X(Max, 5, "maximum", kOrderedKinds, false)              \
  X(Pow, 6, "power", kNumericKinds, true)                 \
  X(Mod, 7, "remainder", kNumericKinds, true)             \
  X(And, 8, "bitwise_and", kBitwiseKinds, false)          \
  X(Or, 9, "bitwise_or", kBitwiseKinds, false)            \
  X(Xor, 10, "bitwise_xor", kBitwiseKinds, false)         \
  X(Shl, 11, "left_shift", kIntegerKinds, false)          \
  X(Shr, 12, "right_shift", kIntegerKinds, false)         \
  X(Arctan2, 13, "arctan2", kFloatKinds, false)           \
  X(Hypot, 14, "hypot", kFloatKinds, false)               \
  X(Copysign, 15, "copysign", kFloatKinds, false)         \
  X(Fmod, 16, "fmod", kNumericKinds, true)                \
  X(FloorDivide, 17, "floor_divide", kNumericKinds, true) \
  X(Fmax, 18, "fmax", kOrderedKinds, false)               \
  X(Fmin, 19, "fmin", kOrderedKinds, false)               \
  X(Logaddexp, 20, "logaddexp", kFloatKinds, false)       \
  X(Logaddexp2, 21, "logaddexp2", kFloatKinds, false)     \
  X(Nextafter, 22, "nextafter", kFloatKinds, false)       \
  X(Heaviside, 23, "heaviside", kFloatKinds, false)       \
  X(Gcd, 24, "gcd", kIntegerKinds, false)                 \
  X(Lcm, 25, "lcm", kIntegerKinds, false)

#define STRIDEKIT_UNARY_OPS(X)                    \
  X(Neg, 0, "negative", kArithmeticKinds, false)  \
  X(Abs, 1, "absolute", kOrderedKinds, false)     \
  X(Sqrt, 2, "sqrt", kFloatKinds, false)          \
  X(Square, 3, "square", kArithmeticKinds, false) \
  X(Exp, 4, "exp", kFloatKinds, false)            \
  X(Log, 5, "log", kFloatKinds, false)            \
  X(Expm1, 6, "expm1", kFloatKinds, false)        \
  X(Log1p, 7, "log1p", kFloatKinds, false)        \
  X(Sin, 8, "sin", kFloatKinds, false)            \
  X(Cos, 9, "cos", kFloatKinds, false)            \
  X(Tanh, 10, "tanh", kFloatKinds, false)         \
  X(Floor, 11, "floor", kNumericKinds, false)     \
  X(Ceil, 12, "ceil", kNumericKinds, false)       \
  X(Rint, 13, "rint", kNumericKinds, false)       \
  X(Trunc, 14, "trunc", kNumericKinds, false)     \
  X(Sign, 15, "sign", kNumericKinds, false)       \
  X(Not, 16, "invert", kBitwiseKinds, false)      \
  X(Tan, 20, "tan", kFloatKinds, false)           \
  X(Arcsin, 21, "arcsin", kFloatKinds, false)     \
  X(Arccos, 22, "arccos", kFloatKinds, false)     \
  X(Arctan, 23, "arctan", kFloatKinds, false)     \
  X(Sinh, 24, "sinh", kFloatKinds, false)         \
  X(Cosh, 25, "cosh", kFloatKinds, false)         \
  X(Arcsinh, 26, "arcsinh", kFloatKinds, false)   \
  X(Arccosh, 27, "arccosh", kFloatKinds, false)   \
  X(Arctanh, 28, "arctanh", kFloatKinds, false)   \
  X(Exp2, 29, "exp2", kFloatKinds, false)         \
  X(Log2, 30, "log2", kFloatKinds, false)         \
  X(Log10, 31, "log10", kFloatKinds, false)       \
  X(Cbrt, 32, "cbrt", kFloatKinds, false)         \
  X(Reciprocal, 33, "reciprocal", kArithmeticKinds, true)

// Any and all give bool (KernelReduceOp, ReduceOutputDType); mean is the
// pairwise sum divided by the count (float dtypes: NumPy's mean of
// integers, bool and complex has another output dtype).
#define STRIDEKIT_REDUCE_OPS(X)          \
  X(Sum, 0, "sum", kAllKinds, false)     \
  X(Prod, 1, "prod", kAllKinds, false)   \
  X(Min, 2, "min", kOrderedKinds, false) \
  X(Max, 3, "max", kOrderedKinds, false) \
  X(Any, 4, "any", kAllKinds, false)     \
  X(All, 5, "all", kAllKinds, false)     \
  X(Mean, 6, "mean", kFloatKinds, false)

// Index of the first minimum / maximum along one axis (int64; a NaN wins).
// Complex has no order here (NumPy's lexicographic one is not offered).
#define STRIDEKIT_ARG_OPS(X)                   \
  X(ArgMin, 0, "argmin", kOrderedKinds, false) \
  X(ArgMax, 1, "argmax", kOrderedKinds, false)

// Scans along one axis: out[k] = op(out[k - 1], in[k]), out[0] = in[0]
// (the binary rows add, multiply, minimum and maximum; same dtype out).
// (cummin and cummax are np.minimum.accumulate and np.maximum.accumulate).
#define STRIDEKIT_SCAN_OPS(X)                  \
  X(Cumsum, 0, "cumsum", kAllKinds, false)     \
  X(Cumprod, 1, "cumprod", kAllKinds, false)   \
  X(Cummin, 2, "cummin", kOrderedKinds, false) \
  X(Cummax, 3, "cummax", kOrderedKinds, false)

#define STRIDEKIT_OP_ENUMERATOR(Name, value, ...) k##Name = value,
// Values match sk_binary_op, sk_unary_op and sk_reduce_op.
enum class BinaryOp : int32_t { STRIDEKIT_BINARY_OPS(STRIDEKIT_OP_ENUMERATOR) };
enum class UnaryOp : int32_t { STRIDEKIT_UNARY_OPS(STRIDEKIT_OP_ENUMERATOR) };
enum class ReduceOp : int32_t { STRIDEKIT_REDUCE_OPS(STRIDEKIT_OP_ENUMERATOR) };
enum class ArgOp : int32_t { STRIDEKIT_ARG_OPS(STRIDEKIT_OP_ENUMERATOR) };
enum class ScanOp : int32_t { STRIDEKIT_SCAN_OPS(STRIDEKIT_OP_ENUMERATOR) };
#undef STRIDEKIT_OP_ENUMERATOR

// One row of a table, for code that iterates ops at run time.
template <typename Op>
struct OpInfo {
  Op op;
  const char* name;  // NumPy's name.
  uint32_t kinds;    // kIntegerKinds / kFloatKinds.
  bool prechecked;
};

#define STRIDEKIT_BINARY_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<BinaryOp>{BinaryOp::k##Name, name, kinds, prechecked},
#define STRIDEKIT_UNARY_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<UnaryOp>{UnaryOp::k##Name, name, kinds, prechecked},
#define STRIDEKIT_REDUCE_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<ReduceOp>{ReduceOp::k##Name, name, kinds, prechecked},
inline constexpr OpInfo<BinaryOp> kBinaryOps[] = {
    STRIDEKIT_BINARY_OPS(STRIDEKIT_BINARY_INFO)};
inline constexpr OpInfo<UnaryOp> kUnaryOps[] = {
    STRIDEKIT_UNARY_OPS(STRIDEKIT_UNARY_INFO)};
inline constexpr OpInfo<ReduceOp> kReduceOps[] = {
    STRIDEKIT_REDUCE_OPS(STRIDEKIT_REDUCE_INFO)};
#define STRIDEKIT_ARG_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<ArgOp>{ArgOp::k##Name, name, kinds, prechecked},
#define STRIDEKIT_SCAN_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<ScanOp>{ScanOp::k##Name, name, kinds, prechecked},
inline constexpr OpInfo<ArgOp> kArgOps[] = {
    STRIDEKIT_ARG_OPS(STRIDEKIT_ARG_INFO)};
inline constexpr OpInfo<ScanOp> kScanOps[] = {
    STRIDEKIT_SCAN_OPS(STRIDEKIT_SCAN_INFO)};
#undef STRIDEKIT_BINARY_INFO
#undef STRIDEKIT_UNARY_INFO
#undef STRIDEKIT_REDUCE_INFO
#undef STRIDEKIT_ARG_INFO
#undef STRIDEKIT_SCAN_INFO

// The row of `op`, or nullptr for a value no row has (a C caller may pass
// any int).
template <typename Op, size_t N>
constexpr const OpInfo<Op>* FindOp(const OpInfo<Op> (&table)[N], Op op) {
  for (const OpInfo<Op>& row : table) {
    if (row.op == op) return &row;
  }
  return nullptr;
}
constexpr const OpInfo<BinaryOp>* FindOp(BinaryOp op) {
  return FindOp(kBinaryOps, op);
}
constexpr const OpInfo<UnaryOp>* FindOp(UnaryOp op) {
  return FindOp(kUnaryOps, op);
}
constexpr const OpInfo<ReduceOp>* FindOp(ReduceOp op) {
  return FindOp(kReduceOps, op);
}
constexpr const OpInfo<ArgOp>* FindOp(ArgOp op) { return FindOp(kArgOps, op); }
constexpr const OpInfo<ScanOp>* FindOp(ScanOp op) {
  return FindOp(kScanOps, op);
}

// The op the accumulating reduction kernels run for `op`: any and all are
// the maximum and minimum of the inputs' truth values (bool), mean is the
// sum (divided by the count afterwards); the other rows run themselves.
constexpr ReduceOp KernelReduceOp(ReduceOp op) {
  switch (op) {
    case ReduceOp::kAny:
      return ReduceOp::kMax;
    case ReduceOp::kAll:
      return ReduceOp::kMin;
    case ReduceOp::kMean:
      return ReduceOp::kSum;
    default:
      return op;
  }
}

// The dtype of a reduction's output: bool for any and all, else t.
constexpr DType ReduceOutputDType(ReduceOp op, DType t) {
  return op == ReduceOp::kAny || op == ReduceOp::kAll ? DType::kBool : t;
}

// True when `op` is a row that accepts dtypes of kind `kind`.
template <typename Op>
constexpr bool OpAccepts(Op op, uint32_t kind) {
  const auto* row = FindOp(op);
  return row != nullptr && (row->kinds & kind) != 0;
}

// ---- The bool-output families (stridekit/compare.h, where.h): rows as
// above, output SK_BOOL (bytes 0 or 1).
// Comparisons (sk_compare): NumPy's rules (a NaN compares false except
// not_equal; -0.0 == +0.0); bool compares as 0/1; complex only == and !=
// (NumPy 1.24 orders complex lexicographically; stridekit refuses).
#define STRIDEKIT_COMPARE_OPS(X)               \
  X(Eq, 0, "equal", kAllKinds, false)          \
  X(Ne, 1, "not_equal", kAllKinds, false)      \
  X(Lt, 2, "less", kOrderedKinds, false)       \
  X(Le, 3, "less_equal", kOrderedKinds, false) \
  X(Gt, 4, "greater", kOrderedKinds, false)    \
  X(Ge, 5, "greater_equal", kOrderedKinds, false)

// Predicates (sk_unary values 17..19 and 34): integers and bool are never
// NaN nor infinite; complex is NaN (infinite) when either part is, finite
// when both parts are; signbit (floats) is the sign bit, also of zeros and
// NaNs.
#define STRIDEKIT_PREDICATE_OPS(X)              \
  X(IsNan, 17, "isnan", kAllKinds, false)       \
  X(IsInf, 18, "isinf", kAllKinds, false)       \
  X(IsFinite, 19, "isfinite", kAllKinds, false) \
  X(Signbit, 34, "signbit", kFloatKinds, false)

#define STRIDEKIT_OP_ENUMERATOR(Name, value, ...) k##Name = value,
// Values match sk_compare_op and those of sk_unary_op.
enum class CompareOp : int32_t {
  STRIDEKIT_COMPARE_OPS(STRIDEKIT_OP_ENUMERATOR)
};
enum class PredicateOp : int32_t {
  STRIDEKIT_PREDICATE_OPS(STRIDEKIT_OP_ENUMERATOR)
};
#undef STRIDEKIT_OP_ENUMERATOR

#define STRIDEKIT_COMPARE_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<CompareOp>{CompareOp::k##Name, name, kinds, prechecked},
#define STRIDEKIT_PREDICATE_INFO(Name, value, name, kinds, prechecked) \
  OpInfo<PredicateOp>{PredicateOp::k##Name, name, kinds, prechecked},
inline constexpr OpInfo<CompareOp> kCompareOps[] = {
    STRIDEKIT_COMPARE_OPS(STRIDEKIT_COMPARE_INFO)};
inline constexpr OpInfo<PredicateOp> kPredicateOps[] = {
    STRIDEKIT_PREDICATE_OPS(STRIDEKIT_PREDICATE_INFO)};
#undef STRIDEKIT_COMPARE_INFO
#undef STRIDEKIT_PREDICATE_INFO
constexpr const OpInfo<CompareOp>* FindOp(CompareOp op) {
  return FindOp(kCompareOps, op);
}
constexpr const OpInfo<PredicateOp>* FindOp(PredicateOp op) {
  return FindOp(kPredicateOps, op);
}

// Vectors per leaf block of the pairwise sums (reduce.h states the bound).
inline constexpr int kPairwiseBlock = 64;

}  // namespace stridekit

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif  // STRIDEKIT_OPS_H_
