// The reference elementwise kernels: the plainest correct loops, one element
// at a time through each view's index mapping (the oracle of the
// equivalence tests and what the "reference" target runs).
#include "numeric_checks.h"
#include "reference_loops.h"
#include "scalar_ops.h"
#include "stridekit/elementwise.h"

namespace stridekit::reference {
namespace {

template <typename T>
T ApplyBinary(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::kAdd:
      return scalar_ops::Add(a, b);
    case BinaryOp::kSub:
      return scalar_ops::Sub(a, b);
    case BinaryOp::kMul:
      return scalar_ops::Mul(a, b);
    case BinaryOp::kDiv:
      if constexpr (scalar_ops::kIsInt<T>) scalar_ops::CheckDivision(a, b);
      return scalar_ops::Div(a, b);
    case BinaryOp::kMin:
      return scalar_ops::Min(a, b);
    case BinaryOp::kMax:
      return scalar_ops::Max(a, b);
  }
  return T(0);
}

template <typename T>
T ApplyUnary(UnaryOp op, T a) {
  switch (op) {
    case UnaryOp::kNeg:
      return scalar_ops::Neg(a);
    case UnaryOp::kAbs:
      return scalar_ops::Abs(a);
    case UnaryOp::kSqrt:
      if constexpr (!scalar_ops::kIsInt<T>) return scalar_ops::Sqrt(a);
      break;
    case UnaryOp::kSquare:
      return scalar_ops::Square(a);
  }
  return T(0);
}

}  // namespace

void Binary(BinaryOp op, DType t, const sk_view& a, const void* a_data,
            const sk_view& b, const void* b_data, const sk_view& out,
            void* out_data) {
  CheckBinaryArguments(op, t, a, a_data, b, b_data, out, out_data);
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<T>(out, out_data, [&](const Dims& index) {
      return ApplyBinary(op, ReadBroadcast<T>(a, a_data, out, index),
                         ReadBroadcast<T>(b, b_data, out, index));
    });
  });
}

void Unary(UnaryOp op, DType t, const sk_view& a, const void* a_data,
           const sk_view& out, void* out_data) {
  CheckUnaryArguments(op, t, a, a_data, out, out_data);
  scalar_ops::VisitNumericType(t, [&](auto zero) {
    using T = decltype(zero);
    ComputeAndWrite<T>(out, out_data, [&](const Dims& index) {
      return ApplyUnary(op, ReadBroadcast<T>(a, a_data, out, index));
    });
  });
}

}  // namespace stridekit::reference
