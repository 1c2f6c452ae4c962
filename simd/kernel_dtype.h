// Which dtype's kernel runs an op. Signed integers run the ops whose result
// bits do not depend on the sign (two's complement: every integer op here
// wraps, scalar_ops.h) on the unsigned kernel of the same width, so that
// each of those kernels compiles once per width and target, not twice. The
// signed family's executors leave those ops out (RunsOwnKernel); dispatch/
// hands such tasks the unsigned dtype (KernelDType). Checks, errors and the
// reference kernels keep the caller's dtype.
#ifndef STRIDEKIT_SIMD_KERNEL_DTYPE_H_
#define STRIDEKIT_SIMD_KERNEL_DTYPE_H_

#include <type_traits>

#include "numeric_types.h"
#include "stridekit/dtype.h"
#include "stridekit/ops.h"

namespace stridekit {

// add, subtract, multiply, bitwise and/or/xor, left_shift.
constexpr bool SignAgnostic(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kAnd:
    case BinaryOp::kOr:
    case BinaryOp::kXor:
    case BinaryOp::kShl:
      return true;
    default:
      return false;
  }
}
// negative, square, invert, and floor/ceil/rint/trunc (the identity on
// integers).
constexpr bool SignAgnostic(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg:
    case UnaryOp::kSquare:
    case UnaryOp::kNot:
    case UnaryOp::kFloor:
    case UnaryOp::kCeil:
    case UnaryOp::kRint:
    case UnaryOp::kTrunc:
      return true;
    default:
      return false;
  }
}
// The kernel rows of sum and prod (accumulators of the input's type).
constexpr bool SignAgnostic(ReduceOp op) {
  return op == ReduceOp::kSum || op == ReduceOp::kProd;
}
constexpr bool SignAgnostic(ScanOp op) {
  return op == ScanOp::kCumsum || op == ScanOp::kCumprod;
}
constexpr bool SignAgnostic(CompareOp op) {
  return op == CompareOp::kEq || op == CompareOp::kNe;
}

// The dtype whose kernel runs `op` on t: the unsigned integer of t's width
// for a signed integer t and a sign-agnostic op, else t.
template <typename Op>
constexpr DType KernelDType(Op op, DType t) {
  if (!SignAgnostic(op)) return t;
  switch (t) {
    case DType::kInt8:
      return DType::kUint8;
    case DType::kInt16:
      return DType::kUint16;
    case DType::kInt32:
      return DType::kUint32;
    case DType::kInt64:
      return DType::kUint64;
    default:
      return t;
  }
}

// Whether the executors of storage type T compile `op` (false where
// KernelDType sends it to another type's kernel).
template <typename T, typename Op>
constexpr bool RunsOwnKernel(Op op) {
  return !(std::is_integral_v<T> && std::is_signed_v<T> && SignAgnostic(op));
}

// The transcendental rows (lib/math_kernels.h). float16 and bfloat16 run
// them on the float family's executors (through float32 rows, which compile
// them anyway) rather than on a second copy in the half family's
// (ElementwiseKernel::FamilyFor, FloatRows).
constexpr bool Transcendental(UnaryOp op) {
  switch (op) {
    case UnaryOp::kExp:
    case UnaryOp::kLog:
    case UnaryOp::kExpm1:
    case UnaryOp::kLog1p:
    case UnaryOp::kSin:
    case UnaryOp::kCos:
    case UnaryOp::kTanh:
    case UnaryOp::kTan:
    case UnaryOp::kArcsin:
    case UnaryOp::kArccos:
    case UnaryOp::kArctan:
    case UnaryOp::kSinh:
    case UnaryOp::kCosh:
    case UnaryOp::kArcsinh:
    case UnaryOp::kArccosh:
    case UnaryOp::kArctanh:
    case UnaryOp::kExp2:
    case UnaryOp::kLog2:
    case UnaryOp::kLog10:
    case UnaryOp::kCbrt:
      return true;
    default:
      return false;
  }
}
constexpr bool Transcendental(BinaryOp op) {
  return op == BinaryOp::kArctan2 || op == BinaryOp::kHypot ||
         op == BinaryOp::kLogaddexp || op == BinaryOp::kLogaddexp2;
}

// The float rows an elementwise executor compiles: the transcendentals
// (elementwise_float_math.cc, for float, double, float16 and bfloat16) or
// the others (every other executor). A compile partition inside simd/: the
// float family's executors hand their transcendentals to the math ones, so
// that the two halves of the largest family compile in parallel.
enum class FloatRows { kTranscendentals, kOthers };
template <typename T, FloatRows kRows, typename Op>
constexpr bool RunsHere(Op op) {
  if constexpr (kIsHalf<T> || std::is_floating_point_v<T>) {
    return Transcendental(op) == (kRows == FloatRows::kTranscendentals);
  } else {
    return RunsOwnKernel<T>(op);
  }
}

}  // namespace stridekit

#endif  // STRIDEKIT_SIMD_KERNEL_DTYPE_H_
